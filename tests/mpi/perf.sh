#!/usr/bin/env bash
# perf.sh MPIRUN_AND_FLAGS... -- OPTICOLL_MPI: `opticoll-mpi --perf` (nccl-tests' report for
# measured runs) on 2, 3 and 5 ranks, every MPI collective, sizes of 1, 7 and 1025 floats:
#  - the text has nccl-tests' header (size count type redop root, then time algbw busbw #wrong for
#    out-of-place and in-place, as nccl-tests, then for MPI's own collective and the model) and a
#    row per case, size = ranks x block where the block is per rank, #wrong 0; nccl-tests'
#    footer ("# Out of bounds values : 0 OK", "# Avg bus bandwidth    : X") after each table;
#  - with --json every case's "perf" has busbw = algbw x the collective's factor (all-reduce
#    2(n-1)/n, broadcast 1, the others (n-1)/n) and algbw = size / time, for every group, and the
#    out-of-place and MPI times are the case's own;
#  - nccl-tests' -b -e -f -n -w give the sizes (the whole operation's, mapped per collective)
#    and the repeats; a dropped transfer shows as #wrong > 0 and "FAILED" in the footer.
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
want = ["size", "count", "type", "redop", "root"] + ["time", "algbw", "busbw", "#wrong"] * 4
if not heads or any(h != want for h in heads):
    bad.append("header %r" % (heads[:1],))
groups = [l.split() for l in text if l.startswith("#") and "out-of-place" in l and "MPI" in l]
if len(groups) != len(heads) or any(g != ["#", "out-of-place", "in-place", "MPI", "model"] for g in groups):
    bad.append("group titles: %r for %d headers" % (groups[:1], len(heads)))
feet = [l for l in text if l.startswith("# Out of bounds values : ")]
if len(feet) != len(heads) or any(f != "# Out of bounds values : 0 OK" for f in feet) or \
        len([l for l in text if l.startswith("# Avg bus bandwidth    : ")]) != len(heads):
    bad.append("footers %r" % feet[:2])
rows = [l.split() for l in text if l[:1] == " " and len(l.split()) == 21]
if any(r[8] != "0" or r[12] != "0" for r in rows if r[5] != "-"):
    bad.append("#wrong not 0: %r" % rows[:1])
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
    for g, t in (("out_of_place", c["opticoll_s"]), ("mpi", c["mpi_s"]),
                 ("in_place", None), ("model", None)):
        q = p[g]
        if q["time_us"] is None:
            continue
        t = q["time_us"] * 1e-6 if t is None else t
        alg = size / t / 1e9
        if abs(q["time_us"] - t * 1e6) > 1e-9 * t * 1e6 or abs(q["algbw_GBps"] - alg) > 1e-9 * alg \
                or abs(q["busbw_GBps"] - alg * f) > 1e-9 * alg:
            bad.append("%s %s %s: %r" % (coll, c["algorithm"], g, q))
    if p["out_of_place"]["wrong"] != 0 or p["mpi"]["wrong"] is not None:
        bad.append("%s %s: wrong %r" % (coll, c["algorithm"], p))
if bad:
    print("np %d: " % n + "\n".join(bad[:5]))
    sys.exit(1)
print("np %d: %d headers, %d cases: columns and busbw = algbw x factor" % (n, len(heads), len(cases)))
PY
done
# nccl-tests' letters: -b 8 -e 8K -f 4 is 8, 32, ..., 8192 bytes of the whole operation
text=$("${mpirun[@]}" 3 "$tool" --perf --collectives allreduce,allgather --algorithms ring \
       -b 8 -e 8K -f 4 -n 1 -w 0 2>/dev/null) || status=1
python3 - "$text" <<'PY' || status=1
import sys
text = sys.argv[1].splitlines()
rows = [l.split() for l in text if l[:1] == " " and len(l.split()) == 21]
sizes = [int(r[0]) for r in rows]
# all-reduce: 8 32 128 512 2048 8192; all-gather on 3 ranks: whole floats per rank (12 ... 8184)
want = [8, 32, 128, 512, 2048, 8192] + [s // 3 // 4 * 4 * 3 for s in (32, 128, 512, 2048, 8192)]
if sizes != want or "warmup iters: 0 iters: 1 " not in sys.argv[1]:
    print("-b -e -f: sizes %r, expected %r" % (sizes, want))
    sys.exit(1)
print("-b -e -f -n -w: nccl-tests' sizes and iterations")
PY
# a dropped transfer: #wrong counts the wrong elements and the footer says FAILED
text=$("${mpirun[@]}" 2 "$tool" --perf --collectives allgather --algorithms ring -b 64 -e 64 \
       -n 1 -w 0 --drop-transfer 0:0 2>/dev/null)
python3 - "$text" <<'PY' || status=1
import sys
text = sys.argv[1].splitlines()
rows = [l.split() for l in text if l[:1] == " " and len(l.split()) == 21]
foot = [l for l in text if l.startswith("# Out of bounds values : ")]
if not rows or int(rows[0][8]) <= 0 or not foot or not foot[0].endswith("FAILED") or \
        int(foot[0].split(":")[1].split()[0]) <= 0:
    print("drop: rows %r footer %r" % (rows, foot))
    sys.exit(1)
print("a dropped transfer: #wrong %s, footer %r" % (rows[0][8], foot[0]))
PY
exit $status
