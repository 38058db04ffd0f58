# The direct networks' all-to-alls refuse before the work (src/aas): cartesian's exact counts,
# dex-interleave refused on store-and-forward before its packing, the packer against the plain
# list scheduling (tests/test_aas_ahead.c).
add_executable(test_aas_ahead tests/test_aas_ahead.c)
target_include_directories(test_aas_ahead PRIVATE src include tests)
target_link_libraries(test_aas_ahead PRIVATE opticoll_lib m)
add_test(NAME aas_ahead COMMAND test_aas_ahead)
set_tests_properties(aas_ahead PROPERTIES TIMEOUT 300)
