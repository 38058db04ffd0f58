# The Python package (pyproject.toml, setup.py, python/opticoll): pip-installed into a venv and
# checked against the command with pytest (tests/python/run.sh). Not in the sanitizer build: the
# package links its own position-independent release build of the library into the interpreter.
# opticoll.simgrid() is tested by running SMPI for real (tests/python/test_simgrid.py) on the
# executor the fixture smpi_executor builds (tests/simgrid.cmake; where SimGrid is missing there
# is no such fixture, and the test checks the refusal instead).
#
# One test did it all and took 515 s of its 600 s at load 20 (89 s of CPU, most of it the
# library's own build; issue 27: a fifth of its limit at most): it is cut into the install
# (python_package_install: the venv, and pip building the library, the fixture python_venv), one
# test per test file (python_package_STEM for tests/python/test_STEM.py, each needing the venv)
# and the install with another python3 (python_package_other, after the first: both build in
# BUILD/python-lib). `ctest -R python_package` runs them all.
if(NOT OC_SANITIZE)
  set(python_run bash ${CMAKE_SOURCE_DIR}/tests/python/run.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} $<TARGET_FILE:opticoll>)
  add_test(NAME python_package_install COMMAND ${python_run} install)
  set_tests_properties(python_package_install PROPERTIES LABELS python TIMEOUT 600
                       FIXTURES_SETUP python_venv)
  add_test(NAME python_package_other COMMAND ${python_run} other)
  set_tests_properties(python_package_other PROPERTIES LABELS python TIMEOUT 600
                       FIXTURES_REQUIRED python_venv)
  file(GLOB python_tests CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/python/test_*.py)
  list(SORT python_tests)
  foreach(file ${python_tests})
    get_filename_component(stem ${file} NAME_WE)
    string(REGEX REPLACE "^test_" "" stem ${stem})
    add_test(NAME python_package_${stem} COMMAND ${python_run} test ${file})
    set_tests_properties(python_package_${stem} PROPERTIES LABELS python TIMEOUT 600
                         FIXTURES_REQUIRED python_venv)
  endforeach()
  set_tests_properties(python_package_simgrid PROPERTIES
                       FIXTURES_REQUIRED "python_venv;smpi_executor")
endif()
