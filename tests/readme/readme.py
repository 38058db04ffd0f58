#!/usr/bin/env python3
"""readme.py — the README's commands and numbers, checked against the tool (ctest readme_commands)
and rewritten from it (`make readme-figures`).

What it reads in README.md and in every docs/*.md file (each given on the command line; each
file's commands run in a temporary directory of their own, as a reader pastes one page):

  * Every fenced block opened with ```sh is commands: each line (a trailing backslash joins the next
    line) is one command, run with bash in one temporary directory, in README order (so a file one
    command writes is there for the next), with the build tree first on PATH: `opticoll`,
    `opticoll-mpi` and `opticoll-cluster` are the ones just built. A command must exit 0. Blocks
    opened with ``` alone, ```text, ```json or ```c are not run (the C examples are compiled and
    run by tests/readme/install.py against an installed tree); a ``` or ```text block whose first
    line is a command (opticoll, mpirun, make) is an error, so no command escapes the test.

  * A few commands must not run in a test: `make check` is the suite this test belongs to, `make
    demo` and `make install` rebuild or write outside the temporary directory, and some take
    minutes. An HTML comment before the block names them, with the reason, which the README
    renders as nothing:

        <!-- test: skip "make check" (it is the suite this test runs in) -->
        <!-- test: run "opticoll reproduce all --out repro/" as "opticoll reproduce star --out repro/" (why) -->

    The quoted text is the command as written, without its trailing # comment; each mark applies
    to the next ```sh block alone, and a mark that matches no command there is an error (it went
    stale).

  * Figures: a number in the text is written <!--f:ID-->374.359<!--/f-->, an output block is a
    ```text fence preceded by the line <!--f:ID-->. tests/readme/figures.txt defines each ID: the
    command that produces it and what of its output is the figure. The test runs the commands and
    fails, printing a diff, when the README's text differs from what the tool prints now;
    `--update` writes the tool's text into the README instead (make readme-figures). Figures of
    kind `time` (wall times) are rewritten by --update but never compared: they depend on the
    machine.

Usage: readme.py --build BUILD_DIR [--update] [--list] [--only-figures] [--page FILE]...
                 README.md docs/*.md

With --page (CTest's readme_commands_PAGE, one test per page: one test of every page took 258 s
of its 600 s limit at load 17, issue 27), only that page's commands and figures run; the other
files are read for the figures they mark, so a figure of figures.txt that no file marks still
fails.
"""
import argparse
import difflib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FENCE = re.compile(r"^```(\S*)\s*$")
MARK = re.compile(r'^<!--\s*test:\s*(skip|run)\s+"([^"]+)"(?:\s+as\s+"([^"]+)")?\s*\((.+)\)\s*-->\s*$')
INLINE = re.compile(r"<!--f:([A-Za-z0-9_.-]+)-->(.*?)<!--/f-->")
BLOCKMARK = re.compile(r"^<!--f:([A-Za-z0-9_.-]+)-->\s*$")
TIMEOUT = 300
CURRENT = []  # the command running now, ended with the test on SIGTERM


class Command:
    def __init__(self, line, text, run_as=None, skip=None):
        self.line = line  # README line number (1-based) where it starts
        self.text = text  # as written in the README
        self.run_as = run_as  # what the test runs instead, when marked
        self.skip = skip  # the reason it is not run, when marked


def parse_commands(lines, name="README.md"):
    """The commands of every ```sh block, with the marks of the comments before it."""
    cmds, marks, errors = [], [], []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if m:
            marks.append((i + 1, m.group(1), m.group(2), m.group(3), m.group(4)))
            i += 1
            continue
        f = FENCE.match(lines[i])
        if not f:
            i += 1
            continue
        lang = f.group(1)
        j = i + 1
        body = []
        while j < len(lines) and not lines[j].startswith("```"):
            body.append((j + 1, lines[j]))
            j += 1
        if lang == "sh":
            block = []
            k = 0
            while k < len(body):
                no, text = body[k]
                while text.endswith("\\") and k + 1 < len(body):
                    k += 1
                    text = text[:-1].rstrip() + " " + body[k][1].strip()
                k += 1
                if not text.strip() or text.lstrip().startswith("#"):
                    continue
                block.append(Command(no, text.strip()))
            for (mno, kind, prefix, repl, why) in marks:
                hit = [c for c in block if re.sub(r"\s+#.*$", "", c.text).strip() == prefix]
                if not hit:
                    errors.append(f"{name}:{mno}: the mark \"{prefix}\" is no command of the next sh block")
                for c in hit:
                    if kind == "skip":
                        c.skip = why
                    else:
                        c.run_as = repl
            cmds.extend(block)
        elif marks:
            errors.append(f"{name}:{marks[0][0]}: a test mark before a ```{lang} block (only ```sh blocks run)")
        elif lang in ("", "text", "console") and body and re.match(r"\s*(opticoll|mpirun|make)\b", body[0][1]):
            # commands a reader would paste, in a block this test would not run
            errors.append(f"{name}:{i + 1}: commands in a ```{lang} block: open it with ```sh")
        marks = []
        i = j + 1
    return cmds, errors


def parse_figures(path):
    """figures.txt: [ID] sections with run: COMMAND and one of
         find: REGEX     group 1 of the first match (value: EXPR computes the figure instead, from
                         g, the match's groups, g[1] the first, and out, the whole output)
         lines: REGEX    every line that matches, for an output block
         all:            the whole output, for an output block
         time:           the command's wall time, as "1.7 s" (rewritten, never compared)"""
    figs, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for no, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.match(r"^\[([A-Za-z0-9_.-]+)\]\s*$", line)
            if m:
                cur = {"id": m.group(1), "where": f"{path}:{no}"}
                figs[cur["id"]] = cur
                continue
            key, _, val = line.partition(":")
            key = key.strip()
            if cur is None or key not in ("run", "find", "lines", "all", "time", "value"):
                sys.exit(f"{path}:{no}: expected [ID], run:, find:, lines:, all:, time: or value:")
            cur[key] = val.strip()
    for fid, fig in figs.items():
        if "run" not in fig:
            sys.exit(f"{fig['where']}: figure {fid} has no run: line")
    return figs


def run(cmd, cwd, env):
    """Runs cmd with bash in its own process group (a timeout ends the group, mpirun's ranks
    included); returns (exit status, stdout, stderr, wall seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    CURRENT[:] = [p]
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        err += f"\n(killed after {TIMEOUT} s)".encode()
    CURRENT.clear()
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), \
        time.monotonic() - t0


def fmt_seconds(s):
    if s >= 60:
        return f"{int(s // 60)} min {int(round(s % 60))} s"
    if s >= 10:
        return f"{s:.0f} s"
    if s >= 1:
        return f"{s:.1f} s"
    return f"{s:.2f} s"


def figure_value(fig, out, secs):
    if "time" in fig:
        return fmt_seconds(secs)
    if "find" in fig:
        m = re.search(fig["find"], out, re.M)
        if not m:
            return None
        if "value" in fig:
            g = (m.group(0),) + m.groups()
            return str(eval(fig["value"], {"re": re}, {"g": g, "out": out}))
        return m.group(1)
    if "lines" in fig:
        rx = re.compile(fig["lines"])
        return "\n".join(l for l in out.splitlines() if rx.search(l))
    return out.rstrip("\n")


def marked_figures(path):
    """The figure ids a file marks (inline and output blocks), read without running anything."""
    text = open(path, encoding="utf-8").read()
    used = set(m.group(1) for m in INLINE.finditer(text))
    used |= set(m.group(1) for l in text.split("\n") for m in [BLOCKMARK.match(l)] if m)
    return used


def check_file(path, name, figs, a, env):
    """Runs one file's commands in a temporary directory of its own (each file pastes on its own
    into an empty directory), then its figures there; compares or rewrites them. Returns
    (failures, figure ids the file marks, commands, figures)."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    cmds, errors = parse_commands(lines, name)
    if errors:
        print("\n".join(errors))
        return len(errors), set(), 0, 0
    if a.list:
        for c in cmds:
            tag = f"  [skip: {c.skip}]" if c.skip else (f"  [runs: {c.run_as}]" if c.run_as else "")
            print(f"{name}:{c.line}: {c.text}{tag}")
        return 0, set(), len(cmds), 0
    failed, outputs = 0, {}
    used = set(m.group(1) for m in INLINE.finditer(text))
    used |= set(m.group(1) for l in lines for m in [BLOCKMARK.match(l)] if m)
    values = {}
    with tempfile.TemporaryDirectory(prefix="opticoll-readme-") as tmp:
        if not a.only_figures:
            for c in cmds:
                if c.skip:
                    print(f"skip - {name}:{c.line}: {c.text}  ({c.skip})")
                    continue
                what = c.run_as or c.text
                tool = re.match(r"mpirun .*?\b(opticoll-mpi|opticoll-cluster)\b", what)
                if tool and not os.path.exists(os.path.join(a.build, tool.group(1))):
                    print(f"skip - {name}:{c.line}: {c.text}  (MPI was not found: no {tool.group(1)})")
                    continue
                rc, out, err, secs = run(what, tmp, env)
                outputs.setdefault(what, (out, secs))
                if rc != 0:
                    failed += 1
                    print(f"FAIL - {name}:{c.line}: {what}  (exit {rc}, {secs:.1f} s)")
                    for l in (err or out).strip().splitlines()[-5:]:
                        print(f"    | {l}")
                else:
                    print(f"ok - {name}:{c.line}: {what}  ({secs:.1f} s)")

        # The figures: inline ones and output blocks, each defined in figures.txt. A marker inside
        # inline code would show as text, so it must sit outside the backticks.
        odd = 0  # backticks so far in this paragraph (inline code may span lines)
        for no, l in enumerate(lines, 1):
            if not l.strip() or l.startswith("```"):
                odd = 0
                continue
            for m in INLINE.finditer(l):
                if (odd + l[:m.start()].count("`")) % 2:
                    failed += 1
                    print(f"FAIL - {name}:{no}: figure {m.group(1)} inside `inline code` (it would show)")
            odd = (odd + l.count("`")) % 2
        for fid in sorted(used - set(figs)):
            failed += 1
            print(f"FAIL - figure {fid} is marked in {name} but not defined in {a.figures}")
        for fid in sorted(used & set(figs)):
            fig = figs[fid]
            if "time" in fig and not a.update:
                continue
            cmd = fig["run"]
            if cmd in outputs and "time" not in fig:
                out, secs = outputs[cmd]
            else:
                rc, out, err, secs = run(cmd, tmp, env)
                if rc != 0:
                    failed += 1
                    print(f"FAIL - figure {fid}: `{cmd}` exits {rc}: {err.strip()[-300:]}")
                    continue
                outputs[cmd] = (out, secs)
            v = figure_value(fig, out, secs)
            if v is None:
                failed += 1
                print(f"FAIL - figure {fid}: /{fig.get('find')}/ finds nothing in the output of `{cmd}`")
                continue
            values[fid] = v

    # Rewrite the file's copy from the values, then compare (or write) the whole file; an update
    # reads the file again, so edits made while the commands ran are kept.
    if a.update:
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
    new_lines, i = [], 0
    while i < len(lines):
        m = BLOCKMARK.match(lines[i])
        if m and m.group(1) in values and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            new_lines.append(lines[i])
            new_lines.append(lines[i + 1])
            j = i + 2
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            new_lines.extend(values[m.group(1)].split("\n"))
            i = j
            continue
        new_lines.append(INLINE.sub(lambda mm: f"<!--f:{mm.group(1)}-->{values.get(mm.group(1), mm.group(2))}<!--/f-->",
                                    lines[i]))
        i += 1
    new = "\n".join(new_lines)
    if a.update:
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"{name}: figures rewritten from the tool's output")
        else:
            print(f"{name}: every figure already agrees")
    elif new != text:
        failed += 1
        print(f"FAIL - {name}'s figures differ from the tool's output (make readme-figures rewrites them):")
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                   name, name + " (tool output)"))
        print()
    return failed, used, len(cmds), len(values)


def main():
    # a SIGTERM (a killed test) ends the command running and removes the temporary directory
    def stop(*_):
        for p in CURRENT:
            os.killpg(p.pid, signal.SIGKILL)
        sys.exit(143)

    signal.signal(signal.SIGTERM, stop)
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+", help="README.md and the docs/*.md files that quote figures")
    ap.add_argument("--build", required=True)
    ap.add_argument("--figures", default=os.path.join(HERE, "figures.txt"))
    ap.add_argument("--update", action="store_true", help="rewrite the files' figures")
    ap.add_argument("--list", action="store_true", help="list the commands, run nothing")
    ap.add_argument("--only-figures", action="store_true", help="run the figures' commands alone")
    ap.add_argument("--page", action="append", default=[],
                    help="run this one of the files only (repeatable); the others are read for "
                         "the figures they mark")
    a = ap.parse_args()
    pages = {os.path.abspath(p) for p in a.page}
    missing = pages - {os.path.abspath(f) for f in a.files}
    if missing:
        ap.error(f"--page {', '.join(sorted(missing))} is not one of the files")

    figs = parse_figures(a.figures)
    env = dict(os.environ)
    env["PATH"] = os.path.abspath(a.build) + os.pathsep + env.get("PATH", "")
    env.pop("COLUMNS", None)
    root = os.path.commonpath([os.path.abspath(f) for f in a.files])
    if len(a.files) == 1:
        root = os.path.dirname(root)
    failed, used, ncmds, nvalues = 0, set(), 0, 0
    for path in a.files:
        name = os.path.relpath(os.path.abspath(path), root)
        if pages and os.path.abspath(path) not in pages:
            used |= marked_figures(path)
            continue
        f, u, c, v = check_file(path, name, figs, a, env)
        failed, ncmds, nvalues = failed + f, ncmds + c, nvalues + v
        used |= u
    if not a.list:
        for fid in sorted(set(figs) - used):
            failed += 1
            print(f"FAIL - figure {fid} of {a.figures} is used in none of {len(a.files)} files")
    ran = len(pages) if pages else len(a.files)
    print(f"{ran} files, {ncmds} commands, {nvalues} figures, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
