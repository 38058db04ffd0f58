# rhd's ring bound for group-local levels (the busiest link's exact load) against the ring
# model's own steps for each such level mapped alone (tests/test_search_ring_levels.c).
add_executable(test_search_ring_levels tests/test_search_ring_levels.c)
target_include_directories(test_search_ring_levels PRIVATE src tests)
target_link_libraries(test_search_ring_levels PRIVATE opticoll_lib)
add_test(NAME search_ring_levels COMMAND test_search_ring_levels)
