# Output files, plots and exit codes (tests/cli/files.sh, tests/cli/exitcodes.sh; README, "Exit
# codes"): what reaches gnuplot, what is at an output's name, failed plots, a full stdout for
# every command, and one check per exit code; and outputs under faults (tests/cli/faults.sh: a
# full disk through `ulimit -f`, a rank that cannot be written, SIGINT/SIGTERM/SIGHUP while
# writing, the Chrome trace's cap): the old output or the whole new one, never a mix, never a
# temporary left. A few seconds each (faults.sh ~12 s); they run in the sanitizer build too.
foreach(script files exitcodes faults faults_input)
  add_test(NAME cli_${script}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/${script}.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_${script} PROPERTIES LABELS cli TIMEOUT 300)
endforeach()
