# CUDA backend. The ordered-sum reference (the algorithm the device runs, on the primitives every
# backend shares) against the sequential loop needs no GPU and runs everywhere; the twins' parity
# test needs a device and exits 77 (skip) without one. `test_cuda --bench` times the twins at
# 3840x2160.
add_executable(test_cuda_ordered_sum ${CMAKE_CURRENT_LIST_DIR}/test_cuda_ordered_sum.c
                                     ${PROJECT_SOURCE_DIR}/src/cuda/ordered_sum.c)
target_include_directories(test_cuda_ordered_sum PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_cuda_ordered_sum PRIVATE m)
add_test(NAME cuda_ordered_sum COMMAND test_cuda_ordered_sum)
# the same test on a reference whose ties ignore the running parity must see results change
add_executable(test_cuda_ordered_sum_no_ties ${CMAKE_CURRENT_LIST_DIR}/test_cuda_ordered_sum.c
                                             ${PROJECT_SOURCE_DIR}/src/cuda/ordered_sum.c)
target_include_directories(test_cuda_ordered_sum_no_ties PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(test_cuda_ordered_sum_no_ties PRIVATE LS_MUTATE_NO_TIES)
target_link_libraries(test_cuda_ordered_sum_no_ties PRIVATE m)
add_test(NAME cuda_ordered_sum_mutation COMMAND test_cuda_ordered_sum_no_ties)

if(LOCKSTEP_HAVE_CUDA)
  add_executable(test_cuda ${CMAKE_CURRENT_LIST_DIR}/test_cuda.c)
  target_include_directories(test_cuda PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(test_cuda PRIVATE lockstep_input lockstep)
  add_test(NAME cuda COMMAND test_cuda)
  set_tests_properties(cuda PROPERTIES SKIP_RETURN_CODE 77)
endif()
