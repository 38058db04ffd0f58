# The Python package (pyproject.toml, setup.py, python/opticoll): pip-installed into a venv and
# checked against the command with pytest (tests/python/run.sh). Not in the sanitizer build: the
# package links its own position-independent release build of the library into the interpreter.
# opticoll.simgrid() is tested by running SMPI for real (tests/python/test_simgrid.py) on the
# executor the fixture smpi_executor builds (tests/simgrid.cmake; where SimGrid is missing there
# is no such fixture, and the test checks the refusal instead).
if(NOT OC_SANITIZE)
  add_test(NAME python_package
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/python/run.sh ${CMAKE_SOURCE_DIR}
                   ${CMAKE_BINARY_DIR} $<TARGET_FILE:opticoll>)
  set_tests_properties(python_package PROPERTIES LABELS python TIMEOUT 600
                       FIXTURES_REQUIRED smpi_executor)
endif()
