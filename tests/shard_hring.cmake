# hring all-reduce generated per chunk window (src/algo/allreduce_hring.c) and the verifier a
# pool thread reuses from shard to shard (src/run/shard.c, oc__verifier_reuse): windowed rounds ==
# the whole rounds' transfers touching the window, sharded == one pass, reused == new verifier
# on whole and broken schedules (tests/test_shard_hring.c).
add_executable(test_shard_hring tests/test_shard_hring.c)
target_include_directories(test_shard_hring PRIVATE src)
target_link_libraries(test_shard_hring PRIVATE opticoll_lib)
add_test(NAME shard_hring COMMAND test_shard_hring)
