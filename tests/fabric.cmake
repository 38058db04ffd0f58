# Tests of the Lumorph photonic rack (src/net/fabric.c): one circuit's time, wavelength splitting
# (radix 4: 3 x 5 of 16), reconfiguration only when circuits change, the resource check.
add_executable(test_fabric tests/test_fabric.c)
target_include_directories(test_fabric PRIVATE src)
target_link_libraries(test_fabric PRIVATE opticoll_lib)
add_test(NAME fabric COMMAND test_fabric)
