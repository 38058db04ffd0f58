# The ring model's free colours (src/net/free_colours.c): the same takes as the sorted array they
# replace, and O(log n) a range on the round of scattered returns that made the array quadratic.
add_executable(test_free_colours tests/test_free_colours.c)
target_include_directories(test_free_colours PRIVATE src)
target_link_libraries(test_free_colours PRIVATE opticoll_lib)
add_test(NAME free_colours COMMAND test_free_colours)
