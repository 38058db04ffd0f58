#!/usr/bin/env bash
# tune.sh TOOL [CLI_DIR [MPI_TOOL]] — sweep, tune, run -a auto, plots, reproduce --out and their
# scale-out (tools/points.c, tools/scaleout.c, tools/cmd_*.c).
#
#  - determinism: sweep and tune print the same bytes with -j1, -j2, -j3 and, given MPI_TOOL
#    (opticoll-cluster) and mpirun, under mpirun -np 2 and -np 3;
#  - tune on the WDM ring (w = 4) for all-gather names onestage, optree and ne as winners as N
#    grows (a crossover along N), every winner is the fastest candidate of its point in the
#    decision file, and `compare` at the same point agrees; run -a auto picks what the table names
#    (from the file, by the nearest-point rule, and by tuning the point itself);
#  - sweep --csv: header, one line per point, ring's N - 1 steps, the same times as --json;
#  - --plot and reproduce --out write PNGs (magic bytes) when gnuplot is there;
#  - bad input: one line on stderr, nothing on stdout, exit 2.
set -u
TOOL=${1:-}
CLI_DIR=${2:-$(cd "$(dirname "$0")" && pwd)}
MPI_TOOL=${3:-}
# shellcheck source=tests/cli/lib.sh
. "$CLI_DIR/lib.sh"
need_tool "$TOOL"
T=$OC_TMP

same() { # same DESCRIPTION FILE_A FILE_B
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$2" "$3" | head -5)"; fi
}

# ---- determinism ----
TUNE=(tune -c allgather -t ring -w 4 --nodes 4,5,12,16,64 --sizes 4KiB,1MiB)
SWEEP=(sweep -c allgather -t ring --nodes 3,5,7,12 --sizes 1KiB..1MiB:*32 --json)
LC_ALL=C "$TOOL" "${TUNE[@]}" -j1 >"$T/tune1" 2>&1
LC_ALL=C "$TOOL" "${TUNE[@]}" -j2 >"$T/tune2" 2>&1
LC_ALL=C "$TOOL" "${TUNE[@]}" -j 3 >"$T/tune3" 2>&1
same "tune: -j1 and -j2 print the same bytes" "$T/tune1" "$T/tune2"
same "tune: -j1 and -j 3 print the same bytes" "$T/tune1" "$T/tune3"
LC_ALL=C "$TOOL" "${SWEEP[@]}" -j1 >"$T/sweep1" 2>&1
LC_ALL=C "$TOOL" "${SWEEP[@]}" -j2 >"$T/sweep2" 2>&1
same "sweep --json: -j1 and -j2 print the same bytes" "$T/sweep1" "$T/sweep2"
if [ -n "$MPI_TOOL" ] && [ -x "$MPI_TOOL" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    for np in 2 3; do
        LC_ALL=C mpirun --oversubscribe -np $np "$MPI_TOOL" "${TUNE[@]}" -j1 >"$T/tmpi$np" 2>"$T/mpierr"
        same "tune under mpirun -np $np equals -j1" "$T/tune1" "$T/tmpi$np"
        LC_ALL=C mpirun --oversubscribe -np $np "$MPI_TOOL" "${SWEEP[@]}" -j2 >"$T/smpi$np" 2>"$T/mpierr"
        same "sweep under mpirun -np $np (-j2 each) equals -j1" "$T/sweep1" "$T/smpi$np"
    done
    LC_ALL=C mpirun --oversubscribe -np 2 "$MPI_TOOL" reproduce star -j1 >"$T/rmpi" 2>"$T/mpierr"
    LC_ALL=C "$TOOL" reproduce star >"$T/rstar" 2>&1
    same "reproduce star under mpirun -np 2 equals the plain tool" "$T/rstar" "$T/rmpi"
else
    skip "MPI determinism (no opticoll-cluster or mpirun; sanitizer builds skip it)"
fi

# ---- tune: winners, crossovers, the decision file ----
run_tool "${TUNE[@]}" -o "$T/dec.json"
row() { awk -v n="$1" -v s="$2" '$1 == n && $2 " " $3 == s {print $4}' "$T/out"; }
# (the two-level stride all-gather, 4 steps at N = 12 and 16 against OpTree's 6, wins where OpTree
# did before it; at 64 bistride, stride 4 with its middle window split both ways, takes 14 steps
# against stride's 16 and neighbour exchange's 32)
if [ "$RC" -eq 0 ] && [ "$(row 5 '4 KiB')" = onestage ] && [ "$(row 12 '4 KiB')" = stride ] &&
    [ "$(row 64 '1 MiB')" = bistride ]; then
    pass "tune ring w=4: onestage at N=5, stride at N=12, bistride at N=64"
else
    fail "tune ring w=4: onestage at N=5, stride at N=12, bistride at N=64" "$(cat "$T/out" "$T/err")"
fi
if grep -q "onestage -> stride between N = 5 and 12" "$T/out"; then
    pass "tune names the crossovers along N"
else
    fail "tune names the crossovers along N" "$(cat "$T/out")"
fi
if grep -q "stride=3" "$T/out"; then
    pass "tune shows the winner's searched parameters (stride's L)"
else
    fail "tune shows the winner's searched parameters" "$(cat "$T/out")"
fi
if have_python; then
    if python3 - "$T/dec.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "opticoll-decisions" and d["network_params"] == {"wavelengths": 4}
assert len(d["points"]) == 10
for p in d["points"]:
    ran = [c for c in p["candidates"] if "time_s" in c]
    best = min(c["time_s"] for c in ran)
    first = next(c["algorithm"] for c in ran if c["time_s"] == best)
    assert p["winner"] == first, p
    assert p["time_s"] == best
along = d["crossovers"]["along_nodes"]
assert {"bytes": 4096, "after_nodes": 5, "before_nodes": 12, "from": "onestage",
        "to": "stride"} in along, along
PY
        pass "decision file: every winner is its point's fastest candidate; crossovers listed"
    else
        fail "decision file: every winner is its point's fastest candidate"
    fi
else
    skip "decision file contents (no python3)"
fi
run_tool compare -c allgather -t ring -w 4 -n 12 -s 4KiB --csv
# (rows "not run: ..." have no time: an all-gather made for the fabric is one)
if [ "$RC" -eq 0 ] && [ "$(sort -s -t, -k11,11 -g <(tail -n +2 "$T/out" | grep -v '"not run: ') | head -1 | cut -d, -f2)" = stride ]; then
    pass "compare at N=12, 4 KiB agrees: stride is fastest (multilevel ties it, listed after)"
else
    fail "compare at N=12, 4 KiB agrees: stride is fastest" "$(cat "$T/out")"
fi

# ---- run -a auto ----
auto() { # auto EXPECTED N SIZE [extra args]
    local want=$1 n=$2 s=$3
    shift 3
    run_tool run -c allgather -t ring -w 4 -n "$n" -s "$s" -a auto "$@" --json
    local got
    got=$(sed -n 's/.*"algorithm": *"\([^"]*\)".*/\1/p' "$T/out" | head -1)
    if [ "$RC" -eq 0 ] && [ "$got" = "$want" ] && grep -q "^auto: chose $want" "$T/err"; then
        pass "run -a auto -n $n -s $s $* picks $want"
    else
        fail "run -a auto -n $n -s $s $* picks $want (got '$got')" "$(cat "$T/err")"
    fi
}
auto stride 12 4KiB --decisions "$T/dec.json"
auto bistride 60 2MiB --decisions "$T/dec.json" # nearest: N = 64, 1 MiB
auto onestage 6 4KiB --decisions "$T/dec.json" # nearest: N = 5 (log2 6/5 < log2 6/4)
auto stride 12 4KiB                             # no file: this point is tuned
run_tool run -c allgather -t ring -w 4 -n 12 -s 4KiB -a auto --decisions "$T/dec.json"
if [ "$RC" -eq 0 ] && head -1 "$T/out" | grep -q "^auto: chose stride, the winner of the nearest"; then
    pass "run -a auto (text) says which algorithm it chose and why"
else
    fail "run -a auto (text) says which algorithm it chose and why" "$(head -3 "$T/out")"
fi

# A winner that cannot run at the asked point is skipped, said, and the next nearest point's
# winner that runs is taken; with none, the point is tuned. A hand-made file on the switch: ne
# (needs N even) won N = 8, onestage (the ring's only) N = 6, bruck N = 100; asked at N = 7.
cat > "$T/hand.json" <<'JSON'
{"format": "opticoll-decisions", "version": 1, "collective": "allgather", "network": "switch",
 "network_params": {}, "algorithms": ["ne", "onestage", "bruck"],
 "points": [{"nodes": 8, "bytes": 1024, "winner": "ne"},
            {"nodes": 6, "bytes": 1024, "winner": "onestage"},
            {"nodes": 64, "bytes": 1024, "winner": "ne"},
            {"nodes": 100, "bytes": 1024, "winner": "bruck"}]}
JSON
hand() { # hand EXPECTED N FILE NOTE-PATTERN
    run_tool run -c allgather -t switch -n "$2" -s 1KiB -a auto --decisions "$3" --json
    local got
    got=$(sed -n 's/.*"algorithm": *"\([^"]*\)".*/\1/p' "$T/out" | head -1)
    if [ "$RC" -eq 0 ] && [ "$got" = "$1" ] && grep -q "$4" "$T/err"; then
        pass "run -a auto -n $2 --decisions $(basename "$3") picks $1"
    else
        fail "run -a auto -n $2 --decisions $(basename "$3") picks $1 (got '$got')" "$(cat "$T/err")"
    fi
}
hand bruck 7 "$T/hand.json" "^auto: chose bruck, .* whose winner runs here .*skipped.*ne (won N = 8, 1 KiB): .*even.*onestage (won N = 6, 1 KiB): does not run on switch"
hand ne 8 "$T/hand.json" "^auto: chose ne, the winner of the nearest tuned point"
sed -e 's/"winner": "bruck"/"winner": "ne"/' "$T/hand.json" > "$T/hand2.json"
run_tool run -c allgather -t switch -n 7 -s 1KiB -a auto --json
tuned=$(sed -n 's/.*"algorithm": *"\([^"]*\)".*/\1/p' "$T/out" | head -1)
hand "$tuned" 7 "$T/hand2.json" "^auto: no winner of .*hand2.json runs at N = 7 (skipped ne .*, so this point is tuned; auto: chose $tuned, the fastest"

# ---- sweep --csv ----
run_tool sweep -c allgather -t ring -a ring,optree --nodes 5,12 --sizes 4KiB,64KiB --csv "$T/s.csv" --json
if [ "$RC" -eq 0 ] && [ "$(wc -l <"$T/s.csv")" -eq 9 ] &&
    head -1 "$T/s.csv" | grep -q '^collective,algorithm,network,nodes,bytes,params,rounds,steps,' &&
    grep -q '^allgather,ring,ring,5,4096,"",4,4,' "$T/s.csv" &&
    grep -q '^allgather,ring,ring,12,65536,"",11,11,' "$T/s.csv" &&
    [ "$(grep -c ',true,$' "$T/s.csv")" -eq 8 ]; then
    pass "sweep --csv: header, 8 verified points, ring takes N - 1 steps"
else
    fail "sweep --csv: header, 8 verified points, ring takes N - 1 steps" "$(cat "$T/s.csv" "$T/err")"
fi
if have_python && python3 - "$T/s.csv" "$T/out" <<'PY'; then
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = json.load(open(sys.argv[2]))
assert [r["algorithm"] for r in rows] == [j["algorithm"] for j in runs]
assert [int(r["nodes"]) for r in rows] == [5, 5, 5, 5, 12, 12, 12, 12]
for r, j in zip(rows, runs):
    assert abs(float(r["time_s"]) - j["time_s"]) <= 1e-9 * j["time_s"], (r, j)
PY
    pass "sweep --csv and --json agree point by point, in N, size, algorithm order"
else
    fail "sweep --csv and --json agree point by point"
fi

# ---- plots ----
png() { [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
if command -v gnuplot >/dev/null 2>&1; then
    run_tool sweep -c allgather -t ring -a ring,optree,ne --nodes 5,12 --sizes 1KiB..1MiB:*8 --plot "$T/p.png"
    if [ "$RC" -eq 0 ] && png "$T/p.png" && [ ! -e "$T/p-n5.png" ]; then
        pass "sweep --plot with N and size varying: one PNG, one panel per N (output.sh)"
    else
        fail "sweep --plot with N and size varying: one PNG, one panel per N" "$(cat "$T/err")"
    fi
    run_tool sweep -c allgather -t ring --nodes 3..48:+9 --sizes 4KiB --plot "$T/byn.png"
    if [ "$RC" -eq 0 ] && png "$T/byn.png"; then pass "sweep --plot against N"; else fail "sweep --plot against N" "$(cat "$T/err")"; fi
    run_tool reproduce star --out "$T/rep"
    if [ "$RC" -eq 0 ] && png "$T/rep/star-tradeoff.png" && [ -s "$T/rep/star-table-1.csv" ] &&
        grep -q '(star-tradeoff.png)' "$T/rep/index.md" && grep -q 'section 3.2.2' "$T/rep/index.md" &&
        cmp -s "$T/out" "$T/rep/star.txt"; then
        pass "reproduce star --out: PNG, CSV tables, index.md with the paper's caption, the text"
    else
        fail "reproduce star --out" "$(ls "$T/rep" 2>&1; cat "$T/err")"
    fi
else
    skip "plots (gnuplot is not installed)"
fi

# ---- bad input: exit 2, one line, nothing on stdout ----
bad() { # bad PATTERN ARGS...
    local pat=$1
    shift
    run_tool "$@"
    if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
        grep -q "^opticoll: .*$pat" "$T/err"; then
        pass "bad: opticoll $*"
    else
        fail "bad: opticoll $* (exit $RC)" "$(cat "$T/out" "$T/err")"
    fi
}
bad "8..2" sweep -c allgather --nodes 8..2 --sizes 4KiB
bad "expected sizes" sweep -c allgather --nodes 8 --sizes 1KiB..1MiB:*1
bad "expected node counts" tune -c allgather --nodes 0,4 --sizes 4KiB
bad "an empty item" sweep -c allgather --nodes 4,,8 --sizes 4KiB
bad "an empty item" tune -c allgather --nodes 4 --sizes 4KiB,
bad "expected sizes" tune -c allgather --nodes 4 --sizes 4XB
bad "'nosuch' is not an algorithm of allgather" sweep -c allgather -a ring,nosuch --nodes 4 --sizes 4KiB
bad "missing --sizes" tune -c allgather --nodes 4
bad "-j 0" sweep -c allgather --nodes 4 --sizes 4KiB -j 0
bad "cannot write" sweep -c allgather --nodes 4 --sizes 4KiB --csv /nonexistent/dir/x.csv
bad "cannot write" tune -c allgather --nodes 4 --sizes 4KiB -o /nonexistent/dir/d.json
bad "--out /nonexistent/dir/out" reproduce star --out /nonexistent/dir/out
bad "No such file" run -c allgather -n 4 -s 4KiB -a auto --decisions "$T/none.json"
bad "goes with -a auto" run -c allgather -n 4 -s 4KiB -a ring --decisions "$T/dec.json"
bad "tuned with network parameters" run -c allgather -n 4 -s 4KiB -a auto --decisions "$T/dec.json"
echo '{"format": "something else"}' >"$T/bad.json"
bad "not an opticoll decision file" run -c allgather -n 4 -s 4KiB -a auto --decisions "$T/bad.json"
bad "was tuned for allgather on ring, not allreduce" run -c allreduce -w 4 -n 4 -s 4KiB -a auto --decisions "$T/dec.json"
bad "unknown paper" reproduce nosuch --out "$T/x"
finish
