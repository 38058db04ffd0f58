# OpTree's all-gather search with k pinned against the exhaustive optimum of that depth, and its
# fast stage counts against routing every transfer (tests/test_optree_pinned.c); N = 65536 with
# k = 3 and 4 pinned is labelled slow.
add_executable(test_optree_pinned tests/test_optree_pinned.c)
target_include_directories(test_optree_pinned PRIVATE src)
target_link_libraries(test_optree_pinned PRIVATE opticoll_lib m)
add_test(NAME optree_pinned COMMAND test_optree_pinned)
add_test(NAME optree_pinned_slow COMMAND test_optree_pinned slow)
set_tests_properties(optree_pinned_slow PROPERTIES LABELS slow TIMEOUT 600)
