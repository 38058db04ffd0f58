# The physical bounds (src/bounds): sound over every registered algorithm on every network it runs
# on, tight where a known schedule meets them, the tree-length computation against a brute force.
# bounds_quick runs a subset (N <= 16, one size), also under the sanitizers; bounds the release
# grid (N up to 100, two sizes, 24 network settings: about 11600 verified runs, 36 s on a loaded
# 2-core machine). `test_bounds all` adds N = 128, 256 by hand.
add_executable(test_bounds tests/test_bounds.c)
target_include_directories(test_bounds PRIVATE src include tests)
target_link_libraries(test_bounds PRIVATE opticoll_lib m)
add_test(NAME bounds_quick COMMAND test_bounds quick)
if(NOT OC_SANITIZE)
  add_test(NAME bounds COMMAND test_bounds)
  set_tests_properties(bounds PROPERTIES TIMEOUT 600)
endif()
