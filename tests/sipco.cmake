# Flex-SiPCO on SiPAC(r,l) (lumorph Fig. 3): verified at odd, prime and non-power N on the switch
# and the fabric, closed form exact, one configuration, refused sizes named.
add_executable(test_sipco tests/test_sipco.c)
target_include_directories(test_sipco PRIVATE src)
target_link_libraries(test_sipco PRIVATE opticoll_lib m)
add_test(NAME sipco COMMAND test_sipco)
