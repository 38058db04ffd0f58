"""opticoll from Python: a short tutorial (run it as a script, or cell by cell in a notebook).

    python3 docs/tutorial.py

It installs nothing and writes nothing but the plot of step 4 (sweep.png): each step prints what
it found, and checks it with an assert, so that the test suite (tests/python/test_notebook.py)
runs this very file. pandas and matplotlib are optional: the steps that need them are skipped
without them.
"""
import opticoll

print("opticoll", opticoll.__version__)

# 1. One run: a ring all-reduce of 4 MiB on 12 GPUs behind an ideal electrical switch. The result
#    is a flat record: nested objects of the command's JSON are dotted keys.
r = opticoll.run("allreduce", "ring", nodes=12, size="4MiB", network="switch")
print(f"ring all-reduce: {r['steps']} steps, {r['time_s'] * 1e6:.1f} us, verified {r['verified']}")
assert r["verified"] and r["steps"] == 22  # 2(N-1) steps

# 2. Every algorithm at one point, each verified: a Table (a list of records).
table = opticoll.compare("allgather", nodes=100, size="1MiB", network="ring")
ran = [x for x in table if "not_run" not in x]
best = min(ran, key=lambda x: x["time_s"])
print(f"all-gather on a 100-node WDM ring: {len(ran)} algorithms ran, fastest {best['algorithm']}")
assert all(x["time_s"] >= x["physical_bound.time_s"] for x in ran)  # no schedule beats the bound

# 3. nccl-tests' report from the model: size, count, type, redop, root, time, algbw, busbw.
rows = opticoll.perf("allreduce", "ring", nodes=8, minbytes="1K", maxbytes="1M", stepfactor=4,
                     network="switch")
for row in rows:
    print(f"{row['size']:>10} {row['time_us']:>10.2f} us {row['busbw_GBps']:>8.2f} GB/s")
assert rows[-1]["busbw_GBps"] == rows[-1]["algbw_GBps"] * 2 * 7 / 8  # all-reduce: 2(n-1)/n
# nccl-tests' halves (the model has no buffers: both are the one verified run) and its footer
assert rows[0]["in_place.time_us"] == rows[0]["out_of_place.time_us"] == rows[0]["time_us"]
assert all(row["out_of_place.wrong"] == 0 for row in rows)  # #wrong: the run passed the checks
print(f"# Avg bus bandwidth    : {rows.summary['avg_busbw_GBps']:g}")

# 4. A sweep as a DataFrame, and a plot of it (both optional).
points = opticoll.sweep("allreduce", nodes=[8, 64], sizes="1KiB..1MiB:*32", network="switch",
                        algorithms=["ring", "rhd", "dbtree"])
try:
    frame = points.to_pandas()
    print(frame.pivot_table(index=["nodes", "bytes"], columns="algorithm", values="time_s"))
except ImportError:
    print("(pandas not installed: skipping the DataFrame)")
try:
    import matplotlib
    matplotlib.use("Agg")
    ax = points.plot(x="bytes", y="time_s", by="algorithm")
    ax.figure.savefig("sweep.png")
except ImportError:
    print("(matplotlib not installed: skipping the plot)")

# 5. The least any schedule can take on the network, and a proven optimum of a small instance.
bound = opticoll.physical_bound("allgather", nodes=100, size="1MiB", network="ring")
print(f"physical bound: {bound['steps']} steps ({bound['steps_argument']})")
opt = opticoll.synth("allgather", nodes=4, network="ring")
print(f"synth: allgather on a 4-node ring needs {opt['steps']} steps, proven: {opt['optimal']}")
assert opt["optimal"] and opt["steps"] >= 1

# 6. A picture of a schedule: WRHT's all-gather on a 16-node ring with 4 wavelengths, each
#    lightpath an arc coloured by its wavelength (an SVG document; display it in a notebook with
#    IPython.display.SVG(svg), or write it with output="wrht16.svg", or a PNG with "wrht16.png").
import xml.etree.ElementTree as ET

svg = opticoll.draw("allgather", "wrht", nodes=16, size="1KiB", net_params={"wavelengths": 4})
arcs = [e for e in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}path")
        if e.get("class") == "lightpath"]
print(f"WRHT on 16 nodes: {len(arcs)} lightpaths on wavelengths "
      f"{sorted({int(e.get('data-wavelength')) for e in arcs})}")
assert arcs and max(int(e.get("data-wavelength")) for e in arcs) < 4

# 7. Errors are typed and worded for Python.
try:
    opticoll.run("allgather", "optree", nodes=12, size="1MiB", params={"k": 99})
except opticoll.InvalidArgument as e:
    print("refused:", e)
