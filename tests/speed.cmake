# speed_chroma / speed_temporal: constants vs the spec's table, the AVX2/AVX-512 covariance and
# matrix products vs C (checkasm-style), both extractors on every path vs an independent model
# (every format, depth, option, weight mode and prescale method), names, identities and the
# refusals with their texts. The same test built with a mutated model (anti-alias sigma N/5)
# must see the difference. `test_speed --bench` times the units.
add_executable(test_speed ${CMAKE_CURRENT_LIST_DIR}/test_speed.c)
target_include_directories(test_speed PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_speed PRIVATE lockstep m)
add_test(NAME speed COMMAND test_speed ${LS_SHARED_DIR}/spec/tables/speed.json)

add_executable(test_speed_mutant ${CMAKE_CURRENT_LIST_DIR}/test_speed.c)
target_include_directories(test_speed_mutant PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(test_speed_mutant PRIVATE LS_MUTATE_MODEL)
target_link_libraries(test_speed_mutant PRIVATE lockstep m)
add_test(NAME speed_mutation COMMAND test_speed_mutant)

# feature/speed.h (the 25x25 statistics) compiles as CUDA device code, for the future twin.
if(LOCKSTEP_HAVE_CUDA)
  add_test(NAME speed_header_nvcc
           COMMAND ${NVCC_EXECUTABLE} -c --fmad=false --prec-div=true --prec-sqrt=true -ftz=false
                   -arch=sm_90 -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
                   -o ${CMAKE_CURRENT_BINARY_DIR}/speed_header_check.o
                   ${CMAKE_CURRENT_LIST_DIR}/speed_header_check.cu)
endif()
