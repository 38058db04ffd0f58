# MSCCL import: the real programs of ../shared/msccl-ref (never copied here),
# the programs standing for msccl-tools' examples and the wrong ones in tests/msccl
# (tests/cli/msccl_files.sh). The reference directory is looked for beside the source tree, or
# beside the worktree's parent; the script skips those checks, saying so, when it is absent.
set(OC_MSCCL_REF_DIR "" CACHE PATH "the MSCCL reference files (default: ../shared/msccl-ref)")
if(NOT OC_MSCCL_REF_DIR)
  foreach(dir ${CMAKE_SOURCE_DIR}/../shared/msccl-ref ${CMAKE_SOURCE_DIR}/../../shared/msccl-ref)
    if(NOT OC_MSCCL_REF_DIR AND IS_DIRECTORY ${dir})
      get_filename_component(OC_MSCCL_REF_DIR ${dir} ABSOLUTE)
    endif()
  endforeach()
endif()
add_test(NAME msccl_files
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/msccl_files.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli ${CMAKE_SOURCE_DIR}/tests/msccl
                 "${OC_MSCCL_REF_DIR}")
set_tests_properties(msccl_files PROPERTIES LABELS cli TIMEOUT 300)
