# CUDA backend (included by src/CMakeLists.txt when nvcc is found). Host glue goes into the
# library as C; each kernel file <metric>.cu becomes a fatbin (SASS for sm_80/86/89/90 and PTX for
# compute_90, so newer GPUs JIT it) embedded as the C array ls_cuda_fatbin_<metric>. The driver
# is dlopen()ed at run time: no link against libcuda, no GPU needed to build.
#
# Exactness (shared/spec/exactness.md §2): one setting for every kernel, no carve-outs.
# LOCKSTEP_CUDA_ARCH=90 builds for one architecture only (quicker device iterations).
set(LOCKSTEP_CUDA_ARCH "" CACHE STRING "build the kernels for this one sm_XX only (default: 80, 86, 89, 90 + PTX)")
if(LOCKSTEP_CUDA_ARCH)
  set(LS_CUDA_GENCODE -gencode arch=compute_${LOCKSTEP_CUDA_ARCH},code=[sm_${LOCKSTEP_CUDA_ARCH},compute_${LOCKSTEP_CUDA_ARCH}])
else()
  set(LS_CUDA_GENCODE
      -gencode arch=compute_80,code=sm_80
      -gencode arch=compute_86,code=sm_86
      -gencode arch=compute_89,code=sm_89
      -gencode arch=compute_90,code=[sm_90,compute_90])
endif()
set(LS_CUDA_NVCC_FLAGS
    --fmad=false --prec-div=true --prec-sqrt=true -ftz=false -O3 --threads 0 ${LS_CUDA_GENCODE}
    -DLS_RCP_MODE=${LOCKSTEP_RCP_MODE})
set(LS_CUDA_KERNELS frames psnr psnr_hvs motion vif adm ssim float_vif float_adm speed cambi)
set(LS_CUDA_DIR ${CMAKE_CURRENT_SOURCE_DIR}/cuda)
set(LS_CUDA_OUT ${CMAKE_CURRENT_BINARY_DIR}/cuda)
file(MAKE_DIRECTORY ${LS_CUDA_OUT})

add_executable(ls_embed_fatbin ${LS_CUDA_DIR}/embed_fatbin.c)

foreach(kernel ${LS_CUDA_KERNELS})
  set(fatbin ${LS_CUDA_OUT}/${kernel}.fatbin)
  set(embedded ${LS_CUDA_OUT}/${kernel}_fatbin.c)
  add_custom_command(
    OUTPUT ${fatbin}
    COMMAND ${NVCC_EXECUTABLE} -fatbin ${LS_CUDA_NVCC_FLAGS}
            -I${CMAKE_CURRENT_SOURCE_DIR} -I${PROJECT_SOURCE_DIR}/include
            -MD -MF ${fatbin}.d -o ${fatbin} ${LS_CUDA_DIR}/${kernel}.cu
    DEPENDS ${LS_CUDA_DIR}/${kernel}.cu
    DEPFILE ${fatbin}.d
    COMMENT "nvcc ${kernel}.cu -> ${kernel}.fatbin"
    VERBATIM)
  add_custom_command(
    OUTPUT ${embedded}
    COMMAND ls_embed_fatbin ${fatbin} ${embedded} ls_cuda_fatbin_${kernel}
    DEPENDS ls_embed_fatbin ${fatbin}
    VERBATIM)
  target_sources(lockstep PRIVATE ${embedded})
endforeach()

target_sources(lockstep PRIVATE
  ${LS_CUDA_DIR}/cuda_loader.c
  ${LS_CUDA_DIR}/ordered_sum.c
  ${LS_CUDA_DIR}/twin.c
  ${LS_CUDA_DIR}/psnr.c
  ${LS_CUDA_DIR}/psnr_hvs.c
  ${LS_CUDA_DIR}/motion.c
  ${LS_CUDA_DIR}/float_motion.c
  ${LS_CUDA_DIR}/vif.c
  ${LS_CUDA_DIR}/adm.c
  ${LS_CUDA_DIR}/float_ssim.c
  ${LS_CUDA_DIR}/ssim.c
  ${LS_CUDA_DIR}/float_vif.c
  ${LS_CUDA_DIR}/float_adm.c
  ${LS_CUDA_DIR}/speed.c
  ${LS_CUDA_DIR}/cambi.c)
