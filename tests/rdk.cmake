# Recursive doubling in mixed radix with one fold on the fabric (src/algo/allreduce_rdk.c):
# verified with real data at N = 1 .. 100 on three fabric settings, its rounds, at or above the
# physical bound; the default no slower than every radix vector one could pin (N = 2 .. 24, 100);
# faster than rhd where the fabric's bound showed the gap; bad input (tests/test_rdk.c).
add_executable(test_rdk tests/test_rdk.c)
target_include_directories(test_rdk PRIVATE src include tests)
target_link_libraries(test_rdk PRIVATE opticoll_lib m)
add_test(NAME rdk COMMAND test_rdk)
set_tests_properties(rdk PROPERTIES TIMEOUT 300)
