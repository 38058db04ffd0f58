#!/usr/bin/env bash
# astra.sh TOOL [CLI_DIR] — `export --format astra-sim -o DIR`: the files ASTRA-sim 2.0's
# analytical backend reads, checked against ASTRA-sim's documented configuration fields and the
# rules its readers apply (ASTRA-sim is not built here: no network to fetch it, no Debian
# package; docs/formats.md says so). The sources of the fields:
#   network.yml  astra-sim/astra-network-analytical common/network-parser/NetworkParser.cc:
#                topology (Ring, FullyConnected or Switch, one per dimension), npus_count (each
#                above 1), bandwidth (GB/s, above 0), latency (ns, not negative), the three lists
#                as long as topology; the example examples/network_analytical/Ring/network.yml
#   system.json  astra-sim/astra-sim astra-sim/system/Sys.cc (Sys::initialize_sys) and
#                astra-sim-docs getting-started/argument-system-config.md: scheduling-policy
#                (LIFO, FIFO, EXPLICIT), endpoint-delay, active-chunks-per-dimension,
#                preferred-dataset-splits (whole numbers), the four *-implementation lists (ring,
#                oneRing, doubleBinaryTree, direct[N], oneDirect[N], halvingDoubling,
#                oneHalvingDoubling), collective-optimization (baseline, localBWAware),
#                local-mem-bw; boost-mode as the examples Ring_4chunks.json and
#                HGX-H100-validated.json write it
#   memory.json  AnalyticalRemoteMemory.cc and argument-remote-memory-config.md: memory-type
#                (NO_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION, PER_NPU_MEMORY_EXPANSION,
#                MEMORY_POOL)
#   run.sh       examples/network_analytical/Ring/run_network_analytical.sh: the four
#                --*-configuration options (the workload a prefix, PREFIX.RANK.et)
# and their numbers against the switch model's settings as `run --json` reports them (alpha_us,
# bandwidth_gbytes): ASTRA-sim's Switch charges 2 x latency + bytes / (bandwidth x 2^30 / 1e9) a
# send. One trace per rank, the run's report beside them; one node (ASTRA-sim's reader stops at
# npus_count 1), every other network, no -o, a bad request: one line, exit 2, no file and no new
# directory.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(cd "$(dirname "$0")" && pwd)}/lib.sh"

# exported NAME ARGS...: the export into $T/NAME, and run --json of the same request
exported() {
    local name=$1
    shift
    run_tool export "$@" --format astra-sim -o "$T/$name"
    if [ "$RC" -ne 0 ] || [ -s "$T/out" ] || [ -s "$T/err" ]; then
        fail "$name: export $* --format astra-sim" "rc $RC" "$(cat "$T/err")"
        return 1
    fi
    LC_ALL=C "$TOOL" run "$@" --json >"$T/$name.run"
}

# schema NAME N: the files against ASTRA-sim's fields and the switch's numbers
schema() {
    python3 - "$T/$1" "$T/$1.run" "$2" <<'PY'
import json, os, re, sys
d, run, n = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3])
bad = []
def yml(path):
    try:
        import yaml
        return yaml.safe_load(open(path))
    except ImportError:  # a flow list per key is all the file has: "key: [ v ]  # comment"
        out = {}
        for line in open(path):
            m = re.match(r"(\w+):\s*\[\s*([^\]]*)\]", line)
            if m:
                v = m.group(2).strip()
                out[m.group(1)] = [v if re.match(r"[A-Za-z]", v) else
                                   int(v) if re.fullmatch(r"-?[0-9]+", v) else float(v)]
        return out
files = sorted(os.listdir(d))
want = sorted([f"trace.{r}.et" for r in range(n)] +
              ["network.yml", "system.json", "memory.json", "run.sh", "opticoll.json"])
if files != want:
    bad.append(f"files {files} are not {want}")
net = yml(os.path.join(d, "network.yml"))
# ASTRA-sim's analytical network: topology, npus_count, bandwidth (GB/s), latency (ns), one entry
# per dimension
for k in ("topology", "npus_count", "bandwidth", "latency"):
    if not isinstance(net.get(k), list) or len(net[k]) != 1:
        bad.append(f"network.yml: {k} is not a one-dimension list: {net.get(k)!r}")
if net.get("topology") != ["Switch"]:
    bad.append(f"network.yml: topology {net.get('topology')} is not [Switch]")
if net.get("npus_count") != [n]:
    bad.append(f"network.yml: npus_count {net.get('npus_count')} is not [{n}]")
# NetworkParser::parse_topology_name and check_validity: what ASTRA-sim's reader refuses
if any(t not in ("Ring", "FullyConnected", "Switch") for t in net.get("topology", [])):
    bad.append(f"network.yml: a topology NetworkParser does not know: {net.get('topology')}")
if not all(isinstance(v, int) and not isinstance(v, bool) and v > 1
           for v in net.get("npus_count", [])):
    bad.append(f"network.yml: npus_count must be whole numbers above 1: {net.get('npus_count')}")
if not all(isinstance(v, (int, float)) and v > 0 for v in net.get("bandwidth", [])):
    bad.append(f"network.yml: bandwidth must be above 0: {net.get('bandwidth')}")
if not all(isinstance(v, (int, float)) and v >= 0 for v in net.get("latency", [])):
    bad.append(f"network.yml: latency must not be negative: {net.get('latency')}")
p = run["network_params"]
alpha_ns = float(p["alpha_us"]) * 1e3
bytes_s = float(p["bandwidth_gbytes"]) * 1e9
lat, bw = float(net["latency"][0]), float(net["bandwidth"][0])
# two hops of `latency` make alpha; bandwidth in GB/s of 2^30 bytes makes the bytes a second
if abs(2 * lat - alpha_ns) > 1e-9 * alpha_ns:
    bad.append(f"network.yml: 2 x latency {2 * lat} ns is not alpha {alpha_ns} ns")
if abs(bw * 2**30 - bytes_s) > 1e-12 * bytes_s:
    bad.append(f"network.yml: bandwidth {bw} x 2^30 is not {bytes_s} bytes/s")
sysj = json.load(open(os.path.join(d, "system.json")))
fields = ["scheduling-policy", "endpoint-delay", "active-chunks-per-dimension",
          "preferred-dataset-splits", "all-reduce-implementation", "all-gather-implementation",
          "reduce-scatter-implementation", "all-to-all-implementation",
          "collective-optimization", "local-mem-bw", "boost-mode"]
for k in fields:
    if k not in sysj:
        bad.append(f"system.json: no {k}")
if sorted(sysj) != sorted(fields):
    bad.append(f"system.json: fields {sorted(set(sysj) - set(fields))} ASTRA-sim does not document")
# Sys::initialize_sys: the values it takes (any other panics the simulator)
if sysj.get("scheduling-policy") not in ("FIFO", "LIFO", "EXPLICIT"):
    bad.append(f"system.json: scheduling-policy {sysj.get('scheduling-policy')}")
if sysj.get("collective-optimization") not in ("baseline", "localBWAware"):
    bad.append(f"system.json: collective-optimization {sysj.get('collective-optimization')}")
impl = re.compile(r"ring|oneRing|doubleBinaryTree|halvingDoubling|oneHalvingDoubling|"
                  r"(direct|oneDirect)([0-9]{1,5})?")
for k in fields[4:8]:
    if not (isinstance(sysj.get(k), list) and len(sysj[k]) == 1):
        bad.append(f"system.json: {k} is not a list of one dimension's implementation")
    elif not all(isinstance(v, str) and impl.fullmatch(v) for v in sysj[k]):
        bad.append(f"system.json: {k} {sysj[k]}: not an implementation Sys.cc knows")
for k in ("endpoint-delay", "active-chunks-per-dimension", "preferred-dataset-splits",
          "boost-mode"):
    if not isinstance(sysj.get(k), int) or isinstance(sysj.get(k), bool) or sysj[k] < 0:
        bad.append(f"system.json: {k} {sysj.get(k)!r} is not a whole number")
if sysj.get("active-chunks-per-dimension", 0) < 1 or sysj.get("preferred-dataset-splits", 0) < 1:
    bad.append("system.json: active-chunks-per-dimension and preferred-dataset-splits below 1")
if not isinstance(sysj.get("local-mem-bw"), (int, float)) or sysj["local-mem-bw"] <= 0:
    bad.append(f"system.json: local-mem-bw {sysj.get('local-mem-bw')!r} is not a bandwidth")
if sysj.get("endpoint-delay") != 0:
    bad.append("system.json: endpoint-delay adds a delay the switch model does not have")
mem = json.load(open(os.path.join(d, "memory.json")))
if mem != {"memory-type": "NO_MEMORY_EXPANSION"}:
    bad.append(f"memory.json: {mem}")
rep = json.load(open(os.path.join(d, "opticoll.json")))
if rep["time_s"] != run["time_s"] or rep["algorithm"] != run["algorithm"] or not rep["verified"]:
    bad.append(f"opticoll.json: {rep['time_s']} s is not run's {run['time_s']} s")
sh = open(os.path.join(d, "run.sh")).read()
for opt in ("--workload-configuration=\"$dir/trace\"", "--system-configuration=\"$dir/system.json\"",
            "--remote-memory-configuration=\"$dir/memory.json\"",
            "--network-configuration=\"$dir/network.yml\""):
    if opt not in sh:
        bad.append(f"run.sh: no {opt}")
for r in range(n):
    if os.path.getsize(os.path.join(d, f"trace.{r}.et")) == 0:
        bad.append(f"trace.{r}.et is empty")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

for c in "dbtree 8 allreduce" "ring 5 allreduce" "rd 12 allreduce" "bruck 7 allgather"; do
    read -r a n coll <<<"$c"
    if exported "$a$n" -c "$coll" -a "$a" -t switch -n "$n" -s 1MiB; then
        if out=$(schema "$a$n" "$n"); then pass "$coll $a N=$n: ASTRA-sim's fields, the switch's numbers"
        else fail "$coll $a N=$n: ASTRA-sim's fields, the switch's numbers" "$out"; fi
    fi
done
# the check itself: each rule of ASTRA-sim's readers, broken in a copy of a good export, is seen
broken() { # broken DESCRIPTION FILE SED-EXPRESSION: the copy's FILE edited, the schema must fail
    rm -rf "$T/broken" "$T/broken.run" && cp -r "$T/ring5" "$T/broken" && cp "$T/ring5.run" "$T/broken.run"
    sed -i "$3" "$T/broken/$2"
    if schema broken 5 >/dev/null; then fail "the schema check misses $1"; else pass "the schema check sees $1"; fi
}
if [ -d "$T/ring5" ]; then
    broken "a topology ASTRA-sim does not know" network.yml 's/Switch/Torus/'
    broken "a negative latency" network.yml 's/^latency: \[ /latency: [ -/'
    broken "an unknown scheduling policy" system.json 's/"FIFO"\|"LIFO"/"RANDOM"/'
    broken "an unknown implementation" system.json '0,/"ring"\|"direct"/s//"butterfly"/'
    broken "a memory type ASTRA-sim does not know" memory.json 's/NO_MEMORY_EXPANSION/CXL/'
fi
# the switch's settings moved: the files follow them
if exported custom -c allreduce -a ring -t switch -n 6 -s 3MiB --net alpha_us=1.3 \
    --net bandwidth_gbytes=46.5; then
    if out=$(schema custom 6); then pass "--net alpha_us=1.3 bandwidth_gbytes=46.5: network.yml follows"
    else fail "--net alpha_us=1.3 bandwidth_gbytes=46.5: network.yml follows" "$out"; fi
fi
# an export over an older one: every file replaced (the old run's 8 traces shrink to 5 + 3 left)
if exported again8 -c allreduce -a ring -t switch -n 8 -s 1MiB &&
    exported again8 -c allreduce -a ring -t switch -n 8 -s 2MiB; then
    if out=$(schema again8 8); then pass "a second export into the same DIR replaces the files"
    else fail "a second export into the same DIR" "$out"; fi
fi

refused() { # refused DESCRIPTION DIR ARGS...: exit 2, one line, DIR not made
    local what=$1 dir=$2
    shift 2
    run_tool "$@"
    if [ "$RC" -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -e "$dir" ] && [ ! -s "$T/out" ]; then
        pass "$what"
    else
        fail "$what" "rc $RC" "$(cat "$T/err")" "$(ls -A "$dir" 2>&1)"
    fi
}
refused "one node (ASTRA-sim's NetworkParser refuses npus_count 1)" "$T/x0" export -c allreduce \
    -a ring -t switch -n 1 -s 1KiB --format astra-sim -o "$T/x0"
refused "the ring (ASTRA-sim has no WDM ring)" "$T/x1" export -c allreduce -a ring -t ring -n 4 \
    -s 1KiB --format astra-sim -o "$T/x1"
refused "the fat-tree" "$T/x2" export -c allreduce -a ring -t fattree -n 4 -s 1KiB \
    --format astra-sim -o "$T/x2"
refused "no -o" "$T/x3" export -c allreduce -a ring -t switch -n 4 -s 1KiB --format astra-sim
refused "-o -" "$T/x4" export -c allreduce -a ring -t switch -n 4 -s 1KiB --format astra-sim -o -
refused "an unknown algorithm" "$T/x5" export -c allreduce -a nosuch -t switch -n 4 -s 1KiB \
    --format astra-sim -o "$T/x5"
refused "a parent that does not exist" "$T/x6" export -c allreduce -a ring -t switch -n 4 -s 1KiB \
    --format astra-sim -o "$T/x6/sub"
echo file >"$T/plain"
run_tool export -c allreduce -a ring -t switch -n 4 -s 1KiB --format astra-sim -o "$T/plain"
if [ "$RC" -eq 2 ] && [ "$(cat "$T/plain")" = file ]; then pass "-o a regular file: refused, left as it was"
else fail "-o a regular file" "rc $RC" "$(cat "$T/err")"; fi

finish
