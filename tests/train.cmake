# `opticoll train` tests: the models-file parser, the per-epoch arithmetic, the runs behind it and
# the command line's bad-input contract (test_train gets the tool's path; without it the
# command-line checks are skipped). OC_DATA_DIR points the test at the shipped data/models.tsv.
add_executable(test_train tests/test_train.c)
target_include_directories(test_train PRIVATE src)
target_link_libraries(test_train PRIVATE opticoll_lib)
target_compile_definitions(test_train PRIVATE OC_DATA_DIR="${CMAKE_SOURCE_DIR}/data")
add_test(NAME train COMMAND test_train $<TARGET_FILE:opticoll>)
set_tests_properties(train PROPERTIES TIMEOUT 120)
