# Scale-out of sweep, tune and reproduce (tools/scaleout.c): every core through pthreads in the
# plain tool, and across MPI ranks in opticoll-cluster, built when MPI is found. opticoll-cluster is the
# same tool compiled with OC_WITH_MPI and main renamed to oc_tool_main; tools/mpi_main.c is its
# main (MPI_Init, the command on every rank, rank 0 prints, MPI_Finalize).
target_sources(opticoll PRIVATE tools/scaleout.c tools/plot.c tools/points.c)
find_package(MPI COMPONENTS C QUIET)
if(MPI_C_FOUND)
  add_executable(opticoll-cluster ${OC_TOOL_SOURCES} tools/scaleout.c tools/plot.c tools/points.c
                              tools/mpi_main.c tools/mpi_agree.c)
  target_include_directories(opticoll-cluster PRIVATE tools)
  target_link_libraries(opticoll-cluster PRIVATE opticoll_lib MPI::MPI_C)
  target_compile_definitions(opticoll-cluster PRIVATE OC_WITH_MPI main=oc_tool_main
                                                  OC_DATA_DIR="${CMAKE_SOURCE_DIR}/data")
  # the renamed main has no prototype; the plain tool checks the same sources with it
  target_compile_options(opticoll-cluster PRIVATE -Wno-missing-prototypes)
endif()
