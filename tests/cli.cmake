# CLI tests: shell scripts that run the built tool (see tests/cli/README.md). Each script takes
# the tool's path and the tests/cli directory, prints one line per check and "N passed, M
# failed", and exits non-zero if a check failed. They are fast (well under a second each in a
# release build), so they also run in the sanitizer build. escape, decisions_bad and conflicts
# check user text in error lines escaped and cut, decision files
# refused line by line, contradicting options refused; search is the parameter search's
# --explain and --objective.
foreach(script golden roundtrip badinput escape decisions_bad conflicts search compare_pins reproduce_settings
        units search_rhd_fabric loose)
  add_test(NAME cli_${script}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/${script}.sh $<TARGET_FILE:opticoll>
                   ${CMAKE_SOURCE_DIR}/tests/cli)
  set_tests_properties(cli_${script} PROPERTIES LABELS cli TIMEOUT 600)
endforeach()
# golden's `reproduce optree` at smaller settings under the sanitizers (golden.sh says why)
if(OC_SANITIZE)
  set_tests_properties(cli_golden PROPERTIES ENVIRONMENT OC_TEST_SANITIZED=1)
endif()
# output: tables in a pipe, CSV and JSON forms; under the sanitizers its slow reproductions
# (optree, wrht, lumorph) run at smaller settings (OC_TEST_SANITIZED, output.sh says which).
add_test(NAME cli_output
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/output.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
if(OC_SANITIZE)
  set_tests_properties(cli_output PROPERTIES ENVIRONMENT OC_TEST_SANITIZED=1)
endif()
set_tests_properties(cli_output PROPERTIES LABELS cli TIMEOUT 900)
# getopt: every command reads --opt=value, -oVALUE, prefixes, grouped flags and -- as getopt_long
# does; opticoll-mpi's --help too when it was built.
set(OC_GETOPT_MPI "")
if(TARGET opticoll-mpi)
  set(OC_GETOPT_MPI $<TARGET_FILE:opticoll-mpi>)
endif()
add_test(NAME cli_getopt
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/getopt.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli ${OC_GETOPT_MPI})
set_tests_properties(cli_getopt PROPERTIES LABELS cli TIMEOUT 600)
# perf: nccl-tests' columns and bus-bandwidth factors from the model
add_test(NAME cli_perf COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/perf.sh $<TARGET_FILE:opticoll>
                               ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_perf PROPERTIES LABELS cli TIMEOUT 600)
# help: every option of tools/cli.c's table in its command's --help, and what each help must say;
# oc_bench --help too.
add_test(NAME cli_help
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/help.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli $<TARGET_FILE:oc_bench>)
set_tests_properties(cli_help PROPERTIES LABELS cli TIMEOUT 600)
# dbtree_fattree: dbtree's pipeline search on the fat-tree bounded by the payload (1 GiB at N = 3
# mapped every pipeline up to thousands), and still the optimum at sizes not whole packets.
add_test(NAME cli_dbtree_fattree
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/dbtree_fattree.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_dbtree_fattree PROPERTIES LABELS cli TIMEOUT 600)
# tiny_inputs: compare at 0 and 1 bytes on every collective and network, dbtree below 2 bytes,
# -w / -f past 2^64 - 1.
add_test(NAME cli_tiny_inputs
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/tiny_inputs.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_tiny_inputs PROPERTIES LABELS cli TIMEOUT 600)
# prose_wrap: reproduce optree's Fig. 4 introduction wraps as one paragraph at the page's width.
add_test(NAME cli_prose_wrap
         COMMAND bash ${CMAKE_SOURCE_DIR}/tests/cli/prose_wrap.sh $<TARGET_FILE:opticoll>
                 ${CMAKE_SOURCE_DIR}/tests/cli)
set_tests_properties(cli_prose_wrap PROPERTIES LABELS cli TIMEOUT 600)
