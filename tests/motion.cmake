# motion (float_motion, integer motion): taps vs the spec JSON, AVX2 vs C (checkasm-style), output
# names with option suffixes, the write schedule and the init refusals.
# `test_motion JSON --bench` times the DSP units at 1920x1080.
add_executable(test_motion ${CMAKE_CURRENT_LIST_DIR}/test_motion.c)
target_include_directories(test_motion PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_motion PRIVATE lockstep m)
add_test(NAME motion COMMAND test_motion ${LS_SHARED_DIR}/spec/tables/motion_filter.json)
