#!/usr/bin/env bash
# search_rhd_fabric.sh TOOL [CLI_DIR] — the rhd / rh / rd search on the fabric knows the MZI
# switch's degree before generating: a level of more circuits than mzi_degree (default 3: radix
# above 4) is skipped as refused, unmapped, so the least bound left is the winner and the only
# candidate mapped (before, the least bound was radix 16, refused only once mapped, and 13 to 21
# candidates were mapped at N = 256 and 1024). mzi_degree=0 lifts the limit, as the model does.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# only_one DESCRIPTION WINNER ARGS...: the run's search mapped one candidate, WINNER.
only_one() {
    local what=$1 winner=$2
    shift 2
    run_tool run "$@" -t fabric -s 1MiB
    if [ "$RC" -ne 0 ]; then
        fail "$what: exit $RC" "$(cat "$T/err")"
    elif grep -q "1 mapped, .*; $winner is the only candidate mapped" "$T/out"; then
        pass "$what: $winner, the only candidate mapped"
    else
        fail "$what: expected $winner alone mapped" "$(grep 'note: param' "$T/out")"
    fi
}

for n in 256 1024; do
    only_one "rhd N=$n" 'radix=4' -c allreduce -a rhd -n "$n"
    only_one "rh N=$n" 'radix=4' -c reducescatter -a rh -n "$n"
done
only_one 'rd N=256' 'radices=2x2x2x2x4x4' -c allgather -a rd -n 256
only_one 'rhd N=1024 mzi_degree=7' 'radices=4x4x8x8' -c allreduce -a rhd -n 1024 --net mzi_degree=7
only_one 'rhd N=1024 mzi_degree=0' 'radices=16x16x4' -c allreduce -a rhd -n 1024 --net mzi_degree=0

# the families skipped say why
run_tool run -c allreduce -a rhd -t fabric -n 256 -s 1MiB --explain
if grep -q 'radix 8 needs 7 concurrent circuits per tile, more than its 1x3 MZI switch holds' "$T/out"; then
    pass 'explain: the refused families name the MZI degree'
else
    fail 'explain: the refused families name the MZI degree' "$(grep -m3 refus "$T/out")"
fi
finish
