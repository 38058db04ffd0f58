#!/usr/bin/env bash
# perf.sh MPIRUN_AND_FLAGS... -- OPTICOLL_MPI: `opticoll-mpi --perf` (nccl-tests' columns for
# measured runs) on 2, 3 and 5 ranks, every MPI collective, sizes of 1, 7 and 1025 floats:
#  - the text has nccl-tests' header (size count type redop root, then time algbw busbw for
#    "opticoll" and "MPI") and a row per case, size = ranks x block where the block is per rank;
#  - with --json every case's "perf" has busbw = algbw x the collective's factor (all-reduce
#    2(n-1)/n, broadcast 1, the others (n-1)/n) and algbw = size / time, for both groups.
set -u
mpirun=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do mpirun+=("$1"); shift; done
shift
tool=$1
status=0
for np in 2 3 5; do
    args=(--perf --sizes 4B,28B,4100B --repeats 1 --warmup 0)
    # stdout only: the ranks' notes on stderr (a skipped algorithm) could land inside a line
    err=$(mktemp)
    text=$("${mpirun[@]}" "$np" "$tool" "${args[@]}" 2>"$err") || { cat "$err"; status=1; }
    json=$("${mpirun[@]}" "$np" "$tool" "${args[@]}" --json 2>"$err") || { cat "$err"; status=1; }
    rm -f "$err"
    python3 - "$np" "$text" "$json" <<'PY' || status=1
import json, sys
n, text, doc = int(sys.argv[1]), sys.argv[2].splitlines(), json.loads(sys.argv[3])
bad = []
heads = [l.lstrip("#").split() for l in text if l.startswith("#") and " count " in l]
want = ["size", "count", "type", "redop", "root"] + ["time", "algbw", "busbw"] * 2
if not heads or any(h != want for h in heads):
    bad.append("header %r" % (heads[:1],))
groups = [l.split() for l in text if l.startswith("#") and "opticoll" in l and "MPI" in l]
if len(groups) != len(heads):
    bad.append("group titles: %d for %d headers" % (len(groups), len(heads)))
rows = [l.split() for l in text if l[:1] == " " and len(l.split()) == 11]
cases = [c for c in doc if c["check"] == "ok"]
if len(rows) < len(cases) or not cases:
    bad.append("%d rows for %d checked cases" % (len(rows), len(cases)))
for c in cases:
    coll = c["collective"]
    f = {"allreduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(coll, (n - 1) / n)
    p = c["perf"]
    per = coll in ("allgather", "gather", "scatter", "alltoall")
    size = c["bytes"] * (n if per else 1)
    if p["size"] != size or abs(p["busbw_factor"] - f) > 1e-12:
        bad.append("%s %s: size %r factor %r, expected %r %r" % (coll, c["algorithm"], p["size"], p["busbw_factor"], size, f))
    for g, t in (("opticoll", c["opticoll_s"]), ("mpi", c["mpi_s"])):
        alg = size / t / 1e9
        q = p[g]
        if abs(q["time_us"] - t * 1e6) > 1e-9 * t * 1e6 or abs(q["algbw_GBps"] - alg) > 1e-9 * alg \
                or abs(q["busbw_GBps"] - alg * f) > 1e-9 * alg:
            bad.append("%s %s %s: %r" % (coll, c["algorithm"], g, q))
if bad:
    print("np %d: " % n + "\n".join(bad[:5]))
    sys.exit(1)
print("np %d: %d headers, %d cases: columns and busbw = algbw x factor" % (n, len(heads), len(cases)))
PY
done
exit $status
