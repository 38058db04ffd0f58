# The Python package (pyproject.toml, setup.py, python/opticoll): pip-installed into a venv and
# checked against the command with pytest (tests/python/run.sh). Not in the sanitizer build: the
# package links its own position-independent release build of the library into the interpreter.
if(NOT OC_SANITIZE)
  add_test(NAME python_package
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/python/run.sh ${CMAKE_SOURCE_DIR}
                   ${CMAKE_BINARY_DIR} $<TARGET_FILE:opticoll>)
  set_tests_properties(python_package PROPERTIES LABELS python TIMEOUT 600)
endif()
