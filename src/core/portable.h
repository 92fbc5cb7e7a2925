/* Portability of the code that one header gives to several compilers: host C11, CUDA (nvcc, both
 * passes) and OpenCL C 1.2 (kernel sources embedded by src/opencl/embed_kernels.cmake). Include it
 * with a quoted path, "core/portable.h", so that the OpenCL embedding finds it too. Nothing here
 * needs libc in the OpenCL path. An includer may define any of the macros first. */
#ifndef LOCKSTEP_CORE_PORTABLE_H
#define LOCKSTEP_CORE_PORTABLE_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define LS_OPENCL_C 1
#endif

/* Functions that run on the host and, under nvcc, on the device (which must be compiled with
 * --fmad=false so that both sides round the same operations). */
#ifndef LS_HD
#if defined(__CUDACC__)
#define LS_HD __host__ __device__
#else
#define LS_HD
#endif
#endif

/* Storage of read-only tables used by shared functions: each side reads a table of its own.
 *   OpenCL C: __constant (program-scope constant address space)
 *   CUDA:     static __constant__ const in nvcc's device pass, static const in its host pass
 *   C:        static const */
#ifndef LS_CONSTANT
#if defined(LS_OPENCL_C)
#define LS_CONSTANT __constant
#elif defined(__CUDACC__) && defined(__CUDA_ARCH__)
#define LS_CONSTANT static __constant__ const
#else
#define LS_CONSTANT static const
#endif
#endif

/* The address space of a pointer to an LS_CONSTANT table (OpenCL C: __constant; elsewhere none). */
#ifndef LS_CONSTANT_SPACE
#if defined(LS_OPENCL_C)
#define LS_CONSTANT_SPACE __constant
#else
#define LS_CONSTANT_SPACE
#endif
#endif

/* Address spaces of pointer parameters in OpenCL C 1.2 (which has no generic address space). */
#ifndef LS_GLOBAL
#if defined(LS_OPENCL_C)
#define LS_GLOBAL __global
#else
#define LS_GLOBAL
#endif
#endif
#ifndef LS_LOCAL
#if defined(LS_OPENCL_C)
#define LS_LOCAL __local
#else
#define LS_LOCAL
#endif
#endif

/* Fixed-width integers and the bits of a binary32, without <stdint.h> or memcpy in OpenCL C. */
#if defined(LS_OPENCL_C)
typedef int ls_i32;
typedef uint ls_u32;
typedef long ls_i64;
typedef ulong ls_u64;
/* <stdint.h>'s names, for the shared headers that use them (OpenCL C has no such header) */
typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
static inline ls_u32 ls_float_bits(float f) { return as_uint(f); }
static inline float ls_bits_float(ls_u32 u) { return as_float(u); }
#else
#include <stdint.h>
#include <string.h>
typedef int32_t ls_i32;
typedef uint32_t ls_u32;
typedef int64_t ls_i64;
typedef uint64_t ls_u64;
LS_HD static inline ls_u32 ls_float_bits(float f)
{
    ls_u32 u;
    memcpy(&u, &f, sizeof(u));
    return u;
}
LS_HD static inline float ls_bits_float(ls_u32 u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}
#endif

#endif
