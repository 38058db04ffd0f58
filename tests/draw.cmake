# opticoll draw (tools/cmd_draw.c, src/formats/draw.c): the SVG read back with xml.etree
# (tests/cli/draw_check.py) against the Chrome trace, the schedule file and run --json of the same
# schedule; bad input refused with one line and no file (tests/cli/draw.sh).
add_test(NAME cli_draw COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/draw.sh $<TARGET_FILE:opticoll>
                               ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_draw PROPERTIES LABELS cli TIMEOUT 300)
