# The verifier's range sets (src/core/rangeset.c): every union, single or batched, against a
# bitmap, including the interleaved inserts and small batches of an all-to-all node's held set
# that made the old merge-into-a-fresh-array quadratic (tests/test_rangeset.c).
add_executable(test_rangeset tests/test_rangeset.c)
target_include_directories(test_rangeset PRIVATE src)
target_link_libraries(test_rangeset PRIVATE opticoll_lib)
add_test(NAME rangeset COMMAND test_rangeset)
