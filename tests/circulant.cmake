# The circulant trees and the circulant all-reduce (src/algo/circulant.c,
# src/algo/allreduce_circulant.c): every tree's length against the bounds' E(N, h), the all-reduce
# verified with real data at N = 1 .. 100 and mapped at 1024 (4096 labelled slow), its search
# against every pinned tree and piece count, its windows and bad input (tests/test_circulant.c).
add_executable(test_circulant tests/test_circulant.c)
target_include_directories(test_circulant PRIVATE src include tests)
target_link_libraries(test_circulant PRIVATE opticoll_lib m)
add_test(NAME circulant COMMAND test_circulant)
set_tests_properties(circulant PROPERTIES TIMEOUT 300)
add_test(NAME circulant_slow COMMAND test_circulant slow)
set_tests_properties(circulant_slow PROPERTIES LABELS slow TIMEOUT 300)
