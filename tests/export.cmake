# Timelines (Chrome/Perfetto), MSCCL XML export + re-import and link utilisation (items
# 3-5): every registered algorithm at two node counts, hand values, broken files. A few seconds.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME export_all
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/export/test_export.py
                   $<TARGET_FILE:opticoll>)
  set_tests_properties(export_all PROPERTIES LABELS export TIMEOUT 300)
endif()
