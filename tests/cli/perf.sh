#!/usr/bin/env bash
# perf.sh TOOL [CLI_DIR] — `opticoll perf` (nccl-tests' report from the model): for every
# collective on N in {2, 3, 5, 8}, sizes 8 B to 128 MiB step x2 (-b 8 -e 128M -f 2):
#  - the text has nccl-tests' column header (size count type redop root time algbw busbw) and one
#    row per size that holds a float per rank, sizes as nccl-tests counts them (all-gather: N
#    blocks, so N x the request's SIZE);
#  - --json: every row's busbw = algbw x the collective's factor (all-reduce 2(N-1)/N; broadcast
#    1; the others (N-1)/N), algbw = size / time, count and root as nccl-tests has them, and the
#    text's rows are the JSON's rounded;
#  - bad input: one line on stderr, exit 2.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"

STAR=(-t star --net tau=1e-8 --net D=1e-6)
cases=("allreduce ring -t switch" "allgather ring -t ring" "reducescatter ring -t fattree"
       "alltoall pairwise -t switch" "broadcast tcp1 ${STAR[*]}" "scatter tcp1 ${STAR[*]}"
       "gather tcp1 ${STAR[*]}" "gossip tcp2 ${STAR[*]}")
for c in "${cases[@]}"; do
    read -r -a w <<<"$c"
    coll=${w[0]} algo=${w[1]}
    for n in 2 3 5 8; do
        what="perf -c $coll -a $algo ${w[*]:2} -n $n"
        args=(perf -c "$coll" -a "$algo" "${w[@]:2}" -n "$n" -b 8 -e 128M -f 2)
        run_tool "${args[@]}" --json
        cp "$T/out" "$T/json"
        run_tool "${args[@]}"
        if [ "$RC" -ne 0 ]; then
            fail "$what" "rc $RC" "$(cat "$T/err")"
            continue
        fi
        if out=$(python3 - "$T/json" "$T/out" "$coll" "$n" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
coll, n = sys.argv[3], int(sys.argv[4])
factor = {"allreduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(coll, (n - 1) / n)
per_rank = coll in ("allgather", "gather", "scatter", "alltoall", "gossip")
bad = []
head = [l for l in text if l.startswith("#") and "size" in l and "busbw" in l]
cols = head[0].lstrip("#").split() if head else []
if cols != ["size", "count", "type", "redop", "root", "time", "algbw", "busbw"]:
    bad.append("header %r" % cols)
rows = [l.split() for l in text if l and not l.startswith("#")]
want_sizes = []
s = 8
while s <= 128 << 20:
    block = s // n // 4 * 4 if per_rank else (s // n // 4 * 4 * n if coll == "reducescatter" else s // 4 * 4)
    if block and (not want_sizes or block * (n if per_rank else 1) > want_sizes[-1]):
        want_sizes.append(block * (n if per_rank else 1))
    s *= 2
if abs(doc["busbw_factor"] - factor) > 1e-12:
    bad.append("factor %r, expected %r" % (doc["busbw_factor"], factor))
got = [r["size"] for r in doc["rows"]]
if got != want_sizes:
    bad.append("sizes %r, expected %r" % (got[:4], want_sizes[:4]))
if len(rows) != len(doc["rows"]):
    bad.append("%d text rows, %d JSON rows" % (len(rows), len(doc["rows"])))
for r, t in zip(doc["rows"], rows):
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
    cells = [str(r["size"]), str(r["count"]), "float", r["redop"], str(root),
             "%.2f" % r["time_us"], "%.2f" % r["algbw_GBps"], "%.2f" % r["busbw_GBps"]]
    if t != cells:
        bad.append("text %r, JSON %r" % (t, cells))
print("\n".join(bad[:3]))
sys.exit(1 if bad else 0)
PY
        ); then
            pass "$what: columns, busbw = algbw x factor"
        else
            fail "$what" "$out"
        fi
    done
done

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
refused "no -b" perf -c allreduce -a ring -n 4
refused "no -n" perf -c allreduce -a ring -b 8
refused "-e below -b" perf -c allreduce -a ring -n 4 -b 1K -e 8
refused "-f 1" perf -c allreduce -a ring -n 4 -b 8 -e 1K -f 1
refused "a size that is not one" perf -c allreduce -a ring -n 4 -b 8Q
refused "two node counts" perf -c allreduce -a ring -n 4,8 -b 8
refused "two algorithms" perf -c allreduce -a ring,rd -n 4 -b 8
refused "-s (perf takes -b/-e)" perf -c allreduce -a ring -n 4 -s 8
refused "the star without tau and D in seconds" perf -c broadcast -a tcp1 -t star -n 4 -b 8
refused "no size holds a float per rank" perf -c allgather -a ring -n 8 -b 8 -e 16
finish
