# psnr_hvs: tables vs the spec JSON, DCT cases, AVX2 vs C (checkasm-style), 4:0:0 vs
# enable_chroma=false and the init refusals through the public API.
# `test_psnr_hvs JSON --bench` times the plane sums at 1920x1080.
add_executable(test_psnr_hvs ${CMAKE_CURRENT_LIST_DIR}/test_psnr_hvs.c)
target_include_directories(test_psnr_hvs PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_psnr_hvs PRIVATE lockstep)
add_test(NAME psnr_hvs
         COMMAND test_psnr_hvs ${LS_SHARED_DIR}/spec/tables/psnr_hvs_csf.json)
