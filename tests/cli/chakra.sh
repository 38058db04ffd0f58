#!/usr/bin/env bash
# chakra.sh TOOL [CLI_DIR] — `export --format chakra -o PREFIX` as the user runs it: one file
# PREFIX.RANK.et per rank and nothing else; without -o, with a bad request, over the memory
# budget or into a directory that does not exist: one line on stderr and no file. (The files' content: test_chakra.c.)
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"

for n in 2 3 5 12; do
    mkdir -p "$T/n$n"
    run_tool export -c allgather -a ring -n "$n" -s 3KiB --format chakra -o "$T/n$n/ag"
    files=$(cd "$T/n$n" && ls | tr '\n' ' ')
    want=$(for ((r = 0; r < n; r++)); do printf 'ag.%d.et\n' "$r"; done | sort | tr '\n' ' ')
    if [ "$RC" -eq 0 ] && [ "$files" = "$want" ] && [ ! -s "$T/out" ]; then
        pass "N=$n: one PREFIX.RANK.et per rank"
    else
        fail "N=$n: one PREFIX.RANK.et per rank" "rc $RC, files: $files" "$(cat "$T/err")"
    fi
done

refused() { # refused DESCRIPTION ARGS...: exit 2, one line, no file in $T/none
    local what=$1
    shift
    mkdir -p "$T/none"
    run_tool "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ -z "$(ls "$T/none")" ]; then
        pass "$what"
    else
        fail "$what" "rc $RC" "$(cat "$T/err")" "$(ls "$T/none")"
    fi
}
refused "no -o" export -c allreduce -a ring -n 4 -s 1KiB --format chakra
refused "an algorithm that does not exist" export -c allreduce -a nosuch -n 4 -s 1KiB \
    --format chakra -o "$T/none/x"
refused "a restriction (ne needs N even)" export -c allgather -a ne -n 5 -s 1KiB \
    --format chakra -o "$T/none/x"
# the nodes of 2048 ranks' traces (8.4 M) are over a 64 MiB budget: refused before any file
OPTICOLL_MEMORY_BUDGET_MIB=64 refused "over the memory budget" export -c allgather -a ring \
    -n 2048 -s 1KiB --no-data-check --format chakra -o "$T/none/x"
# the whole schedule the exporter keeps (1024 x 1023 transfers) is refused before it is kept:
# the traces' least size (128 bytes a transfer) passes their cap (a quarter of the budget) long
# before the kept rounds (16 bytes a transfer) pass the budget, and is counted round by round
OPTICOLL_MEMORY_BUDGET_MIB=4 refused "the kept schedule over the memory budget" export -c allgather \
    -a ring -t ring -n 1024 -s 1KiB --no-data-check --format chakra -o "$T/none/x"
if grep -q 'Chakra export would be larger than its cap of 1 MiB, reached after [0-9]* rounds' "$T/err"; then
    pass "the refusal comes while the rounds are kept, at the output cap"
else
    fail "the refusal comes while the rounds are kept, at the output cap" "$(cat "$T/err")"
fi
run_tool export -c allreduce -a ring -n 4 -s 1KiB --format chakra -o "$T/missing/dir/x"
if [ "$RC" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "a directory that does not exist: one line, exit $RC"
else
    fail "a directory that does not exist" "rc $RC" "$(cat "$T/err")"
fi
finish
