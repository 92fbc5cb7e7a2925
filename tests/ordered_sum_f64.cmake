# core/ordered_sum_f64.h (the binary64 chains of the OpenCL ssim twins in parallel) on the host,
# every result against the sequential double chain.
add_executable(test_ordered_sum_f64 ${CMAKE_CURRENT_LIST_DIR}/test_ordered_sum_f64.c)
target_include_directories(test_ordered_sum_f64 PRIVATE ${PROJECT_SOURCE_DIR}/src)
add_test(NAME ordered_sum_f64 COMMAND test_ordered_sum_f64)
