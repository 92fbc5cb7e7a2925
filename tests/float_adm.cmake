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
