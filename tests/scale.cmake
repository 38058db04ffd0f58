# Refusals before the work, and one all-reduce on 65536 nodes (sharded verification).
# The refusals: one line naming what the run needs and the budget, exit 2, before anything is
# generated (a budget of 1 MiB: twice one chunk's 65536 node states on two threads and the cost
# pass do not fit; 512 MiB: one-stage's single round of 16.8 M lightpaths does not; at the
# default budget, rhd radix 2 on 98304 nodes: one chunk's shard is past the verifier's shard size,
# and the line says that this is not the memory budget, which would have held it).
add_test(NAME scale_refusal
         COMMAND sh -c "
e=$(OPTICOLL_MEMORY_BUDGET_MIB=1 $0 run -c allreduce -a rd -t switch -n 65536 -s 1MiB 2>&1 >/dev/null); s=$?
[ $s -eq 2 ] || { echo \"exit $s: $e\"; exit 1; }
[ \"$e\" = 'opticoll: verifying allreduce on 65536 nodes needs 7.5 MiB (twice one chunk'\"'\"'s 65536 node states, on each of 2 threads and the cost pass), more than the memory budget of 1 MiB (set OPTICOLL_MEMORY_BUDGET_MIB)' ] || { echo \"got: $e\"; exit 1; }
e=$($0 run -c allreduce -a rhd -t fabric -n 98304 -s 1MiB -p radix=2 2>&1 >/dev/null); s=$?
[ $s -eq 2 ] || { echo \"exit $s: $e\"; exit 1; }
[ \"$e\" = 'opticoll: verifying allreduce on 98304 nodes needs 35.2 MiB for one chunk (its 98304 node states with their fragmented contributor sets, twice for a round'\"'\"'s staging), more than the verifier'\"'\"'s shard size of 32 MiB (not a memory budget: a larger budget does not change it)' ] || { echo \"got: $e\"; exit 1; }
e=$(OPTICOLL_MEMORY_BUDGET_MIB=512 $0 run -c allgather -a onestage -t ring -n 4096 -s 1KiB 2>&1 >/dev/null); s=$?
[ $s -eq 2 ] || { echo \"exit $s: $e\"; exit 1; }
[ \"$e\" = 'opticoll: allgather on 4096 nodes has a round of up to 16773120 transfers: needs 991.8 MiB (60 bytes a transfer to generate, verify and map it), more than the memory budget of 512 MiB (set OPTICOLL_MEMORY_BUDGET_MIB)' ] || { echo \"got: $e\"; exit 1; }
$0 run -c allreduce -a hring -t switch -n 2048 -s 1MiB --json | grep -q '\"verified\": true' || { echo 'hring all-reduce on 2048 nodes did not verify sharded'; exit 1; }
OPTICOLL_MEMORY_BUDGET_MIB=16 $0 run -c allreduce -a hring -t switch -n 2048 -s 1MiB --json | grep -q '\"verified\": true' || { echo 'hring all-reduce on 2048 nodes did not verify under a 16 MiB budget'; exit 1; }
OPTICOLL_MEMORY_BUDGET_MIB=16 $0 run -c allreduce -a ring -t switch -n 2048 -s 1MiB --json | grep -q '\"verified\": true' || { echo 'ring all-reduce on 2048 nodes did not verify under a 16 MiB budget'; exit 1; }"
                 $<TARGET_FILE:opticoll>)
set_tests_properties(scale_refusal PROPERTIES TIMEOUT 120)
# One all-reduce on 65536 nodes verified in chunk shards within the default budget: dbtree with
# 32 pieces a tree is 64 chunks, 84 MB of states, three shards (slow: not in the sanitizer build;
# about 2 s of CPU in a release build). Before sharding it was verified in one pass.
add_test(NAME scale_slow
         COMMAND sh -c "$0 run -c allreduce -a dbtree -t switch -n 65536 -s 1MiB -p pipeline=32 --json | grep -q '\"verified\": true'"
                 $<TARGET_FILE:opticoll>)
set_tests_properties(scale_slow PROPERTIES LABELS slow TIMEOUT 600)
