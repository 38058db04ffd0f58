# The parameter searches of WRHT (all-reduce, all-gather) and of the all-to-all dims (bex,
# cartesian, qex): the default against the exhaustive optimum over the pinned space.
add_executable(test_search_wrht tests/test_search_wrht.c)
target_include_directories(test_search_wrht PRIVATE src)
target_link_libraries(test_search_wrht PRIVATE opticoll_lib)
add_test(NAME search_wrht COMMAND test_search_wrht)
add_test(NAME search_wrht_grid COMMAND test_search_wrht grid)
add_test(NAME search_wrht_slow COMMAND test_search_wrht slow)
set_tests_properties(search_wrht_grid search_wrht_slow PROPERTIES LABELS slow TIMEOUT 600)
add_executable(test_search_aasdims tests/test_search_aasdims.c)
target_include_directories(test_search_aasdims PRIVATE src)
target_link_libraries(test_search_aasdims PRIVATE opticoll_lib)
add_test(NAME search_aasdims COMMAND test_search_aasdims)
