# The README and docs/ as a newcomer reads them (tests/readme/):
#  - readme_commands_PAGE, one test per page (README.md's is readme_commands_README; `ctest -R
#    readme_commands` runs them all): every command of the ```sh blocks of README.md and of every
#    docs/*.md page runs, in order, in a temporary directory per page against this build tree,
#    and every number and output block the page marks as a figure is compared with what the tool
#    prints now (tests/readme/figures.txt; on a difference it prints the diff, and `make
#    readme-figures` rewrites the pages); each test also fails on a figure of figures.txt that no
#    file marks. Label slow: the sanitizer suite leaves them out (the same code runs there
#    through every other test; the README's commands under ASan take minutes). All pages were
#    one test, which took 258 s of its 600 s at load 17 (58 s of CPU) against issue 27's rule of
#    a fifth at most; each page ran in a directory of its own already, so the split changes
#    nothing they check.
#  - readme_install: `cmake --install` into a temporary DESTDIR, the man pages against --help,
#    and the C examples of the README and docs/ compiled, linked (pkg-config) and run against
#    the installed tree. Not in the sanitizer build, whose static libraries need the sanitizer
#    runtimes to link.
file(GLOB OC_DOC_PAGES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
list(SORT OC_DOC_PAGES)
foreach(page ${CMAKE_SOURCE_DIR}/README.md ${OC_DOC_PAGES})
  get_filename_component(stem ${page} NAME_WE)
  add_test(NAME readme_commands_${stem}
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/readme/readme.py --build ${CMAKE_BINARY_DIR}
                   --page ${page} ${CMAKE_SOURCE_DIR}/README.md ${OC_DOC_PAGES})
  set_tests_properties(readme_commands_${stem} PROPERTIES LABELS "readme;slow" TIMEOUT 600)
endforeach()
if(NOT OC_SANITIZE)
  add_test(NAME readme_install
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/readme/install.py ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR})
  set_tests_properties(readme_install PROPERTIES LABELS readme TIMEOUT 300)
endif()
