# The readers and checkers under hostile input: the memory budget,
# the bounded file read, duplicate keys, decimal-only numbers, MSCCL races (tests/msccl/*.xml,
# written by hand) and the readers at the sizes where they were quadratic (bench/readers.c makes
# the inputs; `make bench` times them at 10^6). A few seconds in a release build.
add_executable(test_readers tests/test_readers.c bench/readers.c)
target_include_directories(test_readers PRIVATE src)
target_link_libraries(test_readers PRIVATE opticoll_lib)
add_test(NAME readers COMMAND test_readers ${CMAKE_SOURCE_DIR}/tests/msccl)
set_tests_properties(readers PROPERTIES TIMEOUT 300)
# The same at the command line: the budget variables, the file cap, decimal numbers, duplicate
# keys and byte order marks (exit 2 and one line for each refusal).
add_test(NAME cli_readers COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/readers.sh
                                  $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_readers PROPERTIES LABELS cli TIMEOUT 300)
# opticoll-mpi: a 1 GiB all-to-all is refused before anything is allocated (it ran out of memory
# and aborted), and a bad budget variable is bad input; one line from rank 0, exit 2.
if(TARGET opticoll-mpi AND OC_MPIRUN)
  add_test(NAME mpi_budget
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll-mpi: alltoall of 1 GiB on 2 ranks .each rank's buffers. needs 6 GiB, more than the memory budget of 4 GiB"
                   -- ${OC_MPIRUN} 2 $<TARGET_FILE:opticoll-mpi> --collectives alltoall
                   --sizes 1GiB ${OC_MPI_QUICK})
  add_test(NAME mpi_budget_variable
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll-mpi: OPTICOLL_MEMORY_BUDGET_MIB=abc: expected a whole number"
                   -- ${CMAKE_COMMAND} -E env OPTICOLL_MEMORY_BUDGET_MIB=abc
                   ${OC_MPIRUN} 2 $<TARGET_FILE:opticoll-mpi> --sizes 1KiB ${OC_MPI_QUICK})
  set_tests_properties(mpi_budget mpi_budget_variable PROPERTIES ENVIRONMENT "${OC_MPI_ENV}"
                       LABELS mpi TIMEOUT 120)
endif()
