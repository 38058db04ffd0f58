# opticoll simgrid (tools/cmd_simgrid.c, src/formats/simgrid.c): one schedule under SimGrid's SMPI
# and the fattree model, both times (tests/cli/simgrid.sh; it builds the SMPI executor with
# scripts/simgrid.sh --build-only first). Slow (an smpicc build): release suite only.
find_program(OC_SMPIRUN smpirun)
find_program(OC_SMPICC smpicc)
if(TARGET opticoll-mpi AND OC_SMPIRUN AND OC_SMPICC)
  add_test(NAME cli_simgrid COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/simgrid.sh
                                    $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_simgrid PROPERTIES LABELS "mpi;slow" TIMEOUT 600 RUN_SERIAL TRUE)
endif()
