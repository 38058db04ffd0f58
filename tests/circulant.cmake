# The circulant trees and the circulant all-reduce (src/algo/circulant.c,
# src/algo/allreduce_circulant.c): every tree's length against the bounds' E(N, h), the all-reduce
# verified with real data at N = 1 .. 100 and mapped at 1024 (4096 labelled slow), its search
# against every pinned tree and piece count, its windows and bad input (tests/test_circulant.c).
add_executable(test_circulant tests/test_circulant.c)
target_include_directories(test_circulant PRIVATE src include tests)
target_link_libraries(test_circulant PRIVATE opticoll_lib m)
add_test(NAME circulant COMMAND test_circulant)
set_tests_properties(circulant PROPERTIES TIMEOUT 300)
# the slow run's four cases at 4096 nodes, one test each (together they took 239 s of 300 on a
# loaded machine in a full make check, the plain run's cases with them)
foreach(k 0 1 2 3)
  add_test(NAME circulant_slow_${k} COMMAND test_circulant slow ${k})
  set_tests_properties(circulant_slow_${k} PROPERTIES LABELS slow TIMEOUT 300)
endforeach()
