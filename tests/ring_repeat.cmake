# The ring model maps a round that repeats the last one with the last round's colouring, and only
# such a round (tests/test_ring_repeat.c).
add_executable(test_ring_repeat tests/test_ring_repeat.c)
target_include_directories(test_ring_repeat PRIVATE src tests)
target_link_libraries(test_ring_repeat PRIVATE opticoll_lib m)
add_test(NAME ring_repeat COMMAND test_ring_repeat)
