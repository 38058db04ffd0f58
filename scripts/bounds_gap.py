#!/usr/bin/env python3
"""bounds_gap.py — the all-gather steps of the new ring algorithms (bidir, stride, multilevel,
bistride, comb, circulant) and of the
best seed algorithm against the ring's simple proven bounds, over a grid of N and w (F = 1, and
F = 2 at a few points). Every figure is a verified run of build/opticoll; nothing is copied.

  python3 scripts/bounds_gap.py [TOOL] > docs/bounds-gap-table.md

Bounds (steps, all-gather, one block a node, F fibres a direction, w wavelengths):
  receive  ceil((N-1) / (2 F w))      every node takes in N-1 blocks over its 2 F w slots a step
  depth    ceil(log_{2Fw+1} N)        one step reaches at most 2 F w new holders per holder
  path     ceil((N-1 + floor(N/2)) / (2 F w + 1))   docs/bounds-gap.md: a block's tree has
           N-1 arcs and the one to the far node has >= floor(N/2) - S extra links
  proven   the library's physical bound (`physical_bound.steps` of any run's --json): the largest
           of every argument in src/bounds/bounds_ring.c, the exact tree length E(N, S) among them
Seed algorithms: `compare` (every registered ring all-gather but the NEW ones) where N <= 1024;
at N = 4096 the seed algorithms that are fast enough to run there (ring, ne, optree).
"""
import json
import math
import subprocess
import sys

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build/opticoll"
NS = [16, 17, 31, 64, 100, 256, 1000, 1024, 4096]
WS = [1, 2, 3, 4, 8, 16, 64, 128]
EXTRA = [(1024, 8, 2), (1024, 64, 2), (256, 16, 2), (4096, 64, 2)]
NEW = ("bidir", "stride", "multilevel", "bistride", "comb", "circulant")


def run_json(args):
    out = subprocess.run([TOOL] + args + ["--json", "--no-data-check"], capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        return None
    data = json.loads(out.stdout)
    return data if isinstance(data, list) else [data]


def bounds(N, w, F):
    C = F * w
    receive = math.ceil((N - 1) / (2 * C))
    depth = 0
    reach = 1
    while reach < N:
        reach *= 2 * C + 1
        depth += 1
    path = math.ceil((N - 1 + N // 2) / (2 * C + 1))
    return receive, depth, path


def net(w, F):
    return ["-t", "ring", "-w", str(w), "--net", "fibres=%d" % F]


def main():
    rows = []
    cases = [(N, w, 1) for N in NS for w in WS] + EXTRA
    print("| N | w | F | receive | depth | path | bidir | stride (L) | multilevel (radices) "
          "| bistride (L) | comb | circulant (depth) | best seed (name) | proven | best new / max(receive, depth) "
          "| best / proven |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for N, w, F in cases:
        receive, depth, path = bounds(N, w, F)
        base = ["-c", "allgather", "-n", str(N), "-s", "4MiB"] + net(w, F)
        got = {}
        proven = None
        for a in NEW:
            r = run_json(["run", "-a", a] + base)
            if r:
                proven = r[0]["physical_bound"]["steps"]
                p = r[0]["params"]
                got[a] = (r[0]["steps"], p.get("stride", p.get("radices", p.get("depth", ""))))
        seeds = {}
        if N <= 1024:
            r = run_json(["compare"] + base) or []
            for x in r:
                if x.get("algorithm") not in NEW and x.get("verified") and "steps" in x:
                    seeds[x["algorithm"]] = x["steps"]
        else:
            for a in ("ring", "ne", "optree"):
                r = run_json(["run", "-a", a] + base)
                if r:
                    seeds[a] = r[0]["steps"]
        best_seed = min(seeds.items(), key=lambda kv: kv[1]) if seeds else ("-", 0)
        simple = max(receive, depth)
        mine = min(v[0] for v in got.values())
        allbest = min([v[0] for v in got.values()] + [best_seed[1]] if best_seed[1] else
                      [v[0] for v in got.values()])
        print("| %d | %d | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %d | %.2f | %.2f |" % (
            N, w, F, receive, depth, path, got.get("bidir", ("-",))[0],
            "%d (%s)" % got["stride"] if "stride" in got else "-",
            "%d (%s)" % got["multilevel"] if "multilevel" in got else "-",
            "%d (%s)" % got["bistride"] if "bistride" in got else "-",
            got.get("comb", ("-",))[0],
            "%d (%s)" % got["circulant"] if "circulant" in got else "-",
            "%d (%s)" % (best_seed[1], best_seed[0]), proven, mine / simple if simple else 0,
            allbest / proven))
        sys.stdout.flush()


main()
