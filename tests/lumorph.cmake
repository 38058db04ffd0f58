# Tests of the lumorph seed's all-reduces on the photonic fabric: closed forms (alpha,
# reconfiguration and bandwidth terms) against the simulated times, and `reproduce lumorph`.
add_executable(test_lumorph tests/test_lumorph.c)
target_include_directories(test_lumorph PRIVATE src)
target_link_libraries(test_lumorph PRIVATE opticoll_lib)
add_test(NAME lumorph COMMAND test_lumorph)
