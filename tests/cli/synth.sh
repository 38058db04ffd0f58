#!/usr/bin/env bash
# synth.sh TOOL [CLI_DIR] — `opticoll synth`: an instance past the limits is one stderr line
# naming the limit (exit 2) before any work; a proven optimum prints "optimal: yes" and its
# --json says "optimal": true with the steps the pipeline mapped; -o writes a schedule file that
# `opticoll verify` accepts with the same steps; a time limit stops with one line, the proven
# lower bound and "optimal": false.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

bad 2 "N from 2 to 10" synth -c allgather -t ring -n 11
bad 2 "w up to 3" synth -c allgather -t ring -n 8 -w 4
bad 2 "P from 2 to 9" synth -c gossip -t star -n 10
bad 2 "supported: allgather, gossip, broadcast, allreduce" synth -c alltoall -t ring -n 4
bad 2 "supported: ring, star" synth -c allgather -t fabric -n 4
bad 2 "chunks from 1 to 4" synth -c allgather -t ring -n 4 --chunks 5
bad 2 "missing -t" synth -c allgather -n 4
bad 2 "time-limit" synth -c allgather -t ring -n 4 --time-limit 0

# The issue's instance: N = 8, w = 1 all-gather takes 4 steps, proven.
run_tool synth -c allgather -t ring -n 8 -w 1 --json -o "$T/ag8.json"
if [ "$RC" -eq 0 ] && grep -q '"optimal": true' "$T/out" && grep -q '"lower_bound_steps": 4' "$T/out" &&
    grep -q '"steps": 4, "verified": true' "$T/out"; then
    pass "synth allgather ring N=8 w=1: 4 steps, proven optimal"
else
    fail "synth allgather ring N=8 w=1: 4 steps, proven optimal" "exit $RC" "$(head -c 600 "$T/out")" \
        "$(cat "$T/err")"
fi
run_tool verify "$T/ag8.json"
if [ "$RC" -eq 0 ] && grep -q '^  steps: *4 mapped' "$T/out" && grep -q '^  verified: *yes' "$T/out"; then
    pass "the written schedule file verifies at 4 steps"
else
    fail "the written schedule file verifies at 4 steps" "exit $RC" "$(head -c 600 "$T/out")" "$(cat "$T/err")"
fi

# Text: all-reduce on an odd ring, and broadcast on the star.
run_tool synth -c allreduce -t ring -n 5 -w 1
if [ "$RC" -eq 0 ] && grep -q '^optimal: yes' "$T/out" && grep -q '^  verified: *yes' "$T/out"; then
    pass "synth allreduce ring N=5: optimal: yes, verified"
else
    fail "synth allreduce ring N=5: optimal: yes, verified" "exit $RC" "$(head -c 600 "$T/out")"
fi
run_tool synth -c broadcast -t star -n 9 --net k=1
if [ "$RC" -eq 0 ] && grep -q '^optimal: yes, 4 steps' "$T/out"; then
    pass "synth broadcast star P=9 k=1: 4 steps (log2 9 rounded up), proven"
else
    fail "synth broadcast star P=9 k=1: 4 steps, proven" "exit $RC" "$(head -c 600 "$T/out")"
fi

# A time limit: one line on stderr, the JSON not optimal, with the proven lower bound.
run_tool synth -c allgather -t ring -n 10 -w 3 --time-limit 0.5 --json
lines=$(wc -l <"$T/err")
if [ "$lines" -eq 1 ] && grep -q 'time limit' "$T/err" && grep -q '"optimal": false' "$T/out" &&
    grep -q '"lower_bound_steps": [0-9]' "$T/out" && grep -q '"stopped": "time limit' "$T/out"; then
    pass "a time limit stops with one line and \"optimal\": false"
else
    fail "a time limit stops with one line and \"optimal\": false" "exit $RC" "$(cat "$T/err")" \
        "$(head -c 600 "$T/out")"
fi
# A time limit too short for the solver to answer anything: the schedule in hand is the existing
# algorithms' fewest steps (the seed), verified, "optimal": false, its source named, exit 0, and
# -o writes it as a file `verify` accepts with the same steps.
run_tool synth -c allgather -t ring -n 10 -w 3 --time-limit 0.001 --json -o "$T/seed.json"
steps=$(sed -n 's/.*"steps": \([0-9]*\), "verified": true.*/\1/p' "$T/out" | head -1)
if [ "$RC" -eq 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'from algorithm ' "$T/err" &&
    grep -q '"optimal": false' "$T/out" && grep -q '"schedule_source": "algorithm"' "$T/out" &&
    grep -q '"seed_algorithm": "[a-z]' "$T/out" && [ -n "$steps" ]; then
    pass "a time limit before any answer: the seed's $steps steps, verified, not proven, named"
else
    fail "a time limit before any answer: the seed's schedule" "exit $RC" "$(cat "$T/err")" \
        "$(head -c 900 "$T/out")"
fi
run_tool verify "$T/seed.json"
if [ "$RC" -eq 0 ] && [ -n "$steps" ] && grep -q "^  steps: *$steps mapped" "$T/out" &&
    grep -q '^  verified: *yes' "$T/out" && grep -q 'optimal=false' "$T/out"; then
    pass "the seed's schedule file verifies at $steps steps, marked optimal=false"
else
    fail "the seed's schedule file verifies" "exit $RC" "$(head -c 600 "$T/out")" "$(cat "$T/err")"
fi
# where no algorithm runs (all-reduce on the star) and the solver has no time: no schedule, exit 1
run_tool synth -c allreduce -t star -n 5 --time-limit 0.001 --json
if [ "$RC" -eq 1 ] && grep -q '"schedule_source": null' "$T/out" &&
    grep -q 'no schedule found' "$T/err"; then
    pass "no algorithm and no time: no schedule, exit 1"
else
    fail "no algorithm and no time: no schedule, exit 1" "exit $RC" "$(cat "$T/err")"
fi
finish
