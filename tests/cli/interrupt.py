#!/usr/bin/env python3
"""interrupt.py TOOL — Ctrl-C in the middle of long work ends the command at once: SIGINT to the
tool half a second into a long search candidate (OpTree at 65536 nodes), one round of 16.7 M
lightpaths, a tuning's single long point, a reproduction, synth's solver and the reading and check
of a 60 MB schedule file (verify, draw FILE) must end it within a second of the signal (scaled by
the machine's load past its cores), by the signal (a shell's exit status 130), with nothing on
standard output (no partial table or JSON), and with -o FILE no file and no temporary left
(output.c removes its temporaries, then lets the signal end the tool).

The tool is started by Python, not by a shell's `&`: a non-interactive shell starts background
commands with SIGINT ignored, which would prove nothing. Prints one line per case, exits 1 on a
difference.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

TOOL = sys.argv[1]
CASES = [
    ("search candidate (run optree N=65536)",
     ["run", "-c", "allgather", "-a", "optree", "-n", "65536", "-s", "1KiB", "--no-data-check"]),
    ("tune, one long point (-o FILE)",
     # (rhd on the fat-tree at 8192 nodes maps its levels alone for over a minute; on the fabric
     # it now takes about a second, too short to be interrupted)
     ["tune", "-c", "allreduce", "-a", "rhd", "-n", "8192", "-s", "1MiB", "-t", "fattree",
      "-o", "{dir}/decisions.json"]),
    # one round of 16.7 M lightpaths (OpTree's two levels at 65536 nodes), being generated,
    # verified by shards and coloured when the signal comes: the command ends by the signal
    # there too (the library's polls inside a round serve the Python package's Ctrl-C)
    ("one huge round (optree N=65536, radices=256x256)",
     ["run", "-c", "allgather", "-a", "optree", "-n", "65536", "-s", "1KiB", "-p",
      "radices=256x256", "--no-data-check"]),
    ("reproduce wrht", ["reproduce", "wrht"]),
    ("synth (the solver for 30 s)",
     ["synth", "-c", "allreduce", "-t", "ring", "-n", "10", "--time-limit", "30", "--json"]),
    # a schedule file of 60 MB (ring all-gather on 900 nodes, under the 64 MiB input cap) being
    # read a transfer at a time and checked: one to several seconds
    ("verify a 60 MB schedule file", ["verify", "{big}", "--json"]),
    ("draw a 60 MB schedule file", ["draw", "{big}", "--round", "0", "-o", "{dir}/d.svg"]),
]


def main():
    bad = 0
    files = tempfile.TemporaryDirectory()
    big = os.path.join(files.name, "ring900.json")
    subprocess.run([TOOL, "export", "-c", "allgather", "-a", "ring", "-n", "900", "-s", "1KiB",
                    "--format", "json", "-o", big, "-q"], check=True)
    for what, args in CASES:
        with tempfile.TemporaryDirectory() as d:
            argv = [TOOL] + [a.format(dir=d, big=big) for a in args] + ["-q"]
            env = dict(os.environ, LC_ALL="C")
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=d,
                                 env=env, start_new_session=True)
            time.sleep(0.5)
            if p.poll() is not None:
                print(f"FAIL - {what}: ended before the signal (rc {p.returncode}); the case "
                      f"must take longer than half a second")
                bad += 1
                continue
            sent = time.monotonic()
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=60)
            took = time.monotonic() - sent
            stretch = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
            problems = []
            # killed by SIGINT: -2 here, 130 in a shell's $?
            if p.returncode not in (-signal.SIGINT, 128 + signal.SIGINT):
                problems.append(f"exit {p.returncode}, not by SIGINT (130)")
            if out:
                problems.append(f"{len(out)} bytes on standard output: {out[:60]!r}")
            if took > 1.0 * stretch:
                problems.append(f"{took:.2f} s after the signal (load x{stretch:.1f})")
            left = os.listdir(d)
            if left:
                problems.append(f"left in the directory: {left}")
            if problems:
                print(f"FAIL - {what}: " + "; ".join(problems))
                bad += 1
            else:
                print(f"ok - {what}: ended {took:.2f} s after SIGINT, exit 130, no output")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
