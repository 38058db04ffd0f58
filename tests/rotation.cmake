# Issue 26 item 4 (tests/test_rotation.c): the verifier's rotation rounds (verify.c) give exactly
# what the plain path gives on whole and broken all-gather and gossip rounds, and the search's
# lone candidate left to the final run (search.c) gives `run --json` byte for byte.
add_executable(test_rotation tests/test_rotation.c)
target_include_directories(test_rotation PRIVATE src)
target_link_libraries(test_rotation PRIVATE opticoll_lib)
add_test(NAME rotation COMMAND test_rotation)
