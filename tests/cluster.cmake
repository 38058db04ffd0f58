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
  # Ranks given other lists (mpirun's MPMD form) split other points and gathered blobs of other
  # sizes, read as "out of memory" (exit 3); now the ranks compare their command lines before the
  # command runs (tools/mpi_agree.c): one line from rank 0 and exit 2, never a hang (`timeout`).
  add_test(NAME mpi_cluster_agree
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll: rank 1 was started with other arguments than rank 0; every rank must run the same command$"
                   -- timeout 50 ${MPIEXEC_EXECUTABLE} --oversubscribe
                   -np 1 $<TARGET_FILE:opticoll-cluster> tune -c allreduce -n 4,8 -s 1KiB -j1
                   : -np 2 $<TARGET_FILE:opticoll-cluster> tune -c allreduce -n 4,8,16 -s 1KiB -j1)
  set_tests_properties(mpi_cluster_agree PROPERTIES LABELS mpi TIMEOUT 60 ENVIRONMENT
                       "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
endif()
