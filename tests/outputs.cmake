# Output files, plots and exit codes (tests/cli/files.sh, tests/cli/exitcodes.sh; README, "Exit
# codes"): what reaches gnuplot, what is at an output's name, failed plots, a full stdout for
# every command, and one check per exit code; and outputs under faults (tests/cli/faults.sh: a
# full disk through `ulimit -f`, a rank that cannot be written, SIGINT/SIGTERM/SIGHUP while
# writing, the Chrome trace's cap): the old output or the whole new one, never a mix, never a
# temporary left. A few seconds each (faults.sh ~12 s); they run in the sanitizer build too.
foreach(script files exitcodes faults faults_input)
  add_test(NAME cli_${script}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/${script}.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_${script} PROPERTIES LABELS cli TIMEOUT 300)
endforeach()
# A disk that is really full (tests/cli/full_disk.sh, issue 27 item 5): ENOSPC part way through on
# a 64 KiB tmpfs, in a mount namespace of the script's own, where root may mount one; else from
# the first byte through an LD_PRELOAD shim (tests/full_disk_shim.c). cli_full_disk_shim runs the
# shim even where the tmpfs can be had, so that the fallback is not left untried.
add_library(oc_full_disk_shim MODULE tests/full_disk_shim.c)
target_link_libraries(oc_full_disk_shim PRIVATE ${CMAKE_DL_LIBS})
# preloaded into gnuplot too, which has no sanitizer runtime: built without the sanitizers
foreach(prop COMPILE_OPTIONS LINK_OPTIONS)
  get_target_property(opts oc_full_disk_shim ${prop})
  if(opts)
    list(FILTER opts EXCLUDE REGEX "^-fsanitize")
    set_target_properties(oc_full_disk_shim PROPERTIES ${prop} "${opts}")
  endif()
endforeach()
foreach(mode auto shim)
  set(name cli_full_disk)
  if(mode STREQUAL "shim")
    set(name cli_full_disk_shim)
  endif()
  add_test(NAME ${name}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/full_disk.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli $<TARGET_FILE:oc_full_disk_shim> ${mode})
  set_tests_properties(${name} PROPERTIES LABELS cli TIMEOUT 300)
endforeach()
