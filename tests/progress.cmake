# Progress, search and node-cap tests.
#  - progress: the callback's rules (done only grows, never passes total, ends at total = the
#    work's count: rounds of every algorithm, a search's candidates, a sweep's points; a run's
#    rounds one count at every step however its verifier is split into passes);
#  - search_bounds: candidates with transfers known ahead are decided from their bounds, never
#    generated over the search's budget (hring at N = 65536);
#  - cli_progress: the CLI's line on a terminal (with the time left), never on a pipe or with
#    --quiet; on a pipe one line ahead of work past 30 s (label slow: release suite only);
#  - cli_node_cap: 2^20 for OpTree, WRHT, rd all-gather and Bruck, 2^17 for the rest, refused in
#    one line.
foreach(name progress search_bounds)
  add_executable(test_${name} tests/test_${name}.c)
  target_include_directories(test_${name} PRIVATE src)
  target_link_libraries(test_${name} PRIVATE opticoll_lib)
  add_test(NAME ${name} COMMAND test_${name})
endforeach()
foreach(script progress node_cap)
  add_test(NAME cli_${script}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/${script}.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_${script} PROPERTIES LABELS cli TIMEOUT 600)
endforeach()
# The progress line needs a run past a second: 12 s in the release suite, 150 s under the
# sanitizers (the same CLI logic, ten times slower), so it runs in the release suite only.
set_tests_properties(cli_progress PROPERTIES LABELS "cli;slow")
