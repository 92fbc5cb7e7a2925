# The Python package (python/, ctypes on liblockstep.so) under pytest, with Debian's Python (the
# interpreter CI installs python3-numpy, -pytest, -pandas and -distributed for): files and numpy
# frames against the CLI bit for bit, errors, shards, the offline install (python); the Dask
# runner on a real scheduler and two workers, and a worker killed mid-run (python_dask).
# Under the sanitizers the package's tests run with the sanitizer runtime preloaded into the
# interpreter (the library's calls are checked there); the Dask test is the release build's: it
# checks the orchestration, whose library calls are the package test's.
set(LOCKSTEP_PYTHON /usr/bin/python3 CACHE FILEPATH "Python for the package's tests")
set(LS_PYTHON_TEST ${LOCKSTEP_PYTHON} ${CMAKE_CURRENT_LIST_DIR}/python_test.py
    --library $<TARGET_FILE:lockstep_shared> --cli ${LS_CLI} --gen $<TARGET_FILE:lockstep_gen>
    --fixtures ${LS_FIXTURE_DIR} --package ${PROJECT_SOURCE_DIR}/python)
set(LS_PYTHON_ENV)
set(LS_PYTHON_SELECT)
if(LOCKSTEP_SANITIZE)
  # pip's offline install runs no lockstep code: the release build's
  set(LS_PYTHON_SELECT "--select=not installs_offline")
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE LS_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libubsan.so
                  OUTPUT_VARIABLE LS_UBSAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  # the interpreter's own allocations are not the library's leaks
  set(LS_PYTHON_ENV "LD_PRELOAD=${LS_ASAN_RUNTIME}:${LS_UBSAN_RUNTIME}" ASAN_OPTIONS=detect_leaks=0)
endif()
add_test(NAME python
         COMMAND ${CMAKE_COMMAND} -E env ${LS_PYTHON_ENV} ${LS_PYTHON_TEST}
                 --work ${CMAKE_CURRENT_BINARY_DIR}/python
                 ${LS_PYTHON_SELECT} ${PROJECT_SOURCE_DIR}/python/tests/test_lockstep.py)
set_tests_properties(python PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77)
if(NOT LOCKSTEP_SANITIZE)
  add_test(NAME python_dask
           COMMAND ${LS_PYTHON_TEST} --work ${CMAKE_CURRENT_BINARY_DIR}/python_dask
                   ${PROJECT_SOURCE_DIR}/python/tests/test_dask.py)
  set_tests_properties(python_dask PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77
                       TIMEOUT 600)
endif()
