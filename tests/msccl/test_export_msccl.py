#!/usr/bin/env python3
"""test_export_msccl.py -- every MSCCL program opticoll exports, run by executor.py.

Usage: test_export_msccl.py PATH/TO/opticoll REFDIR [hand | grid K/M]

With no third argument, all of it; "hand" is parts 1 and 3; "grid K/M" is the K-th of M shards
of part 2 (every M-th export, from the K-th): tests/msccl_export.cmake runs it as one test of the
hand cases and grid shards, each well under a fifth of its time limit.

  1. executor.py itself: the real MSCCL programs in REFDIR (../shared/msccl-ref, read in place,
     never copied) run correctly under both runtimes' rules; subtly broken copies of them (a wait
     removed, an XML declaration, a tab, a wrong offset, a misspelt coll, a step over 64) fail.
  2. every algorithm `opticoll list` names, on its first network, for N in 2, 3, 5, 8, 34, 64, 100
     (what the algorithm allows), for --runtime msccl-nccl and rccl, out-of-place (and in-place,
     --format msccl-inplace, at N = 3 and 8 for msccl-nccl): the export runs correctly under that runtime's
     rules and limits, or is refused with one line "MSCCL export: ... needs ...; RUNTIME allows
     ..." and writes nothing. An rccl program equal to the msccl-nccl one is checked against
     rccl's loader rules and limits without a second run.
  3. hand cases: the issue's: ring all-gather on 34 and 100 nodes (over 64 steps for one
     threadblock, now split), coll="reducescatter", gather/scatter refused by msccl-nccl and run
     under rccl, OpTree's output in rank order, pairwise all-to-all refused by rccl above 64
     threadblocks, no XML declaration.
Prints "ok - ..." / "FAIL - ..." and a count; exit 1 on a failure.
"""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "export"))
import executor  # noqa: E402
import test_export as common  # noqa: E402  check(), run() (the tool of argv[1]), algorithms()

check, run, algorithms = common.check, common.run, common.algorithms

REF = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "..", "shared", "msccl-ref")
NS = (2, 3, 5, 8, 34, 64, 100)
REFUSAL = re.compile(r"^opticoll: MSCCL export: .+ needs .+; (msccl-nccl|rccl) allows \d+$|"
                     r"^opticoll: MSCCL export: msccl-nccl reads coll=\"(gather|scatter)\" but NCCL|"
                     r"^opticoll: MSCCL export: \d+ nodes x \d+ chunks is more than this exporter "
                     r"handles \(2\^22 GPU-chunk pairs\)$")
WH = ["--net", "switching=wh"]
DIRECT = {  # the direct networks' algorithms: network and arguments (as tests/export does)
    "sex": ("hypercube", []), "dex": ("hypercube", WH), "pipeline": ("torus", []),
    "dex-torus": ("torus", WH), "dex-micro": ("torus", WH), "dex-interleave": ("mesh", WH),
    "hypercube-opt": ("hypercube", ["--net", "ports=all", "--net", "combining=no"]),
    "bex": ("mesh", WH), "qex": ("mesh", WH), "cartesian": (None, []),
}


def execute(path, runtime, root=0, mode="both", execute_it=True):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    try:
        executor.run(text, runtime, root, mode, 1, execute_it)
        return None
    except executor.Bad as e:
        return str(e)


def refs():
    if not os.path.isdir(REF):
        print("# skip: %s is absent (the real MSCCL programs are not copied here)" % REF)
        return
    files = sorted(f for f in os.listdir(REF) if f.endswith(".xml"))
    if not check(len(files) == 7, "the 7 real MSCCL programs are in %s" % REF, files):
        return
    for f in files:
        for rt in ("msccl-nccl", "rccl"):
            err = execute(os.path.join(REF, f), rt)
            check(err is None, "executor runs %s under %s" % (f, rt), err)
    # broken copies must fail, each for its reason
    r48 = open(os.path.join(REF, "allreduce-8gpu-ndv4-r48ll.xml")).read()
    hier = open(os.path.join(REF, "allreduce-4gpu-ncv4-ar_hier_12_Simple.xml")).read()
    a2a = open(os.path.join(REF, "alltoall-8gpu-ndv4-a2a2ll.xml")).read()
    m = re.search(r'depid="(\d+)" deps="(\d+)"', hier)
    cases = [
        ("a wait removed", hier[:m.start()] + 'depid="-1" deps="-1"' + hier[m.end():], "race"),
        ("an XML declaration", '<?xml version="1.0"?>\n' + a2a, "expected >"),
        ("a tab", a2a.replace("  <gpu", "\t<gpu", 1), "expecting '<'"),
        ("a wrong reduce offset", r48.replace('type="rrs" srcbuf="i" srcoff="32"',
                                              'type="rrs" srcbuf="i" srcoff="33"', 1), "race"),
        ("a wrong receive offset", a2a.replace(
            '<step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2"',
            '<step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="3"', 1), "race"),
        ("coll=reduce_scatter-like names", a2a.replace('coll="alltoall"', 'coll="all_to_all"'),
         "unsupported collective"),
        ("a step 64", a2a.replace('<step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2"',
                                  '<step s="64" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2"',
                                  1), "too many steps"),
        ("a step removed", re.sub(r'\n *<step s="0" type="s"[^\n]*', "", a2a, count=1), "deadlock"),
        ("two attributes on two lines", a2a.replace('" ngpus=', '"\n ngpus=', 1), "expected >"),
    ]
    for what, text, want in cases:
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as t:
            t.write(text)
        err = execute(t.name, "msccl-nccl")
        os.unlink(t.name)
        check(err is not None and want in err, "executor refuses %s (%s)" % (what, want), err)


def export_to(path, coll, name, net, extra, n, rt, inplace):
    # the star's workload is SIZE in messages of L bytes: L=256 keeps 16 messages a block
    star = ["--net", "L=256"] if net == "star" else []
    args = ["export", "-c", coll, "-a", name, "-t", net, "-n", str(n), "-s", "4KiB",
            "--format", "msccl-inplace" if inplace else "msccl", "--runtime", rt, "-o", path,
            *star, *extra]
    rc, _, err = run(*args)
    if rc == 0:
        return None, open(path).read()
    return err.strip(), None


def one(job):
    """(kind, tag, ok, detail) for one (algorithm, N, mode): the msccl-nccl program executed, the
    rccl one executed too where it differs (else its loader checks alone: the same program)."""
    coll, name, net, extra, n, inplace, tmp = job
    path = os.path.join(tmp, "%s-%s-%d-%d.xml" % (coll, name, n, inplace))
    results = []
    first = None
    for rt in ("msccl-nccl", "rccl"):
        if inplace and rt == "rccl":
            break
        tag = "%s %s n=%d on %s, %s, %s" % (coll, name, n, net, rt,
                                            "in-place" if inplace else "out-of-place")
        if os.path.exists(path):
            os.unlink(path)
        err, text = export_to(path, coll, name, net, extra, n, rt, inplace)
        if err is not None:
            if err.startswith("opticoll: MSCCL export:"):
                ok = REFUSAL.match(err) is not None and "\n" not in err and not os.path.exists(path)
                results.append(("refused", tag, ok, err))
            else:
                results.append(("skip", tag, True, err))  # a restriction of the algorithm
            continue
        same = first is not None and first == text.replace('oc_runtime="rccl"',
                                                          'oc_runtime="msccl-nccl"')
        res = execute(path, rt, 0, "in" if inplace else "out", not same)
        first = first or text
        results.append(("ran", tag, res is None, res))
    if os.path.exists(path):
        os.unlink(path)
    return results


def grid(k=0, m=1):
    tmp = tempfile.mkdtemp(prefix="msccl-export-")
    jobs = []
    for coll, name, nets in algorithms():
        net, extra = nets[0], []
        if name in DIRECT:
            net, extra = DIRECT[name]
            if net is None:
                continue  # cartesian: dims must be the torus's (covered by tests/export)
        for n in NS:
            for inplace in (0, 1):
                if inplace and n not in (3, 8):
                    continue
                jobs.append((coll, name, net, extra, n, inplace, tmp))
    jobs = jobs[k::m]
    counts = {"ran": 0, "refused": 0, "skip": 0}
    with ThreadPoolExecutor(max_workers=2) as ex:
        for kind, tag, ok, detail in (r for rs in ex.map(one, jobs) for r in rs):
            counts[kind] += 1
            if kind == "ran":
                check(ok, "runs correctly: " + tag, detail)
            elif kind == "refused":
                check(ok, "refused in one line naming the limit: " + tag + ": " + detail, detail)
    os.rmdir(tmp)
    print("# grid %d/%d: %d programs ran, %d refused at a runtime limit, %d not applicable"
          % (k, m, counts["ran"], counts["refused"], counts["skip"]))
    check(counts["ran"] > 300 // m, "the grid's shard ran programs (%d)" % counts["ran"])


def hand():
    tmp = tempfile.mkdtemp(prefix="msccl-hand-")
    p = os.path.join(tmp, "f.xml")

    def export(*a, fmt="msccl"):
        if os.path.exists(p):
            os.unlink(p)
        return run("export", *a, "-s", "4KiB", "--format", fmt, "-o", p)

    for n in (34, 100):
        rc, _, err = export("-c", "allgather", "-a", "ring", "-n", str(n))
        text = open(p).read() if rc == 0 else ""
        steps = max((int(x) for x in re.findall(r'<step s="(\d+)"', text)), default=0)
        check(rc == 0 and steps < 64 and execute(p, "msccl-nccl") is None,
              "ring all-gather on %d nodes: every threadblock under 64 steps (max s=%d)" % (n, steps), err)
    rc, _, err = export("-c", "reducescatter", "-a", "ring", "-n", "5")
    text = open(p).read() if rc == 0 else ""
    check('coll="reducescatter"' in text and not text.startswith("<?xml"),
          "reduce-scatter is coll=\"reducescatter\", no XML declaration", text[:200])
    for coll in ("gather", "scatter"):
        rc, _, err = export("-c", coll, "-a", "tcp1", "-t", "star", "-n", "7", "-r", "2",
                            "--net", "L=256")
        check(rc == 2 and "NCCL has no" in err and not os.path.exists(p),
              "%s refused by msccl-nccl in one line" % coll, err)
        rc, _, err = export("-c", coll, "-a", "tcp1", "-t", "star", "-n", "7", "-r", "2",
                            "--net", "L=256", "--runtime", "rccl")
        check(rc == 0 and 'coll="%s"' % coll in open(p).read() and
              execute(p, "rccl", root=2) is None, "%s runs under rccl (root 2)" % coll, err)
    for n in (12, 27, 100):  # -w 1: OpTree relabels the blocks (0,3,6,9,1,4,... at 12)
        for inplace in ("msccl", "msccl-inplace"):
            rc, _, err = export("-c", "allgather", "-a", "optree", "-n", str(n), "-w", "1",
                                fmt=inplace)
            text = open(p).read() if rc == 0 else ""
            check(rc == 0 and 's_chunks="%d"' % n in text and text.count('type="cpy"') > n and
                  execute(p, "msccl-nccl") is None,
                  "OpTree all-gather on %d nodes %s: worked in scratch, copied to o in rank order"
                  % (n, inplace), err)
    rc, _, err = export("-c", "alltoall", "-a", "pairwise", "-t", "switch", "-n", "100",
                        "--runtime", "rccl")
    check(rc == 2 and "threadblocks per GPU; rccl allows 64" in err and not os.path.exists(p),
          "pairwise all-to-all on 100 nodes refused by rccl (threadblocks)", err)
    rc, _, err = export("-c", "alltoall", "-a", "pairwise", "-t", "switch", "-n", "100")
    check(rc == 0 and execute(p, "msccl-nccl") is None,
          "pairwise all-to-all on 100 nodes runs under msccl-nccl", err)
    rc, _, err = export("-c", "allgather", "-a", "ring", "-n", "1100")
    check(rc == 2 and "1100 GPUs" in err and "allows 1024" in err, "1100 GPUs refused", err)
    rc, _, err = run("export", "-c", "allgather", "-a", "ring", "-n", "4", "-s", "4KiB",
                     "--format", "json", "--runtime", "rccl")
    check(rc == 2 and "--runtime applies to --format msccl only" in err, "--runtime needs msccl", err)
    rc, _, err = export("-c", "allgather", "-a", "ring", "-n", "4", "--runtime", "nccl")
    check(rc == 2 and "unknown MSCCL runtime" in err, "--runtime nccl refused", err)
    if os.path.exists(p):
        os.unlink(p)
    os.rmdir(tmp)


def main():
    part = sys.argv[3] if len(sys.argv) > 3 else "all"
    if part in ("all", "hand"):
        refs()
        hand()
    if part == "all":
        grid()
    elif part.startswith("grid "):
        k, m = (int(x) for x in part[5:].split("/"))
        grid(k, m)
    elif part != "hand":
        print("usage: test_export_msccl.py TOOL REFDIR [hand | grid K/M]", file=sys.stderr)
        return 2
    print("%d passed, %d failed" % (common.PASS, common.FAIL))
    return 1 if common.FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
