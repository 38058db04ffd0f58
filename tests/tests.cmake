# Tests: unit tests (C, linked against the library) and CLI tests (shell, golden files).
add_executable(test_unit tests/test_unit.c)
target_include_directories(test_unit PRIVATE src)
target_link_libraries(test_unit PRIVATE opticoll_lib)
add_test(NAME unit COMMAND test_unit)
