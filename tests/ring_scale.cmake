# The ring model at scale (src/net/ring.c, docs/scale.md). One-stage all-gather's one round is
# refused before any work when its 60 bytes a lightpath pass the budget (8192 nodes, 67.1 M
# lightpaths, at 2 GiB; at the default 4 GiB it runs), in one line, at once. Bruck on 2^17 nodes
# needs 2^33 colours in its last rounds (colours were 32-bit: "wavelength assignment failed"
# before), and is generated, verified, mapped and checked in under a second.
add_test(NAME ring_scale
         COMMAND sh -c "
e=$(OPTICOLL_MEMORY_BUDGET_MIB=2048 $0 run -c allgather -a onestage -t ring -n 8192 -s 1KiB 2>&1 >/dev/null); s=$?
[ $s -eq 2 ] || { echo \"exit $s: $e\"; exit 1; }
[ \"$e\" = 'opticoll: allgather on 8192 nodes has a round of up to 67100672 transfers: needs 3.8 GiB (60 bytes a transfer to generate, verify and map it), more than the memory budget of 2 GiB (set OPTICOLL_MEMORY_BUDGET_MIB)' ] || { echo \"got: $e\"; exit 1; }
$0 run -c allgather -a bruck -t ring -n 131072 -s 4KiB --json > ring_scale.json || { echo 'bruck on 131072 nodes failed'; exit 1; }
grep -q '\"verified\": true' ring_scale.json || { echo 'bruck on 131072 nodes not verified'; exit 1; }
grep -q '\"steps\": 81042650' ring_scale.json || { echo 'bruck on 131072 nodes: steps changed'; grep steps ring_scale.json; exit 1; }"
                 $<TARGET_FILE:opticoll>)
set_tests_properties(ring_scale PROPERTIES TIMEOUT 120)
