# The ring model's mirror: a direction that mirrors the other takes its colour count, and the count
# is the sweep's on mirrored, broken and random rounds (tests/test_ring_mirror.c).
add_executable(test_ring_mirror tests/test_ring_mirror.c)
target_include_directories(test_ring_mirror PRIVATE src tests)
target_link_libraries(test_ring_mirror PRIVATE opticoll_lib m)
add_test(NAME ring_mirror COMMAND test_ring_mirror)
