# opticoll-mpi's refusals and errors: said once, naming the rank count, with the table aligned
# (tests/mpi/messages.sh). Needs mpi.cmake's OC_MPIRUN and OC_MPI_ENV.
if(TARGET opticoll-mpi)
  add_test(NAME mpi_messages
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/mpi/messages.sh ${OC_MPIRUN} --
                   $<TARGET_FILE:opticoll-mpi>)
  set_tests_properties(mpi_messages PROPERTIES ENVIRONMENT "${OC_MPI_ENV}" TIMEOUT 120 LABELS mpi)
endif()
