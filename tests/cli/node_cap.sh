#!/usr/bin/env bash
# node_cap.sh TOOL [CLI_DIR] — node caps: OpTree, WRHT and rd all-gather and
# Bruck take up to 2^20 nodes; every other algorithm up to 2^17, refused past it in one line
# before any work: its cap and, where its plan counts them, the transfers it would have there (or
# just its transfers, where they are more than 2^40).
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# (ring's 3.4e10 transfers at 131073 nodes are below the 2^40 a schedule may have: the cap refuses)
bad 2 "allreduce ring runs on at most 131072 nodes, not 131073; it would be 34360000512 transfers there" \
    run -c allreduce -a ring -t switch -n 131073 -s 4KiB
# bt: 2(N-1); rd: 2r + P log2 P with P = 2^17, r = 1; one-stage: N(N-1); WRHT all-reduce:
# 2(N - top) + top(top - 1), the pure tree's 2(N-1) whatever m when alltoall is not pinned
# (m=3 alltoall=100: 131073 nodes group into 43691, 14564, 4855, 1619, 540, 180, then top = 60)
bad 2 "allreduce bt runs on at most 131072 nodes, not 131073; it would be 262144 transfers there" \
    run -c allreduce -a bt -t switch -n 131073 -s 4KiB
bad 2 "allreduce rd runs on at most 131072 nodes, not 131073; it would be 2228226 transfers there" \
    run -c allreduce -a rd -t switch -n 131073 -s 4KiB
bad 2 "allreduce wrht runs on at most 131072 nodes, not 131073; it would be 262144 transfers there" \
    run -c allreduce -a wrht -t ring -n 131073 -s 4KiB
bad 2 "allreduce wrht runs on at most 131072 nodes, not 131073; it would be 265566 transfers there" \
    run -c allreduce -a wrht -t ring -n 131073 -s 4KiB -p m=3 -p alltoall=100
bad 2 "allgather onestage runs on at most 131072 nodes, not 262144; it would be 68719214592 transfers there" \
    run -c allgather -a onestage -n 262144 -s 4KiB
bad 2 "alltoall onestage runs on at most 131072 nodes, not 131073; it would be 17180000256 transfers there" \
    export -c alltoall -a onestage -n 131073 -s 4KiB --format json
# (an all-to-all at the top with m unpinned: the search would choose m, so no count, the cap alone)
bad 2 "allreduce wrht runs on at most 131072 nodes, not 131073 (the algorithms" \
    run -c allreduce -a wrht -t ring -n 131073 -s 4KiB -p alltoall=100
bad 2 "-n 1048577: at most 1048576 nodes are supported" run -c allgather -a wrht -n 1048577 -s 4KiB
bad 2 "allgather ring runs on at most 131072 nodes, not 200003; it would be 40001000006 transfers there" \
    export -c allgather -a ring -t switch -n 200003 -s 4KiB --format json

# past the old cap: wrht all-gather (and bruck on the switch) run and verify
for a in "wrht -t ring" "bruck -t switch"; do
    # shellcheck disable=SC2086
    run_tool run -c allgather -a $a -n 200003 -s 4KiB --json
    if [ "$RC" -eq 0 ] && grep -q '"nodes": 200003' "$T/out" && grep -q '"verified": true' "$T/out"; then
        pass "allgather $a on 200003 nodes runs and verifies"
    else
        fail "allgather $a on 200003 nodes runs and verifies" "exit $RC" "$(head -c 300 "$T/err")"
    fi
done
finish
