#!/usr/bin/env bash
# perf.sh TOOL [CLI_DIR] — `opticoll perf` (nccl-tests' report from the model) against nccl-tests'
# own format (NVIDIA/nccl-tests src/util.cu: writeResultHeader, writeBenchmarkLinePreamble and
# Body, writeResultFooter; src/common.cu: the size loop), re-written here in Python: for every
# collective on N in {2, 3, 5, 8}, sizes 8 B to 128 MiB step x2 (-b 8 -e 128M -f 2):
#  - the header lines are nccl-tests' printf for printf, and every row is the line nccl-tests
#    would print for the JSON's numbers, column by column: %12li size, %12li count, %8s type,
#    %6s redop, %6i root, then per half (out-of-place, in-place) time %7s, algbw %6s, busbw %6s
#    (getFloatStr) and #wrong %6g;
#  - the sizes are nccl-tests' (b, b x f, ... while <= e, no extra e), as nccl-tests counts them
#    (all-gather: N blocks, so N x the request's SIZE); busbw = algbw x the collective's factor
#    (all-reduce 2(N-1)/N; broadcast 1; the others (N-1)/N), algbw = size / time;
#  - the footer: "# Out of bounds values : 0 OK" and "# Avg bus bandwidth    : X " with X the
#    mean busbw over both halves of every row (%g);
#  - -c 0 prints #wrong as N/A; -i steps in bytes; -n, -w, -z change no number;
#  - bad input, and perf's old letters (-c COLL, -n N for the nodes): one line on stderr, exit 2.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"

# L=1024: the star's workload is SIZE in messages of L bytes; up to -e 128M that is 2^17
# messages, under its cap of 2^22
STAR=(-t star --net tau=1e-8 --net D=1e-6 --net L=1024)
cases=("allreduce ring -t switch" "allgather ring -t ring" "reducescatter ring -t fattree"
       "alltoall pairwise -t switch" "broadcast tcp1 ${STAR[*]}" "scatter tcp1 ${STAR[*]}"
       "gather tcp1 ${STAR[*]}" "gossip tcp2 ${STAR[*]}")

# check.py JSON TEXT COLL N B E STEP BY_FACTOR CHECK: the text against nccl-tests' format
cat >"$T/check.py" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
coll, n = sys.argv[3], int(sys.argv[4])
b, e, step, by_factor, check = (int(x) for x in sys.argv[5:10])
factor = {"allreduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(coll, (n - 1) / n)
per_rank = coll in ("allgather", "gather", "scatter", "alltoall", "gossip")
bad = []

def float_str(value, width):  # nccl-tests' getFloatStr
    power, val = 0, 1
    while value >= val:
        power += 1
        val *= 10
    if power < width - 2: return "%*.2f" % (width, value)
    if power < width - 1: return "%*.1f" % (width, value)
    if power < width + 1: return "%*.0f" % (width, value)
    return "%*.1e" % (width, value)

want_head = [
    "#",
    "# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          " % ("", "", "", "", ""),
    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " % ("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw", "#wrong"),
    "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s " % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""),
]
at = next((i for i, l in enumerate(text) if l == want_head[1]), None)
if at is None or text[at - 1:at + 3] != want_head:
    bad.append("header %r" % (text[at - 1:at + 3] if at else text[:6]))
if not any(l.startswith("# nThread 1 nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: " % (n, b, e, step, "factor" if by_factor else "bytes")) for l in text):
    bad.append("no nThread line")
want_sizes, s = [], b
while s <= e:  # nccl-tests' loop, then opticoll's SIZE in whole floats
    block = s // n // 4 * 4 if per_rank else (s // n // 4 * 4 * n if coll == "reducescatter" else s // 4 * 4)
    if block and (not want_sizes or block * (n if per_rank else 1) > want_sizes[-1]):
        want_sizes.append(block * (n if per_rank else 1))
    s = s * step if by_factor else s + step
if abs(doc["busbw_factor"] - factor) > 1e-12:
    bad.append("factor %r, expected %r" % (doc["busbw_factor"], factor))
got = [r["size"] for r in doc["rows"]]
if got != want_sizes:
    bad.append("sizes %r, expected %r" % (got[:4], want_sizes[:4]))
rows = [l for l in text if l and not l.startswith("#")]
if len(rows) != len(doc["rows"]):
    bad.append("%d text rows, %d JSON rows" % (len(rows), len(doc["rows"])))
bws = []
for r, line in zip(doc["rows"], rows):
    if r.get("time_us") is None:
        bad.append("size %d not run: %s" % (r["size"], r.get("not_run")))
        continue
    alg = r["size"] / (r["time_us"] * 1e-6) / 1e9
    if abs(r["algbw_GBps"] - alg) > 1e-9 * alg or abs(r["busbw_GBps"] - alg * factor) > 1e-9 * alg:
        bad.append("size %d: algbw %r busbw %r, expected %r and %r" % (r["size"], r["algbw_GBps"], r["busbw_GBps"], alg, alg * factor))
    count = r["size"] // (n if per_rank or coll == "reducescatter" else 1) // 4
    root = 0 if coll in ("broadcast", "scatter", "gather") else -1
    if r["count"] != count or r["root"] != root or r["type"] != "float":
        bad.append("size %d: count %r root %r, expected %r %r" % (r["size"], r["count"], r["root"], count, root))
    if r["redop"] != ("sum" if coll in ("allreduce", "reducescatter") else "none"):
        bad.append("redop %r" % r["redop"])
    want = "%12d  %12d  %8s  %6s  %6s" % (r["size"], r["count"], "float", r["redop"], "%6i" % root)
    for half in ("out_of_place", "in_place"):
        h = r[half]
        want += "  %7s  %6s  %6s" % (float_str(h["time_us"], 7), float_str(h["algbw_GBps"], 6), float_str(h["busbw_GBps"], 6))
        want += "  %6g" % h["wrong"] if check else "    N/A"
        if (h["wrong"] is None) == bool(check) or (check and h["wrong"] != 0):
            bad.append("size %d %s: wrong %r" % (r["size"], half, h["wrong"]))
        bws.append(h["busbw_GBps"])
    if line != want:
        bad.append("row\n%r\nexpected\n%r" % (line, want))
avg = sum(bws) / len(bws) if bws else 0
foot = text[-3:]
want_foot = ["# %-20s : %d %s" % ("Out of bounds values", 0, "OK"), "# %-20s : %g %s" % ("Avg bus bandwidth", avg, ""), "#"]
if foot != want_foot:
    bad.append("footer %r, expected %r" % (foot, want_foot))
if abs(doc["avg_busbw_GBps"] - avg) > 1e-9 * max(avg, 1e-30):
    bad.append("JSON avg %r, expected %r" % (doc["avg_busbw_GBps"], avg))
print("\n".join(bad[:3]))
sys.exit(1 if bad else 0)
PY

layout() { # layout WHAT COLL N B E STEP BY_FACTOR CHECK ARGS...
    local what=$1 coll=$2 n=$3 b=$4 e=$5 step=$6 byf=$7 chk=$8
    shift 8
    run_tool "$@" --json
    cp "$T/out" "$T/json"
    run_tool "$@"
    if [ "$RC" -ne 0 ]; then
        fail "$what" "rc $RC" "$(cat "$T/err")"
        return
    fi
    if out=$(python3 "$T/check.py" "$T/json" "$T/out" "$coll" "$n" "$b" "$e" "$step" "$byf" "$chk"); then
        pass "$what: nccl-tests' layout column by column, busbw = algbw x factor, footer"
    else
        fail "$what" "$out"
    fi
}

for c in "${cases[@]}"; do
    read -r -a w <<<"$c"
    coll=${w[0]} algo=${w[1]}
    for n in 2 3 5 8; do
        layout "perf --collective $coll -a $algo ${w[*]:2} -g $n" "$coll" "$n" 8 134217728 2 1 1 \
            perf --collective "$coll" -a "$algo" "${w[@]:2}" -g "$n" -b 8 -e 128M -f 2
    done
done
# -i (a step in bytes), -c 0 (no check: N/A), --nodes; -n -w -z change no number
layout "perf -i 3000 -c 0 --nodes 7" allreduce 7 1000 20000 3000 0 0 \
    perf --collective allreduce -a rhd -t switch --nodes 7 -b 1000 -e 20000 -i 3000 -c 0
run_tool perf --collective allreduce -a ring -t switch -g 5 -b 1K -e 1M -f 4
cp "$T/out" "$T/plain"
run_tool perf --collective allreduce -a ring -t switch -g 5 -b 1K -e 1M -f 4 -n 3 -w 0 -z 1
if [ "$RC" -eq 0 ] && diff <(grep -v '^#' "$T/plain") <(grep -v '^#' "$T/out") >/dev/null &&
   grep -q "warmup iters: 0 iters: 3 " "$T/out" && grep -q "^# Blocking Enabled" "$T/out"; then
    pass "-n -w -z: printed in the header, no number changed"
else
    fail "-n -w -z" "rc $RC" "$(cat "$T/err")"
fi

refused() { # refused DESCRIPTION ARGS...
    local what=$1
    shift
    run_tool "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ]; then
        pass "refused: $what"
    else
        fail "refused: $what" "rc $RC" "$(cat "$T/err")"
    fi
}
P=(perf --collective allreduce -a ring)
refused "no -b" "${P[@]}" -g 4
refused "no -g" "${P[@]}" -b 8
refused "-e below -b" "${P[@]}" -g 4 -b 1K -e 8
refused "-f 1" "${P[@]}" -g 4 -b 8 -e 1K -f 1
refused "-f and -i" "${P[@]}" -g 4 -b 8 -e 1K -f 2 -i 8
refused "a size that is not one" "${P[@]}" -g 4 -b 8Q
refused "two node counts" "${P[@]}" -g 4,8 -b 8
refused "two algorithms" perf --collective allreduce -a ring,rd -g 4 -b 8
refused "-s (perf takes -b/-e)" "${P[@]}" -g 4 -s 8
refused "-w not a count" "${P[@]}" -g 4 -b 8 -w many
refused "-z 2" "${P[@]}" -g 4 -b 8 -z 2
refused "-c and --no-data-check" "${P[@]}" -g 4 -b 8 -c 0 --no-data-check
refused "the star without tau and D in seconds" perf --collective broadcast -a tcp1 -t star -g 4 -b 8
refused "no size holds a float per rank" perf --collective allgather -a ring -g 8 -b 8 -e 16
# perf's old letters: -c COLLECTIVE and -n NODES are refused with a line naming the new ones
refused "the old -c COLLECTIVE" perf -c allreduce -a ring -g 4 -b 8
grep -q -- "--collective allreduce" "$T/err" && pass "the old -c names --collective" ||
    fail "the old -c" "$(cat "$T/err")"
refused "the old -n NODES" perf --collective allreduce -a ring -n 4 -b 8
grep -q -- "-g N" "$T/err" && pass "the old -n names -g" || fail "the old -n" "$(cat "$T/err")"
finish
