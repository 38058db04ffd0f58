#!/usr/bin/env bash
# simgrid.sh — the electrical baseline of the WRHT seed run for real: the MPI executor
# (src/mpi/executor.c, with tools/opticoll_mpi.c as its driver) built with SimGrid's smpicc and run
# under smpirun on a two-level fat-tree with the seed's Table II parameters (25 Gb/s, 50 us,
# 32-port routers: 16 nodes per leaf, 16 uplinks to 16 spines, as src/net/fattree.c builds it).
# For each algorithm, N and size it prints SimGrid's simulated time of the schedule beside
# opticoll's own `fattree` model time of the same schedule (`opticoll run -t fattree`).
#
#   scripts/simgrid.sh [--algorithms ring,rd] [--nodes 16,32,64] [--sizes 1MiB,16MiB]
#                      [--check FACTOR] [--build DIR] [--build-only]
#
# --build-only: build DIR/simgrid/opticoll-mpi-smpi (when a source is newer) and stop; it is the
# binary `opticoll simgrid` runs under smpirun.
#
# Plain alpha-beta network: no SMPI latency or bandwidth correction factors, no
# cross-traffic; --cfg=smpi/simulate-computation:no leaves the host's own CPU time out, so the
# simulated times are deterministic. With --check F the script fails (exit 1) when a ratio
# SimGrid/model lies outside [1/F, F]. Why the two differ at all: SimGrid charges the 50 us per
# cable (2 cables inside a leaf, 4 across a spine) where the model charges it per router (1 or
# 3), and SimGrid shares link bandwidth max-min fairly where the model takes each round's most
# loaded link.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
algos=ring,rd nodes=16,32,64 sizes=1MiB,16MiB check="" build="$root/build" only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --algorithms) algos="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --check) check="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --build-only) only=1; shift ;;
    *) echo "simgrid.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v smpicc >/dev/null && command -v smpirun >/dev/null ||
  { echo "simgrid.sh: smpicc/smpirun not found (scripts/deps.sh installs libsimgrid-dev)" >&2; exit 2; }
[ -n "$only" ] || [ -x "$build/opticoll" ] || { echo "simgrid.sh: $build/opticoll is missing (run make)" >&2; exit 2; }
out="$build/simgrid"
mkdir -p "$out"
exe="$out/opticoll-mpi-smpi"
srcs=$(ls "$root"/src/*/*.c "$root"/tools/opticoll_mpi.c "$root"/tools/mpi_agree.c "$root"/tools/args.c)
# Rebuild when a source or header is newer than the binary. One builder at a time (the tests
# mpi_simgrid and cli_simgrid, `opticoll simgrid`, `make simgrid` may meet): the others wait on
# the lock and then find the binary new. It is written beside and renamed whole, so a build
# killed part-way (a test's time limit on a loaded machine) never leaves a cut binary that looks
# new to the next run.
stale() {
  [ ! -x "$exe" ] || [ -n "$(find "$root/src" "$root/include" "$root/tools/opticoll_mpi.c" \
     "$root"/tools/mpi_agree.[ch] "$root"/tools/args.[ch] -newer "$exe" -name '*.[ch]' | head -1)" ]
}
trap 'rm -f "$exe.new.$$"' EXIT
exec 9>"$out/build.lock"
flock 9
if stale; then
  echo "simgrid.sh: building $exe with smpicc" >&2
  version=$(sed -n 's/^project(opticoll VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
  # shellcheck disable=SC2086
  smpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -DOC_DATA_DIR="\"$root/data\"" \
    -DOC_VERSION_TEXT="\"$version\"" -w \
    -I"$root/include" -I"$root/src" $(pkg-config --cflags libcjson libxml-2.0 z3) $srcs \
    -o "$exe.new.$$" $(pkg-config --libs libcjson libxml-2.0 z3) -lm -lpthread \
    >"$out/build.log" 2>&1 || { rm -f "$exe.new.$$"; cat "$out/build.log" >&2; exit 1; }
  mv -f "$exe.new.$$" "$exe"
fi
flock -u 9
exec 9>&-
[ -z "$only" ] || exit 0
# This run's platforms, host files and log, apart from any other run's (two runs at once, as
# the tests may be, shared one smpirun.log and read each other's failures)
work=$(mktemp -d "$out/run.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The platform: N hosts, ceil(N/16) leaves of 16 nodes, 16 spines (SimGrid's FAT_TREE
# topo_parameters "levels;down...;up...;link counts").
platform() {
  local n=$1 leaves=$(( ($1 + 15) / 16 )) down=$(( $1 < 16 ? $1 : 16 ))
  cat <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- The WRHT seed's Table II fat-tree (25 Gb/s, 50 us, 32-port routers) for $n nodes. -->
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="ft" prefix="node-" suffix="" radical="0-$(( down * leaves - 1 ))" speed="100Gf"
             bw="25Gbps" lat="50us" topology="FAT_TREE" topo_parameters="2;$down,$leaves;1,16;1,1"/>
  </zone>
</platform>
XML
}
bytes_of() { # SIZE as the CLI reads it, through opticoll itself
  "$build/opticoll" run -c allreduce -a ring -t switch -n 1 -s "$1" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes"])'
}
fail=0
printf '%-6s %5s %10s %14s %14s %8s\n' algo N bytes simgrid_s fattree_s ratio
IFS=, read -r -a A <<<"$algos"
IFS=, read -r -a NS <<<"$nodes"
IFS=, read -r -a SS <<<"$sizes"
for a in "${A[@]}"; do
  for n in "${NS[@]}"; do
    platform "$n" >"$work/fattree-$n.xml"
    : >"$work/hosts-$n"
    for ((i = 0; i < n; i++)); do echo "node-$i" >>"$work/hosts-$n"; done
    for s in "${SS[@]}"; do
      b=$(bytes_of "$s")
      sim=$(smpirun -np "$n" -platform "$work/fattree-$n.xml" -hostfile "$work/hosts-$n" \
              --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=network/crosstraffic:0 \
              --cfg=smpi/simulate-computation:no --cfg=smpi/allreduce:rdb \
              --log=root.thres:critical \
              "$exe" --collectives allreduce --algorithms "$a" --sizes "$b" --repeats 1 \
              --warmup 0 --json 2>"$work/smpirun.log" |
            python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; assert r["check"]=="ok", r; print(r["opticoll_s"])') ||
        { echo "simgrid.sh: smpirun failed for $a N=$n $s:" >&2; cat "$work/smpirun.log" >&2; exit 1; }
      model=$("$build/opticoll" run -c allreduce -a "$a" -t fattree -n "$n" -s "$b" --json |
              python3 -c 'import json,sys; print(json.load(sys.stdin)["time_s"])')
      ratio=$(python3 -c "print('%.3f' % ($sim / $model))")
      printf '%-6s %5d %10d %14.6f %14.6f %8s\n' "$a" "$n" "$b" "$sim" "$model" "$ratio"
      if [ -n "$check" ] && ! python3 -c "import sys; r=$ratio; f=$check; sys.exit(0 if 1/f <= r <= f else 1)"; then
        echo "simgrid.sh: $a N=$n $s: SimGrid/model = $ratio is outside [1/$check, $check]" >&2
        fail=1
      fi
    done
  done
done
exit $fail
