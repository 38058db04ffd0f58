#!/usr/bin/env bash
# conflicts.sh TOOL [CLI_DIR] — options that contradict each other are refused, naming both:
# -w/-f/--preset against --net wavelengths=/fibres=/preset= with another
# value (the same value twice is fine), two output formats at once (compare --json --csv), and
# -r for a collective that has no root. Every command that takes the options is tried.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# good ARGS...: exit 0.
good() {
    run_tool "$@"
    if [ "$RC" -eq 0 ]; then pass "opticoll $* -> exit 0"; else fail "opticoll $* -> exit 0" "exit $RC" "$(head -c 300 "$T/err")"; fi
}

run_tool export -c allgather -a ring -n 5 -s 1KiB --format json -o "$T/s.json"
[ "$RC" -eq 0 ] || fail "export a schedule for verify" "$(cat "$T/err")"
run_tool tune -c allgather --nodes 5 --sizes 1KiB -o "$T/dec.json"
[ "$RC" -eq 0 ] || fail "tune a decision file" "$(cat "$T/err")"

# every command with the network options, as a prefix that runs on its own
CMDS=("run -c allgather -a ring -n 5 -s 1KiB"
    "compare -c allgather -n 7 -s 3KiB"
    "export -c allgather -a ring -n 5 -s 1KiB --format json"
    "verify $T/s.json"
    "sweep -c allgather -a ring --nodes 3,5 --sizes 1KiB"
    "tune -c allgather -a ring,ne --nodes 12 --sizes 1KiB"
    "train -m AlexNet -a ring -n 3"
    "run -c allgather -a auto -n 5 -s 1KiB")
for c in "${CMDS[@]}"; do
    read -r -a C <<<"$c"
    bad 2 "-w 4 and --net wavelengths=8 disagree" "${C[@]}" -w 4 --net wavelengths=8
    bad 2 "-w 4 and --net wavelengths=8 disagree" "${C[@]}" --net wavelengths=8 -w 4
    bad 2 "-f 2 and --net fibres=1 disagree" "${C[@]}" -f 2 --net fibres=1
    bad 2 "--preset terarack and --net preset=seed disagree" "${C[@]}" --preset terarack --net preset=seed
    bad 2 "--wavelengths 12 and --net wavelengths=7" "${C[@]}" --wavelengths 12 --net wavelengths=7
    good "${C[@]}" -w 8 --net wavelengths=8
done
# the same value in two spellings is the same value
good run -c allgather -a ring -n 5 -s 1KiB -w 08 --net wavelengths=8 -f 2 --net fibres=2 --preset terarack --net preset=terarack
run_tool run -c allgather -a ring -n 5 -s 1KiB -w 08 --net wavelengths=8 --json
grep -q '"wavelengths": 8,' "$T/out" && pass "-w 08 with --net wavelengths=8 runs with 8" || fail "-w 08 --net wavelengths=8" "$(head -c 300 "$T/out")"
# a decision file tuned with the same parameters is read when they are given the other way
run_tool tune -c allgather --nodes 5 --sizes 1KiB -w 4 -o "$T/dec4.json"
good run -c allgather -a auto -n 5 -s 1KiB --decisions "$T/dec4.json" --net wavelengths=4

# two output formats
bad 2 "compare: --json and --csv exclude each other" compare -c allgather -n 5 -s 1KiB --json --csv
bad 2 "compare: --json and --csv exclude each other" compare -c allgather -n 5 -s 1KiB --csv --json

# -r where the collective has no root
for coll in allgather allreduce reducescatter alltoall gossip; do
    bad 2 "-r 1: $coll has no root" compare -c "$coll" -n 5 -s 1KiB -r 1
done
bad 2 "-r 0: allgather has no root" run -c allgather -a ring -n 5 -s 1KiB -r 0
bad 2 "-r 2: allreduce has no root" export -c allreduce -a ring -n 3 -s 1KiB --format json -r 2
bad 2 "-r 1: allgather has no root" sweep -c allgather --nodes 3,5 --sizes 1KiB -r 1
bad 2 "-r 1: alltoall has no root" tune -c alltoall --nodes 7 --sizes 1KiB -r 1
good run -c broadcast -a tcp1 -t star -n 5 -s 1KiB -r 3
good compare -c gather -t star -n 7 -s 1KiB -r 6
good sweep -c scatter -t star --nodes 3,5 --sizes 1KiB -r 2
finish
