# adm (integer ADM): constants vs the spec JSON, the reference's quirks, every AVX2/AVX-512 unit
# vs C (checkasm-style), and through the API: SIMD levels vs C on whole frames, the bit-depth
# identity, output names, option semantics and refusals. `test_adm JSON --bench` times the units.
add_executable(test_adm ${CMAKE_CURRENT_LIST_DIR}/test_adm.c)
target_include_directories(test_adm PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_adm PRIVATE lockstep m)
add_test(NAME adm COMMAND test_adm ${LS_SHARED_DIR}/spec/tables/adm_filters.json)
