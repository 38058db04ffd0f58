#!/usr/bin/env python3
"""layering.py — the house's one rule, checked (ARCHITECTURE.md): nothing below calls anything
above it, and no two files call each other, directly or around a loop.

Two checks, both on what the compiler sees rather than on what the README says:
 1. includes: every `#include "room/file.h"` in src/ goes to the same room or to a room the
    includer stands on (ALLOWED below);
 2. calls: from the library's object files (nm), file A depends on file B when A uses a function
    B defines; the file graph must have no cycle (Tarjan's strongly connected components).
Usage: layering.py SOURCE_DIR BUILD_DIR. Prints one line per violation; exits 1 if any.
"""
import collections
import glob
import os
import re
import subprocess
import sys

# Which rooms a room may include, bottom to top. A room always may include itself.
BELOW = {
    "core": [],
    "bounds": ["core"],
    "algo": ["core"],
    "aas": ["core", "algo"],
    "net": ["core"],
    "verify": ["core"],
    "run": ["core", "bounds", "algo", "aas", "net", "verify"],
    "report": ["core", "bounds", "algo", "aas", "net", "verify", "run"],
    "formats": ["core", "bounds", "algo", "aas", "net", "verify", "run", "report"],
    "studies": ["core", "bounds", "algo", "aas", "net", "verify", "run", "report"],
    "synth": ["core", "bounds", "algo", "aas", "net", "verify", "run", "report", "formats"],
    "reproduce": ["core", "bounds", "algo", "aas", "net", "verify", "run", "report", "formats",
                  "studies", "synth"],
    "mpi": ["core", "bounds", "algo", "aas", "net", "verify", "run"],
}


def include_violations(src):
    bad = []
    rooms = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for room in rooms:
        if room not in BELOW:
            bad.append(f"src/{room}/: a room the rule does not know (add it to layering.py)")
            continue
        for path in sorted(glob.glob(os.path.join(src, room, "*.[ch]"))):
            for n, line in enumerate(open(path, encoding="utf-8"), 1):
                m = re.match(r'\s*#\s*include\s+"([a-z_]+)/', line)
                if not m:
                    continue
                to = m.group(1)
                if to != room and to not in BELOW[room]:
                    rel = os.path.relpath(path, os.path.dirname(src))
                    bad.append(f"{rel}:{n}: {room} includes {to}, a room above or beside it")
    return bad


def call_cycles(build, src):
    objs = glob.glob(os.path.join(build, "CMakeFiles", "*.dir", "src", "*", "*.c.o"))
    root = os.path.dirname(src)
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        rel = "src/" + o.split(os.sep + "src" + os.sep, 1)[1][:-2]
        if not os.path.exists(os.path.join(root, rel)):
            continue  # a stale object of a file that moved
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] == "T":
                defs[p[2]] = rel
            elif len(p) == 2 and p[0] == "U":
                uses[rel].add(p[1])
    if not defs:
        return ["no object files under " + build + " (build the library first)"]
    graph = collections.defaultdict(set)
    for f, us in uses.items():
        for u in us:
            if u in defs and defs[u] != f:
                graph[f].add(defs[u])
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def strong(v):  # iterative Tarjan: the graph is small but recursion limits are not ours
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                sccs.append(comp)

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return ["files that call each other around a loop: " + " <-> ".join(sorted(c))
            for c in sccs if len(c) > 1]


def main():
    if len(sys.argv) != 3:
        print("usage: layering.py SOURCE_DIR BUILD_DIR", file=sys.stderr)
        return 2
    src = os.path.join(sys.argv[1], "src")
    bad = include_violations(src) + call_cycles(sys.argv[2], src)
    for b in bad:
        print("FAIL " + b)
    print(f"layering: {len(bad)} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
