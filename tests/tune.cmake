# sweep, tune, run -a auto, plots, reproduce --out and their scale-out (tests/cli/tune.sh). The
# MPI determinism checks run only when opticoll-cluster was built and not under the sanitizers (Open
# MPI's own allocations would trip the leak checker).
set(OC_TUNE_MPI "")
if(TARGET opticoll-cluster AND NOT OC_SANITIZE)
  set(OC_TUNE_MPI $<TARGET_FILE:opticoll-cluster>)
endif()
add_test(NAME cli_tune
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/tune.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli ${OC_TUNE_MPI})
set_tests_properties(cli_tune PROPERTIES LABELS cli TIMEOUT 300)
