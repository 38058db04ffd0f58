# The kshift all-to-all's search bound on the star (src/algo/alltoall_kshift.c): every logged
# bound at most its shift count's pinned run, the search's answer the best pinned, most
# candidates pruned (tests/test_kshift_bound.c).
add_executable(test_kshift_bound tests/test_kshift_bound.c)
target_include_directories(test_kshift_bound PRIVATE src include tests)
target_link_libraries(test_kshift_bound PRIVATE opticoll_lib m)
add_test(NAME kshift_bound COMMAND test_kshift_bound)
set_tests_properties(kshift_bound PROPERTIES TIMEOUT 300)
