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
