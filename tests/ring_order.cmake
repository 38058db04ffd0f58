# The ring model's interval order found group by group equals a stable sort's, and the colouring
# is the same whichever way it is found and whether the run keeps its fragments
# (tests/test_ring_order.c).
add_executable(test_ring_order tests/test_ring_order.c)
target_include_directories(test_ring_order PRIVATE src tests)
target_link_libraries(test_ring_order PRIVATE opticoll_lib m)
add_test(NAME ring_order COMMAND test_ring_order)
