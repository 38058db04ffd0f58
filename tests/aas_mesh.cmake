# cartesian on meshes: refused with the all-to-all notes' section cited (the notes give the torus's
# schedule only); on the torus of the same shape it runs.
add_executable(test_aas_mesh tests/test_aas_mesh.c)
target_include_directories(test_aas_mesh PRIVATE src)
target_link_libraries(test_aas_mesh PRIVATE opticoll_lib m)
add_test(NAME aas_mesh COMMAND test_aas_mesh)
