# adm (integer ADM): constants vs the spec JSON, the reference's quirks, every AVX2/AVX-512 unit
# vs C (checkasm-style), and through the API: SIMD levels vs C on whole frames, the bit-depth
# identity, output names, option semantics and refusals. `test_adm JSON --bench` times the units.
add_executable(test_adm ${CMAKE_CURRENT_LIST_DIR}/test_adm.c)
target_include_directories(test_adm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_adm PRIVATE lockstep m)
add_test(NAME adm COMMAND test_adm ${LS_SHARED_DIR}/spec/tables/adm_filters.json)

# The shared per-coefficient header builds as CUDA device code (compile only, no GPU needed).
if(LOCKSTEP_HAVE_CUDA)
  add_test(NAME adm_header_nvcc
           COMMAND ${NVCC_EXECUTABLE} -c --fmad=false --prec-div=true --prec-sqrt=true -ftz=false
                   -arch=sm_90 -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
                   -o ${CMAKE_CURRENT_BINARY_DIR}/adm_header_check.o
                   ${CMAKE_CURRENT_LIST_DIR}/adm_header_check.cu)
endif()

# The AVX2 int64 -> float conversion of the decoupling, on crafted rounding ties.
add_executable(test_adm_avx2_float ${CMAKE_CURRENT_LIST_DIR}/test_adm_avx2_float.c)
target_include_directories(test_adm_avx2_float PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_options(test_adm_avx2_float PRIVATE -mavx2 -Wno-unused-function)
target_link_libraries(test_adm_avx2_float PRIVATE lockstep)
add_test(NAME adm_avx2_float COMMAND test_adm_avx2_float)
set_tests_properties(adm_avx2_float PROPERTIES SKIP_RETURN_CODE 77)
