# The lifecycle every network model shares (src/net/model_common.c), on every model of the
# registry: create, map, count, observe, finish and free; bad transfers; the memory budget.
add_executable(test_net_models tests/test_net_models.c)
target_include_directories(test_net_models PRIVATE src)
target_link_libraries(test_net_models PRIVATE opticoll_lib)
add_test(NAME net_models COMMAND test_net_models)
