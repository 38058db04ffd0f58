# The search contract's driver (src/run/search.c) on a test algorithm: exhaustive optimum, pruning
# only by bound, ties, the log (tests/test_search.c). Each algorithm family's own search is tested
# by its tests/test_search_*.c.
add_executable(test_search tests/test_search.c)
target_include_directories(test_search PRIVATE src tests)
target_link_libraries(test_search PRIVATE opticoll_lib)
add_test(NAME search COMMAND test_search)
set_tests_properties(search PROPERTIES TIMEOUT 120)
