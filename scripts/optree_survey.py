#!/usr/bin/env python3
"""optree_survey.py — how long OpTree's all-gather radix search takes over its settings (issue
31, item 3: "no search over 5 s at N <= 4096", and pinned k within 2x of the unpinned search).
Not a timed test: a survey to find the slow corners, and a record of what each run chose.

  python3 scripts/optree_survey.py [--bin build/opticoll] [--out optree.csv] [--limit 60]
                                   [--grid settings|spread0|pinned] [--nodes 100,257]
  python3 scripts/optree_survey.py --diff BEFORE.csv AFTER.csv

Grids (see cases()):
  settings (the default): N in {97, 1000, 1024, 4093 (prime), 4096}, k unset or pinned to 2, 3,
    5 and the deepest (floor(log2 2N)), the ring at w = 1, 3, 64 wavelengths, 1 and 2 fibres,
    spread = 1 and 0, blocks of 4 KiB and 256 MiB (each setting alone beside w = 64, 4 KiB);
  spread0: the ring's spread=0 at N in {100, 257, 1000, 1024, 4093, 4096}, w = 1, 8, 64, blocks
    of 1 KiB, 4 MiB and 256 MiB, k unset or pinned to 2 and 3 (every combination);
  pinned: spread=1, 4 MiB, w = 64, N in {1000, 4096, 65536}, k unset and pinned to 2 .. 6.
Each case runs `opticoll run -c allgather -a optree` with the real-data run off and records the
run's CPU time (user + system of the child), the load average when it started, the radices
chosen, the steps, the time and the search's mapped count. A run over --limit seconds of CPU is
stopped (RLIMIT_CPU) and recorded as such. Rows over 5 s of CPU are printed at the end.
--diff lists every case both files finished whose radices, steps or time differ, and the cases
one of them did not finish.
"""
import argparse
import csv
import json
import math
import os
import resource
import subprocess
import sys
import time

FIELDS = ["nodes", "k", "w", "fibres", "spread", "size", "rc", "cpu_s", "wall_s", "load",
          "radices", "steps", "time_s", "mapped", "note"]
KEY = ["nodes", "k", "w", "fibres", "spread", "size"]


def deepest(n):
    return int(math.floor(math.log2(2 * n)))


def cases(grid, nodes):
    """The grid: see the module's text."""
    if grid == "spread0":
        for n in nodes or (100, 257, 1000, 1024, 4093, 4096):
            for k in (None, 2, 3):
                for wl in (1, 8, 64):
                    for size in ("1KiB", "4MiB", "256MiB"):
                        yield n, k, wl, 1, 0, size
        return
    if grid == "pinned":
        for n in nodes or (1000, 4096, 65536):
            for k in (None, 2, 3, 4, 5, 6):
                yield n, k, 64, 1, 1, "4MiB"
        return
    for n in nodes or (97, 1000, 1024, 4093, 4096):
        for k in (None, 2, 3, 5, deepest(n)):
            yield n, k, 64, 1, 1, "4KiB"
            yield n, k, 1, 1, 1, "4KiB"
            yield n, k, 3, 1, 1, "4KiB"
            yield n, k, 64, 2, 1, "4KiB"
            yield n, k, 64, 1, 0, "4KiB"
            yield n, k, 64, 1, 0, "256MiB"
            yield n, k, 64, 1, 1, "256MiB"


def limit_cpu(seconds):
    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))
    return apply


def timed(cmd, limit):
    """(returncode, cpu seconds, wall seconds, stdout, stderr) of one child."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=limit_cpu(limit),
                       check=False)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.returncode, cpu, wall, p.stdout, p.stderr


def diff(before_path, after_path):
    """Prints the cases whose answer differs, or that only one file finished; 1 if any differ."""
    def load(path):
        with open(path, newline="") as f:
            return {tuple(r[k] for k in KEY): r for r in csv.DictReader(f)}
    before, after = load(before_path), load(after_path)
    differ = same = unfinished = 0
    for key, b in before.items():
        a = after.get(key)
        if a is None:
            continue
        label = "N=%s k=%s w=%s F=%s spread=%s %s" % key
        if b["rc"] != "0" or a["rc"] != "0":
            unfinished += 1
            print("%s: not both finished (before rc %s %s s, after rc %s %s s)" %
                  (label, b["rc"], b["cpu_s"], a["rc"], a["cpu_s"]))
            continue
        if (b["radices"], b["steps"], b["time_s"]) != (a["radices"], a["steps"], a["time_s"]):
            differ += 1
            print("%s: DIFFERS before %s %s steps %s s, after %s %s steps %s s" %
                  (label, b["radices"], b["steps"], b["time_s"], a["radices"], a["steps"],
                   a["time_s"]))
        else:
            same += 1
    print("same answer: %d, different: %d, not both finished: %d" % (same, differ, unfinished))
    return 1 if differ else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/opticoll")
    ap.add_argument("--out", default="-")
    ap.add_argument("--limit", type=int, default=60)
    ap.add_argument("--grid", default="settings", choices=("settings", "spread0", "pinned"))
    ap.add_argument("--nodes", default="", help="comma-separated N (default: the grid's)")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.diff:
        return diff(*args.diff)
    nodes = [int(x) for x in args.nodes.split(",") if x]
    out = open(args.out, "w", newline="") if args.out != "-" else sys.stdout
    w = csv.DictWriter(out, fieldnames=FIELDS)
    w.writeheader()
    slow = []
    for n, k, wl, fibres, spread, size in cases(args.grid, nodes):
        cmd = [args.bin, "run", "-c", "allgather", "-a", "optree", "-t", "ring", "-n", str(n),
               "-s", size, "-w", str(wl), "--net", "fibres=%d" % fibres, "--net",
               "spread=%d" % spread, "--no-data-check", "--json", "-q"]
        if k:
            cmd += ["-p", "k=%d" % k]
        load = os.getloadavg()[0]
        rc, cpu, wall, so, se = timed(cmd, args.limit)
        row = {"nodes": n, "k": k or "", "w": wl, "fibres": fibres, "spread": spread,
               "size": size, "rc": rc, "cpu_s": "%.2f" % cpu, "wall_s": "%.2f" % wall,
               "load": "%.1f" % load,
               "radices": "", "steps": "", "time_s": "", "mapped": "", "note": ""}
        if rc == 0:
            d = json.loads(so)
            row["radices"] = (d.get("params") or {}).get("radices", "")
            row["steps"] = d.get("steps")
            row["time_s"] = repr(d.get("time_s"))
            row["mapped"] = (d.get("search") or {}).get("mapped", "")
        elif rc < 0:
            row["note"] = "stopped at the CPU limit" if -rc in (9, 24) else "signal %d" % -rc
        else:
            row["note"] = (se.strip().splitlines() or [""])[-1][:160]
        w.writerow(row)
        out.flush()
        if cpu > 5 or rc:
            slow.append(row)
    print("rows over 5 s of CPU or failed: %d" % len(slow), file=sys.stderr)
    for r in slow:
        print("  N=%s k=%s w=%s F=%s spread=%s %s: %s s (%s)" %
              (r["nodes"], r["k"] or "-", r["w"], r["fibres"], r["spread"], r["size"],
               r["cpu_s"], r["note"] or r["radices"]), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
