# float_vif: constants vs the spec's table, SIMD vs C for every DSP unit (checkasm-style), the
# extractor vs an independent model of the spec for every option and prescale method, bit-depth
# identity, mutation checks, output names, refusals with their texts.
# `test_float_vif JSON --bench` times 1920x1080.
add_executable(test_float_vif ${CMAKE_CURRENT_LIST_DIR}/test_float_vif.c)
target_include_directories(test_float_vif PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_float_vif PRIVATE lockstep m)
add_test(NAME float_vif COMMAND test_float_vif ${LS_SHARED_DIR}/spec/tables/float_vif.json)
