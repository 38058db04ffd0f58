# Recursive doubling in unequal groups on the fabric (src/algo/groups.c; rdg for the all-reduce,
# all-gather and reduce-scatter): verified with real data at N = 1 .. 1024 on three fabric
# settings, never below the physical bound; the tree's rounds against a brute force; the default
# no slower than every radix one could pin (N = 2 .. 24, 100); under 3 times the bound at N = 100,
# 1 KiB, faster than rdk, rd and rh there; bad input (tests/test_rdg.c).
add_executable(test_rdg tests/test_rdg.c)
target_include_directories(test_rdg PRIVATE src include tests)
target_link_libraries(test_rdg PRIVATE opticoll_lib m)
add_test(NAME rdg COMMAND test_rdg)
set_tests_properties(rdg PROPERTIES TIMEOUT 300)
