# The rack's TPU baseline after TPU-v4's optical circuit switches: whole cubes, any free.
add_executable(test_rack_tpu tests/test_rack_tpu.c)
target_include_directories(test_rack_tpu PRIVATE src)
target_link_libraries(test_rack_tpu PRIVATE opticoll_lib)
add_test(NAME rack_tpu COMMAND test_rack_tpu)
set_tests_properties(rack_tpu PROPERTIES LABELS rack)
