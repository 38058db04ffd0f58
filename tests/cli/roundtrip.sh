#!/usr/bin/env bash
# roundtrip.sh TOOL [CLI_DIR] — export, then verify; and verify catches broken schedule files.
#
#  1. `export --format json -o F` then `verify F` exits 0, for every all-gather algorithm (ring,
#     ne, onestage, optree and any other that `opticoll list` names) at N = 1, 2, 3, 5, 7, 12
#     (ne at odd N > 1 must be refused instead, with no file left behind).
#  2. Broken copies of an exported ring schedule (edited with python3) make `verify` exit 1 with
#     one line on stderr that says what is wrong: a transfer removed ("at the end: node D is
#     missing chunk C (block of node B)"), a transfer moved to an earlier round ("before it has
#     it"), a node out of range ("out of range"), a chunk out of range. Two lightpaths on one
#     wavelength cannot be written in the file format (the file has no wavelengths): a unit test
#     covers that.
#  3. `export` without -o prints the same JSON on stdout; a refused export prints nothing on
#     stdout and leaves no file.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# ---- 1. every algorithm, small N: export then verify ----
# The four all-gathers of the first commit always; any other all-gather on the ring that
# `opticoll list` names is picked up too. An algorithm whose list line says "[needs ...]" may
# refuse an N (exit 2, one line); ne must refuse exactly the odd N > 1.
run_tool list
algos="ring ne onestage optree"
extra=$(awk '$1 == "allgather" && $3 == "ring" { print $2 }' "$T/out")
restricted=$(awk '$1 == "allgather" && /\[needs / { print $2 }' "$T/out")
for a in $extra; do
    case " $algos " in *" $a "*) ;; *) algos="$algos $a" ;; esac
done
for n in 1 2 3 5 7 12; do
    for a in $algos; do
        f=$T/$a-$n.json
        args=(export -c allgather -a "$a" -n "$n" -w 2 -s 4KiB --format json -o "$f")
        run_tool "${args[@]}"
        if [ "$a" = ne ] && [ $((n % 2)) -eq 1 ] && [ "$n" -gt 1 ]; then
            if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ ! -e "$f" ] && [ ! -e "$f.part" ] &&
                [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^opticoll: .*even' "$T/err"; then
                pass "export ne N=$n is refused (needs even N): exit 2, one line, no file"
            else
                fail "export ne N=$n is refused (needs even N): exit 2, one line, no file" \
                    "exit $RC" "$(cat "$T/err")" "left behind: $(echo "$f"*)"
            fi
            continue
        fi
        if [ "$a" != ne ] && [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ ! -e "$f" ] &&
            [ "$(wc -l <"$T/err")" -eq 1 ] && case " $restricted " in *" $a "*) true ;; *) false ;; esac; then
            pass "export $a N=$n is refused as its restriction allows: $(cat "$T/err")"
            continue
        fi
        if [ "$RC" -ne 0 ] || [ ! -s "$f" ] || [ -e "$f.part" ] || [ -s "$T/out" ] || [ -s "$T/err" ]; then
            fail "export $a N=$n -o FILE: exit 0, file written, nothing printed" "exit $RC" "$(cat "$T/err")"
            continue
        fi
        run_tool verify "$f"
        if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ] && grep -q 'verified: *yes' "$T/out"; then
            pass "export $a N=$n, then verify: exit 0, verified: yes"
        else
            fail "export $a N=$n, then verify: exit 0, verified: yes" "exit $RC" "$(cat "$T/err")"
        fi
    done
done

# verify --json on an exported file says verified = true and names the file's collective and N.
run_tool verify "$T/optree-12.json" --json
if have_python; then
    if [ "$RC" -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verified"] is True and d["nodes"] == 12 and d["collective"] == "allgather"
' "$T/out" 2>"$T/py"; then
        pass "verify --json of optree N=12: one JSON object, verified = true, nodes = 12"
    else
        fail "verify --json of optree N=12: one JSON object, verified = true, nodes = 12" \
            "exit $RC" "$(cat "$T/err" "$T/py")"
    fi
else
    skip "verify --json (python3 not found)"
fi

# ---- 2. broken schedule files ----
# expect_verify_fails DESC FILE PATTERN: verify exits 1, nothing on stdout, exactly one stderr
# line starting "opticoll: " that contains PATTERN (fixed string).
expect_verify_fails() {
    local desc=$1 file=$2 pat=$3
    run_tool verify "$file"
    local lines
    lines=$(wc -l <"$T/err")
    if [ "$RC" -eq 1 ] && [ ! -s "$T/out" ] && [ "$lines" -eq 1 ] &&
        grep -q '^opticoll: ' "$T/err" && grep -qF -- "$pat" "$T/err"; then
        pass "$desc: verify exits 1 with \"$pat\""
    else
        fail "$desc: verify exits 1 with \"$pat\"" "exit $RC, $lines stderr line(s):" \
            "$(head -5 "$T/err")" "stdout: $(head -c 200 "$T/out")"
    fi
}

if have_python; then
    base=$T/ring-5.json # 4 rounds of 5 transfers, node i -> i+1, one chunk each
    # Remove one transfer of the last round: its receiver never gets that chunk. The script
    # prints the message verify must give.
    want=$(python3 - "$base" "$T/missing.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["rounds"][-1].pop(1)
json.dump(d, open(sys.argv[2], "w"))
c = t["chunks"][0]
cpb = d.get("chunks_per_block", 1)
owner = d.get("block_node", list(range(d["nodes"])))[c // cpb]
print("at the end: node %d is missing chunk %d (block of node %d)" % (t["dst"], c, owner))
PY
    )
    expect_verify_fails "one transfer removed from the last round" "$T/missing.json" "$want"

    # Move a transfer of round 1 into round 0: its sender only receives that chunk in round 0.
    python3 - "$base" "$T/early.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rounds"][0].append(d["rounds"][1].pop(0))
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_verify_fails "a transfer moved one round earlier" "$T/early.json" "before it has it"

    # Destination N (nodes are 0..N-1).
    python3 - "$base" "$T/dst-oor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rounds"][0][0]["dst"] = d["nodes"]
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_verify_fails "a transfer to node N" "$T/dst-oor.json" "out of range"

    python3 - "$base" "$T/src-oor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rounds"][2][3]["src"] = 1000
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_verify_fails "a transfer from node 1000 of 5" "$T/src-oor.json" "out of range"

    # A chunk past the last one (5 nodes x 1 chunk per block = chunks 0..4).
    python3 - "$base" "$T/chunk-oor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rounds"][0][0]["chunks"] = [4, 2]
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_verify_fails "chunks [4, 2) of 5 chunks" "$T/chunk-oor.json" "round 0"

    # A whole round removed from optree N=12 (its only stage-2 round): verify names a node and
    # a missing chunk.
    python3 - "$T/optree-12.json" "$T/optree-cut.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rounds"].pop()
json.dump(d, open(sys.argv[2], "w"))
PY
    expect_verify_fails "optree N=12 without its last round" "$T/optree-cut.json" "is missing chunk"
else
    skip "broken schedule files (python3 not found)"
fi
skip "two lightpaths on one wavelength (not expressible in the file format; see the unit tests)"

# ---- 3. export to stdout ----
args=(export -c allgather -a optree -n 12 -w 2 -s 4KiB --format json)
run_tool "${args[@]}"
if [ "$RC" -eq 0 ] && [ ! -s "$T/err" ] && cmp -s "$T/out" "$T/optree-12.json"; then
    pass "export without -o prints the same JSON as export -o FILE"
else
    fail "export without -o prints the same JSON as export -o FILE" "exit $RC" \
        "$(cat "$T/err")" "$(diff "$T/optree-12.json" "$T/out" | head -10)"
fi

run_tool export -c allgather -a ne -n 5 -s 4KiB --format json
if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "a refused export (ne N=5) prints nothing on stdout, one line on stderr"
else
    fail "a refused export (ne N=5) prints nothing on stdout, one line on stderr" "exit $RC" \
        "stdout: $(head -c 200 "$T/out")" "$(cat "$T/err")"
fi

# An existing file is not touched by a refused export (the file appears only when whole).
echo keep >"$T/keep.json"
run_tool export -c allgather -a ne -n 5 -s 4KiB --format json -o "$T/keep.json"
if [ "$RC" -eq 2 ] && [ "$(cat "$T/keep.json")" = keep ] && [ ! -e "$T/keep.json.part" ]; then
    pass "a refused export -o FILE leaves an existing FILE as it was and no FILE.part"
else
    fail "a refused export -o FILE leaves an existing FILE as it was and no FILE.part" "exit $RC"
fi

run_tool export -c allgather -a ring -n 4 -s 4KiB --format json -o "$T/no/such/dir/x.json"
if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "export -o into a missing directory: exit 2, one line on stderr"
else
    fail "export -o into a missing directory: exit 2, one line on stderr" "exit $RC" "$(cat "$T/err")"
fi

finish
