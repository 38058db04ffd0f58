# Digit orbit reductions (verify.c, issue 31): an all-reduce whose spec states a mixed-radix
# symmetry (rhd's with P = N) is verified on node 0's cells and gives exactly what the N x C cells
# give, on whole and broken schedules (tests/test_digit_orbit.c).
add_executable(test_digit_orbit tests/test_digit_orbit.c)
target_include_directories(test_digit_orbit PRIVATE src)
target_link_libraries(test_digit_orbit PRIVATE opticoll_lib)
add_test(NAME digit_orbit COMMAND test_digit_orbit)
