# The pairwise all-to-all with g shifts a round (src/algo/alltoall_kshift.c): verified with real
# data at P = 1 .. 100 on the star and the fabric, one step a round on the star, at or above the
# physical bound, within 1.15x of the star's proven time bound where TCP2 and pairwise were 3 to
# 3.55 times, bad input (tests/test_kshift.c).
add_executable(test_kshift tests/test_kshift.c)
target_include_directories(test_kshift PRIVATE src include tests)
target_link_libraries(test_kshift PRIVATE opticoll_lib m)
add_test(NAME kshift COMMAND test_kshift)
set_tests_properties(kshift PROPERTIES TIMEOUT 300)
