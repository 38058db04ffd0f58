# The two-phase all-to-all in groups on the fabric (src/algo/alltoall_twophase.c): verified with
# real data at N = 1 .. 1000, pinned and searched, at or above the physical bound; every logged
# search candidate's bound at most its pinned run; within 1.8x of the bound at N = 100, 1 KiB
# (kshift, the best before, 5.4x); bad input (tests/test_twophase.c).
add_executable(test_twophase tests/test_twophase.c)
target_include_directories(test_twophase PRIVATE src include tests)
target_link_libraries(test_twophase PRIVATE opticoll_lib m)
add_test(NAME twophase COMMAND test_twophase)
set_tests_properties(twophase PROPERTIES TIMEOUT 300)
