# The fabric's 1x3 MZI degree: rounds over 3 circuits per tile refused by the model and
# by its check, radix 8 refused with the limit named, the default search within the switch.
add_executable(test_fabric_mzi tests/test_fabric_mzi.c)
target_include_directories(test_fabric_mzi PRIVATE src)
target_link_libraries(test_fabric_mzi PRIVATE opticoll_lib m)
add_test(NAME fabric_mzi COMMAND test_fabric_mzi)
