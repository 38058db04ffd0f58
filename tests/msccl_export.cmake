# MSCCL programs the runtimes load: tests/msccl/executor.py runs MSCCL
# programs by the rules of msccl-executor-nccl and RCCL (their reader, loader limits, threadblock
# order, per-connection FIFOs, waits, buffers and in-place aliasing, races, deadlocks); it must run
# the real programs in ../shared/msccl-ref (read in place) and refuse broken copies of them, and
# then runs every program opticoll exports for every algorithm at N = 2, 3, 5, 8, 34, 64, 100 on
# both runtimes, or checks the one-line refusal where a runtime's limit is hit. About 75 s of CPU
# in all, labelled slow so that make check's sanitizer pass leaves it out (its ~500 exports would
# take minutes there; the sanitizers see every algorithm's export in test_readers).
#
# One test took all of it and ran into its 600 s limit on a loaded machine (issue 27: no test may
# need more than a fifth of its limit on a quiet one): it is cut into the hand cases and
# MSCCL_EXPORT_SHARDS shards of the grid (every k-th export), each about 18 s of CPU (measured:
# grid 0/4 16.7 s user + 1.0 s sys, hand 3 s of its own plus its exports), so that each stays
# under a fifth of its limit with room for a machine shared with other jobs.
# Four shards took 177 to 214 s each in a full `make check` on the loaded machine (2026-11-29):
# eight, about half that each.
set(MSCCL_EXPORT_SHARDS 8)
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  set(msccl_export_cmd ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/msccl/test_export_msccl.py
                       $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/../shared/msccl-ref)
  add_test(NAME msccl_export_hand COMMAND ${msccl_export_cmd} hand)
  set_tests_properties(msccl_export_hand PROPERTIES LABELS "export;slow" TIMEOUT 600)
  math(EXPR last "${MSCCL_EXPORT_SHARDS} - 1")
  foreach(k RANGE ${last})
    add_test(NAME msccl_export_grid_${k}
             COMMAND ${msccl_export_cmd} "grid ${k}/${MSCCL_EXPORT_SHARDS}")
    set_tests_properties(msccl_export_grid_${k} PROPERTIES LABELS "export;slow" TIMEOUT 600)
  endforeach()
endif()
