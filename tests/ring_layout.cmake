# The ring model's output (wavelengths, steps, time, verdicts) is the same as before its working
# memory was made small: every ring algorithm at small N, and random rounds, hashed.
add_executable(test_ring_layout tests/test_ring_layout.c)
target_include_directories(test_ring_layout PRIVATE src)
target_link_libraries(test_ring_layout PRIVATE opticoll_lib)
add_test(NAME ring_layout COMMAND test_ring_layout)
