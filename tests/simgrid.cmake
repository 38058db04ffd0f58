# opticoll simgrid (tools/cmd_simgrid.c, src/formats/simgrid.c): one schedule under SimGrid's SMPI
# and the fattree model, both times (tests/cli/simgrid.sh; it builds the SMPI executor with
# scripts/simgrid.sh --build-only first). Slow (an smpicc build): release suite only.
#
# The SMPI build (one smpicc command over every source, a minute of one core) is a test of its
# own, the fixture both SimGrid tests require: under a load of 20 it took most of mpi_simgrid's
# limit, and the test failed by its clock, not by what it checks. Each test's limit is now for
# its own runs; the build has a limit of its own, and a build cut short leaves no binary
# (scripts/simgrid.sh writes it beside and renames it).
find_program(OC_SMPIRUN smpirun)
find_program(OC_SMPICC smpicc)
if(TARGET opticoll-mpi AND OC_SMPIRUN AND OC_SMPICC)
  add_test(NAME simgrid_build COMMAND ${CMAKE_SOURCE_DIR}/scripts/simgrid.sh --build-only
                                      --build ${CMAKE_BINARY_DIR})
  set_tests_properties(simgrid_build PROPERTIES LABELS "mpi;slow" TIMEOUT 1800
                       FIXTURES_SETUP smpi_executor)
  add_test(NAME cli_simgrid COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/simgrid.sh
                                    $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_simgrid PROPERTIES LABELS "mpi;slow" TIMEOUT 600 RUN_SERIAL TRUE
                       FIXTURES_REQUIRED smpi_executor)
endif()
