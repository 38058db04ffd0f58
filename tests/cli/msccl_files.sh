#!/usr/bin/env bash
# msccl_files.sh TOOL CLI_DIR MSCCL_DIR REF_DIR — `opticoll verify` reads real
# MSCCL programs. The seven files of REF_DIR (../shared/msccl-ref: copied from msccl-scheduler
# and RCCL, never into this repository) verify and map on a network; so do the programs of
# MSCCL_DIR (tests/msccl) that stand for msccl-tools' examples (example-*.xml). The subtly wrong
# ones (bad-*.xml, with the line each must print in bad.expect) and opticoll's exports from
# before (old-export-*.xml: OpTree's permuted blocks, pairwise all-to-all at global
# chunk labels, coll="reduce_scatter": a file the runtimes do not load, exit 2) are refused
# with one line.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments
M=${3:?tests/msccl directory}
REF=${4:-}

verifies() { # FILE [ARGS...]: exit 0, "verified: yes"
    local f=$1
    shift
    run_tool verify "$f" "$@"
    if [ "$RC" -eq 0 ] && grep -q "verified:    yes" "$T/out"; then
        pass "verify $(basename "$f") $*: $(grep -o '[0-9]* rounds, [0-9]* transfers' "$T/out")"
    else
        fail "verify $(basename "$f") $*" "$(cat "$T/err")"
    fi
}

# rounds FILE N: the rounds rebuilt from the waits are N (a ring all-gather on N GPUs is N - 1
# rounds, a ring all-reduce 2(N - 1), all-pairs 2: sums, then results; the two-step all-to-all 2)
rounds() {
    run_tool verify "$1"
    local got
    got=$(grep -o '[0-9]* rounds' "$T/out" | cut -d' ' -f1)
    [ "$got" = "$2" ] && pass "$(basename "$1"): $2 rounds" ||
        fail "$(basename "$1"): ${got:-no} rounds, expected $2" "$(cat "$T/err")"
}

if [ -n "$REF" ] && [ -d "$REF" ]; then
    n=0
    for f in "$REF"/*.xml; do
        verifies "$f"
        verifies "$f" -t switch
        n=$((n + 1))
    done
    [ "$n" -eq 7 ] && pass "the 7 reference files" || fail "$n reference files in $REF, expected 7"
    rounds "$REF/allreduce-8gpu-ndv4-r48ll.xml" 14
    rounds "$REF/allreduce-8gpu-ndv4-ap2ll.xml" 2
    rounds "$REF/alltoall-8gpu-ndv4-a2a2ll.xml" 1
else
    skip "the MSCCL reference files: no directory ${REF:-(none given)} (../shared/msccl-ref)"
fi

for f in "$M"/example-*.xml; do
    verifies "$f"
done
rounds "$M/example-allgather-ring-5.xml" 4
rounds "$M/example-allreduce-ring-7.xml" 12
rounds "$M/example-allreduce-ring-3.xml" 4
rounds "$M/example-allreduce-allpairs-5.xml" 2
rounds "$M/example-alltoall-two-step-3x2.xml" 2
verifies "$M/example-allreduce-ring-7.xml" -t ring -w 2

while IFS=$'\t' read -r f line; do
    code=1
    case $f in bad-step-type.xml) code=2 ;; esac
    bad "$code" "$line" verify "$M/$f"
done <"$M/bad.expect"

bad 1 "gpu 1 step 0 (s) reads output chunk 8 before anything was written there" \
    verify "$M/old-export-optree-allgather-32.xml"
bad 1 "at the end gpu 0's output chunk 1 holds chunk 1 from rank 1 to rank 0, not chunk 1 from rank 0 to rank 0" \
    verify "$M/old-export-pairwise-alltoall-8.xml"
bad 2 '<algo coll="reduce_scatter"> is not a collective the MSCCL runtimes run' \
    verify "$M/old-export-ring-reducescatter-5.xml"

# the same reference file, one step changed: each change is refused
if [ -n "$REF" ] && [ -d "$REF" ]; then
    f="$REF/allreduce-8gpu-ndv4-r48ll.xml"
    # the first rrcs of gpu 0 made an rrc: the sum is no longer sent on, so a receive hangs
    sed '0,/type="rrcs"/s//type="rrc"/' "$f" >"$T/m1.xml"
    bad 1 "" verify "$T/m1.xml"
    # in-place all-reduce declared out of place: it writes into the caller's input
    sed 's/inplace="1" outofplace="0"/inplace="0" outofplace="1"/' "$f" >"$T/m2.xml"
    bad 1 "writes into the input buffer" verify "$T/m2.xml"
    f="$REF/allreduce-8gpu-ndv4-ap2ll.xml"
    # the second re of a fused sum made a cpy: it overwrites the sum so far: a contribution is missing at the end
    awk '/type="re"/ {n++; if (n == 2) sub(/type="re"/, "type=\"cpy\"")} {print}' "$f" >"$T/m3.xml"
    bad 1 "lacks the contribution of rank" verify "$T/m3.xml"
fi

finish
