# The parameter search of the passive optical star's tcp1 / tcp2 / tcp1-split: the
# default against the pinned space enumerated by the test, the constructions at any P against the
# padding bound, tcp1-split at h' = 0 against tcp1, bad pins refused. The larger grid is `slow`.
add_executable(test_search_star tests/test_search_star.c)
target_include_directories(test_search_star PRIVATE src)
target_link_libraries(test_search_star PRIVATE opticoll_lib)
add_test(NAME search_star COMMAND test_search_star)
add_test(NAME search_star_slow COMMAND test_search_star slow)
set_tests_properties(search_star_slow PROPERTIES LABELS slow TIMEOUT 300)
add_test(NAME cli_star_search COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/star_search.sh
                                      $<TARGET_FILE:opticoll> ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_star_search PROPERTIES LABELS cli TIMEOUT 120)
