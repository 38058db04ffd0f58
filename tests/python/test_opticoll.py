"""Tests of the Python package (python/opticoll) against the command it mirrors.

Each function must return what `opticoll CMD ... --json` prints, field for field, and raise the
error the command reports: the command's output is the reference (OPTICOLL_CLI names the built
tool), over node counts that are not powers of anything. Run by tests/python/run.sh (CTest
`python_package`) in a venv the package was pip-installed into.
"""
import json
import os
import subprocess

import pytest

import opticoll

CLI = os.environ["OPTICOLL_CLI"]


def cli(*args, ok=True):
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def flat(obj, prefix=""):
    """The command's JSON object as the package's flat record: nested non-empty objects become
    dotted keys (written here again, apart from the package's own flattening)."""
    out = {}
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        elif key == "not_run":  # a reason, in the package's words (no CLI flags)
            out[f"{prefix}{key}"] = opticoll._plain(value)
        else:
            out[f"{prefix}{key}"] = value
    return out


def cli_json(*args):
    got = json.loads(cli(*args, "--json").stdout)
    return [flat(x) for x in got] if isinstance(got, list) else flat(got)


RUNS = [("allreduce", "ring", "switch"), ("allreduce", "rhd", "ring"), ("allgather", "ring", "ring"),
        ("allgather", "optree", "ring"), ("broadcast", "tcp1", "star"), ("scatter", "tcp1", "star"), ("alltoall", "pairwise", "switch")]


@pytest.mark.parametrize("coll,algo,net", RUNS)
@pytest.mark.parametrize("nodes", [1, 2, 3, 5, 7, 12, 100])
def test_run_matches_the_command(coll, algo, net, nodes):
    try:
        got = opticoll.run(coll, algo, nodes=nodes, size="64KiB", network=net)
    except opticoll.NotSupported as e:  # the command must refuse it too, with the same reason
        p = cli("run", "-c", coll, "-a", algo, "-t", net, "-n", nodes, "-s", "64KiB", ok=False)
        assert p.returncode != 0 and e.reason in opticoll._plain(p.stderr)
        return
    assert got == cli_json("run", "-c", coll, "-a", algo, "-t", net, "-n", nodes, "-s", "64KiB")
    assert got["verified"] is True and got["nodes"] == nodes


def test_run_parameters_and_numbers():
    got = opticoll.run("allgather", "wrht", nodes=12, size=4096, network="ring",
                       params={"m": 5}, net_params={"wavelengths": 4})
    assert got == cli_json("run", "-c", "allgather", "-a", "wrht", "-t", "ring", "-n", "12", "-s",
                           "4096", "-p", "m=5", "--net", "wavelengths=4")
    # a size in bytes and its spelling are one request
    assert opticoll.run("allreduce", "ring", 5, 1 << 20) == opticoll.run("allreduce", "ring", 5, "1MiB")


@pytest.mark.parametrize("nodes", [3, 7, 12])
def test_compare_matches_the_command(nodes):
    got = opticoll.compare("allreduce", nodes, "1MiB", network="switch")
    assert got == cli_json("compare", "-c", "allreduce", "-t", "switch", "-n", nodes, "-s", "1MiB")
    names = [r["algorithm"] for r in got]
    assert len(names) == len(set(names)) and "ring" in names


def test_compare_list_and_pins():
    got = opticoll.compare("allgather", 12, 4096, network="ring", algorithms=["wrht", "ring"],
                           params={"wrht.m": 5})
    assert got == cli_json("compare", "-c", "allgather", "-t", "ring", "-n", "12", "-s", "4096",
                           "-a", "wrht,ring", "-p", "wrht.m=5")
    assert [r["algorithm"] for r in got] == ["wrht", "ring"]
    with pytest.raises(opticoll.UnknownName):
        opticoll.compare("allgather", 12, 4096, network="ring", algorithms=["ring"],
                         params={"nosuchkey": 1})


@pytest.mark.parametrize("fmt", ["json", "chrome", "msccl"])
@pytest.mark.parametrize("nodes", [2, 5, 12])
def test_export_matches_the_command(tmp_path, fmt, nodes):
    got = opticoll.export("allgather", "ring", nodes, 4096, format=fmt, network="ring")
    out = tmp_path / "s"
    cli("export", "-c", "allgather", "-a", "ring", "-t", "ring", "-n", nodes, "-s", "4096",
        "--format", fmt, "-o", out)
    want = out.read_text()
    assert got == (want if fmt == "msccl" else json.loads(want))  # a file, not a record


@pytest.mark.parametrize("nodes", [3, 7, 100])
def test_verify_matches_the_command(tmp_path, nodes):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(opticoll.export("allreduce", "rhd", nodes, "1MiB", network="ring")))
    got = opticoll.verify(path)
    assert got == cli_json("verify", path)
    assert got["verified"] is True
    assert opticoll.verify(path, network="switch") == cli_json("verify", path, "-t", "switch")


def test_verify_refuses_a_wrong_schedule(tmp_path):
    schedule = opticoll.export("allgather", "ring", 5, 4096)
    schedule["rounds"] = schedule["rounds"][:-1]  # the last round lost: chunks missing
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(schedule))
    with pytest.raises(opticoll.VerificationError) as e:
        opticoll.verify(path)
    p = cli("verify", path, ok=False)
    assert p.returncode != 0 and e.value.reason in opticoll._plain(p.stderr)


def test_tune_matches_the_command():
    got = opticoll.tune("allreduce", [3, 12, 100], "1KiB,1MiB", network="switch",
                        algorithms=["ring", "rhd", "bt"])
    assert got == json.loads(cli("tune", "-c", "allreduce", "-t", "switch", "-n", "3,12,100", "-s",
                                 "1KiB,1MiB", "-a", "ring,rhd,bt", "--json").stdout)
    assert got["format"] == "opticoll-decisions"


def test_registry():
    names = {a["name"] for a in opticoll.algorithms("allreduce")}
    assert {"ring", "rhd", "wrht", "dbtree"} <= names
    assert all(a["collective"] == "allreduce" for a in opticoll.algorithms("allreduce"))
    assert "ring" in opticoll.networks() and "switch" in opticoll.networks()
    on_star = opticoll.algorithms("broadcast", network="star")
    assert on_star and all("star" in a["networks"].split(",") for a in on_star)


@pytest.mark.parametrize("call,error", [
    (lambda: opticoll.run("allreduce", "ring", 0, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", -3, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", True, 1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 4, -1), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 4, "4 MiB"), opticoll.ParseError),
    (lambda: opticoll.run("allreduce", "ring", 4, "2PiB"), opticoll.InvalidArgument),
    (lambda: opticoll.run("allreduce", "ring", 1 << 20, 4096), opticoll.Error),
    (lambda: opticoll.run("allreduce", "nosuch", 4, 1), opticoll.UnknownName),
    (lambda: opticoll.run("nosuch", "ring", 4, 1), opticoll.UnknownName),
    (lambda: opticoll.run("allreduce", "ring", 4, 1, network="nosuch"), opticoll.UnknownName),
    (lambda: opticoll.run("allreduce", "ring", 4, 1, params={"k": 3}), opticoll.Error),
    (lambda: opticoll.run("allgather", "optree", 8, 1, objective="fast"), opticoll.InvalidArgument),
    (lambda: opticoll.export("allgather", "ring", 4, 1, format="pdf"), opticoll.InvalidArgument),
    (lambda: opticoll.verify("/nonexistent/file.json"), opticoll.Error),
])
def test_bad_input_raises(call, error):
    with pytest.raises(error) as e:
        call()
    assert e.value.reason and "\n" not in e.value.reason


def test_error_carries_the_commands_reason():
    with pytest.raises(opticoll.UnknownName) as e:
        opticoll.run("allreduce", "nosuch", 4, 1)
    p = cli("run", "-c", "allreduce", "-a", "nosuch", "-n", "4", "-s", "1", ok=False)
    assert e.value.reason in opticoll._plain(p.stderr)


@pytest.mark.parametrize("coll,net,nodes,params", [("allgather", "ring", 100, {"wavelengths": 8}),
                                                   ("allreduce", "switch", 12, None),
                                                   ("gossip", "star", 7, {"k": 2})])
def test_physical_bound_matches_the_run(coll, net, nodes, params):
    """opticoll.physical_bound is the "physical_bound" object every run of the point carries, and
    each run's "to_physical_bound_ratio" is its time over the bound's (at least 1: the bound holds
    for every schedule)."""
    b = opticoll.physical_bound(coll, nodes, "1MiB", network=net, net_params=params)
    extra = [x for k, v in (params or {}).items() for x in ("--net", f"{k}={v}")]
    runs = [r for r in cli_json("compare", "-c", coll, "-t", net, "-n", nodes, "-s", "1MiB", *extra)
            if "not_run" not in r]
    assert runs
    for r in runs:
        assert {k: r["physical_bound." + k] for k in b} == b
        assert r["steps"] >= b["steps"]
        assert r["to_physical_bound_ratio"] == pytest.approx(r["time_s"] / b["time_s"])
        assert r["to_physical_bound_ratio"] >= 1 - 1e-9
    with pytest.raises(opticoll.UnknownName):
        opticoll.physical_bound("allgather", 8, 1024, network="nope")


@pytest.mark.parametrize("coll,algo,net,nodes,size,w,side", [
    ("allgather", "optree", "ring", 16, "4MiB", 2, "schedule"),
    ("allreduce", "rhd", "fabric", 100, "1KiB", None, "bound"),
    ("allreduce", "ring", "ring", 12, "1MiB", 4, "bound"),
    ("allreduce", "ring", "ring", 16, "1MiB", 2, "both"),
    ("allreduce", "rhd", "switch", 16, "1MiB", None, None)])
def test_likely_loose_is_a_flat_field(coll, algo, net, nodes, size, w, side):
    """A run's Record has "likely_loose" (the side of a gap to the physical bound) only where its
    to_physical_bound_ratio is above 2."""
    r = opticoll.run(coll, algo, nodes, size, network=net,
                     net_params={"wavelengths": w} if w else None)
    assert r.get("likely_loose") == side
    assert (r["to_physical_bound_ratio"] > 2) == (side is not None)
