# The schedule file's rounds, laid by hand, are to the byte what a cJSON tree per round printed
# (tests/test_export_json.c).
add_executable(test_export_json tests/test_export_json.c)
target_include_directories(test_export_json PRIVATE src tests)
target_link_libraries(test_export_json PRIVATE opticoll_lib m)
add_test(NAME export_json COMMAND test_export_json)
