#!/usr/bin/env python3
"""optree_survey.py — how long OpTree's all-gather radix search takes over its settings (issue
31, item 3: "no search over 5 s at N <= 4096", and pinned k within 2x of the unpinned search).
Not a timed test: a survey to find the slow corners, and a record of what each run chose.

  python3 scripts/optree_survey.py [--bin build/opticoll] [--out optree.csv] [--limit 60]

For N in {97, 1000, 1024, 4093 (prime), 4096}, k unset or pinned to 2, 3, 5 and the deepest
(floor(log2 2N)), the ring at w = 1, 3, 64 wavelengths, 1 and 2 fibres, spread = 1 and 0, and
blocks of 4 KiB and 256 MiB (a grid, not every combination: see cases()), it runs `opticoll run
-c allgather -a optree` with the real-data run off and records the run's CPU time (user + system
of the child), the radices chosen, the steps, the time and the search's mapped count. A run over
--limit seconds of CPU is stopped (RLIMIT_CPU) and recorded as such. Rows over 5 s of CPU are
printed at the end.
"""
import argparse
import csv
import json
import math
import resource
import subprocess
import sys
import time

FIELDS = ["nodes", "k", "w", "fibres", "spread", "size", "rc", "cpu_s", "wall_s", "radices",
          "steps", "time_s", "mapped", "note"]


def deepest(n):
    return int(math.floor(math.log2(2 * n)))


def cases():
    """The grid: every N and k at the seed ring (w = 64) with 4 KiB, then each other setting
    alone (w = 1 and 3, 2 fibres, spread = 0, 256 MiB) at every N and k."""
    for n in (97, 1000, 1024, 4093, 4096):
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/opticoll")
    ap.add_argument("--out", default="-")
    ap.add_argument("--limit", type=int, default=60)
    args = ap.parse_args()
    out = open(args.out, "w", newline="") if args.out != "-" else sys.stdout
    w = csv.DictWriter(out, fieldnames=FIELDS)
    w.writeheader()
    slow = []
    for n, k, wl, fibres, spread, size in cases():
        cmd = [args.bin, "run", "-c", "allgather", "-a", "optree", "-t", "ring", "-n", str(n),
               "-s", size, "-w", str(wl), "--net", "fibres=%d" % fibres, "--net",
               "spread=%d" % spread, "--no-data-check", "--json", "-q"]
        if k:
            cmd += ["-p", "k=%d" % k]
        rc, cpu, wall, so, se = timed(cmd, args.limit)
        row = {"nodes": n, "k": k or "", "w": wl, "fibres": fibres, "spread": spread,
               "size": size, "rc": rc, "cpu_s": "%.2f" % cpu, "wall_s": "%.2f" % wall,
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
    main()
