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

# ---- order that is only transitive (written here, into $T) ----
# A step that touches a chunk another threadblock of its GPU touched (one writing) must come after
# it in the order of threadblocks, waits and messages: through a third threadblock, or through a
# message's round trip over the other GPUs, not only by a wait of its own. Each valid program
# verifies and runs under executor.py; the same one with one wait removed is a race for both.
step() { # S TYPE SRCBUF SRCOFF DSTBUF DSTOFF CNT DEPID DEPS HASDEP
    printf '      <step s="%s" type="%s" srcbuf="%s" srcoff="%s" dstbuf="%s" dstoff="%s" cnt="%s" depid="%s" deps="%s" hasdep="%s"/>\n' "$@"
}
algo() { # NAME NGPUS NCHANNELS NCHUNKSPERLOOP
    printf '<algo name="%s" proto="Simple" nchannels="%s" nchunksperloop="%s" ngpus="%s" coll="allgather" inplace="0" outofplace="1" minBytes="0" maxBytes="0">\n' "$1" "$3" "$4" "$2"
}
# pair_gpu G DSTBUF DSTOFF HASDEP: opens <gpu G> of an all-gather on 2 GPUs, with tb 0 sending
# i[0] to the peer and tb 1 receiving the peer's into DSTBUF[DSTOFF].
pair_gpu() {
    printf '  <gpu id="%d" i_chunks="1" o_chunks="2" s_chunks="1">\n' "$1"
    printf '    <tb id="0" send="%d" recv="-1" chan="0">\n' $((1 - $1))
    step 0 s i 0 o 0 1 -1 -1 0
    printf '    </tb>\n    <tb id="1" send="-1" recv="%d" chan="0">\n' $((1 - $1))
    step 0 r i 0 "$2" "$3" 1 -1 -1 "$4"
    printf '    </tb>\n'
}
# third RACY: all-gather on 2 GPUs. tb 1 receives the peer's chunk into scratch, tb 2 copies it
# to o (waiting for tb 1), tb 3 then reuses the scratch chunk for its own copy, waiting for tb 2
# only (as msccl-tools writes it: a write waits for the reads since the last write): its write
# comes after tb 1's through tb 2. RACY=1 drops tb 3's wait.
third() {
    local g h dep=2 deps=0
    [ "$1" = 1 ] && dep=-1 deps=-1
    algo third 2 1 2
    for g in 0 1; do
        h=$((1 - g))
        pair_gpu "$g" s 0 1
        printf '    <tb id="2" send="-1" recv="-1" chan="0">\n'
        step 0 cpy s 0 o "$h" 1 1 0 1
        printf '    </tb>\n    <tb id="3" send="-1" recv="-1" chan="0">\n'
        step 0 cpy i 0 s 0 1 "$dep" "$deps" 0
        step 1 cpy s 0 o "$g" 1 -1 -1 0
        printf '    </tb>\n  </gpu>\n'
    done
    printf '</algo>\n'
}
# echo N RACY: all-gather around a ring of N GPUs, and each chunk once more around to its owner.
# GPU g: tb 0 copies i to o[g]; tb 1 (channel 0) waits for it, sends i on and forwards the
# others' chunks; tb 2 (channel 1) sends the last chunk it got, o[g+1], back to its owner; tb 3
# receives its own chunk from there into o[g] again. tb 3 waits for nothing: its write comes after
# tb 0's only through tb 1's wait and the messages through all the other GPUs. RACY=1 drops tb 1's
# wait on GPU 0.
echo_ring() {
    local n=$1 g j dep deps t
    algo echo "$n" 2 "$n"
    for ((g = 0; g < n; g++)); do
        dep=0 deps=0
        [ "$2" = 1 ] && [ "$g" = 0 ] && dep=-1 deps=-1
        printf '  <gpu id="%d" i_chunks="1" o_chunks="%d" s_chunks="0">\n' "$g" "$n"
        printf '    <tb id="0" send="-1" recv="-1" chan="0">\n'
        step 0 cpy i 0 o "$g" 1 -1 -1 1
        printf '    </tb>\n    <tb id="1" send="%d" recv="%d" chan="0">\n' $(((g + 1) % n)) $(((g + n - 1) % n))
        step 0 s i 0 o 0 1 "$dep" "$deps" 0
        for ((j = 1; j < n; j++)); do
            t=rcs
            [ "$j" = $((n - 1)) ] && t=r
            step "$j" "$t" i 0 o $(((g - j + n) % n)) 1 -1 -1 $((j == n - 1))
        done
        printf '    </tb>\n    <tb id="2" send="%d" recv="-1" chan="1">\n' $(((g + 1) % n))
        step 0 s o $(((g + 1) % n)) o 0 1 1 $((n - 1)) 0
        printf '    </tb>\n    <tb id="3" send="-1" recv="%d" chan="1">\n' $(((g + n - 1) % n))
        step 0 r i 0 o "$g" 1 -1 -1 0
        printf '    </tb>\n  </gpu>\n'
    done
    printf '</algo>\n'
}
# executor.py with two messages buffered per connection (the runtimes have NCCL_STEPS = 8): with
# one, every GPU's first send fills its connection and no rcs of the ring can go on.
executes() { # FILE: executor.py runs it
    if python3 "$M/executor.py" --capacity 2 "$1" >"$T/ex" 2>&1; then
        pass "executor.py runs $(basename "$1")"
    else
        fail "executor.py runs $(basename "$1")" "$(cat "$T/ex")"
    fi
}
executor_race() { # FILE: executor.py finds a race
    if ! python3 "$M/executor.py" --capacity 2 "$1" >"$T/ex" 2>&1 && grep -q ": race on " "$T/ex"; then
        pass "executor.py finds the race of $(basename "$1")"
    else
        fail "executor.py finds the race of $(basename "$1")" "$(cat "$T/ex")"
    fi
}
third 0 >"$T/third.xml"
third 1 >"$T/third-racy.xml"
verifies "$T/third.xml"
executes "$T/third.xml"
bad 1 "step 0 (r) of threadblock 1 and step 0 (cpy) of threadblock 3 both write scratch chunk 0 with no wait" \
    verify "$T/third-racy.xml"
executor_race "$T/third-racy.xml"
for n in 2 3 5 7 12; do
    echo_ring "$n" 0 >"$T/echo-$n.xml"
    echo_ring "$n" 1 >"$T/echo-$n-racy.xml"
    verifies "$T/echo-$n.xml"
    executes "$T/echo-$n.xml"
    bad 1 "gpu 0: step 0 (r) of threadblock 3 and step 0 (cpy) of threadblock 0 both write output chunk 0 with no wait" \
        verify "$T/echo-$n-racy.xml"
    executor_race "$T/echo-$n-racy.xml"
done

# chain K: all-gather on 2 GPUs where GPU 0's scratch chunk is written by K local threadblocks in
# turn, each waiting for the one before; the first of them comes after an earlier write only
# through a reader in between (transitive), so the clocks of the order are kept: K threadblocks x
# K columns x 4 bytes, refused in one line past the memory budget.
chain() {
    local k=$1 g h j
    algo chain 2 1 2
    for g in 0 1; do
        h=$((1 - g))
        pair_gpu "$g" o "$h" 0
        printf '    <tb id="2" send="-1" recv="-1" chan="0">\n'
        step 0 cpy i 0 s 0 1 -1 -1 1
        printf '    </tb>\n    <tb id="3" send="-1" recv="-1" chan="0">\n'
        step 0 cpy s 0 o "$g" 1 2 0 1
        printf '    </tb>\n'
        for ((j = 4; j < (g ? 5 : k + 4); j++)); do
            printf '    <tb id="%d" send="-1" recv="-1" chan="0">\n' "$j"
            step 0 cpy i 0 s 0 1 $((j - 1)) 0 1
            printf '    </tb>\n'
        done
        printf '  </gpu>\n'
    done
    printf '</algo>\n'
}
chain 5000 >"$T/chain.xml"
verifies "$T/chain.xml"
OPTICOLL_MEMORY_BUDGET_MIB=80 bad 2 "ordering the steps of $T/chain.xml (5009 threadblocks x 5005) needs 95.6 MiB, more than the memory budget of 80 MiB" \
    verify "$T/chain.xml"

finish
