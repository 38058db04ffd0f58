# The README and docs/ as a newcomer reads them (tests/readme/):
#  - readme_commands: every command of the ```sh blocks of README.md and of every docs/*.md page
#    runs, in order, in a temporary directory per page against this build tree, and every number and output block the README marks as a
#    figure is compared with what the tool prints now (tests/readme/figures.txt; on a difference
#    it prints the diff, and `make readme-figures` rewrites the README). Label slow: the sanitizer
#    suite leaves it out (the same code runs there through every other test; the README's
#    commands under ASan take minutes).
#  - readme_install: `cmake --install` into a temporary DESTDIR, the man pages against --help,
#    and the C examples of the README and docs/ compiled, linked (pkg-config) and run against the installed tree.
#    Not in the sanitizer build, whose static libraries need the sanitizer runtimes to link.
file(GLOB OC_DOC_PAGES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
list(SORT OC_DOC_PAGES)
add_test(NAME readme_commands
         COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/readme/readme.py --build ${CMAKE_BINARY_DIR}
                 ${CMAKE_SOURCE_DIR}/README.md ${OC_DOC_PAGES})
set_tests_properties(readme_commands PROPERTIES LABELS "readme;slow" TIMEOUT 600)
if(NOT OC_SANITIZE)
  add_test(NAME readme_install
           COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/readme/install.py ${CMAKE_BINARY_DIR}
                   ${CMAKE_SOURCE_DIR})
  set_tests_properties(readme_install PROPERTIES LABELS readme TIMEOUT 300)
endif()
