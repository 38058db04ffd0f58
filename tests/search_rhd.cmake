# The parameter searches of rhd / rh / rd, hring and dbtree against their enumerated pinned spaces
# (tests/test_search_rhd.c). The plain test keeps to N <= 24 (it also runs under the sanitizers);
# search_rhd_slow covers N up to 48 and 64 and the issue's H-Ring cases.
add_executable(test_search_rhd tests/test_search_rhd.c)
target_include_directories(test_search_rhd PRIVATE src)
target_link_libraries(test_search_rhd PRIVATE opticoll_lib)
add_test(NAME search_rhd COMMAND test_search_rhd)
add_test(NAME search_rhd_slow COMMAND test_search_rhd slow)
set_tests_properties(search_rhd_slow PROPERTIES LABELS slow TIMEOUT 600)
# The bad pins of the same algorithms through the CLI: exit 2, one line naming the valid range.
add_test(NAME cli_search_rhd COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/search_rhd.sh
                                     $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_search_rhd PROPERTIES LABELS cli TIMEOUT 120)
