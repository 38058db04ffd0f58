"""opticoll.draw (issue 30): the schedule as a picture from Python, read back.

Each drawing is parsed with xml.etree and compared with an independent account of the same
schedule, by the checks `cli_draw` uses (tests/cli/draw_check.py): every ring lightpath of the
Chrome trace's resource text (opticoll.export(format="chrome")) appears once with its round, step,
ends, direction, fibre, wavelength, links and chunks; every star transmission with its wavelength
and the receiver's filter; every fabric circuit with its wavelengths; every transfer of the
schedule file once in its round of the switch's matrix; the index and the per-round views against
the run's record; the summary past 64 nodes. The document is the command's, byte for byte. Run by
tests/python/run.sh (CTest `python_package`); OPTICOLL_CLI names the built tool.
"""
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import opticoll

CLI = os.environ["OPTICOLL_CLI"]
SOURCE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(SOURCE / "tests" / "cli"))
import draw_check  # noqa: E402  (the checks cli_draw runs on the command's drawings)


def svg_of(text):
    return ET.fromstring(text)


def saved(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj)
    return str(path)


def cli(*args):
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("coll,algo,n,net,net_params", [
    ("allgather", "wrht", 16, "ring", {"wavelengths": 4}),       # WRHT's Fig. 2 drawing
    ("allgather", "optree", 12, "ring", None),                   # OpTree's Fig. 3
    ("allreduce", "bt", 7, "ring", {"wavelengths": 2, "fibres": 2}),
])
def test_ring_every_lightpath_once_with_its_wavelength(tmp_path, coll, algo, n, net, net_params):
    text = opticoll.draw(coll, algo, n, "1KiB", network=net, net_params=net_params)
    chrome = saved(tmp_path, "c.json", opticoll.export(coll, algo, n, "1KiB", format="chrome",
                                                       network=net, net_params=net_params))
    svg = svg_of(text)
    assert draw_check.ring(svg, chrome, None) == []
    run = saved(tmp_path, "r.json", cli("run", "-c", coll, "-a", algo, "-n", n, "-s", "1KiB",
                                         "-t", net, *sum((["--net", f"{k}={v}"] for k, v in
                                                          (net_params or {}).items()), []),
                                         "--json"))
    assert draw_check.index(svg, run, None) == []
    # the command's own document, byte for byte
    flags = sum((["--net", f"{k}={v}"] for k, v in (net_params or {}).items()), [])
    assert text == cli("draw", "-c", coll, "-a", algo, "-n", n, "-s", "1KiB", "-t", net, *flags)


def test_star_transmissions_and_filters(tmp_path):
    text = opticoll.draw("broadcast", "tcp1", 9, "1KiB", network="star")
    chrome = saved(tmp_path, "c.json", opticoll.export("broadcast", "tcp1", 9, "1KiB",
                                                       format="chrome", network="star"))
    assert draw_check.star(svg_of(text), chrome) == []


def test_fabric_circuits(tmp_path):
    text = opticoll.draw("allreduce", "rhd", 16, "1MiB", network="fabric", params={"radix": 4})
    chrome = saved(tmp_path, "c.json", opticoll.export("allreduce", "rhd", 16, "1MiB",
                                                       format="chrome", network="fabric",
                                                       params={"radix": 4}))
    assert draw_check.fabric(svg_of(text), chrome) == []


def test_switch_matrix_one_round_and_a_schedule_file(tmp_path):
    sched = opticoll.export("allreduce", "rhd", 12, "1MiB", network="switch")
    path = saved(tmp_path, "s.json", sched)
    whole = svg_of(opticoll.draw(schedule=path, network="switch"))
    assert draw_check.matrix(whole, path) == []
    run = saved(tmp_path, "r.json", cli("run", "-c", "allreduce", "-a", "rhd", "-n", 12, "-s",
                                        "1MiB", "-t", "switch", "--json"))
    assert draw_check.index(whole, run, None) == []
    one = svg_of(opticoll.draw("allreduce", "rhd", 12, "1MiB", network="switch", round=2))
    assert draw_check.index(one, run, 2) == []
    cells = [e for e in one.iter(draw_check.NS + "rect") if e.get("class") == "transfer"]
    assert cells and {int(e.get("data-round")) for e in cells} == {2}
    assert len(cells) == len(sched["rounds"][2])


def test_summarised_past_64_nodes(tmp_path):
    assert opticoll.DRAW_DETAIL_NODES == 64  # the stated N past which a drawing is summarised
    n = 100
    text = opticoll.draw("allgather", "ring", n, "1KiB", network="switch")
    run = saved(tmp_path, "r.json", cli("run", "-c", "allgather", "-a", "ring", "-n", n, "-s",
                                        "1KiB", "-t", "switch", "--json"))
    assert draw_check.summary(svg_of(text), run) == []
    # 64 nodes are still drawn in full: a cell per transfer
    full = svg_of(opticoll.draw("allgather", "ring", 64, "1KiB", network="switch", round=0))
    assert sum(e.get("class") == "transfer" for e in full.iter()) == 64


def test_output_written_whole_and_formats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = opticoll.draw("allgather", "wrht", 16, "1KiB", net_params={"wavelengths": 4},
                         output="w.svg")
    assert (tmp_path / "w.svg").read_text() == text
    # gnuplot's script by the name's suffix, naming its own PNG as the command's does
    script = opticoll.draw("allgather", "wrht", 16, "1KiB", net_params={"wavelengths": 4},
                           output=tmp_path / "w.gp")
    cli("draw", "-c", "allgather", "-a", "wrht", "-n", 16, "-s", "1KiB", "--wavelengths", 4,
        "-o", tmp_path / "cli.gp")
    assert (tmp_path / "w.gp").read_text() == script
    assert script == (tmp_path / "cli.gp").read_text().replace("cli.png", "w.png")
    assert sum(line.startswith("# lightpath ") for line in script.splitlines()) > 0
    if not shutil.which("gnuplot"):
        with pytest.raises(opticoll.NotSupported):
            opticoll.draw("allgather", "ring", 4, 64, format="png")
        return
    png = opticoll.draw("allgather", "wrht", 16, "1KiB", net_params={"wavelengths": 4},
                        output="w.png")
    assert isinstance(png, bytes) and (tmp_path / "w.png").read_bytes() == png
    assert draw_check.png(str(tmp_path / "w.png"), str(tmp_path / "w.gp")) == []


@pytest.mark.parametrize("call,error", [
    (lambda: opticoll.draw("allgather", "ring", 5, 64, round=99), opticoll.InvalidArgument),
    (lambda: opticoll.draw("allgather", "ring", 5, 64, round=True), opticoll.InvalidType),
    (lambda: opticoll.draw("allgather", "ring", 5, 64, round=-1), opticoll.InvalidArgument),
    (lambda: opticoll.draw("allgather", "ring", 5, 64, format="pdf"), opticoll.InvalidArgument),
    (lambda: opticoll.draw("allgather", "ring", 5), opticoll.InvalidArgument),
    (lambda: opticoll.draw(schedule="/nonexistent.json", network="ring"), opticoll.IOFailure),
    (lambda: opticoll.draw("allgather", schedule="x.json"), opticoll.InvalidArgument),
    # past 256 panels (ring all-gather on 300 nodes: 299 steps) and past 20000 elements (a
    # summary's block pairs: ring all-gather on 200 nodes)
    (lambda: opticoll.draw("allgather", "ring", 300, 64), opticoll.TooBig),
    (lambda: opticoll.draw("allgather", "ring", 200, 64), opticoll.TooBig),
])
def test_bad_input_raises_and_writes_nothing(tmp_path, call, error):
    before = set(os.listdir(tmp_path))
    with pytest.raises(error) as e:
        call()
    assert e.value.reason and "\n" not in e.value.reason
    assert set(os.listdir(tmp_path)) == before


def test_a_failed_drawing_leaves_no_file(tmp_path):
    out = tmp_path / "x.svg"
    with pytest.raises(opticoll.TooBig):
        opticoll.draw("allgather", "ring", 300, 64, output=out)
    assert not out.exists() and os.listdir(tmp_path) == []


def test_a_drawing_that_cannot_be_written_is_an_io_failure(tmp_path):
    # output= a directory, or in a directory that is not there: IOFailure in one line (it was
    # the bare IsADirectoryError / FileNotFoundError of the rename), and no temporary left
    (tmp_path / "d.svg").mkdir()
    for out in (tmp_path / "d.svg", tmp_path / "none" / "x.svg"):
        with pytest.raises(opticoll.IOFailure) as e:
            opticoll.draw("allgather", "ring", 4, 64, output=out)
        assert str(out) in e.value.reason and "\n" not in e.value.reason
    assert os.listdir(tmp_path) == ["d.svg"] and os.listdir(tmp_path / "d.svg") == []
    with pytest.raises(opticoll.InvalidType):
        opticoll.draw("allgather", "ring", 4, 64, output=5)


def test_export_astra_sim_is_the_commands_directory(tmp_path):
    files = opticoll.export("allreduce", "dbtree", 8, "1MiB", format="astra-sim",
                            network="switch") if _has_chakra(tmp_path) else None
    if files is None:
        with pytest.raises(opticoll.NotSupported):
            opticoll.export("allreduce", "dbtree", 8, "1MiB", format="astra-sim",
                            network="switch")
        return
    d = tmp_path / "astra"
    cli("export", "-c", "allreduce", "-a", "dbtree", "-t", "switch", "-n", 8, "-s", "1MiB",
        "--format", "astra-sim", "-o", d)
    assert sorted(files) == sorted(os.listdir(d))
    assert all(files[name] == (d / name).read_bytes() for name in files)
    with pytest.raises(opticoll.NotSupported):
        opticoll.export("allreduce", "ring", 1, "1KiB", format="astra-sim", network="switch")
    with pytest.raises(opticoll.NotSupported):
        opticoll.export("allreduce", "ring", 4, "1KiB", format="astra-sim", network="ring")


def _has_chakra(tmp_path):
    p = subprocess.run([CLI, "export", "-c", "allreduce", "-a", "ring", "-n", "2", "-s", "64",
                        "-t", "switch", "--format", "chakra", "-o", tmp_path / "probe"],
                       capture_output=True)
    return p.returncode == 0
