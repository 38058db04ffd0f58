# One run split across MPI ranks (opticoll-cluster run and verify: tests/mpi/cluster_run.sh): on
# 1, 2 and 3 ranks the cluster prints what the plain tool prints, for good runs (text and --json)
# and for wrong schedule files (the same first error and exit code). Built only with MPI; under
# the sanitizers Open MPI's own allocations would trip the leak checker (as in tests/mpi.cmake).
if(TARGET opticoll-cluster)
  foreach(part runs files)
    add_test(NAME mpi_cluster_${part}
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/cluster_run.sh $<TARGET_FILE:opticoll>
                     ${CMAKE_SOURCE_DIR}/tests/cli $<TARGET_FILE:opticoll-cluster>
                     ${MPIEXEC_EXECUTABLE} ${part})
    set_tests_properties(mpi_cluster_${part} PROPERTIES LABELS mpi TIMEOUT 120
                         ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  endforeach()
endif()
