# A schedule file's reading and check hear the caller's stop (oc_verify_file_progress,
# oc_draw_options.progress): the reports of the rounds read and checked, OC_ECANCELED at a stop
# anywhere in them (JSON and MSCCL XML; the sanitizer build checks nothing leaks on the way out),
# and the JSON reader that parses a transfer at a time refusing exactly what cJSON refuses of the
# whole text, at the same byte. A few seconds in a release build.
add_executable(test_file_stop tests/test_file_stop.c)
target_include_directories(test_file_stop PRIVATE src)
target_link_libraries(test_file_stop PRIVATE opticoll_lib)
add_test(NAME file_stop COMMAND test_file_stop)
set_tests_properties(file_stop PROPERTIES TIMEOUT 300)
