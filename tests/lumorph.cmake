# Tests of the lumorph seed's all-reduces on the photonic fabric: closed forms (alpha,
# reconfiguration and bandwidth terms) against the simulated times, and `reproduce lumorph`.
add_executable(test_lumorph tests/test_lumorph.c)
target_include_directories(test_lumorph PRIVATE src)
target_link_libraries(test_lumorph PRIVATE opticoll_lib)
add_test(NAME lumorph COMMAND test_lumorph)
# The reproduction end to end (231 verified runs and the BERT estimate: about a second).
add_test(NAME reproduce_lumorph COMMAND opticoll reproduce lumorph)
set_tests_properties(reproduce_lumorph PROPERTIES PASS_REGULAR_EXPRESSION "in 231 of 231 runs")
# `opticoll throughput`: a verified estimate as JSON, and bad input refused with exit status 2
# (sh -c so that the status itself is checked, not only that it is non-zero).
add_test(NAME throughput_cli COMMAND opticoll throughput -m BERT-base -n 12 --buckets 12 --json)
set_tests_properties(throughput_cli PROPERTIES PASS_REGULAR_EXPRESSION
                     "\"nodes\": 12,.*\"verified\": true.*\"speedup\": [0-9]")
add_test(NAME throughput_badinput
         COMMAND sh -c "for a in '-n 1' '-n 8 --utilisation 0' '-n 8 --buckets x' '-n 8 --tokens 0' '-n 8 --peak-tflops -1' '-n 8 --what'; do $0 throughput -m BERT-large $a 2>/dev/null; [ $? -eq 2 ] || { echo \"not refused: $a\"; exit 1; }; done; $0 throughput -m NoSuchModel -n 8 2>&1 | grep -q 'unknown model'"
                 $<TARGET_FILE:opticoll>)
add_test(NAME cli_throughput COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/throughput.sh
                                     $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_throughput PROPERTIES LABELS lumorph TIMEOUT 60)
# the footnote's compute inputs are the ones the table used (batch from data/models.tsv)
add_test(NAME reproduce_lumorph_inputs
         COMMAND sh -c "out=$($0 reproduce lumorph) || exit 1; b=$(printf '%s' \"$out\" | sed -n 's/.*Ours: BERT-large ([0-9]* parameters, batch \\([0-9]*\\) per GPU.*/\\1/p'); [ -n \"$b\" ] && printf '%s' \"$out\" | grep -q \"inputs (312 TFLOP/s, 0.5, batch $b, 128 tokens)\""
                 $<TARGET_FILE:opticoll>)
set_tests_properties(reproduce_lumorph_inputs PROPERTIES LABELS lumorph TIMEOUT 60)
# The verifier's memory budget (reductions are verified in chunk shards within it).
# Under 64 MiB (the old variable's name still read), rhd radix 2 on 1024 nodes, whose contributor
# sets fragment (~140 MB in one pass), verifies in shards; under 1 MiB, throughput -n 16384 is
# refused up front in one line naming the budget (one chunk's 16384 states on each thread).
add_test(NAME verify_budget
         COMMAND sh -c "OPTICOLL_VERIFY_BUDGET_MIB=64 $0 run -c allreduce -a rhd -p radix=2 -t fabric -n 1024 -s 64MiB --json | grep -q '\"verified\": true' || { echo 'rhd radix 2 on 1024 nodes not verified under 64 MiB'; exit 1; }; e=$(OPTICOLL_VERIFY_BUDGET_MIB=1 $0 throughput -m BERT-large -n 16384 2>&1 >/dev/null); s=$?; [ $s -eq 2 ] && [ $(printf '%s\\n' \"$e\" | wc -l) -eq 1 ] && printf '%s' \"$e\" | grep -q 'memory budget of 1 MiB' || { echo \"not refused: $s $e\"; exit 1; }"
                 $<TARGET_FILE:opticoll>)
set_tests_properties(verify_budget PROPERTIES LABELS lumorph TIMEOUT 30)
