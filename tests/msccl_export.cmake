# MSCCL programs the runtimes load: tests/msccl/executor.py runs MSCCL
# programs by the rules of msccl-executor-nccl and RCCL (their reader, loader limits, threadblock
# order, per-connection FIFOs, waits, buffers and in-place aliasing, races, deadlocks); it must run
# the real programs in ../shared/msccl-ref (read in place) and refuse broken copies of them, and
# then runs every program opticoll exports for every algorithm at N = 2, 3, 5, 8, 34, 64, 100 on
# both runtimes, or checks the one-line refusal where a runtime's limit is hit. About 40 s of CPU;
# labelled slow so that make check's sanitizer pass leaves it out (its ~500 exports would take
# minutes there; the sanitizers see every algorithm's export in test_readers).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME msccl_export
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/msccl/test_export_msccl.py
                   $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/../shared/msccl-ref)
  set_tests_properties(msccl_export PROPERTIES LABELS "export;slow" TIMEOUT 600)
endif()
