# The parameter search's round cache against mapping every candidate whole
# (tests/test_search_cache.c); search_cache_slow adds N = 36, 64, 97, 100 and 120.
add_executable(test_search_cache tests/test_search_cache.c)
target_include_directories(test_search_cache PRIVATE src tests)
target_link_libraries(test_search_cache PRIVATE opticoll_lib)
add_test(NAME search_cache COMMAND test_search_cache)
add_test(NAME search_cache_slow COMMAND test_search_cache slow)
set_tests_properties(search_cache_slow PROPERTIES LABELS slow TIMEOUT 600)
