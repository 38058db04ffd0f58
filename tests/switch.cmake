# Tests of the ideal electrical switch (src/net/switch.c) and the algorithms on it: ring and rhd
# all-reduce against the alpha-beta closed forms, other N with real data, the port rule.
add_executable(test_switch tests/test_switch.c)
target_include_directories(test_switch PRIVATE src)
target_link_libraries(test_switch PRIVATE opticoll_lib)
add_test(NAME switch COMMAND test_switch)
