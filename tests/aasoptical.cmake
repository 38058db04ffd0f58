# Tests of the all-to-all algorithms on the optical ring (onestage, optree with combining), the
# pairwise all-to-all on every network and the Bruck all-gather (tests/test_aasoptical.c).
add_executable(test_aasoptical tests/test_aasoptical.c)
target_include_directories(test_aasoptical PRIVATE src)
target_link_libraries(test_aasoptical PRIVATE opticoll_lib m)
add_test(NAME aasoptical COMMAND test_aasoptical)
