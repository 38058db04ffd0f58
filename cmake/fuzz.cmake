# Fuzz targets (fuzz/fuzz_NAME.c, one per reader or parser; fuzz/fuzz.h says what they share).
#
# With OC_FUZZ=ON and clang (a build directory of its own: `make fuzz`, `make check-fuzz`), the
# library and the tool's sources are instrumented for libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer, each target is a libFuzzer binary, and CTest (label fuzz) runs each
# for OC_FUZZ_SMOKE_SECONDS from its seed corpus fuzz/corpus/NAME/ (new inputs go to the build
# directory, never into the repository). In every other build each target is linked with
# fuzz/replay.c and CTest (label fuzz) runs it once over its corpus, so that seed and regression
# inputs run in the release and the sanitizer suites too.
option(OC_FUZZ "Build the fuzz targets with clang's libFuzzer (CC=clang, a build dir of its own)" OFF)
set(OC_FUZZ_SMOKE_SECONDS 5 CACHE STRING "Seconds each fuzz target runs under CTest (OC_FUZZ=ON)")

set(OC_FUZZ_TARGETS schedule_json msccl decisions rack_trace models size number ranges params)
# The readers that live in tools/ are reached by compiling the tool's sources, main renamed as
# opticoll-cluster renames it.
set(OC_FUZZ_TOOL_TARGETS ranges)

if(OC_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "OC_FUZZ=ON needs clang (libFuzzer): configure with CC=clang")
  endif()
  set(OC_FUZZ_FLAGS -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                    -fno-sanitize-recover=all)
  target_compile_options(opticoll_lib PRIVATE ${OC_FUZZ_FLAGS})
  target_link_options(opticoll_lib INTERFACE -fsanitize=address,undefined)
endif()

add_library(oc_fuzz_tools OBJECT EXCLUDE_FROM_ALL ${OC_TOOL_SOURCES} tools/scaleout.c tools/plot.c
                                                  tools/points.c)
target_include_directories(oc_fuzz_tools PRIVATE src tools)
target_link_libraries(oc_fuzz_tools PRIVATE opticoll_lib)
target_compile_definitions(oc_fuzz_tools PRIVATE main=oc_tool_main
                                                 OC_DATA_DIR="${CMAKE_SOURCE_DIR}/data")
# the renamed main has no prototype; the plain tool checks the same sources with it
target_compile_options(oc_fuzz_tools PRIVATE -Wno-missing-prototypes ${OC_FUZZ_FLAGS})

add_custom_target(fuzz_all)
if(OC_FUZZ)
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz-artifacts)
endif()
foreach(name ${OC_FUZZ_TARGETS})
  set(corpus ${CMAKE_SOURCE_DIR}/fuzz/corpus/${name})
  if(OC_FUZZ)
    add_executable(fuzz_${name} EXCLUDE_FROM_ALL fuzz/fuzz_${name}.c)
    target_compile_options(fuzz_${name} PRIVATE ${OC_FUZZ_FLAGS})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  else()
    add_executable(fuzz_${name} fuzz/fuzz_${name}.c fuzz/replay.c)
  endif()
  target_include_directories(fuzz_${name} PRIVATE src tools)
  target_link_libraries(fuzz_${name} PRIVATE opticoll_lib)
  if(name IN_LIST OC_FUZZ_TOOL_TARGETS)
    target_sources(fuzz_${name} PRIVATE $<TARGET_OBJECTS:oc_fuzz_tools>)
  endif()
  add_dependencies(fuzz_all fuzz_${name})
  if(OC_FUZZ)
    # libFuzzer writes what it finds into the first directory: the build's, not the repository's
    set(work ${CMAKE_BINARY_DIR}/fuzz-corpus/${name})
    file(MAKE_DIRECTORY ${work})
    set(dict)
    if(EXISTS ${CMAKE_SOURCE_DIR}/fuzz/${name}.dict)
      set(dict -dict=${CMAKE_SOURCE_DIR}/fuzz/${name}.dict)
    endif()
    add_test(NAME fuzz_${name}
             COMMAND fuzz_${name} -seed=1 -max_total_time=${OC_FUZZ_SMOKE_SECONDS} -timeout=10
                     -rss_limit_mb=2048 -close_fd_mask=3 ${dict}
                     -artifact_prefix=${CMAKE_BINARY_DIR}/fuzz-artifacts/${name}- ${work} ${corpus})
    math(EXPR limit "${OC_FUZZ_SMOKE_SECONDS} * 4 + 60")
    set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz TIMEOUT ${limit})
  else()
    add_test(NAME fuzz_replay_${name} COMMAND fuzz_${name} ${corpus})
    set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS fuzz TIMEOUT 120)
  endif()
endforeach()
