#!/usr/bin/env bash
# simgrid.sh TOOL [CLI_DIR] — `opticoll simgrid`: one schedule under SimGrid's SMPI and under the
# fattree model. Builds the SMPI executor first (scripts/simgrid.sh --build-only, into the tool's
# build directory). Checks: the model's time is exactly `run -t fattree`'s for the same request;
# SimGrid's time is exactly what scripts/simgrid.sh measures for the same case (its platform
# written by hand in shell, ours by the library from the model's settings); the ratio lies in
# [1/2.2, 2.2] (tests/mpi.cmake, mpi_simgrid, says why); the executor's result was checked; bad
# input and a missing SMPI build: one line, exit 2 or 3.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"
ROOT=$CLI_DIR/../..
BUILD=$(cd "$(dirname "$TOOL")" && pwd)
"$ROOT/scripts/simgrid.sh" --build-only --build "$BUILD" >"$T/build.log" 2>&1 ||
    { fail "the SMPI build" "$(tail -5 "$T/build.log")"; finish; }

json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# case COLL ALGO N SIZE [--net ...]: opticoll simgrid --json against run -t fattree
case_() {
    local what="$1 $2 N=$3 $4${5:+ $5 $6 $7 $8}"
    run_tool simgrid -c "$1" -a "$2" -n "$3" -s "$4" "${@:5}" --json
    if [ "$RC" -ne 0 ]; then fail "$what: opticoll simgrid" "rc $RC" "$(cat "$T/err")"; return 1; fi
    cp "$T/out" "$T/sg.json"
    LC_ALL=C "$TOOL" run -c "$1" -a "$2" -t fattree -n "$3" -s "$4" "${@:5}" --json >"$T/run.json"
    if [ "$(json "$T/sg.json" 'd["model_s"]')" = "$(json "$T/run.json" 'd["time_s"]')" ]; then
        pass "$what: the model's time is run -t fattree's"
    else
        fail "$what: the model's time is run -t fattree's" "$(json "$T/sg.json" 'd["model_s"]')" \
            "$(json "$T/run.json" 'd["time_s"]')"
    fi
    local r
    r=$(json "$T/sg.json" 'd["simgrid_s"] / d["model_s"]')
    if python3 -c "import sys; r=$r; sys.exit(0 if 1/2.2 <= r <= 2.2 else 1)"; then
        pass "$what: SimGrid / model = $r, within [1/2.2, 2.2]"
    else
        fail "$what: SimGrid / model within [1/2.2, 2.2]" "$r"
    fi
}

# SimGrid's time against scripts/simgrid.sh's own platform (all-reduce, default fat-tree)
"$ROOT/scripts/simgrid.sh" --build "$BUILD" --algorithms ring,rd --nodes 5,20 --sizes 64KiB \
    >"$T/script.txt" 2>"$T/script.err" || fail "scripts/simgrid.sh" "$(cat "$T/script.err")"
for a in ring rd; do
    for n in 5 20; do
        case_ allreduce "$a" "$n" 64KiB || continue
        want=$(awk -v a="$a" -v n="$n" '$1 == a && $2 == n { print $4 }' "$T/script.txt")
        got=$(json "$T/sg.json" '"%.6f" % d["simgrid_s"]')
        if [ -n "$want" ] && [ "$got" = "$want" ]; then
            pass "allreduce $a N=$n: SimGrid's time is scripts/simgrid.sh's ($want s)"
        else
            fail "allreduce $a N=$n: SimGrid's time is scripts/simgrid.sh's" "ours $got, script '$want'"
        fi
    done
done
# other collectives (the block as MPI counts it), a searched parameter pinned for the executor,
# the fat-tree's settings moved, two leaves
case_ reducescatter ring 6 768KiB
case_ allgather bruck 12 16KiB
case_ allreduce rhd 12 1MiB
case_ allreduce ring 20 256KiB --net bandwidth_gbps=10 --net router_delay_us=20
run_tool simgrid -c allgather -a ring -n 7 -s 8KiB
if [ "$RC" -eq 0 ] && grep -q "SimGrid (SMPI" "$T/out" && grep -q "opticoll fattree model" "$T/out" &&
    grep -q "SimGrid / model" "$T/out"; then
    pass "the text output has both times and their ratio"
else
    fail "the text output" "rc $RC" "$(cat "$T/out" "$T/err")"
fi

refused() { # refused CODE DESCRIPTION ARGS...: that exit code, one line, nothing on stdout
    local code=$1 what=$2
    shift 2
    run_tool "$@"
    if [ "$RC" -eq "$code" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ]; then
        pass "$what"
    else
        fail "$what" "rc $RC" "$(cat "$T/err")"
    fi
}
refused 2 "another network" simgrid -c allreduce -a ring -t switch -n 5 -s 64KiB
refused 2 "-w does not apply" simgrid -c allreduce -a ring -n 5 -s 64KiB -w 4
refused 2 "more ranks than the cap" simgrid -c allreduce -a ring -n 257 -s 64KiB
refused 2 "a block that is not whole floats" simgrid -c allreduce -a ring -n 5 -s 6
refused 2 "an algorithm the fat-tree does not run" simgrid -c broadcast -a tcp1 -n 5 -s 4KiB
OPTICOLL_SMPI_EXE=$T/nosuch refused 3 "no SMPI build" simgrid -c allreduce -a ring -n 5 -s 64KiB
finish
