# oc_compare (src/studies/compare.c), the loop of `opticoll compare` and of the Python package's
# compare: lists, pins, not-run reasons and refusals, each checked against oc_run called directly.
add_executable(test_compare tests/test_compare.c)
target_include_directories(test_compare PRIVATE src)
target_link_libraries(test_compare PRIVATE opticoll_lib)
add_test(NAME compare COMMAND test_compare)
set_tests_properties(compare PROPERTIES TIMEOUT 120)
