# float_ms_ssim: constants vs the spec's table, AVX2/AVX-512 decimation vs C (checkasm-style), the
# extractor on every path vs an independent model, options and refusals through the public API.
# The same test built with a mutated model (float decimation sums) must see the difference.
# `test_ms_ssim --bench` times the decimation units.
add_executable(test_ms_ssim ${CMAKE_CURRENT_LIST_DIR}/test_ms_ssim.c)
target_include_directories(test_ms_ssim PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_ms_ssim PRIVATE lockstep)
add_test(NAME ms_ssim COMMAND test_ms_ssim ${LS_SHARED_DIR}/spec/tables/ms_ssim.json)

add_executable(test_ms_ssim_mutant ${CMAKE_CURRENT_LIST_DIR}/test_ms_ssim.c)
target_include_directories(test_ms_ssim_mutant PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(test_ms_ssim_mutant PRIVATE LS_MUTATE_MODEL)
target_link_libraries(test_ms_ssim_mutant PRIVATE lockstep)
add_test(NAME ms_ssim_mutation COMMAND test_ms_ssim_mutant ${LS_SHARED_DIR}/spec/tables/ms_ssim.json)
