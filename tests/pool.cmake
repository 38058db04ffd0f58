# The thread pool (src/core/pool.c): jobs once each, the first failure in list order.
add_executable(test_pool tests/test_pool.c)
target_include_directories(test_pool PRIVATE src)
target_link_libraries(test_pool PRIVATE opticoll_lib)
add_test(NAME pool COMMAND test_pool)
