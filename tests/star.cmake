# Tests of the passive optical star model (src/net/star.c), its independent resource check
# (src/net/star_check.c) and the TCP1 / TCP2 algorithms of the passive-optical-star seed.
add_executable(test_star tests/test_star.c)
target_include_directories(test_star PRIVATE src)
target_link_libraries(test_star PRIVATE opticoll_lib)
add_test(NAME star COMMAND test_star)
# The reproduction of the seed's Tables 1 and 2 runs end to end (every schedule verified).
add_test(NAME reproduce_star COMMAND opticoll reproduce star)
