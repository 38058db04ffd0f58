#!/usr/bin/env bash
# cluster_run.sh OPTICOLL CLI_DIR OPTICOLL_CLUSTER MPIRUN runs|files — one run split across MPI ranks
# (opticoll-cluster run and verify; tools/scaleout.c, src/run/shard.c, docs/scale.md).
#
# Under `mpirun -q --oversubscribe -np K` for K in {1, 2, 3}, with shards of one chunk forced
# (OPTICOLL_VERIFY_SHARD=1: as many shards as chunks, shared among the ranks), the cluster prints
# what the plain tool prints, byte for byte on stdout and stderr, with the same exit code:
#  - runs (part `runs`) of every kind of collective at N in {5, 7, 12, 100}, as text and as --json (one with
#    redundant deliveries, which the ranks sum; one with --links; -a auto, whose tuning only
#    rank 0 sees the end of; an unknown algorithm, refused before the split);
#  - schedule files (part `files`: an exported ring all-reduce on 12 nodes, edited with python3) that are
#    wrong: a contribution counted twice, a chunk missing at the end, a transfer to a node out of
#    range, and two faults at once (a late one in chunk 0, on rank 0, and an early one in chunk
#    11, on the last rank) whose first is the early one; and the same file unbroken;
#  - OPTICOLL_CLUSTER_VERBOSE=1 shows that the ranks shared the shards (each verified its share,
#    rank 0 the cost pass).
# The two parts are two CTest tests (tests/cluster.cmake), so that each stays short.
# mpirun -q: Open MPI says nothing of its own when a rank exits non-zero; </dev/null: mpirun
# would otherwise forward (and use up) the script's stdin.
set -u
PLAIN=${1:-}
CLI_DIR=${2:-}
CLUSTER=${3:-}
MPIRUN=${4:-mpirun}
PART=${5:-runs}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 LC_ALL=C

# same_as_plain DESCRIPTION K ARGS...: the plain tool and the cluster on K ranks (shards of one
# chunk) print the same stdout and stderr and exit alike.
same_as_plain() {
    local desc=$1 k=$2
    shift 2
    "$PLAIN" "$@" >"$T/p.out" 2>"$T/p.err"
    local prc=$?
    # rank 0's exit code through a file: mpirun itself takes ~2 s to end a job a rank left with
    # a non-zero code (its exit code is checked once, below)
    rm -f "$T/c.rc"
    # shellcheck disable=SC2016  # expanded by the sh that mpirun starts, not here
    OPTICOLL_VERIFY_SHARD=1 RC_FILE="$T/c.rc" "$MPIRUN" -q --oversubscribe -np "$k" sh -c \
        '"$0" "$@"; s=$?; [ "$OMPI_COMM_WORLD_RANK" != 0 ] || echo $s >"$RC_FILE"' \
        "$CLUSTER" "$@" </dev/null >"$T/c.out" 2>"$T/c.err"
    local crc
    crc=$(cat "$T/c.rc" 2>/dev/null || echo "none")
    if [ "$prc" = "$crc" ] && cmp -s "$T/p.out" "$T/c.out" && cmp -s "$T/p.err" "$T/c.err"; then
        pass "$desc, $k rank(s): exit $crc, the same output"
    else
        fail "$desc, $k rank(s): the same output" "plain exit $prc, cluster exit $crc" \
            "$(diff "$T/p.out" "$T/c.out" | head -6)" "$(diff "$T/p.err" "$T/c.err" | head -6)"
    fi
}

# ---- runs: text on 2 ranks, --json on 3 (and on 1 for some) ----
if [ "$PART" = runs ]; then
while read -r args; do
    # shellcheck disable=SC2086  # the case's words are the arguments
    same_as_plain "run $args" 2 run $args
    # shellcheck disable=SC2086
    same_as_plain "run $args --json" 3 run $args --json
done <<'EOF'
-c allreduce -a ring -t switch -n 5 -s 1MiB
-c allreduce -a ring -t switch -n 100 -s 1MiB
-c allgather -a ring -t ring -n 7 -s 64KiB
-c reducescatter -a ring -t switch -n 12 -s 4KiB
-c allreduce -a rhd -t switch -n 12 -s 1MiB
-c broadcast -a tcp1-split -t star -n 12 -s 64KiB
-c allreduce -a dbtree -t switch -n 7 -s 1MiB --links
-c allgather -a auto -t ring -n 12 -s 4KiB
-c allreduce -a nosuch -t switch -n 12 -s 4KiB
EOF
same_as_plain "run -c allreduce -a ring -t switch -n 7 --json" 1 run -c allreduce -a ring -t switch \
    -n 7 -s 1MiB --json
same_as_plain "run -c allreduce -a ring -t switch -n 7" 3 run -c allreduce -a ring -t switch -n 7 \
    -s 1MiB

# The ranks shared the shards: 100 chunks, contiguous shares, the cost pass on rank 0.
OPTICOLL_VERIFY_SHARD=1 OPTICOLL_CLUSTER_VERBOSE=1 "$MPIRUN" -q --oversubscribe -np 3 "$CLUSTER" \
    run -c allreduce -a ring -t switch -n 100 -s 1MiB </dev/null >"$T/c.out" 2>"$T/c.err"
want="opticoll-cluster: 100 shards of 1 chunks on 3 ranks: rank 0 verified 33 and ran the cost pass, rank 1 verified 33, rank 2 verified 34"
if [ "$(cat "$T/c.err")" = "$want" ]; then
    pass "3 ranks verified 33, 33 and 34 of 100 shards, rank 0 ran the cost pass"
else
    fail "3 ranks verified 33, 33 and 34 of 100 shards" "$(cat "$T/c.err")"
fi
finish
fi

# ---- wrong schedule files: the same first error on 1, 2 and 3 ranks ----
if ! have_python; then
    skip "wrong schedule files (python3 not found)"
    finish
fi
"$PLAIN" export -c allreduce -a ring -t switch -n 12 -s 1MiB --format json -o "$T/good.json" ||
    fail "export the ring all-reduce on 12 nodes"
# break.py FAULT OUT: one fault in the ring all-reduce on 12 nodes (22 rounds of 12 transfers,
# one chunk each; chunk c's transfers are found by their chunks field).
cat >"$T/break.py" <<'PY'
import json, sys
fault, out = sys.argv[1], sys.argv[2]
d = json.load(open(sys.argv[3]))
R = d["rounds"]
def carrying(r, c):
    return next(i for i, t in enumerate(R[r]) if t["chunks"][0] == c)
if fault in ("twice", "two"):      # chunk 11's contribution sent twice in round 3
    R[3].append(dict(R[3][carrying(3, 11)]))
if fault == "missing":             # chunk 0 never reaches one node: dropped from the last round
    R[-1].pop(carrying(len(R) - 1, 0))
if fault in ("bad", "two"):        # chunk 0's transfer in round 17 goes to node 12 of 12
    R[17][carrying(17, 0)]["dst"] = d["nodes"]
json.dump(d, open(out, "w"))
PY
for fault in twice missing bad two; do
    python3 "$T/break.py" "$fault" "$T/$fault.json" "$T/good.json"
    "$PLAIN" verify "$T/$fault.json" >/dev/null 2>"$T/p.err"
    rc=$?
    if [ "$rc" = 1 ] && [ "$(wc -l <"$T/p.err")" = 1 ]; then
        pass "verify $fault.json: exit 1, $(cat "$T/p.err")"
    else
        fail "verify $fault.json: exit 1 and one line" "exit $rc" "$(cat "$T/p.err")"
    fi
    for k in 1 2 3; do
        same_as_plain "verify $fault.json" "$k" verify "$T/$fault.json"
    done
done
# two faults: the early one (round 3) is the first one pass meets, not rank 0's late one
"$PLAIN" verify "$T/twice.json" 2>"$T/twice.err"
if cmp -s "$T/twice.err" "$T/p.err"; then
    pass "two faults: the first error is round 3's, found by the last rank"
else
    fail "two faults: the first error is round 3's" "$(cat "$T/p.err")" "$(cat "$T/twice.err")"
fi
same_as_plain "verify good.json --json" 3 verify "$T/good.json" --json
# mpirun's own exit code is rank 0's
OPTICOLL_VERIFY_SHARD=1 "$MPIRUN" -q --oversubscribe -np 3 "$CLUSTER" verify "$T/two.json" \
    </dev/null >/dev/null 2>"$T/c.err"
rc=$?
if [ "$rc" = 1 ] && cmp -s "$T/c.err" "$T/twice.err"; then
    pass "mpirun -np 3 opticoll-cluster verify two.json: exit 1 and round 3's error"
else
    fail "mpirun -np 3 opticoll-cluster verify two.json: exit 1" "exit $rc" "$(cat "$T/c.err")"
fi
finish
