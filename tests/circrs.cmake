# The circulant reduce-scatter (src/algo/reducescatter_circulant.c, the circulant all-gather run
# backwards as reductions; src/algo/circulant_rotated.c): verified with real data at
# N = 1 .. 100, the same steps as the all-gather at every depth and variant, its search against
# every pin, its windows, two deliberate breaks refused by the verifier, bad input
# (tests/test_circrs.c); 1024 nodes labelled slow.
add_executable(test_circrs tests/test_circrs.c)
target_include_directories(test_circrs PRIVATE src include tests)
target_link_libraries(test_circrs PRIVATE opticoll_lib m)
add_test(NAME circrs COMMAND test_circrs)
set_tests_properties(circrs PROPERTIES TIMEOUT 300)
add_test(NAME circrs_slow COMMAND test_circrs slow)
set_tests_properties(circrs_slow PROPERTIES LABELS slow TIMEOUT 300)
