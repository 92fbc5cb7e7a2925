# ssim: constants vs the spec's table, scale and dB helpers, AVX2 vs C for every SSIM DSP unit
# (checkasm-style), identical frames and small-frame refusals through the public API.
# `test_ssim --bench` times 1920x1080.
add_executable(test_ssim ${CMAKE_CURRENT_LIST_DIR}/test_ssim.c)
target_include_directories(test_ssim PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_ssim PRIVATE lockstep)
add_test(NAME ssim COMMAND test_ssim ${LS_SHARED_DIR}/spec/tables/ssim_gaussian.json)
