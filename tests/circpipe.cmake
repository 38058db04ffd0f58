# The pipelined circulant all-reduce (src/algo/allreduce_circpipe.c): verified with real data at
# N = 1 .. 100, within 3x of the proven time bound at N = 1024, w = 1 (4096, w = 1 and 8, labelled
# slow), its search against every pinned tree and piece count, its windows, deliberately broken
# schedules refused by the verifier, and bad input (tests/test_circpipe.c).
add_executable(test_circpipe tests/test_circpipe.c)
target_include_directories(test_circpipe PRIVATE src include tests)
target_link_libraries(test_circpipe PRIVATE opticoll_lib m)
add_test(NAME circpipe COMMAND test_circpipe)
set_tests_properties(circpipe PROPERTIES TIMEOUT 300)
add_test(NAME circpipe_slow COMMAND test_circpipe slow)
set_tests_properties(circpipe_slow PROPERTIES LABELS slow TIMEOUT 300)
