# `reproduce optree` through the C API: claims, settings, computed figures, pinned reasons
# (tests/test_repro_optree.c).
add_executable(test_repro_optree tests/test_repro_optree.c)
target_include_directories(test_repro_optree PRIVATE src)
target_link_libraries(test_repro_optree PRIVATE opticoll_lib m)
add_test(NAME repro_optree COMMAND test_repro_optree)
