# Tests of the MPI executor under a real mpirun (Open MPI), when MPI was found (CMakeLists.txt).
# Every test runs opticoll-mpi, which compares each result with MPI's own collective bit for bit
# and exits 1 on a mismatch. np covers 1, 2, 3, 4, 5 and 8 (more ranks than the 2 cores: hence
# --oversubscribe); every registered algorithm of every MPI collective (--algorithms all: those
# whose restrictions exclude np report "skipped"); sizes 0, 7 floats and 1025 floats (not
# divisible by the chunk counts), in-place variants, other types and ops, non-zero roots.
# As root, Open MPI wants both OMPI_ALLOW_RUN_AS_ROOT variables.
# Under the sanitizers, LeakSanitizer reports some 3300 allocations of Open MPI's own that live
# until exit; most sit in MCA components Open MPI has already dlclose()d, so their stacks show
# "<unknown module>" and no suppressions file can name them. Leak detection is therefore off for
# these tests only (ASan's and UBSan's other checks stay on).
if(TARGET opticoll-mpi)
  set(OC_MPI_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1;ASAN_OPTIONS=detect_leaks=0:abort_on_error=1")
  set(OC_MPIRUN ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG})
  set(OC_MPI_QUICK --repeats 1 --warmup 0)
  set(OC_MPI_TESTS)
  foreach(np 1 2 3 4 5 8)
    add_test(NAME mpi_np${np}
             COMMAND ${OC_MPIRUN} ${np} $<TARGET_FILE:opticoll-mpi> --algorithms all
                     --sizes 0,28B,4100B ${OC_MPI_QUICK})
    list(APPEND OC_MPI_TESTS mpi_np${np})
  endforeach()
  add_test(NAME mpi_inplace_np3
           COMMAND ${OC_MPIRUN} 3 $<TARGET_FILE:opticoll-mpi> --algorithms all --inplace
                   --type int64 --op max --root 1 --sizes 24B,4104B ${OC_MPI_QUICK})
  add_test(NAME mpi_inplace_np4
           COMMAND ${OC_MPIRUN} 4 $<TARGET_FILE:opticoll-mpi> --inplace --type int32 --op min
                   --root 3 --sizes 12B,4100B ${OC_MPI_QUICK})
  add_test(NAME mpi_double_np5
           COMMAND ${OC_MPIRUN} 5 $<TARGET_FILE:opticoll-mpi> --collectives allreduce,reducescatter
                   --type double --op sum --sizes 8B,440B,65536B ${OC_MPI_QUICK})
  list(APPEND OC_MPI_TESTS mpi_inplace_np3 mpi_inplace_np4 mpi_double_np5)
  # Something must have been checked; a mismatch line fails the test even if the status did not.
  set_tests_properties(${OC_MPI_TESTS} PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 120
                       FAIL_REGULAR_EXPRESSION "MISMATCH|FAILED| 0 checked| 0 skipped \\(")
  # A wrong schedule (one transfer left out on every rank) is reported, with exit status 1.
  add_test(NAME mpi_drop_allreduce
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 1
                   "MISMATCH allreduce ring, 256 elements, element [0-9]+: .*\\(rank [0-9]"
                   "0 checked, 0 skipped, 1 mismatches, 0 failed" -- ${OC_MPIRUN} 4 $<TARGET_FILE:opticoll-mpi> --collectives allreduce
                   --algorithms ring --sizes 1KiB --drop-transfer 2:1 ${OC_MPI_QUICK})
  add_test(NAME mpi_drop_allgather
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 1 "MISMATCH allgather rd" --
                   ${OC_MPIRUN} 5 $<TARGET_FILE:opticoll-mpi> --collectives allgather
                   --algorithms rd --sizes 28B --drop-transfer 0:0 ${OC_MPI_QUICK})
  add_test(NAME mpi_badinput
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2 "unknown --type: quad" --
                   ${OC_MPIRUN} 1 $<TARGET_FILE:opticoll-mpi> --type quad)
  # An algorithm name no chosen collective has is a usage error, found before anything runs.
  add_test(NAME mpi_unknown_algorithm
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "unknown --algorithms name .*: nosuch" -- ${OC_MPIRUN} 2
                   $<TARGET_FILE:opticoll-mpi> --collectives allreduce
                   --algorithms nosuch --sizes 1KiB ${OC_MPI_QUICK})
  # An unknown parameter of an algorithm is bad input, found before anything runs (the library
  # plans the schedule at this size of the communicator): exit status 2 and one line from rank 0,
  # not one FAILED line per rank (tests/mpi/flags.sh has the other bad flags).
  add_test(NAME mpi_error_fails
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "--algorithms ring:q=2 \\(allreduce\\): unknown ring parameter 'q'" --
                   ${OC_MPIRUN} 2 $<TARGET_FILE:opticoll-mpi> --collectives allreduce
                   --algorithms ring:q=2 --sizes 1KiB ${OC_MPI_QUICK})
  # A results table that cannot be written (stdout on /dev/full, run as a singleton so that the
  # rank's own stdout is the full device) is exit status 3 and one line, not a silent success.
  add_test(NAME mpi_stdout_full
           COMMAND bash -c "\"$0\" --collectives allgather --sizes 8 >/dev/full; test $? -eq 3"
                   $<TARGET_FILE:opticoll-mpi>)
  set_tests_properties(mpi_drop_allreduce mpi_drop_allgather mpi_badinput mpi_unknown_algorithm
                       mpi_error_fails mpi_stdout_full PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 60)
  # A small C program written against the public header alone, as an application would be.
  add_executable(test_mpi_api tests/test_mpi_api.c)
  target_link_libraries(test_mpi_api PRIVATE opticoll_mpi)
  add_test(NAME mpi_api COMMAND ${OC_MPIRUN} 3 $<TARGET_FILE:test_mpi_api>)
  set_tests_properties(mpi_api PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 60)
  set_property(TEST ${OC_MPI_TESTS} mpi_drop_allreduce mpi_drop_allgather mpi_badinput
               mpi_unknown_algorithm mpi_error_fails mpi_api APPEND PROPERTY LABELS mpi)
  # Ranks started with other arguments (mpirun's MPMD form, `A : B`) or other settings in the
  # environment agree on nothing, and every collective after that assumed they did: other sizes
  # ended in a double free and a hang, other collectives in a hang, other algorithms in Open
  # MPI's unpack (exit 15). Now the ranks compare their command lines first (tools/mpi_agree.c):
  # rank 0 names the lowest rank that differs, in one line, and every rank exits 2. `timeout`
  # turns a hang into a failure well inside the test's own limit.
  set(OC_MPI_MPMD timeout 50 ${MPIEXEC_EXECUTABLE} --oversubscribe)
  set(OC_MPI_ALLREDUCE $<TARGET_FILE:opticoll-mpi> --collectives allreduce --algorithms ring)
  add_test(NAME mpi_agree_sizes
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll-mpi: rank 1 was started with other arguments than rank 0; every rank must run the same command$"
                   -- ${OC_MPI_MPMD} -np 1 ${OC_MPI_ALLREDUCE} --sizes 1KiB ${OC_MPI_QUICK}
                   : -np 1 ${OC_MPI_ALLREDUCE} --sizes 1MiB ${OC_MPI_QUICK})
  add_test(NAME mpi_agree_collectives
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll-mpi: rank 2 was started with other arguments than rank 0"
                   -- ${OC_MPI_MPMD} -np 2 $<TARGET_FILE:opticoll-mpi> --collectives allreduce
                   --sizes 1KiB ${OC_MPI_QUICK} : -np 3 $<TARGET_FILE:opticoll-mpi>
                   --collectives allgather --sizes 1KiB ${OC_MPI_QUICK})
  # The same arguments but one rank's memory budget differs: it would refuse what the others run.
  add_test(NAME mpi_agree_environment
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2
                   "^opticoll-mpi: rank 1 was started with other environment settings than rank 0.*OPTICOLL_MEMORY_BUDGET_MIB"
                   -- ${OC_MPI_MPMD} -np 1 ${OC_MPI_ALLREDUCE} --sizes 1KiB ${OC_MPI_QUICK}
                   : -np 2 env OPTICOLL_MEMORY_BUDGET_MIB=64 ${OC_MPI_ALLREDUCE} --sizes 1KiB
                   ${OC_MPI_QUICK})
  # A variable set to nothing is unset (every tool reads it so): it is no difference.
  add_test(NAME mpi_agree_empty_is_unset
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 0 "^1 checked, 0 skipped, 0 mismatches"
                   -- ${OC_MPI_MPMD} -np 1 ${OC_MPI_ALLREDUCE} --sizes 1KiB ${OC_MPI_QUICK}
                   : -np 1 env OPTICOLL_MEMORY_BUDGET_MIB= OPTICOLL_VERIFY_SHARD=
                   ${OC_MPI_ALLREDUCE} --sizes 1KiB ${OC_MPI_QUICK})
  # Nothing checked is not a success: sex's plan refuses 3 ranks (a hypercube), so the only case
  # is skipped, and the run exits 2 with one line (it exited 0).
  add_test(NAME mpi_nothing_checked
           COMMAND ${CMAKE_SOURCE_DIR}/tests/mpi/expect.sh 2 "skipped \\[1\\]"
                   "^opticoll-mpi: nothing was checked: every case was skipped by its algorithm"
                   -- timeout 50 ${OC_MPIRUN} 3 $<TARGET_FILE:opticoll-mpi> --collectives alltoall
                   --algorithms sex --sizes 1KiB ${OC_MPI_QUICK})
  set_tests_properties(mpi_agree_sizes mpi_agree_collectives mpi_agree_environment
                       mpi_agree_empty_is_unset mpi_nothing_checked PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 60
                       LABELS mpi)
  # A rank killed mid-run (SIGKILL) ends the job with a non-zero status within seconds instead of
  # leaving the others in a collective (tests/mpi/killed_rank.sh kills rank 1 of 3).
  add_test(NAME mpi_killed_rank COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/killed_rank.sh
                                        ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:opticoll-mpi>)
  set_tests_properties(mpi_killed_rank PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 90
                       LABELS mpi)
  # Bad flags (a parameter out of its range or malformed, an empty list item, a --drop-transfer
  # that no schedule has): exit 2, one line from rank 0 naming the valid range.
  add_test(NAME mpi_flags COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/flags.sh ${OC_MPIRUN} --
                                  $<TARGET_FILE:opticoll-mpi>)
  set_tests_properties(mpi_flags PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 120 LABELS mpi)
endif()
# The executor under SimGrid (scripts/simgrid.sh builds it with smpicc) on the seed's fat-tree, at
# N = 5 and 20 (one leaf; two leaves), against opticoll's fattree model of the same schedule.
# Why within 2.2x: bandwidth terms agree when no link is shared (both charge bytes / 25 Gb/s);
# SimGrid charges 50 us per cable (2 inside a leaf, 4 across a spine) where the model charges 50
# us per router (1 or 3), so a latency-bound round takes up to 2x (4/3x across the spine) in
# SimGrid; the remaining 10% is headroom for SMPI's rendezvous protocol on large messages.
# Measured (make simgrid, README): 1.01 to 1.75. Slow (an smpicc build): release suite only.
find_program(OC_SMPIRUN smpirun)
find_program(OC_SMPICC smpicc)
if(TARGET opticoll-mpi AND OC_SMPIRUN AND OC_SMPICC)
  add_test(NAME mpi_simgrid
           COMMAND ${CMAKE_SOURCE_DIR}/scripts/simgrid.sh --nodes 5,20 --sizes 64KiB,1MiB
                   --check 2.2 --build ${CMAKE_BINARY_DIR})
  # the SMPI build is the fixture smpi_executor (tests/simgrid.cmake): this limit is the runs'
  set_tests_properties(mpi_simgrid PROPERTIES LABELS "mpi;slow" TIMEOUT 300
                       FIXTURES_REQUIRED smpi_executor)
endif()
