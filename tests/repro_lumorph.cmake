# `reproduce lumorph` through the C API: its claims table recomputed from Fig. 4's series, the
# settings (-n N, --sizes) and the ones refused, Lumorph-4's folding at non-powers of 4 stated.
add_executable(test_repro_lumorph tests/test_repro_lumorph.c)
target_include_directories(test_repro_lumorph PRIVATE src)
target_link_libraries(test_repro_lumorph PRIVATE opticoll_lib m)
add_test(NAME repro_lumorph COMMAND test_repro_lumorph)
