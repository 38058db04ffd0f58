# Ctrl-C in the command (tests/cli/interrupt.py): SIGINT half a second into a long search
# candidate, a tuning's long point, a reproduction and synth's solver ends the tool within a
# second (load-scaled), exit 130, nothing on standard output, no file or temporary left. The
# Python package's Ctrl-C (the library's progress callback) is tests/python/test_notebook.py's.
add_test(NAME cli_interrupt COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/cli/interrupt.py
                                    $<TARGET_FILE:opticoll>)
set_tests_properties(cli_interrupt PROPERTIES LABELS cli TIMEOUT 300)
