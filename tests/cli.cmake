# CLI tests: shell scripts that run the built tool (see tests/cli/README.md). Each script takes
# the tool's path and the tests/cli directory, prints one line per check and "N passed, M
# failed", and exits non-zero if a check failed. They are fast (well under a second each in a
# release build), so they also run in the sanitizer build.
foreach(script golden roundtrip badinput search)
  add_test(NAME cli_${script}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/${script}.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_${script} PROPERTIES LABELS cli TIMEOUT 600)
endforeach()
