# OpTree's all-gather search with k pinned against the exhaustive optimum of that depth, and its
# fast stage counts against routing every transfer (tests/test_optree_pinned.c); N = 65536 with
# k = 4 and k = 3 pinned is labelled slow, one test per depth (issue 27: no test may need more
# than a fifth of its limit on a quiet machine).
add_executable(test_optree_pinned tests/test_optree_pinned.c)
target_include_directories(test_optree_pinned PRIVATE src)
target_link_libraries(test_optree_pinned PRIVATE opticoll_lib m)
add_test(NAME optree_pinned COMMAND test_optree_pinned)
foreach(depth k4 k3)
  add_test(NAME optree_pinned_slow_${depth} COMMAND test_optree_pinned slow-${depth})
  set_tests_properties(optree_pinned_slow_${depth} PROPERTIES LABELS slow TIMEOUT 600)
endforeach()
