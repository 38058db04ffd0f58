# `reproduce aas`'s dex-micro and dex-interleave rows: the rounds are ours, each reason states the
# run's own round count (recomputed through oc_run), at the notes' sizes and at -n 36.
add_executable(test_repro_aas_micro tests/test_repro_aas_micro.c)
target_include_directories(test_repro_aas_micro PRIVATE src)
target_link_libraries(test_repro_aas_micro PRIVATE opticoll_lib m)
add_test(NAME repro_aas_micro COMMAND test_repro_aas_micro)
