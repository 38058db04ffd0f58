"""opticoll.compare against `opticoll compare --json`: one library call (oc_compare) behind both.

Every answer must be the command's, to the field: the runs, the not-run reasons, the order, the
pins and their precedence; and every refusal the command's, with the same one-line reason (the
command prints "opticoll: REASON") and an exit of 2 there. N is 1, 2, 3, 5, 7, 12 and 100. Run by
tests/python/run.sh (CTest `python_package`).
"""
import json
import os
import subprocess

import pytest

import opticoll

CLI = os.environ["OPTICOLL_CLI"]
NODES = [1, 2, 3, 5, 7, 12, 100]


def command(*args):
    p = subprocess.run([CLI, "compare", *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def flat(obj, prefix=""):
    """The command's JSON object as the package's flat record (nested objects: dotted keys)."""
    out = {}
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        elif key == "not_run":  # a reason, in the package's words (no CLI flags)
            out[f"{prefix}{key}"] = opticoll._plain(value)
        else:
            out[f"{prefix}{key}"] = value
    return out


def same_as_command(coll, nodes, size, network, algorithms=None, params=None, flags=()):
    args = ["-c", coll, "-n", nodes, "-s", size, "-t", network, *flags, "--json"]
    if algorithms is not None:
        args += ["-a", ",".join(algorithms)]
    for key, value in (params or {}).items():
        args += ["-p", f"{key}={value}"]
    rc, out, err = command(*args)
    try:
        got = opticoll.compare(coll, nodes, size, network=network, algorithms=algorithms,
                               params=params)
    except opticoll.Error as e:
        # the same refusal, in the package's words (no flags) where the command names one
        assert rc == 2 and err.startswith("opticoll: "), (rc, err, e.reason)
        assert e.reason == opticoll._plain(err[len("opticoll: "):].rstrip("\n"))
        return None
    assert rc == 0, err
    assert got == [flat(x) for x in json.loads(out)]
    return got


@pytest.mark.parametrize("nodes", NODES)
@pytest.mark.parametrize("coll,network", [("allgather", "ring"), ("alltoall", "hypercube"),
                                          ("broadcast", "star"), ("reducescatter", "fattree")])
def test_every_algorithm(coll, network, nodes):
    got = same_as_command(coll, nodes, "4KiB", network)
    every = [a["name"] for a in opticoll.algorithms(coll)]
    assert sorted(r["algorithm"] for r in got) == sorted(every)
    ran = [r for r in got if "not_run" not in r]
    assert got[:len(ran)] == ran  # the runs first


@pytest.mark.parametrize("nodes", NODES)
def test_pins_and_lists(nodes):
    # N <= 3: m=5 is out of range for wrht, a refusal of the command and of the package alike
    same_as_command("allreduce", nodes, "64KiB", "ring", ["ring", "wrht", "hring"],
                    {"m": 5, "pieces": 1})
    got = same_as_command("allreduce", nodes, "64KiB", "ring", ["hring", "wrht"],
                          {"m": 2, "wrht.m": 3, "hring.g": 4})
    if got is not None:
        wrht = next(r for r in got if r["algorithm"] == "wrht")
        assert wrht["params.m"] == 3  # ALGO.KEY wins
        assert [r["algorithm"] for r in got][0] == ("hring" if nodes % 4 == 0 else "wrht")


@pytest.mark.parametrize("nodes", [1, 7, 12])
@pytest.mark.parametrize("algorithms,params,kind", [
    (["ring", "bogus"], None, opticoll.UnknownName),
    (["optree"], None, opticoll.UnknownName),
    (["ring", "ring"], None, opticoll.InvalidArgument),
    (["ring", "bt"], {"m": 5}, opticoll.UnknownName),
    (None, {"ring.m": 5}, opticoll.UnknownName),
    (["ring"], {"wrht.m": 5}, opticoll.UnknownName),
])
def test_refusals_are_the_commands(nodes, algorithms, params, kind):
    with pytest.raises(kind):
        opticoll.compare("allreduce", nodes, "1MiB", algorithms=algorithms, params=params)
    assert same_as_command("allreduce", nodes, "1MiB", "ring", algorithms, params) is None


def test_an_algorithm_of_another_network_is_refused():
    with pytest.raises(opticoll.InvalidArgument) as e:
        opticoll.compare("alltoall", 8, "4KiB", network="hypercube", algorithms=["sex", "tcp2"])
    assert e.value.reason == "algorithm: 'tcp2' does not run on hypercube (see opticoll.algorithms())"
    assert same_as_command("alltoall", 8, "4KiB", "hypercube", ["sex", "tcp2"]) is None
