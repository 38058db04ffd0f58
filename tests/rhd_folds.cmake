# rhd's fold bounds (the floors, the family of every larger radix) and the fat-tree's three
# routers across leaves: every bound at most the pinned run's cost, the search's choice the best
# (tests/test_rhd_folds.c); the large-N search decides the folds of large radix as one family.
add_executable(test_rhd_folds tests/test_rhd_folds.c)
target_include_directories(test_rhd_folds PRIVATE src tests)
target_link_libraries(test_rhd_folds PRIVATE opticoll_lib m)
add_test(NAME rhd_folds COMMAND test_rhd_folds)
set_tests_properties(rhd_folds PROPERTIES TIMEOUT 300)
add_test(NAME rhd_folds_slow COMMAND test_rhd_folds slow)
set_tests_properties(rhd_folds_slow PROPERTIES LABELS slow TIMEOUT 900)
