# The tuner through the public header alone (tests/test_tune_api.c): sweeps over odd, prime and
# non-power node counts checked against oc_run candidate by candidate, decision files written and
# read back, refusals. Built without src/ on the include path, as a library user builds.
add_executable(test_tune_api tests/test_tune_api.c)
target_link_libraries(test_tune_api PRIVATE opticoll_lib)
add_test(NAME tune_api COMMAND test_tune_api)
set_tests_properties(tune_api PROPERTIES TIMEOUT 300)
