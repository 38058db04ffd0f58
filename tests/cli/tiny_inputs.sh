#!/usr/bin/env bash
# tiny_inputs.sh TOOL [CLI_DIR] — the edges a new user tries first: vectors of 0 and 1 bytes and
# values past 2^64. `compare` on every collective and network at 0 and 1 bytes runs (an algorithm
# that cannot is listed as not run; dbtree at 1 byte used to abort the whole compare with exit 2),
# dbtree runs unpipelined on a vector too short to halve, -w / -f past 2^64 - 1 name the model's
# range like any other value above it (they said "must be at least 1"), and radices= lists that
# are well formed but too long or too large say so (they said "expected radices of at least 2");
# a schedule file's chunks_per_block names its one range, 1 to 2^32 - 1, for 0 and for 2^32.
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments

# 1. compare at 0 and 1 bytes: exit 0 and a table, on every collective x network.
for coll in allgather reducescatter allreduce broadcast scatter gather alltoall gossip; do
    for net in ring fattree switch star fabric hypercube torus mesh; do
        for n in 3; do
            for s in 0 1; do
                run_tool compare -q -c "$coll" -t "$net" -n "$n" -s "$s"
                if [ "$RC" -eq 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]; then
                    OC_PASS=$((OC_PASS + 1))
                else
                    fail "compare -c $coll -t $net -n $n -s $s: exit 0, a table, nothing on stderr" \
                        "rc=$RC" "$(head -c 300 "$T/err")"
                fi
            done
        done
    done
done
pass "compare at 0 and 1 bytes on every collective and network ($OC_PASS runs)"

# 2. dbtree below 2 bytes: pipeline 1, verified; a pinned pipeline that would cut empty chunks
#    is still refused.
for net in ring fattree switch fabric; do
    for n in 2 3 7; do
        for s in 0 1; do
            run_tool run -q -c allreduce -a dbtree -t "$net" -n "$n" -s "$s"
            if [ "$RC" -eq 0 ] && grep -q '^  verified:    yes' "$T/out" &&
                grep -q 'pipeline=1' "$T/out"; then
                pass "dbtree $net N=$n $s bytes: pipeline=1, verified"
            else
                fail "dbtree $net N=$n $s bytes: pipeline=1, verified" "rc=$RC" \
                    "$(head -c 300 "$T/err")"
            fi
        done
    done
done
bad 2 'pipeline=2 cuts 1 bytes into 4 chunks' run -c allreduce -a dbtree -t switch -n 3 -s 1 -p pipeline=2

# 3. -w and -f past 2^64 - 1: the model's range, as for any value above it.
bad 2 'wavelengths=18446744073709551616: expected a whole number from 1 to 65536' \
    run -c allgather -a ring -n 5 -s 4 -w 18446744073709551616
bad 2 'fibres=18446744073709551616: expected a whole number from 1 to' \
    run -c allgather -a ring -n 5 -s 4 -f 18446744073709551616
bad 2 '-w 0: must be at least 1' run -c allgather -a ring -n 5 -s 4 -w 0
bad 2 'disagree' run -c allgather -a ring -n 5 -s 4 -w 99999999999999999999 --net wavelengths=5

# 4. radices= out of range, not malformed.
many=2$(printf 'x2%.0s' $(seq 1 40))
bad 2 'at most 40 radices' run -c allgather -a optree -n 97 -s 4 -p radices="$many"
bad 2 'a radix is at most 1048576' run -c allgather -a optree -n 97 -s 4 -p radices=4294967297x2
bad 2 'a radix is at most 1048576' run -c allreduce -a rhd -t switch -n 97 -s 4 -p radices=99999999999
bad 2 'expected radices of at least 2' run -c allgather -a optree -n 97 -s 4 -p radices=1x97
bad 2 'expected radices of at least 2' run -c allgather -a optree -n 97 -s 4 -p radices=4x4a

# 5. chunks_per_block 0 and 2^32: one range, from 1 (the range said "from 0" above it).
f='{"collective": "allgather", "nodes": 2, "chunks_per_block": Q, "rounds": []}'
for q in 0 4294967296; do
    printf '%s\n' "${f/Q/$q}" >"$T/q$q.json"
    bad 2 '"chunks_per_block" must be a whole number from 1 to 4294967295' verify "$T/q$q.json"
done
finish
