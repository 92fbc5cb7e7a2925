# OpenCL backend (included by src/CMakeLists.txt when CL/cl.h is found). The driver is dlopen'ed
# at run time (opencl.c), so nothing links against libOpenCL; the kernels are embedded as strings.
set(LS_OPENCL_DIR ${CMAKE_CURRENT_SOURCE_DIR}/opencl)
file(GLOB LS_OPENCL_HOST_SOURCES CONFIGURE_DEPENDS ${LS_OPENCL_DIR}/*.c)
file(GLOB LS_OPENCL_KERNELS CONFIGURE_DEPENDS ${LS_OPENCL_DIR}/*.cl)
file(GLOB LS_OPENCL_KERNEL_HEADERS CONFIGURE_DEPENDS ${LS_OPENCL_DIR}/*.h ${LS_OPENCL_DIR}/*.clh
     ${CMAKE_CURRENT_SOURCE_DIR}/feature/*.h ${CMAKE_CURRENT_SOURCE_DIR}/core/*.h)
set(LS_OPENCL_EMBEDDED ${CMAKE_CURRENT_BINARY_DIR}/opencl_sources.c)
string(REPLACE ";" "|" LS_OPENCL_KERNEL_LIST "${LS_OPENCL_KERNELS}")
add_custom_command(
  OUTPUT ${LS_OPENCL_EMBEDDED}
  COMMAND ${CMAKE_COMMAND} -DSRC_DIR=${CMAKE_CURRENT_SOURCE_DIR}
          -DPRELUDE=${LS_OPENCL_DIR}/prelude.clh "-DKERNELS=${LS_OPENCL_KERNEL_LIST}"
          -DOUT=${LS_OPENCL_EMBEDDED} -P ${LS_OPENCL_DIR}/embed_kernels.cmake
  DEPENDS ${LS_OPENCL_KERNELS} ${LS_OPENCL_KERNEL_HEADERS} ${LS_OPENCL_DIR}/embed_kernels.cmake
  COMMENT "Embedding OpenCL kernels"
  VERBATIM)
target_sources(lockstep PRIVATE ${LS_OPENCL_HOST_SOURCES} ${LS_OPENCL_EMBEDDED})
target_include_directories(lockstep PRIVATE ${OPENCL_INCLUDE_DIR})
