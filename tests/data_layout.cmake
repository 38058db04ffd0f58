# The real-data run's offset layout (data.c): a schedule opening with a ring family gives the same
# verdict and message as node by node, whole and broken (tests/test_data_layout.c).
add_executable(test_data_layout tests/test_data_layout.c)
target_include_directories(test_data_layout PRIVATE src)
target_link_libraries(test_data_layout PRIVATE opticoll_lib)
add_test(NAME data_layout COMMAND test_data_layout)
