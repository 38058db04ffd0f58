# A network's settings parsed once a run, a compare, a search and an export (net/netset.c),
# counted by the test hook oc__netset_parses.
add_executable(test_netset_parse tests/test_netset_parse.c)
target_include_directories(test_netset_parse PRIVATE src include tests)
target_link_libraries(test_netset_parse PRIVATE opticoll_lib)
add_test(NAME netset_parse COMMAND test_netset_parse)
