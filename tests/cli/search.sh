#!/usr/bin/env bash
# search.sh TOOL [CLI_DIR] — the parameter search on the command line: --objective takes time or
# steps and nothing else; --explain lists every candidate and names the winner, whose parameters
# are the ones the run used; --json --explain carries the list under "search".
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

bad 2 "--objective fastest: expected time or steps" run -c allreduce -a hring -n 12 -s 1MiB --objective fastest
bad 2 "--objective needs a value" run -c allreduce -a hring -n 12 -s 1MiB --objective
bad 2 "--explain does not apply to compare" compare -c allreduce -n 12 -s 1MiB --explain

# --explain: six divisors of 12 offered, the winner's g is the g the run used
run_tool run -c allreduce -a hring -n 12 -s 1MiB --explain
used=$(sed -n 's/^  parameters:  g=\([0-9]*\).*/\1/p' "$T/out")
winner=$(sed -n 's/^  WINNER *g=\([0-9]*\) .*/\1/p' "$T/out")
lines=$(grep -cE '^  (WINNER|mapped|pruned|family pruned|refused|over budget) ' "$T/out")
if [ "$RC" -eq 0 ] && [ -n "$used" ] && [ "$used" = "$winner" ] && [ "$lines" -eq 6 ] &&
    grep -q '^search (objective: time): ' "$T/out"; then
    pass "run --explain: 6 candidates, the winner g=$winner is the g used"
else
    fail "run --explain: 6 candidates, the winner is the g used" "exit $RC used=$used winner=$winner lines=$lines" \
        "$(head -c 1500 "$T/out")" "stderr: $(head -c 300 "$T/err")"
fi

# --json --explain: the same list under "search"; steps objective: nothing offered can have
# fewer steps than the winner (mapped: its steps; pruned: its proven bound)
run_tool run -c allreduce -a hring -n 12 -s 1MiB --json --explain --objective steps
if [ "$RC" -eq 0 ] && python3 - "$T/out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["search"]
assert s["objective"] == "steps", s["objective"]
c = s["candidates"]
assert len(c) == 6 and all(e["status"] in ("mapped", "pruned") for e in c), s
# a pruned candidate's proven bound is at least the winner's steps; a mapped one's steps too
for e in c:
    assert (e["steps"] if e["status"] == "mapped" else e["bound_steps"]) >= r["steps"], e
assert s["winner"]["params"] == {"g": r["params"]["g"]}, (s["winner"], r["params"])
PY
then
    pass "run --json --explain --objective steps: fewest steps, winner = params"
else
    fail "run --json --explain --objective steps" "exit $RC" "$(head -c 1500 "$T/out")"
fi

finish
