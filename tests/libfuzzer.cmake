# Fuzz targets (tests/libfuzzer/, fuzz_<target>.c): the Y4M and raw YUV readers, feature options,
# the --model argument, model files and the CLI's argument parser. In a LOCKSTEP_FUZZ build
# (clang) each is a libFuzzer binary and the test fuzz_<target> fuzzes it for
# LOCKSTEP_FUZZ_SECONDS from its seed corpus and the crashing inputs kept in regress/<target>
# (new inputs go to the build tree, never into the sources). Other builds link the same target
# with a replay main: fuzz_<target>_replay runs every seed and kept input once.
set(LS_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR}/libfuzzer)
set(LS_FUZZ_CLI_SOURCES ${PROJECT_SOURCE_DIR}/tools/cli_parse.c
                        ${PROJECT_SOURCE_DIR}/tools/cli_models.c)
set(LS_FUZZ_TARGETS y4m yuv feature model_arg model_json cli)
if(LOCKSTEP_FUZZ)
  add_custom_target(fuzz)
endif()
foreach(target ${LS_FUZZ_TARGETS})
  set(sources ${LS_FUZZ_DIR}/fuzz_${target}.c ${LS_FUZZ_DIR}/fuzz_util.c)
  if(target MATCHES "^(y4m|yuv)$")
    list(APPEND sources ${LS_FUZZ_DIR}/fuzz_input.c)
  endif()
  if(target MATCHES "^(feature|model_arg|cli)$")
    list(APPEND sources ${LS_FUZZ_CLI_SOURCES})
  endif()
  set(seeds ${LS_FUZZ_DIR}/corpus/${target})
  if(EXISTS ${LS_FUZZ_DIR}/regress/${target})
    list(APPEND seeds ${LS_FUZZ_DIR}/regress/${target})
  endif()
  if(LOCKSTEP_FUZZ)
    set(exe fuzz_${target})
    add_executable(${exe} ${sources})
    target_link_options(${exe} PRIVATE -fsanitize=fuzzer)
    add_dependencies(fuzz ${exe})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/fuzz/${target})
    file(MAKE_DIRECTORY ${work})
    set(dict)
    if(EXISTS ${LS_FUZZ_DIR}/${target}.dict)
      set(dict -dict=${LS_FUZZ_DIR}/${target}.dict)
    endif()
    # -close_fd_mask=3: the targets' own messages (usage errors, --help) stay out of the log;
    # libFuzzer and the sanitizers report on a copy of stderr
    add_test(NAME fuzz_${target}
             COMMAND ${exe} -max_total_time=${LOCKSTEP_FUZZ_SECONDS} -timeout=20 -rss_limit_mb=2048
                     ${dict} -close_fd_mask=3 -print_final_stats=1
                     -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz/${target}- ${work} ${seeds})
  else()
    set(exe fuzz_${target}_replay)
    add_executable(${exe} ${sources} ${LS_FUZZ_DIR}/replay.c)
    add_test(NAME fuzz_${target}_replay COMMAND ${exe} ${seeds})
  endif()
  target_link_libraries(${exe} PRIVATE lockstep_input lockstep)
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/tools
                                            ${LS_FUZZ_DIR})
endforeach()
