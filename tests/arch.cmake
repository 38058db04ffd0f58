# The house's one rule (ARCHITECTURE.md), checked on the built library: includes go down or stay
# in their room, and no files call each other around a loop (tests/arch/layering.py); tools/
# includes only the public headers and is compiled without src/ on its include path.
add_test(NAME arch_layering
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/layering.py ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(arch_layering PROPERTIES LABELS arch TIMEOUT 120)
# The checker itself: each kind of violation (a call or a data reference going up, a loop, an
# include going up, a check sharing its model's code, text written below report, a tool
# including an internal header or built with src/) on synthetic
# inputs, caught.
add_test(NAME arch_layering_selftest
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/layering.py --self-test)
set_tests_properties(arch_layering_selftest PROPERTIES LABELS arch TIMEOUT 60)
# One meaning per option letter across the tools (docs/cli.md), nccl-tests' letters in perf and
# opticoll-mpi the one listed exception (tests/arch/options.py), and its self-test.
add_test(NAME arch_options COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/options.py
                                   ${CMAKE_SOURCE_DIR})
add_test(NAME arch_options_selftest
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/options.py --self-test)
set_tests_properties(arch_options arch_options_selftest PROPERTIES LABELS arch TIMEOUT 60)
# The suite's own limits (issue 27: no test may need more than a fifth of its TIMEOUT quiet):
# tests/arch/test_limits.py reads the times of a run already made, so it is not a test itself
# (docs/testing.md); its parser is, on a synthetic CTest log, JUnit file and set of limits.
add_test(NAME arch_test_limits_selftest
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/test_limits.py --self-test)
set_tests_properties(arch_test_limits_selftest PROPERTIES LABELS arch TIMEOUT 60)
