# OpenCL backend: the integer fp32 arithmetic of src/opencl/fp32_exact.h against the host's double
# expressions (host and device), the no-double rule of the kernel sources, and each OpenCL twin
# against its CPU extractor through the public API (synthetic frames and every public fixture).
# Device tests exit 77 (skip) when no OpenCL device answers. LOCKSTEP_OPENCL_DEVICE=<text> and
# LOCKSTEP_GPU=<n> choose the device.
add_test(NAME opencl_no_double
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/opencl_no_double.py
                 ${CMAKE_C_COMPILER} ${PROJECT_SOURCE_DIR}/src)

if(LOCKSTEP_HAVE_OPENCL)
  add_executable(test_opencl_fp32 ${CMAKE_CURRENT_LIST_DIR}/test_opencl_fp32.c)
  target_include_directories(test_opencl_fp32 PRIVATE ${PROJECT_SOURCE_DIR}/src ${OPENCL_INCLUDE_DIR})
  target_link_libraries(test_opencl_fp32 PRIVATE lockstep)
  add_test(NAME opencl_fp32_host COMMAND test_opencl_fp32 host)
  add_test(NAME opencl_fp32_device COMMAND test_opencl_fp32 device)
  set_tests_properties(opencl_fp32_device PROPERTIES SKIP_RETURN_CODE 77)

  add_executable(test_opencl ${CMAKE_CURRENT_LIST_DIR}/test_opencl.c)
  target_include_directories(test_opencl PRIVATE ${PROJECT_SOURCE_DIR}/src ${OPENCL_INCLUDE_DIR})
  target_link_libraries(test_opencl PRIVATE lockstep lockstep_input)
  add_test(NAME opencl COMMAND test_opencl ${LS_FIXTURE_DIR})
  set_tests_properties(opencl PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77)
  # the integer emulation of the block divisions, forced on a device that would not need it
  add_test(NAME opencl_emulated_division COMMAND test_opencl --synthetic-only)
  set_tests_properties(opencl_emulated_division PROPERTIES SKIP_RETURN_CODE 77
                       ENVIRONMENT LOCKSTEP_OPENCL_EMULATE_DIV_SQRT=1)
endif()

# core/soft_f64.h (the binary64 emulation of the integer twins) against the CPU's double: the
# header as C on the host, and as OpenCL C on the device
add_executable(test_soft_f64 ${CMAKE_CURRENT_LIST_DIR}/test_soft_f64.c)
target_include_directories(test_soft_f64 PRIVATE ${PROJECT_SOURCE_DIR}/src ${OPENCL_INCLUDE_DIR})
target_compile_definitions(test_soft_f64 PRIVATE LOCKSTEP_HAVE_OPENCL=${LOCKSTEP_HAVE_OPENCL})
target_link_libraries(test_soft_f64 PRIVATE lockstep m)
add_test(NAME soft_f64_host COMMAND test_soft_f64 host)
if(LOCKSTEP_HAVE_OPENCL)
  add_test(NAME soft_f64_device COMMAND test_soft_f64 device)
  set_tests_properties(soft_f64_device PROPERTIES SKIP_RETURN_CODE 77)
endif()

# --parity opencl through the CLI: every public fixture with the integer VMAF models, the psnr
# twins, and vif/adm/motion with every option (tests/opencl_parity.py); skips without a device
if(LOCKSTEP_HAVE_OPENCL)
  add_test(NAME opencl_parity
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/opencl_parity.py
                   $<TARGET_FILE:lockstep_cli> ${LS_FIXTURE_DIR})
  set_tests_properties(opencl_parity PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77
                       TIMEOUT 900)
endif()
