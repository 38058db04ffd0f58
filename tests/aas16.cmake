# The all-to-all notes' items: pairwise's fabric form, hypercube-opt's labels, cartesian on
# k-D tori, the dims searches following the network's dims (all-to-all-scatter-notes).
add_executable(test_aas16 tests/test_aas16.c)
target_include_directories(test_aas16 PRIVATE src)
target_link_libraries(test_aas16 PRIVATE opticoll_lib)
add_test(NAME aas16 COMMAND test_aas16)
