#!/usr/bin/env bash
# budgets.sh TOOL [CLI_DIR] — work sized by input is refused before it is done (issue 27, "budgets
# checked late or not at all", "tiny inputs, long work"). Each case ran to the limit first and
# was refused only after the memory was spent (a verifier's all-to-all ranges made and then found
# over its share; a one-stage round grown transfer by transfer), or ran for hours on a file of a
# few bytes. Budgets are lowered (OPTICOLL_MEMORY_BUDGET_MIB) so that no case needs gigabytes:
# the check is the line's wording (the up-front refusal's, not the late one's) and, where
# /usr/bin/time is there, that the peak resident size stayed far under what the late refusal
# had made.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# The tool's own peak resident size doing almost nothing (`list`): about 5 MB in a release build,
# about 25 MB under AddressSanitizer, whose shadow memory counts too. MAX_KB below is for a release
# build; a case may grow that much less 5000 KB above this baseline.
base_kb=0
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$T/rss" "$TOOL" list >/dev/null 2>&1
    base_kb=$(tail -1 "$T/rss")
fi

# quick CODE BUDGET_MIB MAX_KB PATTERN ARGS...: exit CODE in one line naming PATTERN (bad), and,
# with /usr/bin/time, at a peak resident size under MAX_KB (above the baseline, in a sanitizer
# build). early is quick with exit 2, a refusal.
quick() {
    local code=$1 mib=$2 max_kb=$3 pat=$4
    shift 4
    # -q: the refusal is the one line; a word about long work (past 30 s of wall time on a
    # loaded machine: rhd's search at 65536 nodes gave "this has run 30 s and is not done" at
    # load 20, a second line) is not part of it
    OPTICOLL_MEMORY_BUDGET_MIB=$mib bad "$code" "$pat" "$1" -q "${@:2}"
    if [ -x /usr/bin/time ]; then
        # a sanitizer build's quarantine keeps freed blocks resident (256 MB by default): held
        # small, the peak is what the tool keeps live, as in the release build
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8" \
            OPTICOLL_MEMORY_BUDGET_MIB=$mib /usr/bin/time -f '%M' -o "$T/rss" "$TOOL" "$@" \
            >/dev/null 2>&1
        local kb
        kb=$(tail -1 "$T/rss")
        if [ "$kb" -lt "$max_kb" ] || [ "$((kb - base_kb))" -lt "$((max_kb - 5000))" ]; then
            pass "opticoll $* at $mib MiB: answered at a peak of $kb KB"
        else
            fail "opticoll $* at $mib MiB: answered before spending memory" \
                "peak resident $kb KB, expected under $max_kb KB"
        fi
    fi
}
early() { quick 2 "$@"; }

# within SECONDS: the last command (bad or run_tool) took at most that long
took_at_most() {
    local limit=$1 what=$2
    if [ "$TOOK" -le "$limit" ]; then
        pass "$what: in $TOOK s"
    else
        fail "$what: within $limit s" "took $TOOK s"
    fi
}
timed() {
    local start
    start=$(date +%s)
    "$@"
    TOOK=$(($(date +%s) - start))
}

# 1. All-to-all's verifier starts with N ranges a node: N^2 of them (2 GiB at 16384 nodes) were
#    made and only then found over the pass's share. Now refused from the count.
early 48 24000 "every node's held chunk ranges" run -c alltoall -a pairwise -t switch -n 1500 -s 1MiB
early 48 24000 "every node's held chunk ranges" run -c alltoall -a pairwise -t switch -n 2048 -s 1MiB
# TCP2's all-to-all says its largest round ahead (P k ceil(P / (k+1)) transfers): its search maps
# no candidate whose round passes the budget (one message of L = 1 MiB a block, the star's
# m = SIZE / L = 1). On 4096 nodes the model held a claim per transfer (1.9 GB, 6 s): a stream's
# run of transfers is one claim now, and the round is budgeted, so 1 GiB suffices.
early 48 24000 "has a round of up to 1687500 transfers" \
    run -c alltoall -a tcp2 -t star -n 1500 -s 1MiB --net L=1048576
# under its budget a run stays there: 2048 nodes at 256 MiB (146 MB; the claims alone were 0.2 GB)
timer=()
echo 0 >"$T/rss"
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%M' -o "$T/rss")
OPTICOLL_MEMORY_BUDGET_MIB=256 "${timer[@]}" "$TOOL" run -q -c alltoall -a tcp2 -t star -n 2048 \
    -s 1MiB --net L=1048576 >"$T/out" 2>"$T/err"
RC=$?
kb=$(tail -1 "$T/rss")
if [ "$RC" -eq 0 ] && grep -q '^  verified:    yes' "$T/out" &&
    { [ "$base_kb" -gt 15000 ] || [ "$kb" -lt 262144 ]; }; then
    pass "tcp2 all-to-all on 2048 nodes at 256 MiB: verified at a peak of $kb KB"
else
    fail "tcp2 all-to-all on 2048 nodes at 256 MiB: verified within the budget" "rc=$RC" \
        "peak $kb KB" "$(head -c 300 "$T/err")"
fi
# ... and from a schedule file that moves enough chunks to pass the count (below): one transfer
# of every chunk, 1500 nodes (at 48 MiB; 20000 nodes would need 3 GiB at the default).
printf '{"collective":"alltoall","nodes":1500,"rounds":[[{"src":0,"dst":1,"chunks":[0,2250000]}]]}' \
    >"$T/a2a-one.json"
early 48 24000 "every node's held chunk ranges" verify "$T/a2a-one.json"
# Below the share it still runs and says what is wrong: the sender holds chunk 1 only after the
# schedule moved it, and a node's 1500 starting ranges are made when it is first looked at.
quick 1 4096 60000 "round 0: node 0 sends to node 1, before it has it, chunk 1" \
    verify "$T/a2a-one.json"
printf '{"collective":"alltoall","nodes":1500,"chunks_per_block":1,"rounds":[]}' >"$T/a2a.json"
bad 1 "at the end: node 0 is missing chunk 1" verify "$T/a2a.json"
# 12000 nodes, one transfer of every chunk: 1.1 GB of starting ranges (under the default share)
# were made before round 0 found the sender without its chunk: now the two nodes' ranges only.
printf '{"collective":"alltoall","nodes":12000,"rounds":[[{"src":0,"dst":1,"chunks":[0,144000000]}]]}' \
    >"$T/a2a12k.json"
timed quick 1 4096 60000 "round 0: node 0 sends to node 1, before it has it, chunk 1" \
    verify "$T/a2a12k.json"
took_at_most 5 "all-to-all on 12000 nodes, wrong in round 0"

# 2. Schedule files of a few bytes that name a verification of hours (issue 27, "tiny inputs,
#    long work"): a reduction's cells are made and checked once each whatever the shards, an
#    all-to-all's nodes start with N ranges each. A schedule that carries fewer chunk-transfers
#    than any complete one needs is wrong for certain: said at once, before any state is made
#    (reduce-scatter on 131072 nodes with no rounds took 14 s in release and 2.6 GB; all-reduce
#    on 50001 nodes x 1.2e7 chunks over 60 s). Exit 1: a verdict, not a refusal.
printf '{"collective":"reducescatter","nodes":131072,"rounds":[]}' >"$T/rs1.json"
timed quick 1 4096 24000 "fewer than the 17179738112 chunk-transfers any complete reducescatter on 131072 nodes with 131072 chunks needs" \
    verify "$T/rs1.json"
took_at_most 5 "reduce-scatter on 131072 nodes, no rounds"
printf '{"collective":"allreduce","nodes":50001,"chunks_per_block":12000000,"rounds":[]}' \
    >"$T/ar5.json"
timed quick 1 4096 24000 "fewer than the 1200000000000 chunk-transfers any complete allreduce on 50001 nodes" \
    verify "$T/ar5.json"
took_at_most 5 "all-reduce on 50001 nodes x 1.2e7 chunks, no rounds"
printf '{"collective":"reducescatter","nodes":131072,"chunks_per_block":1000,"rounds":[]}' \
    >"$T/rs.json"
quick 1 4096 24000 "its 0 well-formed transfers carry 0 chunks in all, fewer than" verify "$T/rs.json"
printf '{"collective":"allreduce","nodes":100003,"chunks_per_block":12000000,"rounds":[]}' \
    >"$T/ar.json"
quick 1 4096 24000 "it cannot be complete" verify "$T/ar.json"
printf '{"collective":"alltoall","nodes":20000,"chunks_per_block":1,"rounds":[]}' >"$T/a2a20k.json"
quick 1 4096 24000 "fewer than the 399980000 chunk-transfers any complete alltoall" \
    verify "$T/a2a20k.json"
# a transfer naming chunks past the end does not count (the verifier refuses it, but it must not
# buy the state it is refused in)
printf '{"collective":"reducescatter","nodes":131072,"rounds":[[{"src":0,"dst":1,"chunks":[0,4294967295]}]]}' \
    >"$T/rs-past.json"
quick 1 4096 24000 "its 0 well-formed transfers carry 0 chunks" verify "$T/rs-past.json"
# Enough transfers, too many states: all-reduce on 5 nodes x 4e9 chunks, 8 transfers of every
# chunk (the 2 (N - 1) the count asks) in 300 bytes: 2e10 node-chunk states, past the file cap.
{
    printf '{"collective":"allreduce","nodes":5,"chunks_per_block":4000000000,"rounds":[['
    for i in 1 2 3 4; do
        [ "$i" -gt 1 ] && printf ','
        printf '{"src":%d,"dst":0,"op":"reduce","chunks":[0,4000000000]}' "$i"
    done
    printf '],['
    for i in 1 2 3 4; do
        [ "$i" -gt 1 ] && printf ','
        printf '{"src":0,"dst":%d,"chunks":[0,4000000000]}' "$i"
    done
    printf ']]}'
} >"$T/ar-cap.json"
timed early 4096 24000 "is 20000000000 node-chunk states, more than the 17179869184 a schedule file may name" \
    verify "$T/ar-cap.json"
took_at_most 5 "all-reduce on 5 nodes x 4e9 chunks from a file"
# a small one with no rounds is answered exactly, as one pass meets it
printf '{"collective":"reducescatter","nodes":7,"chunks_per_block":3,"rounds":[]}' >"$T/rs7.json"
bad 1 "at the end: node 0 is missing the contribution of node 1" verify "$T/rs7.json"
# The same shape on 5 nodes x 1e6 chunks (1e8 bytes of cells: the count applies) is complete,
# a reduce into node 0 and copies out, with exactly the 2 (N - 1) transfers a chunk the count
# asks: the count is a bound every complete schedule meets, so it verifies.
sed 's/4000000000/1000000/g' "$T/ar-cap.json" >"$T/ar-min.json"
run_tool verify "$T/ar-min.json"
if [ "$RC" -eq 0 ] && grep -q 'verified' "$T/out"; then
    pass "all-reduce on 5 nodes x 1e6 chunks with the fewest transfers: verified"
else
    fail "all-reduce on 5 nodes x 1e6 chunks with the fewest transfers: verified" "rc=$RC" \
        "$(head -c 300 "$T/err")"
fi
# 3. The largest round, known ahead (spec.max_round): one-stage OpTree (k=1: one round of
#    N (N - 1) transfers) and SiPCO's levels (q (r - 1) transfers each) were grown transfer by
#    transfer until the round's buffer passed the budget.
early 16 60000 "has a round of up to 9003000 transfers" run -c allgather -a optree -n 3001 -p radices=3001 -s 1MiB
# OpTree with k=1 on 2^20 nodes: one-stage lists at every V in N..2N, each over the search's
# mapping budget, were all logged (785 MB, past a budget of 64 MiB) before the plan refused the
# round. Pinned k=1 now offers the one list V = N (every V gives the same schedule:
# allgather_optree.c), whose round is refused before it is generated, within the budget
# (64 MiB, and some 9 MB of program: 65 MB above its baseline under ASan's redzones)
early 64 75000 "has a round of up to 1099510579200 transfers" run -c allgather -a optree -n 1048576 -p k=1 -s 1KiB
# the search's log is held to a quarter of the budget: rhd's radix x fold candidates on 65536
# nodes outgrow 1 MiB (a budget of 4 MiB) and the search stops with one line, not at the
# model's or the verifier's refusal after it (28 MB resident in a release build)
early 4 60000 "offered more than" run -c allreduce -a rhd -n 65536 -s 1KiB --no-data-check
# the bound is no refusal where the rounds fit: two stages on 1000 nodes run at the same budget
OPTICOLL_MEMORY_BUDGET_MIB=16 run_tool run -c allgather -a optree -n 1000 -p radices=10x100 -s 1MiB
if [ "$RC" -eq 0 ] && grep -q '^  verified:    yes' "$T/out"; then
    pass "optree radices=10x100 on 1000 nodes at 16 MiB: runs, verified"
else
    fail "optree radices=10x100 on 1000 nodes at 16 MiB: runs, verified" "rc=$RC" \
        "$(head -c 300 "$T/err")"
fi
early 16 60000 "has a round of up to 1048576 transfers" run -c allreduce -a sipco -n 65536 -p r=2 -s 1GiB
early 16 60000 "has a round of up to 1180980 transfers" run -c allreduce -a sipco -n 59049 -p r=3 -s 1GiB

# 4. SiPCO's transfer count is 2 l q (r - 1) (2l levels of N l (r - 1)): the count the node cap
#    quotes, and the one a run makes.
bad 2 "it would be 169869312 transfers there" run -c allreduce -a sipco -n 262144 -p r=2 -s 1GiB
for nr in 8:2 9:3 27:3 25:5; do
    n=${nr%:*} r=${nr#*:}
    run_tool run -q -c allreduce -a sipco -n "$n" -p r="$r" -s 1MiB
    l=0 p=1
    while [ "$p" -lt "$n" ]; do p=$((p * r)) l=$((l + 1)); done
    want=$((2 * l * l * n * (r - 1)))
    if [ "$RC" -eq 0 ] && grep -q "rounds, $want transfers" "$T/out"; then
        pass "sipco N=$n r=$r: $want transfers, as counted ahead"
    else
        fail "sipco N=$n r=$r: $want transfers" "rc=$RC" "$(grep schedule "$T/out")" \
            "$(head -c 300 "$T/err")"
    fi
done

# 4b. The work budget beside the memory budget: SiPCO r=2 on 65536 nodes fits the memory budget
#    in 1024 shards of 1.3 GB and is 1.4e11 chunk-transfers to verify (hours: it said "over
#    11.5 h" only once its first shard had ended, 20 s and 2.2 GB in). Its plan counts them,
#    2 l N (N - 1), and the run is refused from the count at once, at the default budgets (the
#    memory budget is not what refuses it). Under `timeout`, so that a run that starts fails here
#    within a minute instead of running for hours.
for nc in 65536:137436856320:1024 131072:584111095808:4081; do
    n=${nc%%:*} rest=${nc#*:}
    units=${rest%:*} shards=${rest#*:}
    LC_ALL=C timeout 60 "$TOOL" run -c allreduce -a sipco -n "$n" -p r=2 -s 1GiB \
        >"$T/out" 2>"$T/err"
    RC=$?
    if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -qF "(in $shards shards) is $units chunk-transfers, more than the work budget of 34359738368 (set OPTICOLL_WORK_BUDGET)" "$T/err"; then
        pass "sipco r=2 on $n nodes: refused from its $units chunk-transfers, one line"
    else
        fail "sipco r=2 on $n nodes: refused from its count" "rc=$RC" "$(head -c 300 "$T/err")"
    fi
done
# the variable moves the limit: at SiPCO's count on 512 nodes (2 x 9 x 512 x 511 = 4709376) the
# run goes, one below it is refused; a value that is not a count is one line, exit 2
OPTICOLL_WORK_BUDGET=4709376 run_tool run -q -c allreduce -a sipco -n 512 -p r=2 -s 1MiB
if [ "$RC" -eq 0 ] && grep -q "rounds, 82944 transfers, 4709376 chunk-transfers" "$T/out"; then
    pass "sipco r=2 on 512 nodes at OPTICOLL_WORK_BUDGET=4709376, its count: runs"
else
    fail "sipco r=2 on 512 nodes at its count: runs" "rc=$RC" "$(head -c 300 "$T/err")"
fi
OPTICOLL_WORK_BUDGET=4709375 bad 2 "is 4709376 chunk-transfers, more than the work budget of 4709375" \
    run -c allreduce -a sipco -n 512 -p r=2 -s 1MiB
for v in 0 x 1099511627777; do
    OPTICOLL_WORK_BUDGET=$v bad 2 "OPTICOLL_WORK_BUDGET=$v: expected a whole number of work units" \
        run -c allreduce -a sipco -n 8 -s 1MiB
done
# Every algorithm counts its work in its plan (tests/test_plan_units.c holds each count to its
# schedule): at OPTICOLL_WORK_BUDGET=1 every one of `opticoll list` on 16 nodes is refused in one
# line, exit 2, nothing on stdout (a copy collective's transfers count too, not only a
# reduction's chunk-transfers as before).
"$TOOL" list 2>/dev/null | awk '/^algorithms/ { f = 1; next } f && NF >= 3 { print $1, $2, $3 }' \
    >"$T/algos"
n_algos=0
while read -r coll algo nets; do
    net=${nets%%,*}
    extra=()
    case "$algo" in dex*) extra=(--net switching=wh) ;; esac
    OPTICOLL_WORK_BUDGET=1 "$TOOL" run -c "$coll" -a "$algo" -t "$net" -n 16 -s 4096 \
        "${extra[@]}" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    n_algos=$((n_algos + 1))
    if [ "$RC" -ne 2 ] || [ -s "$T/out" ] || [ "$(wc -l <"$T/err")" -ne 1 ] ||
        ! grep -q "work budget of 1 (set OPTICOLL_WORK_BUDGET)" "$T/err"; then
        fail "$coll $algo at OPTICOLL_WORK_BUDGET=1: one line, exit 2" "rc=$RC" \
            "$(head -c 300 "$T/err")"
    fi
done <"$T/algos"
if [ "$n_algos" -ge 50 ]; then
    pass "every algorithm ($n_algos) at OPTICOLL_WORK_BUDGET=1: refused in one line, exit 2"
else
    fail "every algorithm at OPTICOLL_WORK_BUDGET=1" "only $n_algos algorithms listed"
fi
OPTICOLL_WORK_BUDGET= run_tool run -q -c allreduce -a sipco -n 8 -s 1MiB
if [ "$RC" -eq 0 ]; then
    pass "OPTICOLL_WORK_BUDGET= (set to nothing) is unset"
else
    fail "OPTICOLL_WORK_BUDGET= is unset" "rc=$RC" "$(head -c 300 "$T/err")"
fi

# 5. dbtree's pipeline search at the size cap: every longer pipeline is a little better, no bound
#    prunes, and all 65536 were mapped (past 300 s on 4 nodes). Past a work budget the longer
#    ones are thinned (logged as stepped over, not proven worse); the longest is still offered.
for n in 4 7; do
    run_tool run -q --explain -c allreduce -a dbtree -n "$n" -s 1PiB
    if [ "$RC" -eq 0 ] && grep -q 'pipeline=65536' "$T/out" &&
        grep -q 'pipelines stepped over (not mapped, not proven worse)' "$T/out"; then
        pass "dbtree N=$n at 1 PiB: searched within the work budget, pipeline=65536"
    else
        fail "dbtree N=$n at 1 PiB: searched within the work budget" "rc=$RC" \
            "$(head -c 300 "$T/err")"
    fi
done
# below the budget the search is exhaustive, as it was
run_tool run -q -c allreduce -a dbtree -n 4 -s 1GiB
if [ "$RC" -eq 0 ] && grep -q '9 mapped, 8188 pruned by a proven bound; pipeline=121 wins' "$T/out" &&
    ! grep -q 'stepped over' "$T/out"; then
    pass "dbtree N=4 at 1 GiB: every pipeline searched (9 mapped, 8188 pruned), pipeline=121"
else
    fail "dbtree N=4 at 1 GiB: every pipeline searched" "rc=$RC" "$(grep note "$T/out")"
fi
# train with the largest gradient a models file takes (2^48 parameters: 1 PiB) ran dbtree's
# search the same way
printf 'Huge\t281474976710656\t1\t1\tx\n' >"$T/huge.tsv"
run_tool train --models "$T/huge.tsv" -m Huge -n 4
if [ "$RC" -eq 0 ] && grep -q 'dbtree .* pipeline=65536' "$T/out"; then
    pass "train with 2^48 parameters on 4 nodes: every algorithm, dbtree at pipeline=65536"
else
    fail "train with 2^48 parameters on 4 nodes" "rc=$RC" "$(head -c 300 "$T/err")"
fi
# 6. MSCCL: attributes per element and elements per file counted before libxml2 parses (100 000
#    attributes on one element ran past 120 s in libxml2; 15 million unknown elements were a
#    2 GB tree; 9 million comments 1.5 GB: they count as elements). Quoted values are not
#    counted, nor what a comment holds.
if have_python; then
    python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
head = '<algo name="x" nchunksperloop="2" nchannels="1" proto="Simple" ngpus="2" coll="allgather" inplace="0">\n'
attrs = " ".join('a%d="1"' % i for i in range(100000))
open(t + "/attrs.xml", "w").write(head + '<gpu id="0" ' + attrs + "/>\n</algo>\n")
open(t + "/attrs65.xml", "w").write(head + "<gpu " + " ".join('b%d="="' % i for i in range(65)) + "/>\n</algo>\n")
# the issue's file: 15 million unknown elements, 60 MB (a 2 GB tree before the cap), written here
open(t + "/elems.xml", "w").write(head + "<a/>" * 15000000 + "</algo>\n")
PY
    bad 2 "attrs.xml:2: an element with 100001 attributes, more than the 64" verify "$T/attrs.xml"
    bad 2 "attrs65.xml:2: an element with 65 attributes, more than the 64" verify "$T/attrs65.xml"
    # refused by counting before libxml2 builds a tree: the file's own 60 MB read, no more
    timed early 4096 200000 "15000001 elements, more than the 8388608 this reader takes" \
        verify "$T/elems.xml"
    took_at_most 60 "an MSCCL file of 15 million elements (60 MB), read twice"
    rm -f "$T/elems.xml"
    # comments and processing instructions are nodes of the tree as well: 9 million empty
    # comments (63 MB, under the file cap) were a 1.5 GB tree, as many PIs 1.6 GB
    python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
head = '<algo name="x" nchunksperloop="2" nchannels="1" proto="Simple" ngpus="2" coll="allgather" inplace="0">\n'
open(t + "/comments.xml", "w").write(head + "<!---->" * 9000000 + "</algo>\n")
open(t + "/pis.xml", "w").write(head + "<?a?>" * 9000000 + "</algo>\n")
PY
    for f in comments pis; do
        early 4096 200000 "$f.xml: 9000001 elements, more than the 8388608 this reader takes" \
            verify "$T/$f.xml"
        rm -f "$T/$f.xml"
    done
    # a real file with a comment full of '=' and '<' still verifies
    sed '2i <!-- '"$(printf '%0.s= ' $(seq 1 200))"' <a b=c> -->' \
        "$CLI_DIR/../msccl/example-allgather-ring-5.xml" >"$T/commented.xml"
    run_tool verify "$T/commented.xml"
    if [ "$RC" -eq 0 ]; then
        pass "an MSCCL file with a comment of 200 '=' verifies"
    else
        fail "an MSCCL file with a comment of 200 '=' verifies" "rc=$RC" "$(head -c 300 "$T/err")"
    fi
else
    skip "MSCCL caps (no python3 to write the files)"
fi
# 7. rack at the top of --help's ranges: the invariants' check after every one of 200 000
#    events walked 4096 GPUs each time (2 minutes); now within a stated number of visits.
#    The limit is 60 s on a quiet machine in a release build (it runs in about 2 s there; it took
#    9 s at load 20): scaled by the load on this machine's cores, and 4 times that under the
#    sanitizers (their baseline resident size is the tell), within the test's own limit.
cores=$(nproc 2>/dev/null || echo 1)
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
limit=$(awk -v l="$load" -v c="$cores" -v s="$([ "$base_kb" -gt 15000 ] && echo 4 || echo 1)" \
    'BEGIN { f = l / c; if (f < 1) f = 1; t = 60 * f * s; if (t > 400) t = 400; printf "%d", t }')
start=$(date +%s)
LC_ALL=C timeout "$limit" "$TOOL" rack --servers 128 --tiles 32 --tenants 100000 >"$T/out" 2>"$T/err"
RC=$?
took=$(($(date +%s) - start))
if [ "$RC" -eq 0 ] && grep -q 'lumorph' "$T/out"; then
    pass "rack --servers 128 --tiles 32 --tenants 100000: done in ${took} s (limit ${limit} s)"
else
    fail "rack --servers 128 --tiles 32 --tenants 100000 within ${limit} s" "rc=$RC after ${took} s" \
        "$(head -c 300 "$T/err")"
fi
finish
