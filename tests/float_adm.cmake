# float_adm: constants vs the spec's table, the approximate reciprocal vs the host's instruction,
# AVX2 vs C for every unit (checkasm-style), whole frames vs a direct implementation of the spec,
# options, names, refusals, and mutation checks on p01 frame 0 (needs the decompressed fixtures).
# `test_float_adm JSON FIXTURES --exhaustive` also sweeps all 2^32 reciprocal inputs (~1 min).
add_executable(test_float_adm ${CMAKE_CURRENT_LIST_DIR}/test_float_adm.c)
target_include_directories(test_float_adm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_float_adm PRIVATE lockstep m)
add_test(NAME float_adm
         COMMAND test_float_adm ${LS_SHARED_DIR}/spec/tables/float_adm.json ${LS_FIXTURE_DIR})
set_tests_properties(float_adm PROPERTIES FIXTURES_REQUIRED fixtures)

# The shared header must stay device code: compile it with nvcc (exactness flags of the CUDA
# backend) where nvcc exists.
if(LOCKSTEP_HAVE_CUDA AND NVCC_EXECUTABLE)
  add_test(NAME float_adm_nvcc
           COMMAND ${NVCC_EXECUTABLE} --fmad=false --prec-div=true --prec-sqrt=true -ftz=false
                   -arch=sm_80 -DLS_RCP_MODE=${LOCKSTEP_RCP_MODE} -I${PROJECT_SOURCE_DIR}/src
                   -I${PROJECT_SOURCE_DIR}/include -c ${CMAKE_CURRENT_LIST_DIR}/float_adm_device.cu
                   -o ${CMAKE_CURRENT_BINARY_DIR}/float_adm_device.o)
endif()
