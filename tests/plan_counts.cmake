# The transfers a plan counts ahead (the node cap's line, the transfer limit) are the transfers its
# generator emits: bt, rd and WRHT all-reduce, one-stage all-gather and all-to-all.
add_executable(test_plan_counts tests/test_plan_counts.c)
target_include_directories(test_plan_counts PRIVATE src)
target_link_libraries(test_plan_counts PRIVATE opticoll_lib)
add_test(NAME plan_counts COMMAND test_plan_counts)
