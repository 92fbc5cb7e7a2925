# GPU faults (LOCKSTEP_FAULT_INJECT, src/core/fault.h) through the CLI: the Nth allocation, copy,
# launch or synchronisation fails; each run gives one line naming the call, exit 255, no report,
# no hang; a frame too large for the device is refused. OpenCL runs on PoCL in CI; CUDA skips
# (exit 77, saying why) without a device: bench/device_vmaf.sh faults runs it on a GPU.
foreach(backend opencl cuda)
  if(backend STREQUAL "opencl" AND NOT LOCKSTEP_HAVE_OPENCL)
    continue()
  endif()
  add_test(NAME gpu_faults_${backend}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/gpu_faults.py --cli ${LS_CLI}
                   --fixtures ${LS_FIXTURE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/gpu_faults_${backend}
                   --backend ${backend})
  set_tests_properties(gpu_faults_${backend} PROPERTIES FIXTURES_REQUIRED fixtures SKIP_RETURN_CODE 77)
endforeach()
