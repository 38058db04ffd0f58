# Chakra execution traces: every algorithm on N in {2,3,5,8,12}, each rank's file
# decoded with protobuf-c and checked against the JSON export (test_chakra.c). Only when the
# library was built with the export (protoc-c and libprotobuf-c found).
if(TARGET oc_chakra_pb)
  add_executable(test_chakra tests/test_chakra.c)
  target_include_directories(test_chakra PRIVATE src)
  target_link_libraries(test_chakra PRIVATE opticoll_lib oc_chakra_pb)
  add_test(NAME chakra COMMAND test_chakra)
  set_tests_properties(chakra PROPERTIES LABELS export TIMEOUT 300)
  add_test(NAME cli_chakra COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/chakra.sh
                                   $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_chakra PROPERTIES LABELS cli TIMEOUT 120)
endif()
