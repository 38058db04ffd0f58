# Tests of the all-to-all schedule table and the algorithms hypercube-opt, bex and qex
# (all-to-all-scatter-notes): the n = 4 table, constraints (a)-(c) and their violations, verified
# schedules with their round counts, contention-free rounds, and the refusals.
add_executable(test_aasalgo tests/test_aasalgo.c)
target_include_directories(test_aasalgo PRIVATE src)
target_link_libraries(test_aasalgo PRIVATE opticoll_lib)
add_test(NAME aasalgo COMMAND test_aasalgo)
