# Flex-SiPCO's rounds written whole and its digit symmetry at l = 1 (src/algo/allreduce_sipco.c):
# the whole rounds against the essay's definition, the symmetry stated exactly at r = N, used by
# the verifier (node 0's cells), and the same verdict as the N x N cells on whole and broken
# schedules (tests/test_sipco_orbit.c).
add_executable(test_sipco_orbit tests/test_sipco_orbit.c)
target_include_directories(test_sipco_orbit PRIVATE src)
target_link_libraries(test_sipco_orbit PRIVATE opticoll_lib)
add_test(NAME sipco_orbit COMMAND test_sipco_orbit)
