# Containers through FFmpeg's libraries: lossless encodes score as their Y4M, bit for bit; bad
# input; progress on a terminal (tests/container_test.py). Skips without the libraries or
# without Debian's ffmpeg, which makes the encodes. The sanitizer build scores fewer frames.
if(LOCKSTEP_HAVE_LIBAV)
  set(LS_CONTAINER_TEST_ARGS)
  if(LOCKSTEP_SANITIZE)
    list(APPEND LS_CONTAINER_TEST_ARGS --quick)
  endif()
  add_test(NAME containers
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/container_test.py
                   --cli ${LS_CLI} --fixtures ${LS_FIXTURE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/containers ${LS_CONTAINER_TEST_ARGS})
  set_tests_properties(containers PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77)
endif()
