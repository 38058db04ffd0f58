# Tests of the electrical direct networks (src/net/direct.c: hypercube, torus, mesh) and the
# all-to-all algorithms of the all-to-all-scatter notes on them (tests/test_aas.c).
add_executable(test_aas tests/test_aas.c)
target_include_directories(test_aas PRIVATE src)
target_link_libraries(test_aas PRIVATE opticoll_lib)
add_test(NAME aas COMMAND test_aas)
# The reproduction runs end to end in well under a second (every schedule verified).
add_test(NAME reproduce_aas COMMAND opticoll reproduce aas)
set_tests_properties(reproduce_aas PROPERTIES PASS_REGULAR_EXPRESSION "DEX Q_7")
