# The reduction verifier's periodic sets (src/verify/progression.c) against one bit per node, and
# the verifier on mixed-radix halving / doubling schedules (clean and with errors put in) against
# itself keeping plain interval lists: same verdicts and first failures (tests/test_verify_progressions.c).
add_executable(test_verify_progressions tests/test_verify_progressions.c)
target_include_directories(test_verify_progressions PRIVATE src)
target_link_libraries(test_verify_progressions PRIVATE opticoll_lib)
add_test(NAME verify_progressions COMMAND test_verify_progressions)
