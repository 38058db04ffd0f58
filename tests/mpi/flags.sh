#!/usr/bin/env bash
# flags.sh MPIRUN-PREFIX... -- OPTICOLL-MPI: bad flags of opticoll-mpi under a real mpirun (issue
# 14, item 10). Each case must exit 2 and print exactly ONE line of its own (rank 0's, starting
# "opticoll"), naming the valid range; mpirun's own banner lines about the exit status are not
# counted. A bad parameter of an algorithm (radix=abc, radix=1, q=2) is found before anything
# runs, not reported as skipped (exit 0) or as one FAILED line per rank.
set -u
launcher=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do launcher+=("$1"); shift; done
shift
tool=$1
pass=0 failed=0
# case STATUS PATTERN NP ARGS...
case_() {
    local want=$1 pat=$2 np=$3
    shift 3
    local out got ours
    out=$("${launcher[@]}" "$np" "$tool" "$@" --repeats 1 --warmup 0 2>&1)
    got=$?
    ours=$(printf '%s\n' "$out" | grep -c '^opticoll')
    local why=()
    [ "$got" -eq "$want" ] || why+=("exit $got, expected $want")
    [ "$ours" -eq 1 ] || why+=("$ours lines of opticoll-mpi, expected 1")
    printf '%s\n' "$out" | grep '^opticoll' | grep -qE -- "$pat" || why+=("no line matches /$pat/")
    if [ ${#why[@]} -eq 0 ]; then
        pass=$((pass + 1))
        printf 'ok - np %s %s -> exit %s: %s\n' "$np" "$*" "$want" "$(printf '%s\n' "$out" | grep '^opticoll')"
    else
        failed=$((failed + 1))
        printf 'FAIL - np %s %s\n' "$np" "$*"
        printf '    | %s\n' "${why[@]}"
        printf '%s\n' "$out" | head -20 | sed 's/^/    > /'
    fi
}
AR=(--collectives allreduce --sizes 1KiB)
case_ 2 'rhd:radix=abc \(allreduce\): radix=abc: expected a whole number from 2 to 1024' 3 "${AR[@]}" --algorithms rhd:radix=abc
case_ 2 'radix=1: expected a whole number from 2 to 1024' 3 "${AR[@]}" --algorithms rhd:radix=1
case_ 2 'radix=1: expected a whole number from 2 to 1024' 2 "${AR[@]}" --algorithms rhd:radix=1
case_ 2 'radix=0: expected a whole number from 2 to 1024' 5 "${AR[@]}" --algorithms ring,rhd:radix=0
case_ 2 'radix is not KEY=VALUE' 2 "${AR[@]}" --algorithms rhd:radix
case_ 2 "unknown ring parameter 'q'" 2 "${AR[@]}" --algorithms ring:q=2
case_ 2 'bad --sizes .*: 4,,8' 2 --sizes 4,,8
case_ 2 'bad --sizes .*: 4,' 2 --sizes 4,
case_ 2 'bad --sizes .*: ,4' 2 --sizes ,4
case_ 2 'bad --collectives .*: allreduce,,gather' 2 --collectives allreduce,,gather
case_ 2 'bad --algorithms .*: ring,' 2 --algorithms ring,
case_ 2 '--drop-transfer 999:999: no schedule run has that transfer \(they have rounds 0 to [0-9]+' 3 "${AR[@]}" --algorithms ring --drop-transfer 999:999
case_ 2 '--drop-transfer 0:999: no schedule' 5 "${AR[@]}" --algorithms ring --drop-transfer 0:999
case_ 2 'ROUND:INDEX, whole numbers from 0 to 2\^30: 1:x' 2 --drop-transfer 1:x
# a good parameter still runs (radix 3 on 3 ranks)
out=$("${launcher[@]}" 3 "$tool" "${AR[@]}" --algorithms rhd:radix=3 --repeats 1 --warmup 0 2>&1)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^1 checked, 0 skipped'; then
    pass=$((pass + 1)); echo "ok - rhd:radix=3 on 3 ranks runs and checks"
else
    failed=$((failed + 1)); echo "FAIL - rhd:radix=3 on 3 ranks"; printf '%s\n' "$out" | sed 's/^/    > /'
fi
# two parameters of one algorithm, comma-separated inside the list (as `opticoll simgrid` passes
# them): before, fold=1 was read as an algorithm's name and refused
out=$("${launcher[@]}" 4 "$tool" "${AR[@]}" --algorithms ring,rhd:radix=3,fold=1,rd --repeats 1 \
      --warmup 0 2>&1)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^3 checked, 0 skipped' &&
   printf '%s\n' "$out" | grep -q 'rhd:radix=3,fold=1'; then
    pass=$((pass + 1)); echo "ok - ring,rhd:radix=3,fold=1,rd on 4 ranks: three algorithms run and check"
else
    failed=$((failed + 1)); echo "FAIL - ring,rhd:radix=3,fold=1,rd on 4 ranks"; printf '%s\n' "$out" | sed 's/^/    > /'
fi
printf '%d passed, %d failed\n' "$pass" "$failed"
[ "$failed" -eq 0 ]
