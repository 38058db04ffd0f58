# Tests, run by CTest (`make check` runs them twice: release build, and under ASan + UBSan).
#  - unit: C tests linked against the library (verifier, ring model, algorithms x node counts)
#  - cli:  shell tests of the command-line tool (golden outputs, bad input), see tests/cli.cmake
add_executable(test_unit tests/test_unit.c)
target_include_directories(test_unit PRIVATE src)
target_link_libraries(test_unit PRIVATE opticoll_lib)
add_test(NAME unit COMMAND test_unit)

include(tests/cli.cmake OPTIONAL)
include(tests/train.cmake OPTIONAL)
include(tests/fattree.cmake OPTIONAL)
# The reproductions run end to end (every schedule verified); slow, so not under the sanitizers.
add_test(NAME reproduce_optree COMMAND opticoll reproduce optree)
add_test(NAME reproduce_wrht COMMAND opticoll reproduce wrht)
set_tests_properties(reproduce_optree reproduce_wrht PROPERTIES LABELS slow TIMEOUT 300)
include(tests/switch.cmake OPTIONAL)
include(tests/star.cmake OPTIONAL)
include(tests/fabric.cmake OPTIONAL)
include(tests/tune.cmake OPTIONAL)
