# What a model tells the algorithms of how it costs a round (core/netcfg.h: oc__netcfg.cost) and
# of an empty step (oc__model.step_fixed), checked against the model itself.
add_executable(test_netcost tests/test_netcost.c)
target_include_directories(test_netcost PRIVATE src include tests)
target_link_libraries(test_netcost PRIVATE opticoll_lib)
add_test(NAME netcost COMMAND test_netcost)
