# Chunk-sharded verification (src/run/shard.c): sharded == one pass on every algorithm,
# the same first error on broken schedules, windowed generation keeps the whole round's places.
add_executable(test_shard tests/test_shard.c)
target_include_directories(test_shard PRIVATE src)
target_link_libraries(test_shard PRIVATE opticoll_lib)
# one test per part, so that CTest runs them side by side (under ASan the whole was 2.4 min alone)
foreach(part windows errors algorithms-even algorithms-odd)
  add_test(NAME shard_${part} COMMAND test_shard ${part})
  set_tests_properties(shard_${part} PROPERTIES TIMEOUT 600)
endforeach()
