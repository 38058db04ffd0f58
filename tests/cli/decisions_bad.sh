#!/usr/bin/env bash
# decisions_bad.sh TOOL [CLI_DIR] — `run -a auto --decisions FILE` refuses a bad decision file
# with one line naming FILE:LINE: a size or node count that is not a whole
# number in range (1e300 was undefined behaviour when converted), text after the JSON object, a
# key given twice in one object (the first used to win silently), a winner that is not a name.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

if ! have_python; then
    skip "decision files (no python3)"
    finish
fi
run_tool tune -c allgather --nodes 3,5,12 --sizes 1KiB,7KiB -o "$T/dec.json"
[ "$RC" -eq 0 ] && pass "tune -o writes a decision file" || fail "tune -o writes a decision file" "$(cat "$T/err")"

# mk NAME PYTHON-EXPR: writes $T/NAME.json from the good file's text s (tab-separated, as cJSON
# prints it).
mk() {
    python3 - "$T/dec.json" "$T/$1.json" "$2" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
out = eval(sys.argv[3])
assert out != s, "the edit changed nothing"
open(sys.argv[2], "w").write(out)
PY
}
AUTO=(run -c allgather -n 4 -s 1KiB -a auto --decisions)
# the good file is read
run_tool "${AUTO[@]}" "$T/dec.json"
[ "$RC" -eq 0 ] && pass "the decision file as tune wrote it is read" || fail "the good decision file" "$(cat "$T/err")"

# line of the first point's "nodes" and "bytes" (the good file's layout)
LN=$(grep -n '"nodes":' "$T/dec.json" | head -1 | cut -d: -f1)
LB=$(grep -n '"bytes":' "$T/dec.json" | head -1 | cut -d: -f1)
LW=$(grep -n '"winner":' "$T/dec.json" | head -1 | cut -d: -f1)
LC=$(grep -n '"collective":' "$T/dec.json" | head -1 | cut -d: -f1)
LAST=$(wc -l <"$T/dec.json")

mk bytes1e300 "s.replace('\"bytes\":\t1024', '\"bytes\":\t1e300', 1)"
bad 2 "bytes1e300.json:$LB: point 0: \"bytes\" must be a whole number" "${AUTO[@]}" "$T/bytes1e300.json"
mk bytesneg "s.replace('\"bytes\":\t1024', '\"bytes\":\t-1e300', 1)"
bad 2 "bytesneg.json:$LB: point 0: \"bytes\"" "${AUTO[@]}" "$T/bytesneg.json"
mk bytesfrac "s.replace('\"bytes\":\t1024', '\"bytes\":\t1024.5', 1)"
bad 2 "bytesfrac.json:$LB: point 0: \"bytes\"" "${AUTO[@]}" "$T/bytesfrac.json"
mk bytesbig "s.replace('\"bytes\":\t1024', '\"bytes\":\t1125899906842625', 1)"
bad 2 "bytesbig.json:$LB: point 0: \"bytes\" must be a whole number from 0 to 1125899906842624" "${AUTO[@]}" "$T/bytesbig.json"
mk bytesstr "s.replace('\"bytes\":\t1024', '\"bytes\":\t\"1024\"', 1)"
bad 2 "bytesstr.json:$LB: point 0: \"bytes\"" "${AUTO[@]}" "$T/bytesstr.json"
mk nodes15 "s.replace('\"nodes\":\t3', '\"nodes\":\t1.5', 1)"
bad 2 "nodes15.json:$LN: point 0: \"nodes\" must be a whole number from 1 to 1048576" "${AUTO[@]}" "$T/nodes15.json"
mk nodes0 "s.replace('\"nodes\":\t3', '\"nodes\":\t0', 1)"
bad 2 "nodes0.json:$LN: point 0: \"nodes\"" "${AUTO[@]}" "$T/nodes0.json"
mk nodesbig "s.replace('\"nodes\":\t3', '\"nodes\":\t1e300', 1)"
bad 2 "nodesbig.json:$LN: point 0: \"nodes\"" "${AUTO[@]}" "$T/nodesbig.json"
mk nodesmissing "re.sub(r'\"nodes\":\t3,\s*', '', s, count=1)"
bad 2 "nodesmissing.json:" "${AUTO[@]}" "$T/nodesmissing.json"
# a later point (the fourth: N = 5, 7 KiB) is checked as well, with its own line
mk later "re.sub(r'(\"nodes\":\t5,\s*\"bytes\":\t)7168', r'\g<1>7168.25', s, count=1)"
LL=$(grep -n '7168.25' "$T/later.json" | cut -d: -f1)
bad 2 "later.json:$LL: point 3: \"bytes\"" "${AUTO[@]}" "$T/later.json"
mk winnernum "s.replace('\"winner\":\t\"', '\"winner\":\t7, \"x\":\t\"', 1)"
bad 2 "winnernum.json:$LW: point 0: \"winner\" must be" "${AUTO[@]}" "$T/winnernum.json"
mk garbage "s + 'garbage\n'"
bad 2 "garbage.json:$((LAST + 1)): not valid JSON" "${AUTO[@]}" "$T/garbage.json"
mk second "s + '{}\n'"
bad 2 "second.json:$((LAST + 1)): not valid JSON" "${AUTO[@]}" "$T/second.json"
mk dupcoll "s.replace('\"collective\":\t\"allgather\",', '\"collective\":\t\"allgather\",\n\t\"collective\":\t\"allreduce\",', 1)"
bad 2 "dupcoll.json:$((LC + 1)): \"collective\" given twice" "${AUTO[@]}" "$T/dupcoll.json"
mk dupwinner "re.sub(r'(\"winner\":\t\"[a-z]+\",)', r'\1\n\"winner\": \"ring\",', s, count=1)"
bad 2 "dupwinner.json:$((LW + 1)): \"winner\" given twice" "${AUTO[@]}" "$T/dupwinner.json"
mk dupnodes "s.replace('\"nodes\":\t3,', '\"nodes\":\t3, \"nodes\":\t3,', 1)"
bad 2 "dupnodes.json:$LN: \"nodes\" given twice" "${AUTO[@]}" "$T/dupnodes.json"
# a point that is not an object, and a byte order mark before the file (lines still count)
mk notobj "s.replace('\"points\":\t[', '\"points\":\t[\n7,', 1)"
LP=$(grep -n '"points":' "$T/dec.json" | cut -d: -f1)
bad 2 "notobj.json:$((LP + 1)): point 0 is not an object" "${AUTO[@]}" "$T/notobj.json"
mk bom "'\ufeff' + s.replace('\"bytes\":\t1024', '\"bytes\":\t1e300', 1)"
bad 2 "bom.json:$LB: point 0" "${AUTO[@]}" "$T/bom.json"
finish
