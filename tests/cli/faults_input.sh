#!/usr/bin/env bash
# faults_input.sh TOOL [CLI_DIR] — the small exit-code and message findings of issue 27 ("wrong
# exit codes and messages", "lax parsing"), each of which the tool got wrong before:
#  - OPTICOLL_MEMORY_BUDGET_MIB out of range: the line was cut as user text is ("from ... (95
#    bytes)"), so the range it states was lost; now the value alone is cut;
#  - OPTICOLL_MEMORY_BUDGET_MIB= (set to nothing) was refused; it is unset, as the shell means it;
#  - a transfer of no chunks ([0, 0)) was "outside" the chunks; it is empty;
#  - train's table printed a model name's escape bytes raw onto the terminal;
#  - train -m with many models listed names cut in the middle; now whole names and "and N more";
#  - verify of a FIFO with no writer blocked for ever in open();
#  - `-o -` (tune), `--csv -` (sweep) wrote a file named "-", and -o /dev/stdout was refused as a
#    symbolic link: no output could be piped;
#  - "allgather\u0000evil" verified as allgather (cJSON cuts strings at an escaped NUL); the same
#    in a decision file; a decision file of "version": 2 was read as version 1; "bytes": 0 in
#    a decision file is kept, as the 0-byte (latency) point tune writes, and tested to be picked.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments
# absolute: some checks run in a directory of their own (to see that no file "-" appears)
TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
CLI_DIR=$(cd "$CLI_DIR" && pwd)

# ---- the memory budget's variable ----
OPTICOLL_MEMORY_BUDGET_MIB=999999999999999 bad 2 \
    "OPTICOLL_MEMORY_BUDGET_MIB=999999999999999: expected a whole number of MiB from 1 to 1073741824" list
long=$(printf '9%.0s' $(seq 1 300))
OPTICOLL_MEMORY_BUDGET_MIB=$long bad 2 "... (300 bytes): expected a whole number of MiB from 1 to 1073741824" list
OPTICOLL_MEMORY_BUDGET_MIB=0 bad 2 "from 1 to 1073741824" list
# set to nothing: unset (the default budget), for both names
OPTICOLL_MEMORY_BUDGET_MIB= OPTICOLL_VERIFY_BUDGET_MIB= run_tool run -q -c allgather -a ring -n 5 -s 1KiB
if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ]; then
    pass "OPTICOLL_MEMORY_BUDGET_MIB= (set to nothing) is unset: the run runs"
else
    fail "OPTICOLL_MEMORY_BUDGET_MIB= is unset" "rc=$RC" "$(cat "$T/err")"
fi
# the same for the shard variable (it was refused: "OPTICOLL_VERIFY_SHARD=: expected ...")
OPTICOLL_VERIFY_SHARD= run_tool run -q -c allreduce -a ring -n 5 -s 1KiB
if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ]; then
    pass "OPTICOLL_VERIFY_SHARD= (set to nothing) is unset: the run runs"
else
    fail "OPTICOLL_VERIFY_SHARD= is unset" "rc=$RC" "$(cat "$T/err")"
fi
OPTICOLL_VERIFY_SHARD=0 bad 2 "OPTICOLL_VERIFY_SHARD=0: expected the chunks of a verifier shard" \
    run -c allreduce -a ring -n 5 -s 1KiB
# ... and an empty first name leaves the old alias in force (48 MiB refuses 1500 nodes' ranges)
printf '{"collective":"alltoall","nodes":1500,"chunks_per_block":1,"rounds":[]}' >"$T/a2a.json"
OPTICOLL_MEMORY_BUDGET_MIB= OPTICOLL_VERIFY_BUDGET_MIB=48 bad 2 "memory budget of 48 MiB" verify "$T/a2a.json"

# ---- a transfer of no chunks ----
printf '{"collective":"allgather","nodes":2,"chunks_per_block":1,"rounds":[[{"src":0,"dst":1,"op":"copy","chunks":[0,0]}]]}' >"$T/empty.json"
bad 1 "round 0: transfer 0 -> 1 names no chunks (the empty range [0, 0))" verify "$T/empty.json"
# a range past the end is still "outside"
printf '{"collective":"allgather","nodes":2,"chunks_per_block":1,"rounds":[[{"src":0,"dst":1,"op":"copy","chunks":[1,2]}]]}' >"$T/past.json"
bad 1 "names chunks [1, 3) outside 0..1" verify "$T/past.json"

# ---- train: a model's name and note escaped; many models listed whole ----
printf 'Bad\033[31mName\t1000000\t64\t1000\tsrc\033]0;title\007\n' >"$T/esc.tsv"
run_tool train --models "$T/esc.tsv" -m $'Bad\033[31mName' -n 4
if [ "$RC" -eq 0 ] && ! grep -q $'[\033\007]' "$T/out" && grep -q '^Bad\\x1b\[31mName on ring' "$T/out" &&
    grep -q 'model: *src\\x1b\]0;title\\x07' "$T/out"; then
    pass "train: a model's name and note reach the table escaped (\\x1b), no raw escape byte"
else
    fail "train: a model's name and note escaped" "rc=$RC" "$(head -3 "$T/out" | od -c | head -5)"
fi
for i in $(seq 0 99); do printf 'model%d\t1000\t1\t1\tx\n' "$i"; done >"$T/many.tsv"
bad 2 "(known: model0, model1," train --models "$T/many.tsv" -m nope -n 4
if grep -Eq ', model[0-9]+, and [0-9]+ more\)$' "$T/err" && ! grep -q ', )' "$T/err"; then
    n=$(grep -o 'model[0-9]\+' "$T/err" | wc -l) more=$(sed -n 's/.*and \([0-9]*\) more)$/\1/p' "$T/err")
    if [ $((n + more)) -eq 100 ]; then
        pass "train -m with 100 models: $n names whole, 'and $more more'"
    else
        fail "train -m with 100 models: $n shown + $more more is not 100" "$(cat "$T/err")"
    fi
else
    fail "train -m with 100 models: whole names, then 'and N more'" "$(cat "$T/err")"
fi

# ---- verify of a FIFO with no writer: answered, not blocked ----
mkfifo "$T/fifo"
LC_ALL=C timeout 20 "$TOOL" verify "$T/fifo" >"$T/out" 2>"$T/err"
RC=$?
if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'fifo: empty, no schedule' "$T/err"; then
    pass "verify FIFO with no writer: exit 2 at once ($(cat "$T/err"))"
else
    fail "verify FIFO with no writer: exit 2 at once" "rc=$RC (124: still blocked after 20 s)" "$(cat "$T/err")"
fi
# with a writer it is read whole
cat "$CLI_DIR/../msccl/example-allgather-ring-5.xml" >"$T/fifo" &
run_tool verify "$T/fifo"
wait
if [ "$RC" -eq 0 ] && grep -q 'verified: *yes' "$T/out"; then
    pass "verify FIFO with a writer: read whole, verified"
else
    fail "verify FIFO with a writer" "rc=$RC" "$(cat "$T/err")"
fi

# ---- standard output: -o -, --csv -, /dev/stdout ----
mkdir "$T/cwd"
cd "$T/cwd" || exit 2
run_tool tune -c allgather -t ring -n 4,5 --sizes 1KiB,1MiB -o -
if [ "$RC" -eq 0 ] && [ ! -e "$T/cwd/-" ] &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["format"] != "opticoll-decisions" or len(d["points"]) != 4)' "$T/out" &&
    grep -q 'crossovers along size' "$T/err"; then
    pass "tune -o -: the decision file on standard output (the table on standard error), no file -"
else
    fail "tune -o -" "rc=$RC" "$(ls -a "$T/cwd")" "$(head -c 300 "$T/out")"
fi
bad 2 "-o - and --json both" tune -c allgather -t ring -n 4 --sizes 1KiB -o - --json
run_tool sweep -c allgather -t ring --nodes 3,5 --sizes 1KiB,4KiB --csv -
rows=$(grep -c '^allgather,' "$T/out")
if [ "$RC" -eq 0 ] && [ ! -e "$T/cwd/-" ] && head -1 "$T/out" | grep -q '^collective,algorithm,network' &&
    [ "$rows" -ge 8 ] && [ "$rows" -eq "$(($(wc -l <"$T/out") - 1))" ]; then
    pass "sweep --csv -: only the CSV on standard output ($rows rows), no file -"
else
    fail "sweep --csv -" "rc=$RC" "$(ls -a "$T/cwd")" "$(head -c 300 "$T/out")"
fi
bad 2 "--csv - and --json both" sweep -c allgather -t ring --nodes 3 --sizes 1KiB --csv - --json
for f in json chrome msccl; do
    run_tool export -c allgather -a ring -n 5 -s 1KiB --format "$f" -o /dev/stdout
    LC_ALL=C "$TOOL" export -c allgather -a ring -n 5 -s 1KiB --format "$f" >"$T/plain" 2>/dev/null
    if [ "$RC" -eq 0 ] && [ -s "$T/out" ] && cmp -s "$T/out" "$T/plain"; then
        pass "export --format $f -o /dev/stdout: what export prints without -o"
    else
        fail "export --format $f -o /dev/stdout" "rc=$RC" "$(cat "$T/err")"
    fi
done
# verify - reads standard input, so an export pipes into it (it was "cannot read -: No such
# file or directory")
for f in json msccl; do
    "$TOOL" export -c allgather -a ring -n 5 -s 1KiB --format "$f" -o - 2>/dev/null |
        LC_ALL=C "$TOOL" verify - >"$T/out" 2>"$T/err"
    RC=$?
    if [ "$RC" -eq 0 ] && grep -q 'verified: *yes' "$T/out"; then
        pass "export --format $f -o - | verify -: verified"
    else
        fail "export --format $f -o - | verify -" "rc=$RC" "$(cat "$T/err")"
    fi
done
bad 2 "/dev/stdin: empty, no schedule" verify - </dev/null
cd "$T" || exit 2

# ---- an escaped NUL in a string ----
ag='{"collective":"allgather%s","nodes":2,"chunks_per_block":1,"rounds":[[{"src":0,"dst":1,"op":"copy","chunks":[0,1]},{"src":1,"dst":0,"op":"copy","chunks":[1,1]}]]}'
# shellcheck disable=SC2059
printf "$ag" '' >"$T/ag.json"
# shellcheck disable=SC2059
printf "$ag" '\u0000evil' >"$T/nul.json"
# shellcheck disable=SC2059
printf "$ag" '\\u0000' >"$T/notnul.json" # an escaped backslash, then the letters: no NUL
run_tool verify "$T/ag.json"
[ "$RC" -eq 0 ] && pass "the two-node all-gather verifies" || fail "the two-node all-gather verifies" "$(cat "$T/err")"
bad 2 'nul.json: a string holds \u0000 (a NUL) near byte 24' verify "$T/nul.json"
bad 2 '"collective" is missing or not a collective name' verify "$T/notnul.json"
if have_python; then
    "$TOOL" tune -c allgather -t ring -n 4 --sizes 1KiB -o "$T/dec.json" >/dev/null 2>&1
    AUTO=(run -c allgather -n 4 -s 1KiB -a auto --decisions)
    python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
s = open(t + "/dec.json").read()
open(t + "/v2.json", "w").write(s.replace('"version":\t1', '"version":\t2', 1))
open(t + "/nov.json", "w").write(s.replace('"version":\t1,', '', 1))
w = s.index('"winner":\t"') + len('"winner":\t"')
open(t + "/wnul.json", "w").write(s[:w] + s[w:].replace('"', '\\u0000evil"', 1))
PY
    run_tool "${AUTO[@]}" "$T/dec.json"
    [ "$RC" -eq 0 ] && pass "a decision file as tune wrote it is read" || fail "the good decision file" "$(cat "$T/err")"
    bad 2 'v2.json:3: "version" must be 1' "${AUTO[@]}" "$T/v2.json"
    bad 2 'nov.json: "version" must be 1' "${AUTO[@]}" "$T/nov.json"
    bad 2 'wnul.json:13: a string holds \u0000 (a NUL)' "${AUTO[@]}" "$T/wnul.json"
    # "bytes": 0 is a point like any other (issue 27 asked: refuse or give it a meaning): the
    # latency alone, as `run -s 0` and `tune --sizes 0` give it; the nearest-point rule measures
    # sizes as S + 1 bytes, so 0 is as far from 1 as 1 is from 3. A file with a 0-byte point
    # (onestage) and a 1 MiB point (made ring's here) picks by size on both sides.
    "$TOOL" tune -c allgather -t ring -n 4 --sizes 0,1MiB -o "$T/dec0.json" >/dev/null 2>&1
    python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]
d = json.load(open(t + "/dec0.json"))
assert [p["bytes"] for p in d["points"]] == [0, 1048576], d["points"]
d["points"][1]["winner"] = "ring"
json.dump(d, open(t + "/dec0.json", "w"), indent=1)
PY
    for sw in 0:onestage:0 1:onestage:1 1MiB:ring:0 4MiB:ring:2; do
        size=${sw%%:*} rest=${sw#*:}
        want=${rest%%:*} dist=${rest#*:}
        run_tool run -c allgather -n 4 -s "$size" -a auto --decisions "$T/dec0.json"
        if [ "$RC" -eq 0 ] && head -1 "$T/out" | grep -q "^auto: chose $want, .*= $dist"; then
            pass "a decision file with a 0-byte point: -s $size picks $want (distance $dist)"
        else
            fail "a decision file with a 0-byte point: -s $size picks $want (distance $dist)" \
                "rc=$RC" "$(head -1 "$T/out")" "$(head -c 300 "$T/err")"
        fi
    done
else
    skip "decision files (no python3)"
fi

finish
