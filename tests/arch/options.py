#!/usr/bin/env python3
"""options.py — one meaning per option letter across the tools (docs/cli.md, "A letter means one
thing across the commands").

Every short option the tools declare (an args.h table row `{"-x", "--long", ...}` in tools/*.c) is
read with its long name and its file. A letter must have one long name wherever it appears, with
two exceptions, both listed here and in docs/cli.md:
 - nccl-tests' letters: `perf` (tools/cmd_perf.c) and `opticoll-mpi` (tools/opticoll_mpi.c) read
   -b -e -f -i -n -w -c -z -g as nccl-tests does, so that its command lines read the same there;
 - synonyms of one meaning: `reproduce -o` is its output folder, `--out`, where the others write
   `--output`.
A new command that gives a letter a second meaning fails here, naming both places.

Usage: options.py SOURCE_DIR    prints one line per conflict; exits 1 if any.
       options.py --self-test   a synthetic conflict must be caught and the exceptions pass.
"""
import collections
import glob
import os
import re
import sys

NCCL_FILES = {"tools/cmd_perf.c", "tools/opticoll_mpi.c"}
NCCL_LETTERS = set("befinwczg")
SYNONYMS = {("-o", "--out"): "--output"}  # (letter, long) -> the long name it stands for

ROW = re.compile(r'\{\s*"(-[A-Za-z])"\s*,\s*"(--[A-Za-z0-9_-]+)"')


def rows(root):
    """(file, line, letter, long) of every short option in tools/."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "tools", "*.c"))):
        rel = os.path.relpath(path, root)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            for m in ROW.finditer(line):
                out.append((rel, n, m.group(1), m.group(2)))
    return out


def check(found):
    meaning = collections.defaultdict(list)  # letter -> [(long, file, line)]
    for f, n, letter, name in found:
        if f in NCCL_FILES and letter[1] in NCCL_LETTERS:
            continue  # nccl-tests' letter, as nccl-tests reads it
        name = SYNONYMS.get((letter, name), name)
        meaning[letter].append((name, f, n))
    bad = []
    for letter, uses in sorted(meaning.items()):
        names = sorted({u[0] for u in uses})
        if len(names) > 1:
            first = {nm: next(u for u in uses if u[0] == nm) for nm in names}
            where = "; ".join(f"{nm} at {first[nm][1]}:{first[nm][2]}" for nm in names)
            bad.append(f"{letter} means {len(names)} things: {where}")
    return bad


def self_test():
    clean = [("tools/cli.c", 1, "-f", "--fibres"), ("tools/cmd_synth.c", 2, "-f", "--fibres"),
             ("tools/cmd_perf.c", 3, "-f", "--stepfactor"),
             ("tools/opticoll_mpi.c", 4, "-n", "--iters"), ("tools/cli.c", 5, "-n", "--nodes"),
             ("tools/cmd_reproduce.c", 6, "-o", "--out"), ("tools/cli.c", 7, "-o", "--output"),
             ("tools/cli.c", 10, "-c", "--collective"), ("tools/cmd_perf.c", 11, "-c", "--check")]
    failed = 0
    if check(clean):
        print("FAIL self-test: the exceptions are refused: " + "; ".join(check(clean)))
        failed += 1
    got = check(clean + [("tools/cmd_rack.c", 8, "-f", "--fibres-per-pair")])
    if not any("-f means 2 things" in g and "cmd_rack.c:8" in g for g in got):
        print(f"FAIL self-test: a second meaning of -f was not caught ({got})")
        failed += 1
    got = check(clean + [("tools/cmd_tune.c", 9, "-c", "--check")])
    if not any("-c means" in g for g in got):
        print(f"FAIL self-test: nccl-tests' -c outside perf was not caught ({got})")
        failed += 1
    print(f"options self-test: {3 - failed} of 3 cases right")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print("usage: options.py SOURCE_DIR | --self-test", file=sys.stderr)
        return 2
    found = rows(sys.argv[1])
    if not found:
        print("FAIL no option tables found under tools/")
        return 1
    bad = check(found)
    for b in bad:
        print("FAIL " + b)
    print(f"options: {len({r[2] for r in found})} letters, {len(bad)} with more than one meaning")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
