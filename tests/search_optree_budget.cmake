# OpTree's radix search under the search's transfer budget: every offered list carries a proven
# lower bound on its transfers, and skipping lists over the budget before generation keeps the
# default's winner (tests/test_search_optree_budget.c).
add_executable(test_search_optree_budget tests/test_search_optree_budget.c)
target_include_directories(test_search_optree_budget PRIVATE src)
target_link_libraries(test_search_optree_budget PRIVATE opticoll_lib m)
add_test(NAME search_optree_budget COMMAND test_search_optree_budget)
