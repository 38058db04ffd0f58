# Tests of `opticoll synth` (src/synth/synth.c): proven optima against an independent brute force,
# schedule files through verify, the issue's N = 8, w = 1 fact, limits, the time limit and a
# weakened encoding caught (test_synth.c, label slow: about half a minute of solving); the CLI
# (tests/cli/synth.sh); and `reproduce optima` end to end (slow: every instance solved and every
# algorithm searched).
add_executable(test_synth tests/test_synth.c)
target_include_directories(test_synth PRIVATE src)
target_link_libraries(test_synth PRIVATE opticoll_lib)
add_test(NAME synth COMMAND test_synth)
set_tests_properties(synth PROPERTIES LABELS slow TIMEOUT 600)
add_test(NAME cli_synth COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/synth.sh $<TARGET_FILE:opticoll>
                                ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_synth PROPERTIES LABELS cli TIMEOUT 600)
add_test(NAME reproduce_optima COMMAND opticoll reproduce optima)
# the issue's row: N = 8, w = 1 proven at 4 steps, the physical bound 4, which the bidirectional
# ring reaches (the seeds' ring and ne take 7); the table refuses to print a bound above an optimum
set_tests_properties(reproduce_optima PROPERTIES LABELS slow TIMEOUT 600 PASS_REGULAR_EXPRESSION
                     "allgather ring +[|] 4 +[|] 4 +[|][^|]*[|] 4: bidir;[^|]*[|] 1.00 x[^\n]*\n +N=8 w=1 ")
