#!/usr/bin/env python3
"""test_limits.py — which tests took more than a fifth of their CTest TIMEOUT (issue 27, item 5).

The suite must not be fragile: on a machine loaded by other jobs `make check` failed once because
one test (msccl_export) ran into its 600 s limit. The rule since is that no test may need more than
a fifth of its limit on a quiet machine, so that a load of about five times the cores still
passes. This script reads the times of a CTest run that has already happened and the limits
CTest would apply, and lists every test over that share: it times nothing itself, and it is not a
test (a timing in a test would fail by the clock, the very fragility it looks for).

Where the figures come from:
 - the times: CTest's own log of the last run in a build tree,
   BUILD/Testing/Temporary/LastTest.log (each test's "Test time = S sec"), or a JUnit file
   written with `ctest --output-junit FILE` (each testcase's time="S");
 - the limits: `ctest --show-only=json-v1` in the build tree (each test's TIMEOUT property; a
   test without one gets CTest's default, DEFAULT_LIMIT below, as CTest itself does when the
   project sets none), so the limits are the ones of the build tree as configured now.
A LastTest.log holds the last `ctest` run in that tree only: after `make check` it is the whole
release suite in build/ and the sanitizer suite in build-asan/; after `ctest -R NAME`, that test.

The times are wall-clock times. On a loaded machine they overstate what a test needs quiet (a
single-threaded test's quiet time is about its CPU time); the list is where to look, and a test
on it is measured again with /usr/bin/time before it is split (docs/testing.md).

Usage: test_limits.py [--fraction F] [--all] BUILD_DIR...
       test_limits.py [--fraction F] [--all] (--log FILE | --junit FILE) BUILD_DIR
       test_limits.py --self-test
Prints, per build tree, every test over F of its limit (0.2 by default) with its time, its limit
and the share, the largest share first (--all: every timed test); exits 1 when any test is over,
0 when none is, 2 when a log or a build tree cannot be read.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# CTest's limit for a test without a TIMEOUT property in a project that uses enable_testing()
# without include(CTest), as this one does: `ctest -V` prints it as "Test timeout computed to be:
# 10000000", that is none (tests/limits.cmake gives every test of this project a TIMEOUT).
DEFAULT_LIMIT = 1e7

TEST_HEAD = re.compile(r"^\d+/\d+ Test: (.+)$")
TEST_TIME = re.compile(r"^Test time =\s*([0-9.]+) sec$")
TEST_STATUS = re.compile(r"^Test (Passed|Failed|Not Run)\b")


def read_lasttest(path):
    """{name: (seconds, status)} from a CTest LastTest.log. The tests' own output (between
    "Output:" and "<end of output>") is skipped, so a test printing "Test time =" fools nothing."""
    times = {}
    name, seconds, in_output = None, None, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if in_output:
                if line == "<end of output>":
                    in_output = False
                continue
            m = TEST_HEAD.match(line)
            if m:
                name, seconds = m.group(1).strip(), None
                continue
            if name is None:
                continue
            if line == "Output:":
                in_output = True
                continue
            m = TEST_TIME.match(line)
            if m:
                seconds = float(m.group(1))
                times[name] = (seconds, "?")
                continue
            m = TEST_STATUS.match(line)
            if m and seconds is not None:
                times[name] = (seconds, m.group(1).lower())
    return times


def read_junit(path):
    """{name: (seconds, status)} from `ctest --output-junit FILE`."""
    times = {}
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        name = case.get("name")
        try:
            seconds = float(case.get("time", ""))
        except ValueError:
            continue
        status = "passed"
        if case.find("failure") is not None:
            status = "failed"
        elif case.find("skipped") is not None:
            status = "not run"
        times[name] = (seconds, status)
    return times


def limits_from_json(text):
    """{name: (limit seconds, labels)} from `ctest --show-only=json-v1`."""
    out = {}
    for test in json.loads(text).get("tests", []):
        limit, labels = None, []
        for prop in test.get("properties", []):
            if prop.get("name") == "TIMEOUT":
                limit = float(prop["value"])
            elif prop.get("name") == "LABELS":
                labels = list(prop["value"])
        out[test["name"]] = (limit if limit and limit > 0 else DEFAULT_LIMIT, labels)
    return out


def read_limits(build):
    """The limits of the tests defined in `build` now. `ctest --show-only` rewrites the tree's
    LastTest.log (with no test in it): the log is put back as it was."""
    log = os.path.join(build, "Testing", "Temporary", "LastTest.log")
    try:
        with open(log, "rb") as f:
            kept = f.read()
    except FileNotFoundError:
        kept = None
    try:
        run = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True,
                             text=True, check=False)
    finally:
        if kept is not None:
            with open(log, "wb") as f:
                f.write(kept)
    if run.returncode != 0:
        raise OSError(f"ctest --show-only=json-v1 in {build} failed: {run.stderr.strip()}")
    return limits_from_json(run.stdout)


def over(times, limits, fraction, everything=False):
    """[(share, name, seconds, limit, status)] of the timed tests over `fraction` of their
    limit (every timed test with `everything`), the largest share first. Neither log says why
    a test failed: a failed test that ran to its limit is called a timeout. A test no longer
    defined in the build tree is measured against DEFAULT_LIMIT and marked."""
    rows = []
    for name, (seconds, status) in times.items():
        limit = limits.get(name, (DEFAULT_LIMIT, []))[0]
        if status == "failed" and seconds >= 0.99 * limit:
            status = "timeout"
        if name not in limits:
            status += ", not in the build tree now"
        share = seconds / limit
        if everything or share > fraction or status == "timeout":
            rows.append((share, name, seconds, limit, status))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


def report(title, rows, timed, fraction, everything):
    over_count = sum(1 for r in rows if r[0] > fraction or r[4] == "timeout")
    print(f"{title}: {timed} tests timed, {over_count} over {fraction:g} of their limit")
    for share, name, seconds, limit, status in rows:
        mark = "  " if share <= fraction and status != "timeout" else "! "
        tail = "" if status in ("passed", "?") else f" ({status})"
        shown = "no limit" if limit >= DEFAULT_LIMIT else f"{limit:6.0f} s"
        print(f"{mark}{name:<40} {seconds:9.2f} s of {shown:>8}  {100 * share:5.1f}%{tail}")
    return over_count


def self_test():
    """The parser on a synthetic log and limits (in the form CTest 3.25 writes them): times
    inside a test's output are not taken, a timeout is listed whatever its share, a test without
    TIMEOUT gets CTest's default."""
    log = """Start testing: Nov 29 12:00 UTC
----------------------------------------------------------
1/3 Testing: fast
1/3 Test: fast
Command: "/b/test_fast"
Directory: /b
"fast" start time: Nov 29 12:00 UTC
Output:
----------------------------------------------------------
Test time =   999.00 sec
<end of output>
Test time =   1.50 sec
----------------------------------------------------------
Test Passed.
"fast" end time: Nov 29 12:00 UTC
"fast" time elapsed: 00:00:01
----------------------------------------------------------

2/3 Testing: heavy
2/3 Test: heavy
Command: "/b/test_heavy"
Directory: /b
"heavy" start time: Nov 29 12:00 UTC
Output:
----------------------------------------------------------
ok
<end of output>
Test time = 130.25 sec
----------------------------------------------------------
Test Passed.
"heavy" end time: Nov 29 12:02 UTC
"heavy" time elapsed: 00:02:10
----------------------------------------------------------

3/3 Testing: stuck
3/3 Test: stuck
Command: "/b/test_stuck"
Directory: /b
"stuck" start time: Nov 29 12:00 UTC
Output:
----------------------------------------------------------
<end of output>
Test time = 60.01 sec
----------------------------------------------------------
Test Failed.
"stuck" end time: Nov 29 12:01 UTC
"stuck" time elapsed: 00:01:00
----------------------------------------------------------
"""
    limits_json = json.dumps({"kind": "ctestInfo", "tests": [
        {"name": "fast", "properties": [{"name": "TIMEOUT", "value": 60}]},
        {"name": "heavy", "properties": [{"name": "TIMEOUT", "value": 600},
                                         {"name": "LABELS", "value": ["slow"]}]},
        {"name": "stuck", "properties": [{"name": "TIMEOUT", "value": 60}]},
        {"name": "plain", "properties": []}]})
    junit = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="t" tests="3" failures="1">
  <testcase name="fast" classname="fast" time="1.5" status="run"/>
  <testcase name="heavy" classname="heavy" time="130.25" status="run"/>
  <testcase name="stuck" classname="stuck" time="60.01" status="fail">
    <failure message=""/>
  </testcase>
</testsuite>
"""
    failed = 0

    def expect(what, ok):
        nonlocal failed
        if not ok:
            print(f"FAIL self-test: {what}")
            failed += 1

    limits = limits_from_json(limits_json)
    expect("a test without TIMEOUT gets CTest's default", limits["plain"][0] == DEFAULT_LIMIT)
    with tempfile.TemporaryDirectory() as d:
        lpath, jpath = os.path.join(d, "LastTest.log"), os.path.join(d, "junit.xml")
        with open(lpath, "w", encoding="utf-8") as f:
            f.write(log)
        with open(jpath, "w", encoding="utf-8") as f:
            f.write(junit)
        for kind, times in (("log", read_lasttest(lpath)), ("junit", read_junit(jpath))):
            expect(f"{kind}: the three tests' times ({times})",
                   {n: t[0] for n, t in times.items()} ==
                   {"fast": 1.5, "heavy": 130.25, "stuck": 60.01})
            names = [r[1] for r in over(times, limits, 0.2)]
            # heavy: 130.25 of 600 is 21.7%; stuck timed out; fast is 2.5%
            expect(f"{kind}: over a fifth, heavy and the timeout only ({names})",
                   sorted(names) == ["heavy", "stuck"])
            stuck = [r for r in over(times, limits, 0.2) if r[1] == "stuck"]
            expect(f"{kind}: a failure at its limit called a timeout ({stuck})",
                   stuck and stuck[0][4] == "timeout")
            names = [r[1] for r in over(times, limits, 0.25)]
            expect(f"{kind}: over a quarter, only the timeout ({names})", names == ["stuck"])
            expect(f"{kind}: --all lists all three",
                   len(over(times, limits, 0.2, everything=True)) == 3)
    print(f"test_limits self-test: {'all' if not failed else 'not all'} cases right")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(
        description="List the tests of the last CTest run over a share of their TIMEOUT.")
    ap.add_argument("builds", nargs="+", metavar="BUILD_DIR",
                    help="build trees (their Testing/Temporary/LastTest.log and their limits)")
    ap.add_argument("--fraction", type=float, default=0.2,
                    help="the share of its limit a test may take (default 0.2, a fifth)")
    ap.add_argument("--all", action="store_true", help="list every timed test")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--log", help="a CTest LastTest.log instead of the build tree's own")
    src.add_argument("--junit", help="a file of `ctest --output-junit FILE`")
    args = ap.parse_args()
    if not 0 < args.fraction <= 1:
        print("test_limits.py: --fraction must be in (0, 1]", file=sys.stderr)
        return 2
    if (args.log or args.junit) and len(args.builds) != 1:
        print("test_limits.py: --log and --junit take one BUILD_DIR (for its limits)",
              file=sys.stderr)
        return 2
    total_over = 0
    for build in args.builds:
        try:
            if args.junit:
                source, times = args.junit, read_junit(args.junit)
            else:
                source = args.log or os.path.join(build, "Testing", "Temporary", "LastTest.log")
                times = read_lasttest(source)
            limits = read_limits(build)
        except (OSError, ET.ParseError, json.JSONDecodeError, KeyError, ValueError) as e:
            print(f"test_limits.py: {e}", file=sys.stderr)
            return 2
        rows = over(times, limits, args.fraction, args.all)
        total_over += report(source, rows, len(times), args.fraction, args.all)
    return 1 if total_over else 0


if __name__ == "__main__":
    sys.exit(main())
