# export --format astra-sim (src/formats/astra.c, tools/cmd_astra.c): the files against ASTRA-sim's
# documented configuration fields and the switch model's numbers (tests/cli/astra.sh). Only when
# the library was built with the Chakra export (protoc-c and libprotobuf-c found).
if(TARGET oc_chakra_pb)
  add_test(NAME cli_astra COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/astra.sh
                                  $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_astra PROPERTIES LABELS cli TIMEOUT 120)
endif()
