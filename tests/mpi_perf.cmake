# opticoll-mpi --perf: nccl-tests' columns for measured runs, every MPI
# collective on 2, 3 and 5 ranks (tests/mpi/perf.sh); the environment of tests/mpi.cmake.
if(TARGET opticoll-mpi)
  add_test(NAME mpi_perf
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/perf.sh ${MPIEXEC_EXECUTABLE} --oversubscribe
                   ${MPIEXEC_NUMPROC_FLAG} -- $<TARGET_FILE:opticoll-mpi>)
  set_tests_properties(mpi_perf PROPERTIES TIMEOUT 300 ENVIRONMENT
    "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
endif()
