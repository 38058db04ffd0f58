# The orbit state's rounds of several pieces (verify.c, issue 26 item 4 and issue 31 item 1):
# rounds of two transfers a node (the bidirectional ring, stride all-reduce) taken whole give
# exactly what the plain path gives, on whole and broken schedules (tests/test_orbit_pieces.c).
add_executable(test_orbit_pieces tests/test_orbit_pieces.c)
target_include_directories(test_orbit_pieces PRIVATE src)
target_link_libraries(test_orbit_pieces PRIVATE opticoll_lib)
add_test(NAME orbit_pieces COMMAND test_orbit_pieces)
