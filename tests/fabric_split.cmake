# The fabric's mzi_split=1: rounds above the MZI degree run in ceil(d/D) passes (degrees 3 and 7,
# N = 8, 12, 16, 24), costed pass by pass; the search maps every candidate then.
add_executable(test_fabric_split tests/test_fabric_split.c)
target_include_directories(test_fabric_split PRIVATE src)
target_link_libraries(test_fabric_split PRIVATE opticoll_lib m)
add_test(NAME fabric_split COMMAND test_fabric_split)
