# Chunk-sharded verification (src/run/shard.c): sharded == one pass on every algorithm,
# the same first error on broken schedules, windowed generation keeps the whole round's places.
add_executable(test_shard tests/test_shard.c)
target_include_directories(test_shard PRIVATE src)
target_link_libraries(test_shard PRIVATE opticoll_lib)
add_test(NAME shard COMMAND test_shard)
set_tests_properties(shard PROPERTIES TIMEOUT 600)
