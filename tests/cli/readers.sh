#!/usr/bin/env bash
# readers.sh TOOL [CLI_DIR] — at the command line: the memory budget
# (OPTICOLL_MEMORY_BUDGET_MIB, and OPTICOLL_VERIFY_BUDGET_MIB, its old name), the input file cap
# checked while reading (/dev/zero stops at once), decimal-only numbers and duplicate keys. Every
# refusal is exit 2, nothing on stdout, one line on stderr naming what it needs.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# ---- the budget variable ----
# (set to nothing is unset: tests/cli/faults_input.sh)
for v in abc 0 0x10 -1 1.5 99999999999999999999; do
    OPTICOLL_MEMORY_BUDGET_MIB=$v bad 2 "OPTICOLL_MEMORY_BUDGET_MIB=$v" list
    OPTICOLL_VERIFY_BUDGET_MIB=$v bad 2 "OPTICOLL_VERIFY_BUDGET_MIB=$v" list
done
OPTICOLL_MEMORY_BUDGET_MIB=64 run_tool list
[ "$RC" -eq 0 ] && pass "OPTICOLL_MEMORY_BUDGET_MIB=64 list" || fail "budget 64 refused" "$(cat "$T/err")"

# ---- an all-to-all on 46341 nodes in 100 bytes: refused at once with what it needs (one
# transfer of every chunk: as many as a complete one moves, so the count does not refuse it) ----
printf '{"collective":"alltoall","nodes":46341,"rounds":[[{"src":0,"dst":1,"chunks":[0,2147488281]}]]}' \
    >"$T/a2a.json"
start=$(date +%s)
bad 2 "needs 16.0 GiB, more than the memory budget of 4 GiB (set OPTICOLL_MEMORY_BUDGET_MIB)" \
    verify "$T/a2a.json"
[ $(($(date +%s) - start)) -le 5 ] && pass "refused at once" || fail "took more than 5 s"
# the budget variables lower it: the new name, then the old one as its alias (the chunk states
# are verified in shards since sharding: 4 MiB cannot hold one chunk's 65536 states per thread)
printf '{"collective":"allreduce","nodes":65536,"chunks_per_block":1,"rounds":[]}' >"$T/ar.json"
run_tool verify "$T/ar.json"
[ "$RC" -eq 1 ] && pass "65536 x 1 chunk states fit the default budget (missing contributions: exit 1)" ||
    fail "65536 x 1 refused at the default budget" "$(cat "$T/err")"
OPTICOLL_MEMORY_BUDGET_MIB=4 bad 2 "more than the memory budget of 4 MiB" verify "$T/ar.json"
OPTICOLL_VERIFY_BUDGET_MIB=4 bad 2 "more than the memory budget of 4 MiB" verify "$T/ar.json"
OPTICOLL_MEMORY_BUDGET_MIB=4096 OPTICOLL_VERIFY_BUDGET_MIB=4 run_tool verify "$T/ar.json"
[ "$RC" -eq 1 ] && pass "the new name wins over the old" || fail "old name won" "$(cat "$T/err")"

# ---- the input file cap, checked while reading ----
cap="is larger than 64 MiB, the input file cap"
bad 2 "$cap" verify /dev/zero
bad 2 "--decisions /dev/zero $cap" run -c allgather -n 4 -s 4KiB -a auto --decisions /dev/zero
bad 2 "$cap" rack --trace /dev/zero
bad 2 "larger than 16 MiB" train -m VGG16 -n 8 --models /dev/zero
OPTICOLL_MEMORY_BUDGET_MIB=64 bad 2 "is larger than 1 MiB" verify /dev/zero

# ---- decimal numbers only ----
bad 2 "reconfig_us=0x10" run -c allgather -a ring -n 5 -s 1KiB --net reconfig_us=0x10
bad 2 "alpha_us=0x1p-1" run -c allreduce -a ring -t switch -n 5 -s 1KiB --net alpha_us=0x1p-1
bad 2 "0x.8p0" throughput -m BERT-large -n 16 --utilisation 0x.8p0
for v in inf nan 1e999 " 25"; do
    bad 2 "reconfig_us=" run -c allgather -a ring -n 5 -s 1KiB --net "reconfig_us=$v"
done

# ---- duplicate keys, BOM ----
R='"rounds": [[{"src": 0, "dst": 1, "chunks": [0, 1]}, {"src": 1, "dst": 0, "chunks": [1, 1]}]]'
printf '{"collective": "allgather", "nodes": 2, "nodes": 3, %s}' "$R" >"$T/dup.json"
bad 2 '"nodes" appears twice' verify "$T/dup.json"
printf '{"collective": "allgather", "collective": "gather", "nodes": 2, %s}' "$R" >"$T/dup.json"
bad 2 '"collective" appears twice' verify "$T/dup.json"
printf '\xef\xbb\xbf{"collective": "allgather", "nodes": 2, %s}' "$R" >"$T/bom.json"
run_tool verify "$T/bom.json"
[ "$RC" -eq 0 ] && pass "BOM + JSON verifies" || fail "BOM + JSON" "$(cat "$T/err")"
run_tool export -c allreduce -a ring -n 5 -s 4KiB --format msccl -o "$T/m.xml"
{ printf '\xef\xbb\xbf'; cat "$T/m.xml"; } >"$T/bom.xml"
run_tool verify "$T/bom.xml"
[ "$RC" -eq 0 ] && pass "BOM + MSCCL XML verifies" || fail "BOM + XML" "$(cat "$T/err")"

finish
