# Size and node ranges end at their end point; tables fit the text width (output).
add_executable(test_textout tests/test_textout.c)
target_include_directories(test_textout PRIVATE src)
target_link_libraries(test_textout PRIVATE opticoll_lib)
add_test(NAME textout COMMAND test_textout)
