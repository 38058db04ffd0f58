"""opticoll.simgrid(): `opticoll simgrid --json` from Python (issue 30, "simulators side by side").

The schedule runs for real under SimGrid's SMPI here (smpirun on the executor built with smpicc:
the binary BUILD/simgrid/opticoll-mpi-smpi that the CTest fixture simgrid_build makes, which
`python_package` requires), and the record must be the command's, field for field: SimGrid's
simulated time is deterministic (plain alpha-beta, no host CPU time), so the two runs agree to the
last digit, and the model's time is `run -t fattree`'s. The build path (scripts/simgrid.sh
--build-only, called by the package when it uses a build directory) is taken once, on the
fixture's build directory, where it finds the binary up to date. Bad input is refused with a typed
error before smpirun starts, and a machine without SimGrid gets NotSupported, said plainly.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import opticoll

CLI = os.environ["OPTICOLL_CLI"]
BUILD = Path(CLI).resolve().parent
SMPI_EXE = BUILD / "simgrid" / "opticoll-mpi-smpi"
HAVE_SIMGRID = shutil.which("smpirun") is not None and shutil.which("smpicc") is not None


def flat(obj, prefix=""):
    out = {}
    for key, value in obj.items():
        if isinstance(value, dict) and value:
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def cli_json(*args):
    p = subprocess.run([CLI, *map(str, args), "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


needs_simgrid = pytest.mark.skipif(not HAVE_SIMGRID, reason="SimGrid (smpirun, smpicc) is not "
                                   "installed: test_refused_without_simgrid covers this machine")


@pytest.fixture
def smpi_exe(monkeypatch):
    """The fixture simgrid_build's binary, named as the command reads it."""
    assert SMPI_EXE.is_file(), f"{SMPI_EXE} is missing: CTest's simgrid_build fixture makes it"
    monkeypatch.setenv("OPTICOLL_SMPI_EXE", str(SMPI_EXE))
    return SMPI_EXE


@needs_simgrid
@pytest.mark.parametrize("coll,algo,n,size,net,params", [
    ("allreduce", "ring", 5, "64KiB", None, None),
    # a searched parameter (rhd's radices) pinned for the executor, as the command pins it
    ("allreduce", "rhd", 12, "1MiB", None, None),
    # the block as MPI counts it (a rank's share of the vector), the fat-tree's settings moved
    ("reducescatter", "ring", 7, "7MiB", {"bandwidth_gbps": 100}, None),
    # two parameters (radix=3 and the fold the run adds at 10 ranks): the executor's
    # --algorithms takes "rhd:radix=3,fold=1" as one algorithm (it read fold=1 as another)
    ("allreduce", "rhd", 10, "1MiB", None, {"radix": 3}),
])
def test_simgrid_is_the_commands(smpi_exe, coll, algo, n, size, net, params):
    got = opticoll.simgrid(coll, algo, n, size, net_params=net, params=params)
    extra = [a for k, v in (net or {}).items() for a in ("--net", f"{k}={v}")]
    extra += [a for k, v in (params or {}).items() for a in ("-p", f"{k}={v}")]
    want = cli_json("simgrid", "-c", coll, "-a", algo, "-n", n, "-s", size, *extra)
    assert dict(got) == flat(want)
    run = cli_json("run", "-c", coll, "-a", algo, "-t", "fattree", "-n", n, "-s", size, *extra)
    assert got["model_s"] == run["time_s"] and got["report.verified"] is True
    assert got["simgrid_s"] > 0 and got["ratio"] == got["simgrid_s"] / got["model_s"]
    # SimGrid charges the latency per cable and shares links max-min, the model per router and
    # per busiest link: close, never equal (docs/formats.md; cli_simgrid's bound)
    assert 1 / 2.2 <= got["ratio"] <= 2.2 and got["ratio"] != 1


@needs_simgrid
def test_simgrid_through_the_build_script(monkeypatch):
    """build_dir: the package runs scripts/simgrid.sh --build-only --build DIR (which rebuilds
    only a stale binary) and runs DIR/simgrid/opticoll-mpi-smpi; the same time as the command."""
    assert SMPI_EXE.is_file(), f"{SMPI_EXE} is missing: CTest's simgrid_build fixture makes it"
    monkeypatch.delenv("OPTICOLL_SMPI_EXE", raising=False)
    got = opticoll.simgrid("allgather", "bruck", 6, 4096, build_dir=BUILD)
    want = cli_json("simgrid", "-c", "allgather", "-a", "bruck", "-n", 6, "-s", 4096)
    assert got["simgrid_s"] == want["simgrid_s"] and got["model_s"] == want["model_s"]
    with pytest.raises(opticoll.IOFailure, match="no SMPI build"):
        monkeypatch.setenv("OPTICOLL_SMPI_EXE", str(BUILD / "no-such-smpi-build"))
        opticoll.simgrid("allgather", "bruck", 6, 4096)


@pytest.mark.parametrize("kwargs,error,words", [
    (dict(network="ring"), opticoll.InvalidArgument, "fat-tree"),
    (dict(nodes=opticoll.SIMGRID_MAX_NODES + 1), opticoll.InvalidArgument, "at most 256"),
    (dict(size=6), opticoll.InvalidArgument, "whole number of 4 bytes"),
    (dict(collective="reducescatter", nodes=3, size=16), opticoll.InvalidArgument, "4 bytes"),
    (dict(nodes=True), opticoll.InvalidType, "not a bool"),
    (dict(nodes=4.0), opticoll.InvalidType, "whole number"),
    (dict(collective="allgatherx"), opticoll.UnknownName, "unknown collective"),
    (dict(algorithm="nope"), opticoll.UnknownName, "nope"),
    (dict(params={"radix": 1}, algorithm="rhd"), opticoll.InvalidArgument, "radix=1"),
    (dict(net_params={"wavelengths": 4}), opticoll.UnknownName, "wavelengths"),
])
def test_bad_input_is_refused_before_smpirun(kwargs, error, words):
    args = dict(collective="allreduce", algorithm="ring", nodes=4, size="64KiB")
    args.update(kwargs)
    with pytest.raises(error, match=words) as e:
        opticoll.simgrid(**args)
    assert not any(f in str(e.value) for f in (" -t ", " -n ", " -s ", "--net")), e.value


def test_refused_without_simgrid(monkeypatch, tmp_path):
    """No smpirun on the PATH: NotSupported saying SimGrid is missing and how to install it,
    before the model's run or any build."""
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("OPTICOLL_SMPI_EXE", raising=False)
    with pytest.raises(opticoll.NotSupported, match="SimGrid is not installed.*libsimgrid-dev"):
        opticoll.simgrid("allreduce", "ring", 4, "64KiB")
