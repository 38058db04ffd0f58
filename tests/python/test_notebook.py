"""The package as a notebook uses it (issue 30): every command a function whose records match the
command's --json, flat records a DataFrame takes, __version__, numpy's integers, typed errors for
bad input in the package's words (never a CLI flag), and Ctrl-C stopping a long call within a
second. Run by tests/python/run.sh (CTest `python_package`); OPTICOLL_CLI names the built tool.
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import opticoll

CLI = os.environ["OPTICOLL_CLI"]
SOURCE = Path(__file__).resolve().parents[2]
FLAG = re.compile(r"(?<![\w-])--?[a-z][a-z-]*\b")


def cli_json(*args):
    p = subprocess.run([CLI, *map(str, args), "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def flat(obj, prefix=""):
    out = {}
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        elif key == "not_run":  # a reason, in the package's words (no CLI flags)
            out[f"{prefix}{key}"] = opticoll._plain(value)
        else:
            out[f"{prefix}{key}"] = value
    return out


def test_version_is_the_projects():
    text = (SOURCE / "CMakeLists.txt").read_text()
    want = re.search(r"project\(opticoll VERSION ([0-9.]+)", text).group(1)
    assert opticoll.__version__ == want


class Index:
    """Any integer type with __index__ (numpy's among them) counts as a whole number."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


def test_integers_with_index_are_counts():
    want = opticoll.run("allgather", "ring", 12, 4096, network="ring")
    assert opticoll.run("allgather", "ring", Index(12), Index(4096), network="ring") == want
    np = pytest.importorskip("numpy")
    assert opticoll.run("allgather", "ring", np.int64(12), np.uint32(4096), network="ring") == want
    got = opticoll.sweep("allreduce", np.array([3, 7]), [np.int32(1024)], network="switch",
                         algorithms=["ring"])
    assert [r["nodes"] for r in got] == [3, 7]


def test_records_are_flat_and_match_the_command():
    r = opticoll.run("allreduce", "wrht", 12, "1MiB", network="ring", params={"m": 3})
    assert not any(isinstance(v, dict) and v for v in r.values())
    assert r == flat(cli_json("run", "-c", "allreduce", "-a", "wrht", "-n", 12, "-s", "1MiB",
                              "-p", "m=3"))
    assert r["params.m"] == 3 and "network_params.wavelengths" in r


def test_sweep_matches_the_command():
    got = opticoll.sweep("allreduce", "3,7,12", ["1KiB", 1 << 20], network="switch",
                         algorithms=["ring", "rhd"])
    want = cli_json("sweep", "-c", "allreduce", "-t", "switch", "-n", "3,7,12", "-s",
                    "1KiB,1MiB", "-a", "ring,rhd")
    assert got == [flat(x) for x in want] and len(got) == 12


@pytest.mark.parametrize("coll,algo,net,n", [("allreduce", "ring", "switch", 7),
                                             ("allgather", "ring", "ring", 12),
                                             ("reducescatter", "ring", "switch", 5),
                                             ("alltoall", "pairwise", "switch", 3)])
def test_perf_matches_the_command(coll, algo, net, n):
    got = opticoll.perf(coll, algo, n, 8, "1M", stepfactor=4, network=net)
    want = cli_json("perf", "--collective", coll, "--algorithm", algo, "--nodes", n, "-t", net,
                    "-b", 8, "-e", "1M", "-f", 4)["rows"]
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        for key in ("size", "count", "type", "redop", "root", "bytes", "busbw_factor",
                    "time_us", "algbw_GBps", "busbw_GBps"):
            assert g[key] == pytest.approx(w[key]) if isinstance(w[key], float) else g[key] == w[key], key
        # nccl-tests' arithmetic: algbw = size / time, busbw = algbw x the collective's factor
        assert g["algbw_GBps"] == pytest.approx(g["size"] / (g["time_us"] * 1e-6) / 1e9)
        factor = {"allreduce": 2 * (n - 1) / n}.get(coll, (n - 1) / n)
        assert g["busbw_GBps"] == pytest.approx(g["algbw_GBps"] * factor)
        # nccl-tests' two halves and #wrong, as the command's row has them
        for half in ("out_of_place", "in_place"):
            for key, value in w[half].items():
                assert g[f"{half}.{key}"] == pytest.approx(value), (half, key)
            assert g[f"{half}.wrong"] == 0
    # the settings and nccl-tests' footer beside the rows
    want = cli_json("perf", "--collective", coll, "--algorithm", algo, "--nodes", n, "-t", net,
                    "-b", 8, "-e", "1M", "-f", 4)
    for key, value in got.summary.items():
        assert value == (pytest.approx(want[key]) if isinstance(want[key], float)
                         else want[key]), key
    assert set(got.summary) == set(want) - {"rows", "network_params"}
    assert got.summary["avg_busbw_GBps"] > 0 and got.summary["out_of_bounds"] == 0


def test_perf_takes_nccl_tests_settings():
    """stepbytes (-i), iters (-n), warmup_iters (-w), check (-c), blocking (-z), as the command
    reads them: -c 0 turns the data check off and #wrong is None."""
    got = opticoll.perf("allreduce", "ring", 5, 1000, 4000, stepbytes=1000, network="switch",
                        iters=3, warmup_iters=0, check=0, blocking=1)
    want = cli_json("perf", "--collective", "allreduce", "-a", "ring", "-g", 5, "-t", "switch",
                    "-b", 1000, "-e", 4000, "-i", 1000, "-n", 3, "-w", 0, "-c", 0, "-z", 1)
    assert [r["size"] for r in got] == [r["size"] for r in want["rows"]] == [1000, 2000, 3000, 4000]
    assert all(r["out_of_place.wrong"] is None and r["in_place.wrong"] is None for r in got)
    for key in ("step_bytes", "iters", "warmup_iters", "check", "blocking", "minbytes",
                "maxbytes"):
        assert got.summary[key] == want[key], key
    assert got.summary["avg_busbw_GBps"] == pytest.approx(want["avg_busbw_GBps"])


def auto_note(*args):
    """`opticoll run -a auto ... --json`: its JSON and the note it prints on stderr."""
    p = subprocess.run([CLI, "run", "-a", "auto", *map(str, args), "--json"], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout), p.stderr.strip()


def test_run_auto_is_the_commands(tmp_path):
    """algorithm="auto" (it was refused as an unknown algorithm, though documented): the point
    tuned (every algorithm, the fastest verified run) or a decision file's nearest point, the
    same run and note as `run -a auto`, on 12 nodes (a decision file tuned at 4 and 16)."""
    got = opticoll.run("allreduce", "auto", 12, "1MiB", network="switch")
    want, note = auto_note("-c", "allreduce", "-t", "switch", "-n", 12, "-s", "1MiB")
    assert got.pop("auto") == opticoll._plain(note) and "the fastest of" in note
    assert got == flat(want)
    # a decision file from opticoll.tune(), and the command reading the same file
    path = tmp_path / "dec.json"
    path.write_text(json.dumps(opticoll.tune("allgather", [4, 16], ["1KiB", "1MiB"],
                                             network="switch", threads=1)))
    got = opticoll.run("allgather", "auto", 12, "64KiB", network="switch", decisions=path)
    want, note = auto_note("-c", "allgather", "-t", "switch", "-n", 12, "-s", "64KiB",
                           "--decisions", path)
    assert got.pop("auto") == opticoll._plain(note) and str(path) in note
    assert got == flat(want)
    with pytest.raises(opticoll.InvalidArgument, match="goes with algorithm='auto'"):
        opticoll.run("allgather", "ring", 7, "64KiB", network="switch", decisions=path)
    with pytest.raises(opticoll.InvalidArgument, match="pins nothing"):
        opticoll.run("allgather", "auto", 7, "64KiB", network="switch", params={"k": 2})
    with pytest.raises(opticoll.IOFailure):
        opticoll.run("allgather", "auto", 7, "64KiB", network="switch",
                     decisions=tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(opticoll.ParseError) as e:
        opticoll.run("allgather", "auto", 7, "64KiB", network="switch",
                     decisions=tmp_path / "bad.json")
    assert not FLAG.search(str(e.value)), e.value


HAND_DECISIONS = {
    "format": "opticoll-decisions", "version": 1, "collective": "allgather", "network": "switch",
    "network_params": {}, "algorithms": ["ne", "onestage", "bruck"],
    "points": [{"nodes": 8, "bytes": 1024, "winner": "ne"},        # ne needs N even
               {"nodes": 6, "bytes": 1024, "winner": "onestage"},  # the ring's alone
               {"nodes": 64, "bytes": 1024, "winner": "ne"},
               {"nodes": 100, "bytes": 1024, "winner": "bruck"}]}


def test_auto_skips_a_winner_that_cannot_run_here(tmp_path):
    """A decision file's nearest winner that cannot run at the asked N (ne, tuned at 8, asked at
    7: it needs N even; onestage, written by hand into a switch file: it runs on the ring alone)
    is skipped and said, and the nearest point won by one that runs is taken (bruck, N = 100):
    before, auto chose ne and the run failed (NotSupported). With no winner that runs, the point
    is tuned, as without a file. Both as the command does it, note for note."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND_DECISIONS))
    got = opticoll.run("allgather", "auto", 7, "1KiB", network="switch", decisions=path)
    want, note = auto_note("-c", "allgather", "-t", "switch", "-n", 7, "-s", "1KiB",
                           "--decisions", path)
    assert got["algorithm"] == "bruck" and got["verified"] is True
    assert "ne (won N = 8, 1 KiB)" in note and "even" in note
    assert "onestage (won N = 6, 1 KiB): does not run on switch" in note
    assert got.pop("auto") == opticoll._plain(note)
    assert got == flat(want)
    # at N = 8 the nearest winner runs: nothing skipped
    got = opticoll.run("allgather", "auto", 8, "1KiB", network="switch", decisions=path)
    assert got["algorithm"] == "ne" and "skipped" not in got["auto"]
    # no winner of the file runs at 7: this point is tuned, the skipped winners said first
    only = dict(HAND_DECISIONS, points=HAND_DECISIONS["points"][:3])
    path.write_text(json.dumps(only))
    got = opticoll.run("allgather", "auto", 7, "1KiB", network="switch", decisions=path)
    tuned = opticoll.run("allgather", "auto", 7, "1KiB", network="switch")
    want, note = auto_note("-c", "allgather", "-t", "switch", "-n", 7, "-s", "1KiB",
                           "--decisions", path)
    assert got["algorithm"] == tuned["algorithm"] == want["algorithm"]
    assert note.startswith("auto: no winner of") and "so this point is tuned" in note
    assert got.pop("auto") == opticoll._plain(note)
    assert got == flat(want)


def test_synth_matches_the_command():
    got = opticoll.synth("allgather", 4, network="ring", schedule=True)
    want = flat(cli_json("synth", "-c", "allgather", "-t", "ring", "-n", 4))
    for key in ("optimal", "lower_bound_steps", "steps", "result.steps", "result.verified"):
        assert got[key] == want[key]
    assert got["optimal"] is True and got["schedule"]["nodes"] == 4


def test_reproduce_matches_the_command():
    got = opticoll.reproduce("lumorph")  # seconds; optree's takes minutes
    want = cli_json("reproduce", "lumorph")
    assert [dict(c) for c in got["claims"]] == want["claims"]
    assert len(got["tables"]) == len(want["tables"])
    first = want["tables"][0]
    assert got["tables"][0] == [dict(zip(first["columns"], row)) for row in first["rows"]]
    assert {"optree", "lumorph"} <= set(opticoll.papers())


def test_export_formats_match_the_command(tmp_path):
    inplace = opticoll.export("allgather", "ring", 5, 4096, format="msccl-inplace")
    subprocess.run([CLI, "export", "-c", "allgather", "-a", "ring", "-n", "5", "-s", "4096",
                    "--format", "msccl-inplace", "-o", tmp_path / "in.xml"], check=True)
    assert inplace == (tmp_path / "in.xml").read_text()
    p = subprocess.run([CLI, "export", "-c", "allreduce", "-a", "ring", "-n", "5", "-s", "64KiB",
                        "-t", "switch", "--format", "chakra", "-o", tmp_path / "t"])
    if p.returncode != 0:  # a library built without protobuf-c: both refuse
        with pytest.raises(opticoll.NotSupported):
            opticoll.export("allreduce", "ring", 5, "64KiB", format="chakra", network="switch")
        return
    files = opticoll.export("allreduce", "ring", 5, "64KiB", format="chakra", network="switch")
    assert files == [(tmp_path / f"t.{r}.et").read_bytes() for r in range(5)]
    assert all(files)


def test_long_model_texts_come_back_whole(tmp_path):
    # A model's name past 63 bytes and its source past 255 were cut into the results' char[64] and
    # char[256] (issue 29): both come back whole, from throughput and from train's models file.
    name = "Model-" + "x" * 300 + "-end"
    doc = opticoll.throughput(110_000_000, 7, 12, 128, 125, 0.5, buckets=5, model=name,
                              data_check=False)
    assert doc["model"] == name
    source = "source " + "0123456789" * 120 + " end"
    models = tmp_path / "models.tsv"
    models.write_text(f"{name}\t1000\t10\t1000\t{source}\n")
    doc = opticoll.train(name, 5, network="ring", algorithm="ring", models=models,
                         data_check=False)
    assert doc["model"] == name and doc["model_source"] == source
    cli = cli_json("train", "-m", name, "-n", 5, "-t", "ring", "-a", "ring", "--models", models,
                   "--no-data-check")
    assert cli["model"] == name and cli["model_source"] == source


def test_registry_networks_are_lists():
    ring = next(a for a in opticoll.algorithms("allreduce") if a["name"] == "ring")
    assert isinstance(ring["networks"], list) and "switch" in ring["networks"]
    assert ring["networks"].split(",") == list(ring["networks"])  # the old string's form
    assert str(ring["networks"]) == ",".join(ring["networks"])
    detail = opticoll.networks(detail=True)
    assert [r["name"] for r in detail] == opticoll.networks()


def test_dataframe_columns():
    pd = pytest.importorskip("pandas")
    frame = opticoll.perf("allreduce", "ring", 8, 8, "64K", network="switch").to_pandas()
    assert isinstance(frame, pd.DataFrame)
    # nccl-tests' columns, in its order, then opticoll's own
    assert list(frame.columns[:5]) == ["size", "count", "type", "redop", "root"]
    assert {"time_us", "algbw_GBps", "busbw_GBps"} <= set(frame.columns)
    assert len(frame) == 14 and (frame["busbw_GBps"] > frame["algbw_GBps"]).all()
    table = opticoll.compare("allreduce", 12, "1MiB", network="switch")
    frame = table.to_pandas()
    assert list(frame.columns) == table.columns and len(frame) == len(table)
    assert {"algorithm", "time_s", "steps", "verified", "physical_bound.time_s"} <= set(frame.columns)
    assert frame.loc[frame["algorithm"] == "ring", "steps"].iloc[0] == 22
    one = opticoll.run("allreduce", "ring", 12, "1MiB", network="switch").to_pandas()
    assert len(one) == 1 and one["steps"].iloc[0] == 22


def test_rack_matches_the_command(tmp_path):
    got = opticoll.rack(servers=4, tiles=8, fibres=2, tenants=7, seed=3, size="1MiB")
    want = cli_json("rack", "--servers", 4, "--tiles", 8, "--fibres", 2, "--tenants", 7,
                    "--seed", 3, "-s", "1MiB")
    assert [dict(a) for a in got["architectures"]] == [flat(a) for a in want["architectures"]]
    assert [dict(t) for t in got["tenants"]] == [flat(t) for t in want["tenants"]]
    assert got["rack"] == want["rack"] and got["trace"] == want["trace"]
    assert [a["name"] for a in got["architectures"]] == ["lumorph", "tpu", "sipac"]
    trace = tmp_path / "t.txt"
    trace.write_text("0 arrive a 5\n1 arrive b 3\n4 leave a\n")
    got = opticoll.rack(servers=2, tiles=4, trace=trace, size=4096)
    want = cli_json("rack", "--servers", 2, "--tiles", 4, "--trace", trace, "-s", 4096)
    assert [dict(a) for a in got["architectures"]] == [flat(a) for a in want["architectures"]]


def test_rack_example_is_the_commands():
    """rack --example fig2a (the command had it, the package not): the same section, word for
    word, and the outcome the paper claims."""
    got = opticoll.rack_example("fig2a")
    p = subprocess.run([CLI, "rack", "--example", "fig2a"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert got["text"] == p.stdout and "User 4" in got["text"]
    assert got["agrees"] is True and got["example"] == "fig2a"
    with pytest.raises(opticoll.UnknownName, match="there is fig2a"):
        opticoll.rack_example("fig3")
    with pytest.raises(opticoll.InvalidType):
        opticoll.rack_example(2)


def test_plot_draws_a_line_per_group(monkeypatch):
    """Table.plot on a stand-in for matplotlib (not installed here): one line per algorithm, its
    points in x order with the records' values, log axes, the columns as labels."""
    import sys
    import types
    calls = []

    class Axes:
        def plot(self, xs, ys, marker=None, label=None):
            calls.append(("plot", list(xs), list(ys), label))

        def __getattr__(self, name):  # set_xlabel, set_xscale, legend, ...
            return lambda *a, **k: calls.append((name, *a))

    pyplot = types.ModuleType("matplotlib.pyplot")
    pyplot.subplots = lambda: (None, Axes())
    mpl = types.ModuleType("matplotlib")
    mpl.pyplot = pyplot
    monkeypatch.setitem(sys.modules, "matplotlib", mpl)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", pyplot)
    table = opticoll.sweep("allreduce", [7], ["1MiB", "1KiB", "64KiB"], network="switch",
                           algorithms=["ring", "rhd"])
    table.plot("bytes", "time_s", by="algorithm")
    lines = {c[3]: c for c in calls if c[0] == "plot"}
    assert sorted(lines) == ["rhd", "ring"]
    for name, (_, xs, ys, _) in lines.items():
        want = sorted((r["bytes"], r["time_s"]) for r in table if r["algorithm"] == name)
        assert list(zip(xs, ys)) == want and xs == [1024, 65536, 1048576]
    assert ("set_xscale", "log") in calls and ("set_yscale", "log") in calls
    assert ("set_xlabel", "bytes") in calls and ("set_ylabel", "time_s") in calls
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed: a clear ImportError
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match="python3-matplotlib"):
        table.plot("bytes", "time_s")


BAD = [
    # nodes, sizes and counts: bools, floats, text, NUL, out of range
    (lambda: opticoll.run("allreduce", "ring", True, 1), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4.0, 1), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", "4", 1), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4, True), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4, 2.5), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4, "1\x00MiB"), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 0, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 2**40, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 4, 1, root=False), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4, 1, data_check=1), opticoll.InvalidType),
    # names and parameters
    (lambda: opticoll.run("allreduce", "ring\x00x", 4, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run(["allreduce"], "ring", 4, 1), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "ring", 4, 1, network=""), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "wrht", 8, 1, params={"m\x00": 1}), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "wrht", 8, 1, params=[("m", 1)]), opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "wrht", 8, 1, net_params={"wavelengths": True}),
     opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "wrht", 8, 1, net_params={"wavelengths": None}),
     opticoll.InvalidType),
    (lambda: opticoll.run("allreduce", "wrht", 8, 1, net_params={"wavelengths": 0}),
     opticoll.Error),
    (lambda: opticoll.run("allreduce", "ring", 8, 1, network="ring", net_params={"dims": "4x4"}),
     opticoll.Error),
    # every other command
    (lambda: opticoll.compare("allreduce", 8, 1, algorithms=["ring", "ring"]),
     opticoll.InvalidArgument),
    (lambda: opticoll.compare("alltoall", 8, "4KiB", network="hypercube",
                              algorithms=["sex", "tcp2"]), opticoll.InvalidArgument),
    (lambda: opticoll.compare("allreduce", 8, 1, algorithms=5), opticoll.InvalidType),
    (lambda: opticoll.sweep("allreduce", [], "1KiB"), opticoll.InvalidArgument),
    (lambda: opticoll.sweep("allreduce", "3,,5", "1KiB"), opticoll.ParseError),
    (lambda: opticoll.sweep("allreduce", [3], "1KiB", threads=True), opticoll.InvalidType),
    (lambda: opticoll.tune("allreduce", [3, True], "1KiB"), opticoll.InvalidType),
    (lambda: opticoll.perf("allreduce", "ring", 8, "1M", "8"), opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 8, stepfactor=1), opticoll.InvalidArgument),
    (lambda: opticoll.perf("allgather", "ring", 8, 1), opticoll.InvalidArgument),
    (lambda: opticoll.perf("broadcast", "tcp1", 8, 8, network="star"), opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 8, 64, stepfactor=2, stepbytes=8),
     opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 8, iters=0), opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 8, blocking=2), opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 8, check=1, data_check=False),
     opticoll.InvalidArgument),
    (lambda: opticoll.perf("allreduce", "ring", 8, 1, 2**40, stepbytes=1),
     opticoll.InvalidArgument),
    (lambda: opticoll.draw("allgather", "ring", 5, 64, round=99), opticoll.InvalidArgument),
    (lambda: opticoll.rack(servers=0), opticoll.InvalidArgument),
    (lambda: opticoll.rack(tiles=33), opticoll.InvalidArgument),
    (lambda: opticoll.rack(tenants=True), opticoll.InvalidType),
    (lambda: opticoll.rack(size=0), opticoll.InvalidArgument),
    (lambda: opticoll.rack(sipac_r=4, sipac_l=31), opticoll.Error),
    (lambda: opticoll.rack(trace="/nonexistent/trace.txt"), opticoll.IOFailure),
    (lambda: opticoll.export("allreduce", "ring", 1, 64, format="astra-sim", network="switch"),
     opticoll.NotSupported),
    (lambda: opticoll.export("allgather", "ring", 4, 1, format="pdf"), opticoll.InvalidArgument),
    (lambda: opticoll.export("allgather", "ring", 4, 1, runtime="rccl"), opticoll.InvalidArgument),
    (lambda: opticoll.export("allgather", "ring", 4, 1, format="msccl", runtime="nccl-x"),
     opticoll.Error),
    (lambda: opticoll.export("allgather", "optree", 4, 1, network="switch", format="chrome"),
     opticoll.Error),
    (lambda: opticoll.verify("/nonexistent/file.json"), opticoll.IOFailure),
    (lambda: opticoll.verify(7), opticoll.InvalidType),
    (lambda: opticoll.reproduce("nosuch"), opticoll.UnknownName),
    (lambda: opticoll.reproduce("star", nodes=1), opticoll.InvalidArgument),
    (lambda: opticoll.reproduce("lumorph", nodes=1), opticoll.InvalidArgument),
    (lambda: opticoll.reproduce("optree", wavelengths=True), opticoll.InvalidType),
    (lambda: opticoll.synth("allgather", 40, network="ring"), opticoll.Error),
    (lambda: opticoll.synth("allgather", 4, network="ring", time_limit=float("nan")),
     opticoll.InvalidArgument),
    (lambda: opticoll.synth("alltoall", 4, network="ring"), opticoll.NotSupported),
    (lambda: opticoll.physical_bound("allgather", 8, 1024, network="nope"), opticoll.UnknownName),
    (lambda: opticoll.train("nosuchmodel", 8), opticoll.UnknownName),
    (lambda: opticoll.throughput(1000, 8, 8, 128, 100, 2.0), opticoll.InvalidArgument),
    (lambda: opticoll.algorithms("nosuch"), opticoll.UnknownName),
    (lambda: opticoll.networks(detail="yes"), opticoll.InvalidType),
]


@pytest.mark.parametrize("call,error", BAD)
def test_bad_input_raises_a_typed_error_without_flags(call, error):
    with pytest.raises(error) as e:
        call()
    reason = e.value.reason
    assert reason and "\n" not in reason
    assert not FLAG.search(reason), f"names a CLI flag: {reason}"
    assert isinstance(e.value, opticoll.Error)


def test_reasons_in_records_name_no_flags():
    reasons = [r["not_run"] for table in (
        opticoll.compare("alltoall", 7, "4KiB", network="hypercube"),
        opticoll.compare("allreduce", 7, "64KiB", network="ring"),
        opticoll.sweep("allgather", [5, 12], "1KiB", network="ring"),
        opticoll.perf("allreduce", "wrht", 7, 8, 64, network="ring"))
        for r in table if "not_run" in r]
    assert reasons
    assert not [r for r in reasons if FLAG.search(r)]


def test_library_reasons_lose_their_flags():
    # reasons the library words for the command, as this package words them
    assert opticoll._plain("compare -p m: no algorithm compared takes it (see opticoll list)") == \
        "compare params m: no algorithm compared takes it (see opticoll.algorithms())"
    assert not FLAG.search(opticoll._plain(
        "tuned with network parameters w=4; give the run the same (-w, -f, --preset, --net)"))
    assert not FLAG.search(opticoll._plain("cartesian was planned for -p dims=4x4, run --explain"))


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt here, as in an interactive Python: a test started in the
    background by a non-interactive shell (`cmd &`, nohup) inherits SIGINT ignored, and Python
    then leaves it ignored, so the signals these tests send would prove nothing (every Ctrl-C
    test ran its call to the end and failed)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


def interrupt_after(delay):
    """SIGINT to the main thread after `delay` s, from a timer thread; when it was sent, by the
    wall clock ("at") and by this process's CPU clock ("cpu": every thread's, the library's
    included)."""
    sent = {}

    def fire():
        sent["cpu"] = time.process_time()
        sent["at"] = time.monotonic()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    timer = threading.Timer(delay, fire)
    timer.start()
    return timer, sent


def stretch_of(wall, cpu):
    """How much slower than an idle machine this process ran: the larger of the load past the
    cores (a one-minute average, slow to see a burst) and the wall time over the CPU time this
    process got while it measured (the burst itself; a process that kept one thread busy got a
    core's share), never below 1."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return max(1.0, load, wall / cpu if cpu > 0 else 1.0)


def assert_stops(name, call, delay=0.4, within=1.0):
    """call() gets SIGINT after `delay` s and must raise KeyboardInterrupt because the library
    stopped the work (`opticoll_cancelled`: the call returned OC_ECANCELED, not its result), with
    less than `within` s of this process's CPU spent after the signal (the work done after it,
    whatever the machine's load), and within `within` s of the signal by the wall clock on an
    idle machine, stretched by how much slower this process ran than that (stretch_of). Then no
    work is left running and the next call works."""
    timer, sent = interrupt_after(delay)
    start, start_cpu = time.monotonic(), time.process_time()
    with pytest.raises(KeyboardInterrupt) as raised:
        call()
    end, end_cpu = time.monotonic(), time.process_time()
    timer.join()
    assert "at" in sent, f"{name} returned before the signal ({end - start:.2f} s)"
    assert getattr(raised.value, "opticoll_cancelled", None) is True, \
        f"{name}: the work ended before it heard the stop ({end - sent['at']:.2f} s after it)"
    cpu = end_cpu - sent["cpu"]
    assert cpu < within, f"{name}: {cpu:.2f} s of CPU after the signal"
    stretch = stretch_of(sent["at"] - start, sent["cpu"] - start_cpu)
    assert end - sent["at"] < within * stretch, \
        f"{name}: {end - sent['at']:.2f} s after the signal (ran x{stretch:.1f} slower than idle)"
    assert not [t for t in threading.enumerate() if t.name == "opticoll-call"]
    assert opticoll.run("allreduce", "ring", 5, 1024, network="switch")["verified"] is True


@pytest.mark.parametrize("name,call", [
    # (ring all-reduce is a family of whole-ring rounds now, done in milliseconds)
    ("run", lambda: opticoll.run("allgather", "ne", 20000, "1MiB", network="switch",
                                 data_check=False)),
    # OpTree's search at 65536 nodes maps three candidates of some seconds each: the stop comes
    # inside the first candidate's rounds, not once it is mapped
    ("search candidate", lambda: opticoll.run("allgather", "optree", 65536, "1KiB",
                                              network="ring", data_check=False)),
    ("sweep", lambda: opticoll.sweep("allgather", "200..6000:+200", "1MiB", network="switch",
                                     algorithms=["ne"], threads=1)),
    # one point of some ten seconds: its run polls the tuning's callback
    ("tune", lambda: opticoll.tune("allgather", [20000], "1MiB", network="switch",
                                   algorithms=["ne"], threads=1)),
    # OpTree's reproduction runs jobs of seconds each (35 s in all when a job is not stopped)
    ("reproduce", lambda: opticoll.reproduce("optree")),
    # solver calls of seconds (without the watcher a stop came 4.8 s late)
    ("synth", lambda: opticoll.synth("allgather", 10, network="ring",
                                     net_params={"wavelengths": 2}, time_limit=30)),
    # OpTree's two levels at 65536 nodes: two rounds of 16.7 M lightpaths, each generated,
    # verified by shards and coloured by the ring model for seconds; the stop is heard inside
    # the round (oc__stop_tick), not once the cost pass's colouring of it is over (4.9 s late)
    ("one huge round", lambda: opticoll.run("allgather", "optree", 65536, "1KiB",
                                            network="ring", params={"radices": "256x256"},
                                            data_check=False)),
    # three all-reduce runs on 131072 GPUs (minutes; it could not be stopped before: the
    # estimate's runs had no progress callback; 16384 GPUs now take 0.3 s, too short to stop)
    ("throughput", lambda: opticoll.throughput(340_000_000, 32, 131072, 512, 312, 0.5)),
])
def test_ctrl_c_stops_a_long_call_within_a_second(name, call):
    """Each call takes several seconds (run: about 10 s, the search 15 s, sweep 25 s, tune
    10 s, reproduce 35 s, synth 17 s at load 15 on two cores); SIGINT after 0.4 s must stop the
    work (assert_stops: the library's OC_ECANCELED, under a second of CPU and of wall time after
    the signal, the wall second stretched by the load this process met). Every piece of long
    work polls the callback: a sweep's or a tuning's point and a reproduction's job through their
    run's rounds, a search inside a candidate's rounds, synth while the solver runs."""
    assert_stops(name, call)


@pytest.fixture(scope="module")
def big_files(tmp_path_factory):
    """Schedule files of about 60 MB, under the input cap of 64 MiB (1/64 of the default memory
    budget), written by the command: ring all-gather on 900 nodes as opticoll's JSON (809,100
    transfers), and on 512 as MSCCL XML (261,632 sends and receives). Reading and checking each
    takes one to three seconds of CPU (4 to 15 s at load 17 on two cores)."""
    d = tmp_path_factory.mktemp("big")
    files = {"json": d / "ring900.json", "msccl": d / "ring512.xml"}
    for kind, n, net, fmt in (("json", 900, "ring", "json"), ("msccl", 512, "switch", "msccl")):
        p = subprocess.run([CLI, "export", "-c", "allgather", "-a", "ring", "-t", net, "-n",
                            str(n), "-s", "1KiB", "--format", fmt, "-o", str(files[kind]), "-q"],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        assert 40e6 < files[kind].stat().st_size < 64 << 20, files[kind].stat().st_size
    return files


@pytest.mark.parametrize("name,kind,delay", [
    # the signal while the file is read: the scans and the transfers parsed one by one (cJSON
    # parsed the whole text in one call of a second and more, which nothing could stop)
    ("verify json, reading", "json", 0.15),
    # later: the verifier's and the ring model's rounds, as a run's
    ("verify json, checking", "json", 0.4),
    # libxml2's push parser fed a MiB at a time, then the program's execution
    ("verify msccl", "msccl", 0.4),
    # draw(schedule=) reads the same way, through oc_draw_options.progress
    ("draw schedule", "json", 0.15),
])
def test_ctrl_c_stops_reading_a_big_schedule_file(big_files, name, kind, delay):
    """verify() and draw(schedule=) on a schedule file of 60 MB hear Ctrl-C (they ran to the end:
    the readers had no progress callback): KeyboardInterrupt, the work stopped by the library, as
    assert_stops checks for the long calls. And uninterrupted the same calls finish, the schedule
    verified: the file is one they read whole."""
    path = big_files[kind]
    net = "switch" if kind == "msccl" else None
    if name.startswith("draw"):
        call = lambda: opticoll.draw(schedule=path, round=0)  # noqa: E731
    else:
        call = lambda: opticoll.verify(path, network=net)  # noqa: E731
    assert_stops(name, call, delay=delay)
    if name == "verify json, checking":
        r = opticoll.verify(path)
        assert r["verified"] is True and r["nodes"] == 900 and r["rounds"] == 899


def test_interrupted_reads_leak_nothing(big_files):
    """Ten interrupted reads of the 60 MB file leave the process's memory where one left it: the
    text, the rounds read so far and the report are freed on the way out (a read that finished
    before the stop was heard has its report freed by the package)."""
    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    def interrupted(delay):
        timer, _ = interrupt_after(delay)
        with pytest.raises(KeyboardInterrupt):
            opticoll.verify(big_files["json"])
        timer.join()

    interrupted(0.3)
    before = rss()
    for i in range(10):
        interrupted(0.1 + 0.05 * i)
    grown = rss() - before
    # a leak of what one read holds (the 60 MB text, 14 MB of rounds) would show ten times over
    assert grown < 30 << 20, f"memory grew by {grown >> 20} MiB over ten interrupted reads"


RACK_CHILD = r"""
import json, os, time
import opticoll
big = dict(servers=128, tiles=32, size="64MiB")
begun = time.monotonic()
opticoll.rack(tenants=10000, **big)  # a tenth of the events below, uninterrupted
tenth = time.monotonic() - begun
print(json.dumps({"calling": True, "tenth_s": tenth}), flush=True)
begun = time.monotonic()
try:
    opticoll.rack(tenants=100000, **big)
    print(json.dumps({"outcome": "finished", "s": time.monotonic() - begun}), flush=True)
except KeyboardInterrupt as e:
    t = os.times()
    print(json.dumps({"outcome": "KeyboardInterrupt", "ended": time.monotonic(),
                      "cpu": t.user + t.system,
                      "cancelled": getattr(e, "opticoll_cancelled", None)}), flush=True)
"""


def cpu_of(pid):
    """The CPU seconds process pid has used so far (user + system, /proc/PID/stat), on the clock
    os.times() reads in that process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_stops_a_long_rack():
    """rack() hears Ctrl-C (it ran to its end before: the replay had no progress callback). A
    child process replays 100000 tenants on 128 x 32 GPUs (20 s at load 15; a tenth of the
    events, measured first, takes 2 to 7 s of that) and gets a real SIGINT 0.5 s into the call:
    it must end with KeyboardInterrupt from the library's stop (without the polls it ended 26 s
    after the signal, the tenth taking 7 s), spending less CPU after the signal than the tenth
    took and under a second of it, and within a second of the signal by the wall clock on an idle
    machine (stretched as assert_stops does, by the child's own CPU share before the signal)."""
    child = subprocess.Popen([sys.executable, "-c", RACK_CHILD], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(child.stdout.readline() or "{}")
        assert first.get("calling"), child.stderr.read()
        called, called_cpu = time.monotonic(), cpu_of(child.pid)
        time.sleep(0.5)
        sent_cpu = cpu_of(child.pid)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=300)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    last = json.loads(out.strip().splitlines()[-1])
    assert last["outcome"] == "KeyboardInterrupt", f"the replay ran to its end: {last}"
    assert last["cancelled"] is True, f"the replay ended before it heard the stop: {last}"
    after = last["ended"] - sent  # time.monotonic() is one clock for both processes on Linux
    cpu = last["cpu"] - sent_cpu
    tenth = first["tenth_s"]
    assert cpu < min(tenth, 1.0), \
        f"{cpu:.2f} s of CPU after the signal; a tenth of the replay took {tenth:.2f} s"
    stretch = stretch_of(sent - called, sent_cpu - called_cpu)
    assert after < 1.0 * stretch, f"{after:.2f} s after the signal (x{stretch:.1f} slower)"


def test_ctrl_c_while_the_call_starts(monkeypatch):
    """A SIGINT that lands while the call's thread is being started (inside Thread.start) still
    stops the work: before, KeyboardInterrupt escaped from start() before the stop flag was set,
    and the library ran on, unasked, for the whole call (10 s)."""
    real_start = threading.Thread.start

    def start(self):
        real_start(self)
        if self.name == "opticoll-call":  # the interrupt lands now, inside start()
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            time.sleep(0.2)

    monkeypatch.setattr(threading.Thread, "start", start)
    begun, begun_cpu = time.monotonic(), time.process_time()
    with pytest.raises(KeyboardInterrupt) as raised:
        opticoll.run("allgather", "ne", 20000, "1MiB", network="switch", data_check=False)
    monkeypatch.undo()
    wall, cpu = time.monotonic() - begun, time.process_time() - begun_cpu
    left = [t for t in threading.enumerate() if t.name == "opticoll-call"]
    assert not left, "the call runs on after the interrupt: it was never asked to stop"
    assert getattr(raised.value, "opticoll_cancelled", None) is True, "the work ran to its end"
    assert cpu < 1.5, f"{cpu:.2f} s of CPU for a call stopped as it started"
    # no CPU share to measure before the signal here: the load alone stretches the wall bound
    load = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    assert wall < 1.5 * load, f"{wall:.2f} s for a call stopped as it started (load x{load:.1f})"
    assert opticoll.run("allreduce", "ring", 5, 1024, network="switch")["verified"] is True


def test_the_tutorial_runs(tmp_path, monkeypatch):
    """docs/tutorial.py, run as a plain script (its own asserts check what it prints)."""
    import runpy
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(SOURCE / "docs" / "tutorial.py"), run_name="__main__")
