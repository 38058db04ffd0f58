# The star's fixed-digraph schedules (src/algo/star_fixed.c: ktree gather and broadcast, kautz
# gossip and all-to-all): verified with real data at P = 1 .. 100 on four star settings, one step
# a round, tuned once (the broadcast once a depth), at or above the physical bound, within 1 to
# 2.5 times the proven bound where the TCP algorithms were 2.8 to 3.9 times, the default at least
# as fast as every pin, bad input (tests/test_starfixed.c).
add_executable(test_starfixed tests/test_starfixed.c)
target_include_directories(test_starfixed PRIVATE src include tests)
target_link_libraries(test_starfixed PRIVATE opticoll_lib m)
add_test(NAME starfixed COMMAND test_starfixed)
set_tests_properties(starfixed PROPERTIES TIMEOUT 300)
