/* What the adm twin's host file (adm.c) and adm.cu share: launch parameters (by value,
 * fixed-size types only). Every buffer is one band-sized plane, rows of w, no padding. */
#ifndef LOCKSTEP_CUDA_ADM_CUDA_H
#define LOCKSTEP_CUDA_ADM_CUDA_H

#include <stdint.h>

#define LS_ADM_THREADS 256u
#define LS_ADM_ROW_THREADS 256u /* one block per band row for the row sums */

/* One scale's DWT of both pictures (blockIdx.z: 0 reference, 1 distorted). */
typedef struct LsAdmDwtArgs {
    uint64_t src[2];      /* scale 0: samples (bytes when bpc 8, else uint16); else int32 A */
    uint64_t approx[2];   /* int32, w x h; 0 at the last scale */
    uint64_t band[2][3];  /* h, v, d: int16 at scale 0, int32 else; 0: no details */
    int32_t wi, hi, w, h; /* input and band size */
    int32_t r0, r1, c0, c1; /* rows and columns that need details */
    int32_t scale, bpc;
} LsAdmDwtArgs;

/* Decoupling and both CSFs over rows [r0, r1) x columns [c0, c1). */
typedef struct LsAdmAnalyseArgs {
    uint64_t o[3], t[3];  /* reference and distorted details (int16 at scale 0, int32 else) */
    uint64_t r[3], a[3];  /* restored and additive bands, same type */
    uint64_t f_dlm, m_dlm, f_aim, m_aim; /* int32 CSF sums (ls_adm_threshold's F and M) */
    double egl;
    uint32_t i32[3];      /* scales 1..3 fixed-point CSF factors */
    uint16_t i16[3];      /* scale 0 */
    int32_t w, r0, r1, c0, c1, scale, do_aim;
} LsAdmAnalyseArgs;

/* The row sums of one scale: blockIdx.x = row - T. Numerator (DLM, AIM) and denominator terms of
 * row i over columns [L, R), each row's sum shifted as the reference does, added into sums
 * (LsAdmScaleSums layout: num[3], aim[3], den[3] as 64-bit). */
typedef struct LsAdmRowsArgs {
    uint64_t o[3];        /* reference details: the denominator */
    uint64_t r[3], a[3];
    uint64_t f_dlm, m_dlm, f_aim, m_aim;
    uint64_t sums;        /* 9 x 64-bit, zeroed before */
    uint32_t i32[3];
    uint32_t cm_cs[3], cm_cr[3];
    uint32_t cm_rs, cm_rr;
    uint32_t den_cs, den_cr, den_rs, den_rr;
    uint16_t i16[3];
    int32_t w, h, L, R, T, scale, do_aim, den_sq;
} LsAdmRowsArgs;

#endif
