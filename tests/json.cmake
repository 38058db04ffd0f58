# The JSON writer (src/core/json.c) and the documents written through it: every
# number reads back to the double that was written; the spacing, order and shapes of the files.
add_executable(test_json tests/test_json.c)
target_include_directories(test_json PRIVATE src)
target_link_libraries(test_json PRIVATE opticoll_lib)
add_test(NAME json COMMAND test_json)
