# The round cache's memo: with the cache held to a few bytes, rd, rh and rhd search exactly as with
# the default cache, every candidate checked against its whole mapping (tests/test_search_memo.c).
add_executable(test_search_memo tests/test_search_memo.c)
target_include_directories(test_search_memo PRIVATE src tests)
target_link_libraries(test_search_memo PRIVATE opticoll_lib)
add_test(NAME search_memo COMMAND test_search_memo)
