# The real-data run's orbit state (data.c): rounds invariant under the ring's rotation run on node
# 0's chunks; whole and broken, the same verdict and message as the N x C state, and every broken
# schedule the fast path runs is caught there (tests/test_data_orbit.c).
add_executable(test_data_orbit tests/test_data_orbit.c)
target_include_directories(test_data_orbit PRIVATE src)
target_link_libraries(test_data_orbit PRIVATE opticoll_lib)
add_test(NAME data_orbit COMMAND test_data_orbit)
