# OpTree's all-gather search with k pinned against every list of that depth on a grid of small N,
# and the schedule identities its newer pruning rests on (tests/test_optree_k.c).
add_executable(test_optree_k tests/test_optree_k.c)
target_include_directories(test_optree_k PRIVATE src)
target_link_libraries(test_optree_k PRIVATE opticoll_lib m)
add_test(NAME optree_k COMMAND test_optree_k)
