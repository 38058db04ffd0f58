# Family rounds (core.h, issue 31): a ring round taken whole by the verifier and the ring model
# gives exactly what its transfers one by one give (tests/test_family.c).
add_executable(test_family tests/test_family.c)
target_include_directories(test_family PRIVATE src)
target_link_libraries(test_family PRIVATE opticoll_lib)
add_test(NAME family COMMAND test_family)
