# vif (integer VIF): taps, constants and the log2 table vs the spec JSON, every AVX2 and AVX-512
# unit vs C (checkasm-style), a mutation check of the per-pixel rounding, names with option
# suffixes, skip_scale0 and debug outputs, the 8-bit vs shifted identity and the size refusals
# through the public API. `test_vif --bench` times the units at 1920x1080.
add_executable(test_vif ${CMAKE_CURRENT_LIST_DIR}/test_vif.c)
target_include_directories(test_vif PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_vif PRIVATE lockstep m)
add_test(NAME vif COMMAND test_vif ${LS_SHARED_DIR}/spec/tables/vif_filters.json)
