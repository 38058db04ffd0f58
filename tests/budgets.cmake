# budgets: work sized by input refused before it is done (issue 27): a copy verifier's ranges,
# a reduction's node-chunk states, a one-stage or SiPCO round, SiPCO's transfer count.
add_test(NAME cli_budgets
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/budgets.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_budgets PROPERTIES LABELS cli TIMEOUT 600)
