# The progress callback: done only grows, never passes total, ends at total = the work's count
# (rounds of every algorithm, a search's candidates, a sweep's points); and the CLI's line on a
# terminal, never on a pipe or with --quiet (tests/cli/progress.sh).
add_executable(test_progress tests/test_progress.c)
target_include_directories(test_progress PRIVATE src)
target_link_libraries(test_progress PRIVATE opticoll_lib)
add_test(NAME progress COMMAND test_progress)
add_test(NAME cli_progress
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/progress.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_progress PROPERTIES LABELS cli TIMEOUT 600)
# Candidates with transfers known ahead: decided from their bounds, never generated over the
# search's budget (hring at N = 65536, issue 17).
add_executable(test_search_bounds tests/test_search_bounds.c)
target_include_directories(test_search_bounds PRIVATE src)
target_link_libraries(test_search_bounds PRIVATE opticoll_lib)
add_test(NAME search_bounds COMMAND test_search_bounds)
# Node caps: 2^20 for OpTree, WRHT, rd all-gather and Bruck; 2^17 for the rest, refused in one line.
add_test(NAME cli_node_cap
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/node_cap.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_node_cap PROPERTIES LABELS cli TIMEOUT 600)
