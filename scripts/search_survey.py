#!/usr/bin/env python3
"""search_survey.py — how long the default parameter search takes (issue 31, item 3: "no search
over 5 s at N <= 4096 on any network for any size"). Not a timed test: a survey to find the slow
corners, and a record of what each run chose, so that a change to the search can be checked to
choose the same point at the same cost.

  python3 scripts/search_survey.py [--bin build/opticoll] [--out survey.csv] [--limit 120]
  python3 scripts/search_survey.py --rows before.csv --min-cpu 2 --out after.csv
      (the cases of an earlier survey that took 2 s or more, again)
  python3 scripts/search_survey.py --diff before.csv after.csv
      (the same choices? the slow rows side by side)

For every algorithm x every network `opticoll list` says it supports, at N in {97, 1000, 4096}
and SIZE in {4KiB, 256MiB} (plus the corners the issue names: hring at w=3, the fabric with
mzi_split=1, OpTree with k pinned at N = 65536), it runs `opticoll run` with nothing pinned (the
default search), the real-data run off (the search is what is surveyed; the symbolic verifier and
the resource check still run), and records the run's CPU time (user + system of the child,
from getrusage), its wall time, its exit status and, from --json, the parameters chosen, the
steps and the time. A run over --limit seconds of CPU is stopped (RLIMIT_CPU) and recorded as
such. The CPU time is the whole run's: the search plus the final verified run of the winner; a
row's `search_cpu_s` subtracts the same run with the chosen parameters pinned (only where the
whole run is over 2 s: below that nothing is slow).

--diff prints every row whose exit status, parameters, steps or time differ between two surveys
(nothing but the CPU columns should), then the rows over 5 s in either, side by side.
"""
import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time

NODES = [97, 1000, 4096]
SIZES = ["4KiB", "256MiB"]
FIELDS = ["collective", "algorithm", "network", "nodes", "size", "extra", "rc", "cpu_s",
          "wall_s", "search_cpu_s", "params", "steps", "time_s", "note"]


def algorithms(tool):
    """(collective, algorithm, [networks]) from `opticoll list`."""
    out = subprocess.run([tool, "list"], capture_output=True, text=True, check=True).stdout
    rows, on = [], False
    for line in out.splitlines():
        if line.startswith("algorithms"):
            on = True
            continue
        if not on or not line.startswith("  "):
            continue
        parts = line.split()
        if len(parts) >= 3:
            rows.append((parts[0], parts[1], parts[2].split(",")))
    return rows


def cases(tool):
    for coll, algo, nets in algorithms(tool):
        for net in nets:
            for n in NODES:
                for size in SIZES:
                    yield coll, algo, net, n, size, []
    # the corners issue 31 names
    for n in NODES:
        for size in SIZES:
            yield "allreduce", "hring", "ring", n, size, ["-w", "3"]
            for coll, algo in (("allreduce", "rhd"), ("allreduce", "sipco"),
                               ("allgather", "rd"), ("allreduce", "dbtree"),
                               ("allreduce", "ring")):
                yield coll, algo, "fabric", n, size, ["--net", "mzi_split=1"]
    yield "allreduce", "dbtree", "fattree", 97, "1GiB", []
    for k in ("4", "8"):
        yield "allgather", "optree", "ring", 65536, "4MiB", ["-p", "k=" + k]
    yield "allgather", "optree", "ring", 65536, "4MiB", []


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


def rows_of(path, min_cpu):
    """The cases of an earlier survey whose run took at least min_cpu seconds."""
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if float(r["cpu_s"]) >= min_cpu:
                yield (r["collective"], r["algorithm"], r["network"], int(r["nodes"]), r["size"],
                       r["extra"].split() if r["extra"] else [])


def survey(args):
    out = open(args.out, "w", newline="") if args.out != "-" else sys.stdout
    w = csv.DictWriter(out, fieldnames=FIELDS)
    w.writeheader()
    todo = rows_of(args.rows, args.min_cpu) if args.rows else cases(args.bin)
    for coll, algo, net, n, size, extra in todo:
        base = [args.bin, "run", "-c", coll, "-a", algo, "-t", net, "-n", str(n), "-s", size,
                "--no-data-check", "--json"] + extra
        rc, cpu, wall, so, se = timed(base, args.limit)
        row = {"collective": coll, "algorithm": algo, "network": net, "nodes": n, "size": size,
               "extra": " ".join(extra), "rc": rc, "cpu_s": "%.2f" % cpu, "wall_s": "%.2f" % wall,
               "search_cpu_s": "", "params": "", "steps": "", "time_s": "", "note": ""}
        if rc == 0:
            d = json.loads(so)
            params = d.get("params") or {}
            row["params"] = " ".join("%s=%s" % kv for kv in sorted(params.items()))
            row["steps"] = d.get("steps")
            row["time_s"] = repr(d.get("time_s"))
            if cpu > 2 and params:
                pinned = list(base)
                for k, v in sorted(params.items()):
                    pinned += ["-p", "%s=%s" % (k, v)]
                prc, pcpu, _, _, _ = timed(pinned, args.limit)
                if prc == 0:
                    row["search_cpu_s"] = "%.2f" % max(0.0, cpu - pcpu)
        elif rc < 0:
            row["note"] = "stopped at the CPU limit" if -rc in (9, 24) else "signal %d" % -rc
        else:
            row["note"] = (se.strip().splitlines() or [""])[-1][:160]
        w.writerow(row)
        out.flush()


def read(path):
    with open(path, newline="") as f:
        return {(r["collective"], r["algorithm"], r["network"], r["nodes"], r["size"],
                 r["extra"]): r for r in csv.DictReader(f)}


def diff(a_path, b_path):
    a, b = read(a_path), read(b_path)
    same = 0
    for key in a:
        if key not in b:
            continue
        ra, rb = a[key], b[key]
        fields = ("rc", "params", "steps", "time_s")
        if ra["rc"] in ("-9", "-24") or rb["rc"] in ("-9", "-24"):
            continue  # one side stopped at the CPU limit: nothing to compare
        if any(ra[f] != rb[f] for f in fields):
            print("DIFFERENT", " ".join(key), {f: (ra[f], rb[f]) for f in fields if ra[f] != rb[f]})
        else:
            same += 1
    print("same choice, steps and time: %d rows" % same)
    print("rows over 5 s of CPU in either (before -> after, whole run; search part):")
    for key in a:
        if key in b and max(float(a[key]["cpu_s"]), float(b[key]["cpu_s"])) > 5:
            print("  %-60s %7s -> %7s   (%s -> %s)" % (" ".join(k for k in key if k),
                                                     a[key]["cpu_s"], b[key]["cpu_s"],
                                                     a[key]["search_cpu_s"] or "-",
                                                     b[key]["search_cpu_s"] or "-"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/opticoll")
    ap.add_argument("--out", default="-")
    ap.add_argument("--limit", type=int, default=120, help="CPU seconds a run may take")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    ap.add_argument("--rows", metavar="SURVEY", help="only the cases of this earlier survey ...")
    ap.add_argument("--min-cpu", type=float, default=0, help="... whose run took this much CPU")
    args = ap.parse_args()
    if args.diff:
        diff(*args.diff)
    else:
        survey(args)


if __name__ == "__main__":
    main()
