# ciede: constants vs the spec's table, the SIMD approximations vs glibc (within a quarter of
# their certified bounds), AVX2/AVX-512 Lab and dE units vs C pixel for pixel, 4:2:2 and odd 4:2:0
# vs their 4:4:4 up-sampled copies and the refusals through the public API. A mutant SIMD copy
# (inaccurate exp) must be caught by the same checks. `test_ciede --bench` times the units;
# `test_ciede TABLE --exhaustive` sweeps every 8-bit (Y, U, V).
add_executable(test_ciede ${CMAKE_CURRENT_LIST_DIR}/test_ciede.c)
target_include_directories(test_ciede PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_ciede PRIVATE lockstep)
add_test(NAME ciede COMMAND test_ciede ${LS_SHARED_DIR}/spec/tables/ciede.json)

if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|i.86")
  add_executable(test_ciede_mutant ${CMAKE_CURRENT_LIST_DIR}/test_ciede.c
                                   ${PROJECT_SOURCE_DIR}/src/feature/x86/ciede_avx2.c)
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/feature/x86/ciede_avx2.c
                              TARGET_DIRECTORY test_ciede_mutant PROPERTIES COMPILE_OPTIONS "-mavx2")
  target_include_directories(test_ciede_mutant PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(test_ciede_mutant PRIVATE LS_CIEDE_MUTANT)
  target_link_libraries(test_ciede_mutant PRIVATE lockstep)
  add_test(NAME ciede_mutation COMMAND test_ciede_mutant)
  set_tests_properties(ciede_mutation PROPERTIES SKIP_RETURN_CODE 77)
endif()

# feature/ciede.h and feature/ms_ssim.h compile under nvcc (for their future GPU twins).
if(LOCKSTEP_HAVE_CUDA)
  add_test(NAME shared_headers_nvcc
           COMMAND ${NVCC_EXECUTABLE} -c --fmad=false --prec-div=true --prec-sqrt=true -ftz=false
                   -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
                   -o ${CMAKE_CURRENT_BINARY_DIR}/shared_headers.o
                   ${CMAKE_CURRENT_LIST_DIR}/shared_headers.cu)
endif()
