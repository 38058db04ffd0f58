# The searches of rd, rh, rhd and SiPCO on the fabric with mzi_split=1 prune by bounds proven
# for split rounds; every bound is at most the pinned run's cost and the search returns the best
# point (tests/test_rhd_split.c).
add_executable(test_rhd_split tests/test_rhd_split.c)
target_include_directories(test_rhd_split PRIVATE src tests)
target_link_libraries(test_rhd_split PRIVATE opticoll_lib m)
add_test(NAME rhd_split COMMAND test_rhd_split)
set_tests_properties(rhd_split PROPERTIES TIMEOUT 300)
