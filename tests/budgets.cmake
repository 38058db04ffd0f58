# budgets: work sized by input refused before it is done (issue 27): a copy verifier's ranges,
# a reduction's node-chunk states, a one-stage or SiPCO round, SiPCO's transfer count.
add_test(NAME cli_budgets
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/budgets.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_budgets PROPERTIES LABELS cli TIMEOUT 600)
# work_budget: the work budget beside the memory budget (core/budget.c, run/shard.c): SiPCO's
# chunk-transfers counted in its plan as its run emits them, refused past the budget before a
# round (and in the search), a sharded run's progress in chunk-transfers, an export's rounds
# reported to the progress callback, OPTICOLL_WORK_BUDGET's text.
add_executable(test_work_budget tests/test_work_budget.c)
target_include_directories(test_work_budget PRIVATE src)
target_link_libraries(test_work_budget PRIVATE opticoll_lib)
add_test(NAME work_budget COMMAND test_work_budget)
set_tests_properties(work_budget PROPERTIES LABELS budgets TIMEOUT 120)
# plan_units: every algorithm of the table states its chunk-transfers and transfers in its plan,
# exact (or a proven upper bound where listed), and a work budget of 1 refuses each before a round.
add_executable(test_plan_units tests/test_plan_units.c)
target_include_directories(test_plan_units PRIVATE src)
target_link_libraries(test_plan_units PRIVATE opticoll_lib)
add_test(NAME plan_units COMMAND test_plan_units)
set_tests_properties(plan_units PROPERTIES LABELS budgets TIMEOUT 120)
