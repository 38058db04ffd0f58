#!/usr/bin/env bash
# badinput.sh TOOL [CLI_DIR] — bad input never crashes and never prints a partial result.
#
# Every case must exit with the documented code, print NOTHING on stdout, and print exactly ONE
# line on stderr, starting "opticoll: " (and, where given, naming the offending value).
#
# Exit codes (tools/opticoll.c, README "Exit codes"):
#   2  bad usage or bad input: unknown command/option/name, a missing or malformed value, a
#      value out of range, an algorithm's restriction (ne with odd N), an unreadable or
#      malformed schedule file;
#   1  a schedule file that is well-formed but fails verification (missing chunk, chunk sent
#      before the sender has it, node or chunk out of range);
#   3  anything else (out of memory, write error) — not provoked here.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# bad CODE PATTERN ARGS... (lib.sh): exit CODE, nothing on stdout, one stderr line naming PATTERN.

RUN=(run -c allgather -a ring -n 4 -s 4KiB)
OPT=(run -c allgather -a optree -n 16 -s 4KiB)

# ---- commands and options ----
bad 2 frob frob
bad 2 --frob run --frob -c allgather -a ring -n 4 -s 4KiB
bad 2 --frob compare -c allgather -n 4 -s 4KiB --frob
bad 2 extra "${RUN[@]}" extra
bad 2 extra list extra
bad 2 "" list --json
bad 2 foo run -c foo -a ring -n 4 -s 4KiB
bad 2 foo run -c allgather -a foo -n 4 -s 4KiB
bad 2 foo "${RUN[@]}" -t foo
bad 2 -c run -a ring -n 4 -s 4KiB
bad 2 -a run -c allgather -n 4 -s 4KiB
bad 2 -n run -c allgather -a ring -s 4KiB
bad 2 -s run -c allgather -a ring -n 4
bad 2 -c run
bad 2 -n "${RUN[@]}" -n 5
bad 2 -s run -c allgather -a ring -n 4 -s
bad 2 bogus compare -c allgather -a ring,bogus -n 4 -s 4KiB
bad 2 --format export -c allgather -a ring -n 4 -s 4KiB
bad 2 yaml export -c allgather -a ring -n 4 -s 4KiB --format yaml

# ---- -n ----
for n in 0 -3 abc 99999999999999999999 2000000 "" 4x 1e3; do
    bad 2 "-n $n" run -c allgather -a ring -n "$n" -s 4KiB
done
bad 2 "-n 0" compare -c allgather -n 0 -s 4KiB
bad 2 "-n 0" export -c allgather -a ring -n 0 -s 4KiB --format json

# ---- -w, -f, -r ----
for w in 0 -1 x; do bad 2 "-w $w" "${RUN[@]}" -w "$w"; done
bad 2 "-f 0" "${RUN[@]}" -f 0
bad 2 "-r 4" "${RUN[@]}" -r 4
bad 2 "foo" "${RUN[@]}" --preset foo

# ---- -s ----
for s in -1 4XB "" 1.5MiB 99999999999999999999 2PiB 4k; do
    bad 2 "-s $s" run -c allgather -a ring -n 4 -s "$s"
done
bad 2 "-s 2PiB" export -c allgather -a ring -n 4 -s 2PiB --format json

# ---- algorithm and network parameters ----
bad 2 foo "${OPT[@]}" -p foo
bad 2 -p "${OPT[@]}" -p
bad 2 foo "${OPT[@]}" -p foo=1
bad 2 foo "${RUN[@]}" -p foo=1
bad 2 radices=1x4 "${OPT[@]}" -p radices=1x4
bad 2 radices=4x "${OPT[@]}" -p radices=4x
bad 2 k=0 "${OPT[@]}" -p k=0
bad 2 reconfig_us "${RUN[@]}" --net reconfig_us=-5
bad 2 foo "${RUN[@]}" --net foo=1
# The same bad network parameter with optree must name the parameter too (not only "no optree
# parameters could be mapped").
bad 2 reconfig_us "${OPT[@]}" --net reconfig_us=-5
bad 2 wavelengths "${OPT[@]}" --net wavelengths=0

# ---- restrictions ----
bad 2 even run -c allgather -a ne -n 5 -s 4KiB
bad 2 even export -c allgather -a ne -n 5 -s 4KiB --format json

# ---- verify: unreadable or malformed files (exit 2) ----
good='{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 1, "op": "copy", "chunks": [0, 1]}, {"src": 1, "dst": 0, "op": "copy", "chunks": [1, 1]}]]}'
printf '%s\n' "$good" >"$T/good.json"
: >"$T/empty.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [' >"$T/malformed.json"
printf '%s\n' '[1, 2, 3]' >"$T/array.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2}' >"$T/norounds.json"
printf '%s\n' '{"collective": "allgather", "nodes": -1, "rounds": []}' >"$T/nodes-neg.json"
printf '%s\n' '{"collective": "allgather", "nodes": 1.5, "rounds": []}' >"$T/nodes-frac.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": "a", "dst": 1, "op": "copy", "chunks": [0, 1]}]]}' >"$T/src-a.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 1, "op": "copy", "chunks": [0]}]]}' >"$T/chunks-short.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 1, "op": "xor", "chunks": [0, 1]}]]}' >"$T/op-xor.json"
printf '%s\n' '{"collective": "nosuch", "nodes": 2, "rounds": []}' >"$T/coll.json"
printf '%s garbage\n' "$good" >"$T/trailing.json"
mkdir "$T/adir"

run_tool verify "$T/good.json"
if [ "$RC" -eq 0 ]; then
    pass "verify of the hand-written 2-node schedule the bad files are made from: exit 0"
else
    fail "verify of the hand-written 2-node schedule the bad files are made from: exit 0" "exit $RC" "$(cat "$T/err")"
fi
bad 2 "$T/nonexistent.json" verify "$T/nonexistent.json"
bad 2 "$T/adir" verify "$T/adir"
bad 2 empty.json verify "$T/empty.json"
bad 2 malformed.json verify "$T/malformed.json"
bad 2 array.json verify "$T/array.json"
bad 2 rounds verify "$T/norounds.json"
bad 2 nodes verify "$T/nodes-neg.json"
bad 2 nodes verify "$T/nodes-frac.json"
bad 2 src verify "$T/src-a.json"
bad 2 chunks verify "$T/chunks-short.json"
bad 2 op verify "$T/op-xor.json"
bad 2 collective verify "$T/coll.json"
# A whole schedule followed by garbage is not a schedule file.
bad 2 trailing.json verify "$T/trailing.json"
bad 2 FILE verify
bad 2 "" verify "$T/good.json" -n 2
bad 2 "" verify "$T/good.json" "$T/good.json"

# ---- verify: well-formed files whose schedule is wrong (exit 1) ----
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 1, "op": "copy", "chunks": [0, 1]}]]}' >"$T/missing.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 1, "op": "copy", "chunks": [1, 1]}, {"src": 1, "dst": 0, "op": "copy", "chunks": [1, 1]}]]}' >"$T/early.json"
printf '%s\n' '{"collective": "allgather", "nodes": 2, "rounds": [[{"src": 0, "dst": 2, "op": "copy", "chunks": [0, 1]}, {"src": 1, "dst": 0, "op": "copy", "chunks": [1, 1]}]]}' >"$T/oor.json"
bad 1 "node 0 is missing chunk 1" verify "$T/missing.json"
bad 1 "before it has it" verify "$T/early.json"
bad 1 "out of range" verify "$T/oor.json"

# ---- reproduce ----
bad 2 nosuchpaper reproduce nosuchpaper
bad 2 "" reproduce
bad 2 extra reproduce optree extra

# ---- direct networks (hypercube, torus, mesh) and their all-to-alls ----
bad 2 "power of two" run -c alltoall -a sex -t hypercube -n 12 -s 1KiB
bad 2 "power of two" run -c alltoall -a dex -t mesh -n 12 -s 1KiB --net switching=wh
bad 2 "9 nodes, not 8" run -c alltoall -a dex -t torus -n 8 -s 1KiB --net dims=3x3
bad 2 "16 nodes, not 8" run -c alltoall -a sex -t hypercube -n 8 -s 1KiB --net dim=4
bad 2 "sf or wh" run -c alltoall -a sex -t hypercube -n 8 -s 1KiB --net switching=xx
bad 2 "neighbours" run -c alltoall -a dex -t hypercube -n 8 -s 1KiB
bad 2 "directions" run -c alltoall -a pipeline -t torus -n 8 -s 1KiB -p directions=0
bad 2 "15 nodes, not 16" run -c alltoall -a cartesian -t torus -n 16 -s 1KiB -p dims=3x5
# cartesian planned for other dims than the network's: the one line names both
bad 2 "torus dims=4x4" run -c alltoall -a cartesian -t torus -n 16 -s 1KiB --net dims=4x4 -p dims=2x8
bad 2 "planned for -p dims=2x8" run -c alltoall -a cartesian -t torus -n 16 -s 1KiB --net dims=4x4 -p dims=2x8
bad 2 "more than 8192 nodes" run -c alltoall -a bex -t mesh -n 8192 -s 64 --net dims=8192x3x3x307x2857x6529x43691 --net switching=wh
bad 2 "use a larger mu" run -c alltoall -a hypercube-opt -t hypercube -n 8 -s 16MiB --net ports=all --net combining=no --net mu=1

# ---- no command at all: usage on stderr (several lines allowed), nothing on stdout ----
run_tool
if [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && grep -q usage "$T/err"; then
    pass "opticoll with no command -> exit 2, usage on stderr, nothing on stdout"
else
    fail "opticoll with no command -> exit 2, usage on stderr, nothing on stdout" "exit $RC"
fi

# ---- all-to-all on meshes and hypercubes: sizes the algorithm does not allow ----
bad 2 "6 nodes is not a power of two" run -c alltoall -a bex -t switch -n 6 -s 1KiB
bad 2 "dims=3x5" run -c alltoall -a bex -t switch -n 15 -s 1KiB -p dims=3x5
bad 2 "4x2 is not square" run -c alltoall -a qex -t switch -n 8 -s 1KiB
bad 2 "12 is not a power of two" run -c alltoall -a hypercube-opt -t switch -n 12 -s 1KiB

finish
