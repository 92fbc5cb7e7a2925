# cambi: constants vs the spec's table, AVX2 vs C for every CAMBI DSP unit (checkasm-style), the
# extractor against a brute-force model of the spec with every option, names, refusals, heat maps.
# `test_cambi JSON --bench Y4M W H FRAME` times the stages of scale 0 on a frame.
add_executable(test_cambi ${CMAKE_CURRENT_LIST_DIR}/test_cambi.c)
target_include_directories(test_cambi PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_cambi PRIVATE lockstep m)
add_test(NAME cambi COMMAND test_cambi ${LS_SHARED_DIR}/spec/tables/cambi.json)
