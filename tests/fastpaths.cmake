# The scale targets' fast paths against plain recomputations (tests/test_fastpaths.c): the
# switch check's sorts and the ports it and the switch model skip timing, the verifier's inline
# merges.
add_executable(test_fastpaths tests/test_fastpaths.c)
target_include_directories(test_fastpaths PRIVATE src)
target_link_libraries(test_fastpaths PRIVATE opticoll_lib)
add_test(NAME fastpaths COMMAND test_fastpaths)
