# Chunk-sharded verification (src/run/shard.c): sharded == one pass on every algorithm,
# the same first error on broken schedules, windowed generation keeps the whole round's places.
add_executable(test_shard tests/test_shard.c)
target_include_directories(test_shard PRIVATE src)
target_link_libraries(test_shard PRIVATE opticoll_lib)
# one test per part, so that CTest runs them side by side (under ASan the whole was 2.4 min alone)
foreach(part windows errors)
  add_test(NAME shard_${part} COMMAND test_shard ${part})
  set_tests_properties(shard_${part} PROPERTIES TIMEOUT 600)
endforeach()
# every algorithm in SHARD_ALGORITHM_PARTS parts (every k-th of the registry): as two halves they
# took 268 and 393 s on a loaded machine, against a limit of 600 (issue 27: a fifth at most). In
# eight parts (load 20 on 2 cores) the circulant trees' three algorithms were most of it: 366 s
# for the part with two of them, 216 s with the third, 1 to 63 s the others; in sixteen no part
# holds two of them.
set(SHARD_ALGORITHM_PARTS 16)
math(EXPR last "${SHARD_ALGORITHM_PARTS} - 1")
foreach(k RANGE ${last})
  add_test(NAME shard_algorithms_${k}
           COMMAND test_shard "algorithms-${k}/${SHARD_ALGORITHM_PARTS}")
  set_tests_properties(shard_algorithms_${k} PROPERTIES TIMEOUT 600)
endforeach()
