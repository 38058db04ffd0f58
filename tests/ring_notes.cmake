# The notes that say why a closed form and the ring's mapped steps differ (ne at one channel,
# H-Ring's ceil(g/w), rd's and rhd's round counts below the load bound), numbers recomputed.
add_executable(test_ring_notes tests/test_ring_notes.c)
target_include_directories(test_ring_notes PRIVATE src)
target_link_libraries(test_ring_notes PRIVATE opticoll_lib)
add_test(NAME ring_notes COMMAND test_ring_notes)
