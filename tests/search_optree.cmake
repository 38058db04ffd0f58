# The OpTree radix searches (all-gather and all-to-all) against the exhaustive optimum over every
# pinnable radix list (tests/test_search_optree.c); the issue's large cases are labelled slow.
add_executable(test_search_optree tests/test_search_optree.c)
target_include_directories(test_search_optree PRIVATE src)
target_link_libraries(test_search_optree PRIVATE opticoll_lib m)
add_test(NAME search_optree COMMAND test_search_optree)
add_test(NAME search_optree_slow COMMAND test_search_optree slow)
set_tests_properties(search_optree_slow PROPERTIES LABELS slow TIMEOUT 300)
