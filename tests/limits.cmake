# Every test gets a TIMEOUT (issue 27, item 5: the suite must not be fragile). A test whose .cmake
# sets none had no limit at all: this project calls enable_testing() without include(CTest), so
# CTest's limit for it is 10^7 s (`ctest -V`: "Test timeout computed to be: 10000000"), and a test
# that hangs would hold `make check` forever. Such a test gets OC_DEFAULT_TEST_TIMEOUT; a test
# that needs more sets its own, honestly: no test may need more than a fifth of its limit on a
# quiet machine (tests/arch/test_limits.py lists the ones that do, from a run's log;
# docs/testing.md). The default is set once every test is defined (a call deferred to the end of
# the top directory, so tests added by any .cmake, in any order, and the fuzz tests are covered).
# (600 s: under the sanitizers search_wrht, which had no limit, took over 100 s of CPU; a
# configure with -DOC_DEFAULT_TEST_TIMEOUT=S sets another)
if(NOT DEFINED OC_DEFAULT_TEST_TIMEOUT)
  set(OC_DEFAULT_TEST_TIMEOUT 600)
endif()
function(oc_default_test_limits)
  get_property(tests DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT limit)
    if(NOT limit)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${OC_DEFAULT_TEST_TIMEOUT})
    endif()
  endforeach()
endfunction()
if(CMAKE_VERSION VERSION_LESS 3.19)
  message(WARNING "CMake ${CMAKE_VERSION} has no deferred calls (3.19): the tests without a "
                  "TIMEOUT of their own keep CTest's, which is none")
else()
  cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL oc_default_test_limits)
endif()
