# The ring's spreading rule (net/ring.c item 6, `--net spread=0|1`): H-Ring's times at spread=0
# from the ring's rates, the searches of H-Ring and WRHT against every pinned set at both
# settings, and the physical bound below every run (tests/test_spread.c).
add_executable(test_spread tests/test_spread.c)
target_include_directories(test_spread PRIVATE src include tests)
target_link_libraries(test_spread PRIVATE opticoll_lib)
add_test(NAME spread COMMAND test_spread)
set_tests_properties(spread PROPERTIES TIMEOUT 600)
if(OC_SANITIZE) # the smaller N of each part (test_spread.c)
  set_tests_properties(spread PROPERTIES ENVIRONMENT OC_TEST_SANITIZED=1)
endif()
