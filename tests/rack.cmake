# Tests of the multi-tenant rack allocator (src/studies/rack.c, `opticoll rack`): the Fig. 2a
# outcome, fibre reservations, slice rounding, accounting invariants, algorithm choice,
# determinism and trace-file errors (test_rack.c); the command's bad input and byte-identical
# reruns (tests/cli/rack.sh). Seconds each, so they also run under the sanitizers.
add_executable(test_rack tests/test_rack.c)
target_include_directories(test_rack PRIVATE src)
target_link_libraries(test_rack PRIVATE opticoll_lib)
add_test(NAME rack COMMAND test_rack)
add_test(NAME cli_rack COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/rack.sh $<TARGET_FILE:opticoll>
                               ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(rack cli_rack PROPERTIES LABELS rack TIMEOUT 120)
