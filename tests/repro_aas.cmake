# reproduce aas through the C API: the claims table of the all-to-all-scatter notes, its reasons
# pinned to their numbers, and the settings -n and -t.
add_executable(test_repro_aas tests/test_repro_aas.c)
target_include_directories(test_repro_aas PRIVATE src)
target_link_libraries(test_repro_aas PRIVATE opticoll_lib)
add_test(NAME repro_aas COMMAND test_repro_aas)
