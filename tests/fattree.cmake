# Tests of the two-level fat-tree model (src/net/fattree.c) and its independent check:
# closed-form times of hand-made rounds, contention, ring and rd all-reduce, bad parameters.
add_executable(test_fattree tests/test_fattree.c)
target_include_directories(test_fattree PRIVATE src)
target_link_libraries(test_fattree PRIVATE opticoll_lib)
add_test(NAME fattree COMMAND test_fattree)
