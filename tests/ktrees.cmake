# The pipelined star broadcast down c fixed trees (src/algo/broadcast_ktrees.c): verified with
# real data at P = 1 .. 1000, one step a round, at or above the physical bound; each filter tuned
# once (H tuning steps); every logged search candidate's bound at most its pinned run; within
# 1.2x of the bound at P = 31 and 100, 1 KiB (1.9 to 2.1x before); bad input (tests/test_ktrees.c).
add_executable(test_ktrees tests/test_ktrees.c)
target_include_directories(test_ktrees PRIVATE src include tests)
target_link_libraries(test_ktrees PRIVATE opticoll_lib m)
add_test(NAME ktrees COMMAND test_ktrees)
set_tests_properties(ktrees PROPERTIES TIMEOUT 300)
