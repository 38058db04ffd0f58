# `reproduce wrht` through the C API: the settings it takes and refuses, the claims table, and
# every stated number against the figures' series (small runs: ~1 s; `full`: the paper's own).
add_executable(test_repro_wrht tests/test_repro_wrht.c)
target_include_directories(test_repro_wrht PRIVATE src)
target_link_libraries(test_repro_wrht PRIVATE opticoll_lib)
add_test(NAME repro_wrht COMMAND test_repro_wrht)
add_test(NAME repro_wrht_full COMMAND test_repro_wrht full)
set_tests_properties(repro_wrht_full PROPERTIES LABELS slow TIMEOUT 300)
