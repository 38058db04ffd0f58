# The house's one rule (ARCHITECTURE.md), checked on the built library: includes go down or stay
# in their room, and no files call each other around a loop (tests/arch/layering.py).
add_test(NAME arch_layering
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/arch/layering.py ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(arch_layering PROPERTIES LABELS arch TIMEOUT 120)
