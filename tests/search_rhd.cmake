# The parameter searches of rhd / rh / rd, hring and dbtree against their enumerated pinned spaces
# (tests/test_search_rhd.c). The plain test keeps to N <= 24 (it also runs under the sanitizers);
# search_rhd_slow covers N up to 48 and 64 and the issue's H-Ring cases.
add_executable(test_search_rhd tests/test_search_rhd.c)
target_include_directories(test_search_rhd PRIVATE src)
target_link_libraries(test_search_rhd PRIVATE opticoll_lib)
add_test(NAME search_rhd COMMAND test_search_rhd)
add_test(NAME search_rhd_slow COMMAND test_search_rhd slow)
set_tests_properties(search_rhd_slow PROPERTIES LABELS slow TIMEOUT 600)
