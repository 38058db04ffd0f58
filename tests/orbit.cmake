# Orbit reductions (verify.c, issue 31): an all-reduce whose spec states a symmetry (hring's) is
# verified on the cells of one group and gives exactly what the N x C cells give, on whole and
# broken schedules (tests/test_orbit.c).
add_executable(test_orbit tests/test_orbit.c)
target_include_directories(test_orbit PRIVATE src)
target_link_libraries(test_orbit PRIVATE opticoll_lib)
add_test(NAME orbit COMMAND test_orbit)
