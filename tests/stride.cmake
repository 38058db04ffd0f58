# The bidirectional ring, two-level and multi-level stride and bistride all-gather,
# reduce-scatter and all-reduce, and the comb all-gather (src/algo/stride.c, levels.c, comb.c):
# verified on every network they declare at N = 1 .. 1000, their closed forms, their searches
# against every pinned stride and radix list
# (tests/test_stride.c); N = 4096 labelled slow.
add_executable(test_stride tests/test_stride.c)
target_include_directories(test_stride PRIVATE src tests)
target_link_libraries(test_stride PRIVATE opticoll_lib m)
add_test(NAME stride COMMAND test_stride)
set_tests_properties(stride PROPERTIES TIMEOUT 300)
add_test(NAME stride_slow COMMAND test_stride slow)
set_tests_properties(stride_slow PROPERTIES LABELS slow TIMEOUT 300)
