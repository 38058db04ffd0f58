#!/usr/bin/env python3
"""test_export.py — timelines, MSCCL XML and link utilisation for every registered algorithm


Usage: test_export.py PATH/TO/opticoll

For every algorithm `opticoll list` names, on a network it supports whose model reports its
placements (ring, else star; the all-to-all-scatter algorithms on the direct network and with the
network parameters they are written for, DIRECT below), at two node counts, and at one on every
other network it runs on (non-powers of two where the algorithm allows):
  - export --format chrome: parses as JSON; one named track per node (pid 1, tids 0..N-1); every
    slice has dur >= 0 and lies inside the run; the "steps" track (pid 2) tiles [0, time_s]
    exactly (span and sum of durations = time_s); every transfer of the JSON schedule has a send
    slice with its round, peer and chunks.
  - export --format msccl: `opticoll verify` re-imports and verifies it (exit 0); the same file
    with one step removed fails with exit 1 and one line; with a malformed attribute, exit 2.
  - run --links --json: every utilisation is in [0, 1] and the busy times add up.
Hand values: ring all-gather on the ring with one wavelength (N-1 steps, every clockwise link
busy in every step, no counter-clockwise link ever), and on the switch (every port busy all the
time); on the direct networks: SEX on Q_n (each directed link busy in exactly one of n equal
steps: 1/n), hypercube-opt on the all-port Q_n (every arc in every round: 1), the one-way
pipeline on T(5) (positive links 1, negative 0) and the two-way one, all-port (every link 1). Prints "ok - ..." / "FAIL - ..." per check and "N passed, M failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build/opticoll"
PASS = FAIL = 0


def check(cond, what, detail=""):
    global PASS, FAIL
    if cond:
        PASS += 1
        print("ok - " + what)
    else:
        FAIL += 1
        print("FAIL - " + what)
        for line in str(detail).splitlines()[:8]:
            print("    | " + line)
    return cond


def run(*args):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-30)


def algorithms():
    rc, out, _ = run("list")
    algos, on = [], False
    for line in out.splitlines():
        if line.startswith("algorithms"):
            on = True
            continue
        if on and line.startswith("  "):
            parts = line.split()
            algos.append((parts[0], parts[1], parts[2].split(",")))
    return algos


def size_for(coll):
    return "64KiB"


# The all-to-all-scatter algorithms of the direct networks: (network, node counts, arguments for
# N nodes). Store-and-forward refuses non-neighbours, so the multi-hop ones need wormhole
# switching; hypercube-opt is for the all-port non-combining cube; cartesian's dims must be the
# torus's. Counts are non-powers of two where the algorithm allows.
WH = ["--net", "switching=wh"]
CART = {12: "4x3", 15: "5x3"}
DIRECT = {
    "sex": ("hypercube", (8, 16), lambda n: []),
    "pipeline": ("torus", (5, 12), lambda n: []),
    "cartesian": ("torus", (12, 15),
                  lambda n: ["-p", "dims=" + CART[n], "--net", "dims=" + CART[n]]),
    "dex": ("hypercube", (8, 16), lambda n: WH),
    "dex-torus": ("torus", (5, 12), lambda n: WH),
    "hypercube-opt": ("hypercube", (8, 16),
                      lambda n: ["--net", "ports=all", "--net", "combining=no"]),
    "bex": ("mesh", (8, 32), lambda n: WH),
    "qex": ("mesh", (4, 16), lambda n: WH),
}


def net_args(name, net, n):
    """The network parameters algorithm `name` needs on `net` (with N = n)."""
    if name in DIRECT and DIRECT[name][0] == net:
        return list(DIRECT[name][2](n))
    if net in ("mesh", "torus"):
        return list(WH)  # dex on a mesh or torus: XOR mates are not neighbours
    if net == "star":
        # the star's workload is SIZE in messages of L bytes: 16 messages a block, as before the
        # workload came from SIZE, so the MSCCL export stays within the runtime's 32 channels
        return ["--net", "L=4096"]
    return []


def only_net(args):
    """The --net pairs of args (verify takes no algorithm -p)."""
    return [x for i in range(0, len(args), 2) if args[i] == "--net" for x in args[i:i + 2]]


def check_chrome(path, n, time_s, schedule, tag):
    with open(path) as f:
        d = json.load(f)
    ev = d["traceEvents"]
    # `run --json` prints 9 significant digits; the trace's own copy is exact
    check(close(d["otherData"]["time_s"], time_s, 1e-8) and d["otherData"]["verified"],
          tag + ": the trace's time_s is run's", (d["otherData"], time_s))
    time_s = d["otherData"]["time_s"]
    names = {e["tid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 1}
    check(sorted(names) == list(range(n)) and all(names[v] == "node %d" % v for v in names),
          tag + ": one named track per node (%d)" % n, sorted(names)[:10])
    xs = [e for e in ev if e["ph"] == "X"]
    check(all(e["dur"] >= 0 and e["ts"] >= 0 for e in xs), tag + ": slices have ts, dur >= 0")
    steps = sorted((e for e in xs if e["pid"] == 2), key=lambda e: e["ts"])
    end = max(e["ts"] + e["dur"] for e in steps) if steps else 0
    total = sum(e["dur"] for e in steps)
    tiled = all(close(a["ts"] + a["dur"], b["ts"]) for a, b in zip(steps, steps[1:]))
    check(steps and steps[0]["ts"] == 0 and tiled and close(end, time_s * 1e6)
          and close(total, time_s * 1e6),
          tag + ": the steps track tiles [0, time_s]",
          "end %r us, sum %r us, time_s %r s" % (end, total, time_s))
    nodes_x = [e for e in xs if e["pid"] == 1]
    check(all(e["ts"] + e["dur"] <= end * (1 + 1e-9) + 1e-9 for e in nodes_x),
          tag + ": node slices lie inside the run")
    sends = {(e["args"]["round"], e["tid"], e["args"]["peer"], tuple(e["args"]["chunks"]))
             for e in nodes_x if e["name"].startswith("send")}
    missing = [(r, t["src"], t["dst"], t["chunks"]) for r, rd in enumerate(schedule["rounds"])
               for t in rd if (r, t["src"], t["dst"], tuple(t["chunks"])) not in sends]
    check(not missing, tag + ": every transfer has a send slice", missing[:5])


def check_msccl(path, tag, net_args):
    rc, out, err = run("verify", path)
    check(rc == 0 and "verified:    yes" in out, tag + ": msccl re-import verifies", err)
    if net_args:
        rc, out, err = run("verify", path, *net_args)
        check(rc == 0 and "resource check" in out, tag + ": msccl re-import maps on " +
              net_args[1], err)
    text = open(path).read()
    # one step removed: the first send step of the file
    broken = re.sub(r'\n\s*<step [^>]*type="s"[^>]*/>', "", text, count=1)
    bpath = path + ".broken.xml"
    open(bpath, "w").write(broken)
    rc, out, err = run("verify", bpath)
    check(rc == 1 and out == "" and len(err.strip().splitlines()) == 1 and
          err.startswith("opticoll: "), tag + ": a step removed fails (exit 1, one line)",
          "exit %d: %s" % (rc, err))
    # every wait across threadblocks removed: in an all-gather, a forwarded block would be sent
    # before it arrives (other collectives may stay valid: some waits only guard overwrites that
    # the rebuilt order happens to respect)
    if tag.startswith("allgather") and re.search(r'depid="\d', text):
        nowait = re.sub(r'depid="-?\d+" deps="-?\d+"', 'depid="-1" deps="-1"', text)
        open(bpath, "w").write(nowait)
        rc, out, err = run("verify", bpath)
        check(rc == 1 and out == "" and len(err.strip().splitlines()) == 1,
              tag + ": without its waits the file fails verification (exit 1)",
              "exit %d: %s" % (rc, err))
    bad = re.sub(r'cnt="(\d+)"', 'cnt="x\\1"', text, count=1)
    open(bpath, "w").write(bad)
    rc, out, err = run("verify", bpath)
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1,
          tag + ": a malformed attribute fails (exit 2, one line)", "exit %d: %s" % (rc, err))
    # an unknown buffer is malformed (exit 2); a send from the scratch buffer, which the file
    # gives no chunks, and a receive into a chunk past the buffer's end are wrong (exit 1)
    for what, pattern, repl, code in (
            ("an unknown buffer", r'dstbuf="o"', 'dstbuf="zz"', 2),
            ("the scratch buffer", r'(type="s" )srcbuf="o"', r'\g<1>srcbuf="s"', 1),
            ("an offset past the end", r'(type="(?:r|rrc)" srcbuf="o" srcoff="\d+" dstbuf="o" '
             r'dstoff=")\d+', r'\g<1>999999', 1)):
        bad, k = re.subn(pattern, repl, text)
        if not k:
            continue
        open(bpath, "w").write(bad)
        rc, out, err = run("verify", bpath)
        check(rc == code and out == "" and len(err.strip().splitlines()) == 1,
              tag + ": " + what + " is refused (exit %d, one line)" % code,
              "exit %d: %s" % (rc, err))


def check_links(links, tag):
    u = [x["utilisation"] for k in ("per_position", "per_class", "hottest") for x in links[k]]
    ok = all(0 <= x <= 1 + 1e-9 for x in u) and 0 <= links["mean_utilisation"] <= 1 + 1e-9 \
        and links["max_utilisation"] <= 1 + 1e-9
    check(ok, tag + ": utilisation in [0, 1]", [x for x in u if not 0 <= x <= 1 + 1e-9][:5])
    pos_sum = sum(x["busy_s"] for x in links["per_position"]) * links["classes"]
    cls_sum = sum(x["busy_s"] for x in links["per_class"]) * links["positions"]
    check(close(pos_sum, cls_sum, 1e-6), tag + ": busy time per link and per class agree")


def main():
    # "K/M" (argument 2): the algorithms at places K, K + M, ... of the list, and with K = 0 the
    # hand values and broken files after them. Whole, under the sanitizers, it ran into its 300 s
    # limit in a full make check on a loaded machine (issue 27: a fifth of its limit at most).
    part, parts = 0, 1
    if len(sys.argv) > 2:
        part, parts = (int(x) for x in sys.argv[2].split("/"))
        assert 0 <= part < parts, sys.argv[2]
    algos = algorithms()
    check(len(algos) >= 20, "opticoll list names the algorithms (%d)" % len(algos))
    tmp = tempfile.mkdtemp(prefix="oc_export_")
    for index, (coll, name, nets) in enumerate(algos):
        if index % parts != part:
            continue
        net = "ring" if "ring" in nets else ("star" if "star" in nets else nets[0])
        counts = (5, 7, 6, 12, 16, 9, 27)
        if name in DIRECT:
            net, counts = DIRECT[name][0], DIRECT[name][1]
        done = 0
        for n in counts:
            if done == 2:
                break
            tag = "%s %s on %s, N=%d" % (coll, name, net, n)
            args = ["-c", coll, "-a", name, "-t", net, "-n", str(n), "-s", size_for(coll),
                    *net_args(name, net, n)]
            rc, out, err = run("run", *args, "--json", "--links")
            if rc == 2 and ("needs" in err or "must" in err or "divide" in err
                            or "not" in err):
                continue  # a restriction of the algorithm: try the next N
            if not check(rc == 0, tag + ": run --links", err):
                continue
            done += 1
            rep = json.loads(out)
            check_links(rep["links"], tag)
            sched_path = os.path.join(tmp, "s.json")
            rc, _, err = run("export", *args, "--format", "json", "-o", sched_path)
            schedule = json.load(open(sched_path))
            cpath = os.path.join(tmp, "t.json")
            rc, _, err = run("export", *args, "--format", "chrome", "-o", cpath)
            if check(rc == 0, tag + ": export chrome", err):
                check_chrome(cpath, n, rep["time_s"], schedule, tag)
            mpath = os.path.join(tmp, "m.xml")
            # gather and scatter are RCCL's calls (NCCL has none: msccl-nccl refuses them)
            rt = ["--runtime", "rccl"] if coll in ("gather", "scatter") else []
            rc, _, err = run("export", *args, "--format", "msccl", *rt, "-o", mpath)
            if check(rc == 0, tag + ": export msccl", err):
                # MSCCL keeps no rounds: the re-import puts a transfer at its depth in the
                # waits, so rdg's sends of blocks a node holds from the start (its later merges)
                # come forward into round 0, where the fabric's MZI degree refuses them; so do
                # twophase's phase-1 sends (a node's own blocks, each on its own lane). The
                # file still verifies; only that refusal, and no other, is allowed in mapping.
                ahead = name in ("rdg", "twophase") and net == "fabric"
                check_msccl(mpath, tag, ["-t", net, *only_net(net_args(name, net, n))]
                            if done == 1 and not ahead else None)
                if ahead:
                    rc, _, err = run("verify", mpath, "-t", net)
                    check(rc == 0 or (rc == 1 and "MZI switch holds" in err),
                          tag + ": msccl re-import maps, or only its merged rounds pass the "
                          "MZI degree", err)
        check(done == 2, "%s %s: ran at two node counts" % (coll, name))
        # every other network it runs on: timeline and utilisation at one N
        for other in nets:
            if other == net:
                continue
            for n in (12, 16, 6):
                tag = "%s %s on %s, N=%d" % (coll, name, other, n)
                args = ["-c", coll, "-a", name, "-t", other, "-n", str(n), "-s", size_for(coll),
                        *net_args(name, other, n)]
                rc, out, err = run("run", *args, "--json", "--links")
                if rc == 2:
                    continue
                if not check(rc == 0, tag + ": run --links", err):
                    break
                rep = json.loads(out)
                check_links(rep["links"], tag)
                sched_path = os.path.join(tmp, "s.json")
                run("export", *args, "--format", "json", "-o", sched_path)
                cpath = os.path.join(tmp, "t.json")
                rc, _, err = run("export", *args, "--format", "chrome", "-o", cpath)
                if check(rc == 0, tag + ": export chrome", err):
                    check_chrome(cpath, n, rep["time_s"], json.load(open(sched_path)), tag)
                break

    if part != 0:
        print("%d passed, %d failed" % (PASS, FAIL))
        sys.exit(1 if FAIL else 0)
    # Hand values. Ring all-gather, one wavelength: each of the N-1 rounds is one step in which
    # every clockwise link carries one lightpath; no counter-clockwise link is ever used.
    for n in (7, 12):
        rc, out, err = run("run", "-c", "allgather", "-a", "ring", "-t", "ring", "-n", str(n),
                           "-w", "1", "-s", "1MiB", "--links", "--json")
        if check(rc == 0, "ring all-gather N=%d w=1 --links" % n, err):
            links = json.loads(out)["links"]
            pp = links["per_position"]
            cw = [x["utilisation"] for x in pp if x["name"].endswith(" cw")]
            ccw = [x["utilisation"] for x in pp if x["name"].endswith(" ccw")]
            check(len(cw) == n and len(ccw) == n and all(close(x, 1.0) for x in cw)
                  and all(x == 0 for x in ccw) and close(links["mean_utilisation"], 0.5)
                  and links["busy_resources"] == n and links["count"] == 2 * n,
                  "ring all-gather N=%d w=1: clockwise links 100 %%, counter-clockwise 0, "
                  "mean 1/2" % n, json.dumps(links)[:400])
    # Two wavelengths, N = 5: still one lightpath per link and step, so wavelength 0 is busy all
    # the time and wavelength 1 never: per wavelength (class) 1/2 and 0 (half the links are ccw).
    rc, out, err = run("run", "-c", "allgather", "-a", "ring", "-t", "ring", "-n", "5", "-w", "2",
                       "-s", "1MiB", "--links", "--json")
    if check(rc == 0, "ring all-gather N=5 w=2 --links", err):
        pc = json.loads(out)["links"]["per_class"]
        check([round(x["utilisation"], 12) for x in pc] == [0.5, 0.0],
              "ring all-gather N=5 w=2: per wavelength 1/2 and 0", pc)
    # The switch: ring all-gather keeps every send and receive port busy all the time.
    rc, out, err = run("run", "-c", "allgather", "-a", "ring", "-t", "switch", "-n", "6", "-s",
                       "1MiB", "--links", "--json")
    if check(rc == 0, "switch ring all-gather --links", err):
        links = json.loads(out)["links"]
        check(close(links["mean_utilisation"], 1.0) and links["count"] == 12,
              "switch ring all-gather: every port busy all the time", links["mean_utilisation"])
    # The direct networks (hypercube, torus, mesh: a resource is a directed link).
    # SEX on Q_n: round k exchanges along dimension k, every node sends one combined message of
    # N/2 packets, so the N directed links of dimension k are busy for the whole of step k and
    # idle in the other n-1 steps, all equally long: every link 1/n, n 2^n links.
    for dim in (3, 4):
        n = 2 ** dim
        rc, out, err = run("run", "-c", "alltoall", "-a", "sex", "-t", "hypercube", "-n", str(n),
                           "-s", "64KiB", "--links", "--json")
        if check(rc == 0, "sex on Q_%d --links" % dim, err):
            links = json.loads(out)["links"]
            pp = [x["utilisation"] for x in links["per_position"]]
            check(links["count"] == dim * n and links["busy_resources"] == dim * n
                  and len(pp) == dim * n and all(close(x, 1.0 / dim) for x in pp)
                  and close(links["mean_utilisation"], 1.0 / dim),
                  "sex on Q_%d: %d directed links, each busy 1/%d of the time" % (dim, dim * n, dim),
                  json.dumps(links)[:400])
    # hypercube-opt on the all-port SF non-combining Q_4: each of the 2^(n-1) rounds uses all
    # n 2^n arcs once with one packet each (the notes' schedule table): every link always busy.
    rc, out, err = run("run", "-c", "alltoall", "-a", "hypercube-opt", "-t", "hypercube", "-n",
                       "16", "-s", "1KiB", "--net", "ports=all", "--net", "combining=no",
                       "--links", "--json")
    if check(rc == 0, "hypercube-opt on Q_4 --links", err):
        links = json.loads(out)["links"]
        check(links["count"] == 64 and all(close(x["utilisation"], 1.0)
                                           for x in links["per_position"]),
              "hypercube-opt on Q_4: all 64 directed links busy in every step",
              json.dumps(links)[:400])
    # The pipeline on T(5) (a 5-cycle). One way (directions=1 pinned, 1-port): every node sends to its right
    # neighbour in every round, all messages of a round equally long: the 5 positive links are
    # busy all the time, the 5 negative ones never. Two ways, all-port (R = L = 2 for z odd): both
    # pipelines carry the same packets in every round, so all 10 directed links are always busy.
    rc, out, err = run("run", "-c", "alltoall", "-a", "pipeline", "-t", "torus", "-n", "5",
                       "-s", "64KiB", "-p", "directions=1", "--links", "--json")
    if check(rc == 0, "pipeline on T(5) --links", err):
        links = json.loads(out)["links"]
        pp = links["per_position"]
        pos = [x["utilisation"] for x in pp
               for u in range(5) if x["name"] == "link %d->%d" % (u, (u + 1) % 5)]
        neg = [x["utilisation"] for x in pp
               for u in range(5) if x["name"] == "link %d->%d" % ((u + 1) % 5, u)]
        check(links["count"] == 10 and len(pos) == 5 and len(neg) == 5
              and all(close(x, 1.0) for x in pos) and all(x == 0 for x in neg)
              and close(links["mean_utilisation"], 0.5),
              "pipeline on T(5): positive links 100 %, negative 0", json.dumps(links)[:400])
    rc, out, err = run("run", "-c", "alltoall", "-a", "pipeline", "-t", "torus", "-n", "5",
                       "-s", "64KiB", "-p", "directions=2", "--net", "ports=all", "--links",
                       "--json")
    if check(rc == 0, "two-way pipeline on T(5), all-port --links", err):
        links = json.loads(out)["links"]
        check(links["count"] == 10 and close(links["mean_utilisation"], 1.0),
              "two-way pipeline on T(5), all-port: every directed link always busy",
              json.dumps(links)[:400])
    # Half duplex: a link carries one message either way, so it is one resource (N n / 2 on Q_n).
    rc, out, err = run("run", "-c", "alltoall", "-a", "sex", "-t", "hypercube", "-n", "8", "-s",
                       "64KiB", "--net", "duplex=half", "--links", "--json")
    if check(rc == 0, "sex on half-duplex Q_3 --links", err):
        links = json.loads(out)["links"]
        check(links["count"] == 12 and links["max_utilisation"] <= 1 + 1e-9
              and all(x["name"].count("-") == 1 and ">" not in x["name"]
                      for x in links["per_position"]),
              "sex on half-duplex Q_3: 12 links, named both ways", json.dumps(links)[:400])
    # --links needs a network; chrome too.
    rc, out, err = run("export", "-c", "allgather", "-a", "ring", "-n", "4", "-s", "1KiB",
                       "--format", "chrome", "-t", "nosuch")
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1,
          "export chrome on an unknown network: exit 2, one line", err)
    # Not XML / not MSCCL.
    bad = os.path.join(tmp, "bad.xml")
    open(bad, "w").write("<algo ngpus='2' nchunksperloop='2' coll='allgather'><gpu id='0'>")
    rc, out, err = run("verify", bad)
    check(rc == 2 and out == "" and len(err.strip().splitlines()) == 1,
          "truncated XML: exit 2, one line", err)
    open(bad, "w").write("<algo ngpus='2' nchunksperloop='2' coll='allgather'/>")
    rc, out, err = run("verify", bad)
    check(rc == 1 and out == "", "MSCCL file without steps fails verification (exit 1)", err)
    print("%d passed, %d failed" % (PASS, FAIL))
    sys.exit(1 if FAIL else 0)


if __name__ == "__main__":
    main()
