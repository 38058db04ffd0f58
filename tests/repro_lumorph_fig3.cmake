# `reproduce lumorph`'s Fig. 3 (SiPAC(2,3) and Flex-SiPCO): series computed at the reader's sizes
# against the test's own alpha-beta, the reasons' numbers, the SiPAC shapes at -n.
add_executable(test_repro_lumorph_fig3 tests/test_repro_lumorph_fig3.c)
target_include_directories(test_repro_lumorph_fig3 PRIVATE src)
target_link_libraries(test_repro_lumorph_fig3 PRIVATE opticoll_lib m)
add_test(NAME repro_lumorph_fig3 COMMAND test_repro_lumorph_fig3)
