# `make install` (cmake --install build): the tools, the static libraries, the public headers, a
# pkg-config file per library, the man pages and the models file, under CMAKE_INSTALL_PREFIX
# (/usr/local unless the Makefile's PREFIX says otherwise; DESTDIR is honoured by cmake --install).
#
#   bin/      opticoll, opticoll-mpi and opticoll-cluster (the last two when MPI was found)
#   lib/      libopticoll.a, libopticoll_mpi.a
#   include/  opticoll.h (opticoll_core.h + opticoll_studies.h), opticoll_json.h, opticoll_mpi.h
#   lib/pkgconfig/  opticoll.pc, opticoll-mpi.pc (cmake/opticoll.pc.in, cmake/opticoll-mpi.pc.in)
#   share/man/man1/ opticoll.1, opticoll-mpi.1: built from the tools' own --help (man/*.in and
#                   scripts/man.sh), so a page cannot say what --help does not
#   share/opticoll/ models.tsv, the library's default models file once the source tree is gone
include(GNUInstallDirs)

set(OC_INSTALL_DATA_DIR "${CMAKE_INSTALL_FULL_DATADIR}/opticoll")
target_compile_definitions(opticoll_lib PRIVATE OC_INSTALL_DATA_DIR="${OC_INSTALL_DATA_DIR}")

install(TARGETS opticoll RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS opticoll_lib ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/opticoll.h include/opticoll_core.h include/opticoll_studies.h
              include/opticoll_json.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES data/models.tsv DESTINATION ${CMAKE_INSTALL_DATADIR}/opticoll)

# pkg-config: the libraries are static, so what they link against is in Libs and Requires (not
# the .private fields), and `pkg-config --cflags --libs opticoll` alone links a program.
set(OC_PC_VERSION 0.1)
configure_file(cmake/opticoll.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/opticoll.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/opticoll.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The man pages, generated from --help each time the tool is built. In the sanitizer build the
# tools run with leak detection off: opticoll-mpi starts MPI, whose own allocations live until
# exit (tests/mpi.cmake says more), and a page is no place to report them.
set(OC_MAN_DIR ${CMAKE_BINARY_DIR}/man)
set(OC_MAN_ENV ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0)
add_custom_command(OUTPUT ${OC_MAN_DIR}/opticoll.1
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${OC_MAN_DIR}
                   COMMAND ${OC_MAN_ENV} sh ${CMAKE_SOURCE_DIR}/scripts/man.sh ${CMAKE_SOURCE_DIR}/man/opticoll.1.in
                           $<TARGET_FILE:opticoll> > ${OC_MAN_DIR}/opticoll.1
                   DEPENDS opticoll ${CMAKE_SOURCE_DIR}/scripts/man.sh
                           ${CMAKE_SOURCE_DIR}/man/opticoll.1.in
                   COMMENT "man page opticoll.1 from opticoll --help" VERBATIM)
set(OC_MAN_PAGES ${OC_MAN_DIR}/opticoll.1)

if(TARGET opticoll_mpi)
  install(TARGETS opticoll-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS opticoll_mpi ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES include/opticoll_mpi.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  # The MPI library's own pkg-config name when it has one (Open MPI: mpi-c), else its flags.
  pkg_check_modules(OC_MPI_PC QUIET mpi-c)
  if(OC_MPI_PC_FOUND)
    set(OC_PC_MPI_REQUIRES "mpi-c")
    set(OC_PC_MPI_LIBS "")
    set(OC_PC_MPI_CFLAGS "")
  else()
    set(OC_PC_MPI_REQUIRES "")
    list(JOIN MPI_C_LIBRARIES " " OC_PC_MPI_LIBS)
    list(TRANSFORM MPI_C_INCLUDE_DIRS PREPEND "-I" OUTPUT_VARIABLE OC_PC_MPI_INC)
    list(JOIN OC_PC_MPI_INC " " OC_PC_MPI_CFLAGS)
  endif()
  configure_file(cmake/opticoll-mpi.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/opticoll-mpi.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/opticoll-mpi.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  add_custom_command(OUTPUT ${OC_MAN_DIR}/opticoll-mpi.1
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${OC_MAN_DIR}
                     COMMAND ${OC_MAN_ENV} sh ${CMAKE_SOURCE_DIR}/scripts/man.sh
                             ${CMAKE_SOURCE_DIR}/man/opticoll-mpi.1.in
                             $<TARGET_FILE:opticoll-mpi> > ${OC_MAN_DIR}/opticoll-mpi.1
                     DEPENDS opticoll-mpi ${CMAKE_SOURCE_DIR}/scripts/man.sh
                             ${CMAKE_SOURCE_DIR}/man/opticoll-mpi.1.in
                     COMMENT "man page opticoll-mpi.1 from opticoll-mpi --help" VERBATIM)
  list(APPEND OC_MAN_PAGES ${OC_MAN_DIR}/opticoll-mpi.1)
endif()
if(TARGET opticoll-cluster)
  install(TARGETS opticoll-cluster RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

add_custom_target(man ALL DEPENDS ${OC_MAN_PAGES})
install(FILES ${OC_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
