# oc__quote_cut and oc__quote_line (src/core/quote.c): user text in error lines.
add_executable(test_quote tests/test_quote.c)
target_include_directories(test_quote PRIVATE src)
target_link_libraries(test_quote PRIVATE opticoll_lib)
add_test(NAME quote COMMAND test_quote)
