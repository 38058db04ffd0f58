#!/usr/bin/env python3
"""allreduce_gap.py — the all-reduce on the WDM ring against issue 26's time bound, over N in
{16, 100, 1024, 4096}, w in {1, 8, 64} (F = 1), d = 4 MiB and 1 KiB. Every figure is a verified
run of build/opticoll (`compare` where N <= 1024; at N = 4096 `run` of the new algorithms,
circulant and circpipe among them, and of the seed all-reduces fast enough there, dbtree among
them); nothing is copied.

  python3 scripts/allreduce_gap.py [TOOL]

The time bound (issue 26): ceil(log_{2Fw+1} N) steps' fixed cost (the reconfiguration, read from
the run's own figures) plus (N-1) d / (N F w) bytes at one wavelength's rate with its O/E/O (the
run's per-byte transmission and O/E/O times, also from its figures). Its proof is not this
script's (the bounds branch owns it); it is the yardstick the issue sets. Beside it, the
library's proven time bound (`physical_bound.time_s` of the runs' --json: src/bounds/bounds_ring.c,
the reduction spread among its arguments) and the best's ratio to it.
"""
import json
import subprocess
import sys

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build/opticoll"
NS = [16, 100, 1024, 4096]
WS = [1, 8, 64]
DS = [("4MiB", 4 << 20), ("1KiB", 1024)]
NEW = ("bidir", "stride", "multilevel", "bistride", "circulant", "circpipe")
AT_4096 = NEW + ("ring", "hring", "rhd", "wrht", "dbtree")


def run_json(args, timeout=120):
    try:
        out = subprocess.run([TOOL] + args + ["--json", "--no-data-check"], capture_output=True,
                             text=True, check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if out.returncode != 0:
        return None
    data = json.loads(out.stdout)
    return data if isinstance(data, list) else [data]


def depth(N, C):
    k, reach = 0, 1
    while reach < N:
        reach *= 2 * C + 1
        k += 1
    return k


def main():
    print("| N | w | d | issue's bound | proven bound | best (name, params) | ratio (issue's) "
          "| ratio (proven) | best new (name) | ratio (proven) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for N in NS:
        for w in WS:
            for dname, d in DS:
                base = ["-c", "allreduce", "-n", str(N), "-s", dname, "-t", "ring", "-w", str(w)]
                res = []
                if N <= 1024:
                    res = [x for x in (run_json(["compare"] + base, 600) or [])
                           if x.get("verified") and "time_s" in x]
                else:
                    for a in AT_4096:
                        r = run_json(["run", "-a", a] + base)
                        if r:
                            res.append(r[0])
                if not res:
                    print("| %d | %d | %s | - | - | none ran | - | - | - | - |" % (N, w, dname))
                    continue
                fig = res[0]["figures"]
                chunk = res[0]["chunk_bytes"]
                per_byte = (fig["step_oeo_s"] + fig["step_transmission_s"]) / chunk
                bound = depth(N, w) * fig["step_reconfig_s"] + (N - 1) * d / (N * w) * per_byte
                best = min(res, key=lambda x: x["time_s"])
                new = [x for x in res if x["algorithm"] in NEW]
                bnew = min(new, key=lambda x: x["time_s"]) if new else None

                def show(x):
                    p = " ".join("%s=%s" % kv for kv in x.get("params", {}).items())
                    return "%s %s (%s%s)" % (fmt(x["time_s"]), "", x["algorithm"],
                                             ", " + p if p else "")
                proven = res[0]["physical_bound"]["time_s"]
                print("| %d | %d | %s | %s | %s | %s | %.2f | %.2f | %s | %s |" % (
                    N, w, dname, fmt(bound), fmt(proven), show(best), best["time_s"] / bound,
                    best["time_s"] / proven, show(bnew) if bnew else "-",
                    "%.2f" % (bnew["time_s"] / proven) if bnew else "-"))
                sys.stdout.flush()


def fmt(t):
    if t >= 1e-3:
        return "%.3f ms" % (t * 1e3)
    return "%.1f us" % (t * 1e6)


main()
