# The fabric's closed form under scarce fibres (labelled the unshared bound, the ratio stated) and
# split rounds (counted unsplit, the ratio stated).
add_executable(test_fabric_fibres_form tests/test_fabric_fibres_form.c)
target_include_directories(test_fabric_fibres_form PRIVATE src)
target_link_libraries(test_fabric_fibres_form PRIVATE opticoll_lib m)
add_test(NAME fabric_fibres_form COMMAND test_fabric_fibres_form)
