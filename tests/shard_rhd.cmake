# Recursive halving / doubling generated per chunk window (src/algo/rhd.c): a verifier shard's
# rounds are the whole rounds' transfers touching its window, none made outside it, and the
# sharded run equals one pass (rhd, rh, rd at N = 1..1000, radices pinned and searched).
add_executable(test_shard_rhd tests/test_shard_rhd.c)
target_include_directories(test_shard_rhd PRIVATE src)
target_link_libraries(test_shard_rhd PRIVATE opticoll_lib)
add_test(NAME shard_rhd COMMAND test_shard_rhd)
