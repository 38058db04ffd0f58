# `reproduce star` through the C API: its claims table, settings (-n P, -w k), the h'_opt reason
# pinned to the stationary point the test derives, the trade-off figure computed, and the star's
# output fixes (tcp1-split's padding note, times in units of tau), the sensitivity rows against
# runs with the same pins.
add_executable(test_repro_star tests/test_repro_star.c)
target_include_directories(test_repro_star PRIVATE src)
target_link_libraries(test_repro_star PRIVATE opticoll_lib m)
add_test(NAME repro_star COMMAND test_repro_star)
