# dbtree's search on the fabric with mzi_split=1 prunes by a bound proven for split rounds, and
# every bound is at most the pinned run's cost (tests/test_dbtree_split.c).
add_executable(test_dbtree_split tests/test_dbtree_split.c)
target_include_directories(test_dbtree_split PRIVATE src tests)
target_link_libraries(test_dbtree_split PRIVATE opticoll_lib m)
add_test(NAME dbtree_split COMMAND test_dbtree_split)
set_tests_properties(dbtree_split PROPERTIES TIMEOUT 300)
