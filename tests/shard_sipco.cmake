# Flex-SiPCO all-reduce generated per chunk window (src/algo/allreduce_sipco.c): a verifier
# shard's rounds are the whole rounds' transfers touching its window, none made outside it, and
# the sharded run equals one pass (N = r^l up to 1000, tests/test_shard_sipco.c).
add_executable(test_shard_sipco tests/test_shard_sipco.c)
target_include_directories(test_shard_sipco PRIVATE src)
target_link_libraries(test_shard_sipco PRIVATE opticoll_lib)
add_test(NAME shard_sipco COMMAND test_shard_sipco)
