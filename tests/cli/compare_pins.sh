#!/usr/bin/env bash
# compare_pins.sh — `compare -a A,B` and `compare -p`: the list runs only the
# algorithms named, in their order; a pin reaches every listed algorithm that takes its key, or
# one algorithm with ALGO.KEY; a pin no listed algorithm takes, an unknown or repeated name, and
# an ALGO.KEY for an algorithm not compared are refused with one line and exit 2. Each compared
# line must equal `run` with the same pins (so compare passes them on, and only them).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh" "$@"

# the algorithms of a compare's text output, in order (not the physical bound's lines under them)
algos() { awk 'NR > 2 && $2 != "not" && $1 != "physical" && $1 != "gap:" {print $1}' "$T/out" |
    paste -sd, -; }

# compare's line for ALGO against run's: steps and time must agree
same_as_run() { # NAME COMPARE-LINE-ALGO RUN-ARGS...
    local name=$1 a=$2
    shift 2
    local line steps time
    line=$(awk -v a="$a" '$1 == a' "$T/out")
    steps=$(echo "$line" | awk '{print $2}')
    LC_ALL=C "$TOOL" run "$@" --json >"$T/run.json" 2>"$T/run.err" ||
        { fail "$name: run failed" "$(cat "$T/run.err")"; return; }
    local rsteps
    rsteps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps"])' "$T/run.json")
    if [ "$steps" = "$rsteps" ]; then pass "$name ($steps steps)"; else
        fail "$name" "compare: $line" "run: $rsteps steps"; fi
}

for n in 1 5 12 13 100; do
    run_tool compare -c allreduce -n "$n" -s 1MiB -a rhd,ring,wrht
    got=$(algos)
    # at N = 1 every algorithm runs; the order is the list's
    if [ "$RC" = 0 ] && { [ "$got" = "rhd,ring,wrht" ] || grep -q 'not run' "$T/out"; }; then
        pass "N=$n: -a rhd,ring,wrht runs those, in that order ($got)"
    else
        fail "N=$n: -a rhd,ring,wrht" "rc=$RC" "$(cat "$T/out" "$T/err")"
    fi
done

for n in 7 12 31; do
    run_tool compare -c allreduce -n "$n" -s 64KiB -a ring,wrht,hring -p m=5 -p pieces=1
    [ "$RC" = 0 ] || fail "N=$n: -p m=5 -p pieces=1" "$(cat "$T/err")"
    grep -q '^  wrht .* m=5 .*pieces=1' "$T/out" && pass "N=$n: wrht got m=5 pieces=1" ||
        fail "N=$n: wrht got m=5 pieces=1" "$(cat "$T/out")"
    same_as_run "N=$n: compare's wrht line is run -p m=5 -p pieces=1" wrht \
        -c allreduce -a wrht -n "$n" -s 64KiB -p m=5 -p pieces=1
    same_as_run "N=$n: ring untouched by the pins" ring -c allreduce -a ring -n "$n" -s 64KiB
done

# ALGO.KEY reaches that algorithm alone and wins over a plain pin
run_tool compare -c allreduce -n 12 -s 64KiB -a wrht,hring -p m=3 -p wrht.m=5
grep -q '^  wrht .* m=5 ' "$T/out" && pass "wrht.m=5 wins over m=3 for wrht" ||
    fail "wrht.m=5 wins over m=3" "$(cat "$T/out" "$T/err")"
run_tool compare -c allreduce -n 12 -s 64KiB -a wrht,hring -p hring.g=4
grep -q '^  hring .* g=4' "$T/out" && pass "hring.g=4 pins hring" ||
    fail "hring.g=4 pins hring" "$(cat "$T/out" "$T/err")"

refused "a pin no listed algorithm takes" "no algorithm compared takes it" \
    compare -c allreduce -n 12 -s 1MiB -a ring,bt -p m=5
refused "ALGO.KEY the algorithm does not take" "ring takes no such parameter" \
    compare -c allreduce -n 12 -s 1MiB -p ring.m=5
refused "ALGO.KEY for an algorithm not compared" "not among the algorithms compared" \
    compare -c allreduce -n 12 -s 1MiB -a ring -p wrht.m=5
refused "an unknown name in -a" "'bogus' is not an algorithm of allreduce" \
    compare -c allreduce -n 12 -s 1MiB -a ring,bogus
refused "an algorithm of another collective in -a" "is not an algorithm of allreduce" \
    compare -c allreduce -n 12 -s 1MiB -a optree
refused "a name twice in -a" "listed twice" compare -c allreduce -n 12 -s 1MiB -a ring,ring
refused "an empty name in -a" "expected names separated by commas" \
    compare -c allreduce -n 12 -s 1MiB -a ring,

finish
