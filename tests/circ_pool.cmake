# The circulant all-reduce's search, least second bound first (src/algo/circulant_search.c):
# every logged bound at most its candidate's pinned cost, the mapped ones in the order of their
# bounds, the answer the best pinned (tests/test_circ_pool.c).
add_executable(test_circ_pool tests/test_circ_pool.c)
target_include_directories(test_circ_pool PRIVATE src include tests)
target_link_libraries(test_circ_pool PRIVATE opticoll_lib m)
add_test(NAME circ_pool COMMAND test_circ_pool)
set_tests_properties(circ_pool PROPERTIES TIMEOUT 300)
