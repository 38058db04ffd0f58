#!/usr/bin/env python3
"""star_fabric_gap.py — every collective on the passive optical star and the photonic fabric
against their proven physical bounds (src/bounds/bounds_star.c, bounds_fabric.c), over a grid of
node counts (odd, prime, powers), network settings and sizes. Every figure is a verified run of
TOOL (`compare --json`: every registered algorithm that runs there); nothing is copied.

  python3 scripts/star_fabric_gap.py [TOOL] [--star|--fabric] > table.md
  python3 scripts/star_fabric_gap.py --from=table.md    # the worst-point table of an earlier run

For each point: the best run by time and by steps, the bound's steps and time (and the argument
that gave the time), the ratios best / bound. A point where no algorithm runs says so. The last
lines list the points above 1.5x in steps or 3x in time.
"""
import json
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
TOOL = ARGS[0] if ARGS else "build/opticoll"
FROM = [a[len("--from="):] for a in sys.argv[1:] if a.startswith("--from=")]
ONLY = {a[2:] for a in sys.argv[1:] if a.startswith("--") and not a.startswith("--from=")}

STAR_NS = [2, 3, 5, 7, 8, 9, 12, 16, 17, 31, 64, 100]
STAR_NETS = ["k=1 D=1", "k=3 D=1", "k=3 D=100", "k=4 D=1"]
STAR_SIZES = ["1", "1KiB"]
STAR_COLLS = ["broadcast", "scatter", "gather", "alltoall", "gossip", "allgather", "allreduce",
              "reducescatter"]

FABRIC_NS = [2, 3, 5, 7, 8, 12, 16, 17, 31, 32, 64, 100]
FABRIC_NETS = ["", "mzi_degree=0", "mzi_split=1"]
FABRIC_SIZES = ["1KiB", "1MiB", "64MiB"]
FABRIC_COLLS = ["allgather", "reducescatter", "allreduce", "alltoall", "broadcast"]


def compare(coll, net, params, n, size):
    cmd = [TOOL, "compare", "-c", coll, "-t", net, "-n", str(n), "-s", size, "--json",
           "--no-data-check"]
    for p in params.split():
        cmd += ["--net", p]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:] or ["?"]
    runs = [r for r in json.loads(out.stdout) if r.get("verified") and "steps" in r]
    return runs, None


def main():
    print("| network | settings | collective | N | size | best by time (params) | steps | "
          "bound steps | steps / bound | time / bound | the time bound's argument |")
    print("|---|---|---|---:|---:|---|---:|---:|---:|---:|---|")
    far = []
    grids = []
    if not ONLY or "star" in ONLY:
        grids.append(("star", STAR_NETS, STAR_COLLS, STAR_NS, STAR_SIZES))
    if not ONLY or "fabric" in ONLY:
        grids.append(("fabric", FABRIC_NETS, FABRIC_COLLS, FABRIC_NS, FABRIC_SIZES))
    for net, settings, colls, ns, sizes in grids:
        for params in settings:
            for coll in colls:
                for n in ns:
                    for size in sizes:
                        runs, err = compare(coll, net, params, n, size)
                        if runs is None or not runs:
                            continue
                        best = min(runs, key=lambda r: r["time_s"])
                        fewest = min(r["steps"] for r in runs)
                        b = best["physical_bound"]
                        sr = fewest / b["steps"] if b["steps"] else 1.0
                        tr = best["to_physical_bound_ratio"]
                        pstr = " ".join("%s=%s" % kv for kv in best.get("params", {}).items())
                        row = "| %s | %s | %s | %d | %s | %s (%s) | %d | %d | %.2f | %.2f | %s |" % (
                            net, params or "defaults", coll, n, size, best["algorithm"], pstr,
                            best["steps"], b["steps"], sr, tr, b["time_argument"])
                        print(row)
                        sys.stdout.flush()
                        if sr > 1.5 or tr > 3:
                            far.append(row)
    print()
    print("Points above 1.5x in steps or 3x in time: %d" % len(far))
    for row in far:
        print(row)
    print()
    worst([line for line in printed])


def worst(rows):
    """The worst point of each (network, settings, collective, size), as docs/bounds-gap.md's
    tables: the largest steps / bound (its first N) and time / bound (its first N and the best
    algorithm there), in the order the rows came."""
    keys, worst_s, worst_t = [], {}, {}
    for row in rows:
        c = [x.strip() for x in row.strip().strip("|").split("|")]
        if len(c) != 11 or not c[3].isdigit():
            continue
        key = (c[0], c[1], c[2], c[4])
        n, algo, sr, tr = int(c[3]), c[5].split(" (")[0], float(c[8]), float(c[9])
        if key not in worst_s:
            keys.append(key)
            worst_s[key], worst_t[key] = (sr, n), (tr, n, algo)
        if sr > worst_s[key][0]:
            worst_s[key] = (sr, n)
        if tr > worst_t[key][0]:
            worst_t[key] = (tr, n, algo)
    print("| network | settings | collective | size | worst steps / bound (N) | "
          "worst time / bound (N: best there) |")
    print("|---|---|---|---:|---:|---|")
    for key in keys:
        (sr, sn), (tr, tn, algo) = worst_s[key], worst_t[key]
        print("| %s | %s | %s | %s | %.2f (%d) | %.2f (%d: %s) |" % (key + (sr, sn, tr, tn, algo)))


printed = []
if FROM:
    worst(open(FROM[0]).read().splitlines())
else:
    _print = print

    def print(*a, **k):  # noqa: A001  keep every printed row for the worst-point table
        printed.append(" ".join(str(x) for x in a))
        _print(*a, **k)

    main()
