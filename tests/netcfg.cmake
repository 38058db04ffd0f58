# The network's settings handed to the algorithms typed (core/netcfg.h): the hand-off from every
# model, and the all-to-all closed forms unchanged over a grid of direct networks.
add_executable(test_netcfg tests/test_netcfg.c)
target_include_directories(test_netcfg PRIVATE src include tests)
target_link_libraries(test_netcfg PRIVATE opticoll_lib)
add_test(NAME netcfg COMMAND test_netcfg)
