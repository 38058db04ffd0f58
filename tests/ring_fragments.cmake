# The ring model keeps a lightpath in one fragment or a few on OpTree's uneven trees
# (tests/test_ring_fragments.c).
add_executable(test_ring_fragments tests/test_ring_fragments.c)
target_include_directories(test_ring_fragments PRIVATE src)
target_link_libraries(test_ring_fragments PRIVATE opticoll_lib m)
add_test(NAME ring_fragments COMMAND test_ring_fragments)
