#!/usr/bin/env python3
"""circulant_two_step.py — a two-round circulant all-gather on the WDM ring, written as a
schedule file for `opticoll verify`: the evidence that the exact tree-length bound of 2 steps is
met where every registered algorithm takes more (docs/bounds-gap.md: N = 17, w = 8).

  python3 scripts/circulant_two_step.py N W OUT.json    then   opticoll verify OUT.json

Every block follows the same tree, rotated to its source and mirrored both ways round the ring:
in round 1 the source sends its block to the offsets +-a for a in A; in round 2 every other
offset k gets it from the nearest holder (0 or +-A). By the rotation every directed link carries,
in each round, the sum of that round's arc lengths in its direction, so a round fits one step
when that sum is at most w (F = 1) and the model can colour the arcs. The script tries every
A in 1..floor(N/2) (small N only) and keeps the one with the smaller larger load; `verify`
decides whether the model's colouring really takes two steps. Nothing here is registered: it is
a hand construction, not an algorithm of the library.
"""
import json
import sys


def plan(N, w):
    M = N // 2
    best = None
    for mask in range(1 << M):
        A = [a + 1 for a in range(M) if mask >> a & 1]
        holders = [0] + A + [-a for a in A]
        loads = [[0, 0], [0, 0]]  # [round][cw, ccw]
        arcs = [[], []]

        def add(rnd, src, dst):
            d = (dst - src) % N
            if d <= N - d:
                loads[rnd][0] += d
            else:
                loads[rnd][1] += N - d
            arcs[rnd].append((src, dst))

        for a in A:
            add(0, 0, a)
            if (-a) % N != a % N:
                add(0, 0, -a)
        done = {x % N for x in holders}
        for k in range(1, M + 1):
            for t in ((k, -k) if (-k) % N != k % N else (k,)):
                if t % N in done:
                    continue
                h = min(holders, key=lambda x: (min((t - x) % N, (x - t) % N), abs(x)))
                add(1, h, t)
        worst = max(max(loads[0]), max(loads[1]))
        if best is None or worst < best[0]:
            best = (worst, A, arcs)
    return best


def main():
    N, w, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    worst, A, arcs = plan(N, w)
    rounds = [[{"src": (r + s) % N, "dst": (r + d) % N, "op": "copy", "chunks": [r, 1]}
               for r in range(N) for s, d in arcs[i]] for i in range(2)]
    json.dump({"format": "opticoll-schedule", "version": 1, "collective": "allgather",
               "nodes": N, "bytes": 4 << 20, "network": "ring",
               "network_params": {"wavelengths": w}, "rounds": rounds}, open(out, "w"))
    print("N=%d w=%d: A = %s, the busier round's load %d a link (w = %d)" % (N, w, A, worst, w))


main()
