# The library's settings are the caller's value (oc_settings, src/core/settings.c): runs and sweeps
# on several threads at once, each with its own memory budget and verifier threads, each seeing
# its own; zero and NULL are the defaults.
add_executable(test_settings tests/test_settings.c)
target_include_directories(test_settings PRIVATE src)
target_link_libraries(test_settings PRIVATE opticoll_lib Threads::Threads)
add_test(NAME settings COMMAND test_settings)
set_tests_properties(settings PROPERTIES TIMEOUT 120)
