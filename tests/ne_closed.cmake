# Neighbour exchange's rounds in closed form (allgather_ne.c) against the seed's recursion, transfer
# for transfer (tests/test_ne_closed.c).
add_executable(test_ne_closed tests/test_ne_closed.c)
target_include_directories(test_ne_closed PRIVATE src)
target_link_libraries(test_ne_closed PRIVATE opticoll_lib)
add_test(NAME ne_closed COMMAND test_ne_closed)
