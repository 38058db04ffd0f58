# One run's shards split into parts (src/run/shard.c: oc_settings.part, oc__part_merge), as
# opticoll-cluster splits them across MPI ranks; threads stand for the ranks (tests/test_shard_part.c).
add_executable(test_shard_part tests/test_shard_part.c)
target_include_directories(test_shard_part PRIVATE src)
target_link_libraries(test_shard_part PRIVATE opticoll_lib)
foreach(part merge runs broken)
  add_test(NAME shard_part_${part} COMMAND test_shard_part ${part})
  set_tests_properties(shard_part_${part} PROPERTIES TIMEOUT 300)
endforeach()
