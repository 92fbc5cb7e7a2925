/* What the adm twin's host file (adm.c) and adm.cl share: the per-scale parameters, fixed by the
 * frame size and the options and uploaded once (LS_ADM_CL_NP int32 per scale), and the per-scale
 * plane offsets in a slot's block of device memory (LS_ADM_CL_NO uint64 per scale). Every plane
 * is one band-sized plane, rows of w, no padding (int16 at scale 0, int32 else). */
#ifndef LOCKSTEP_OPENCL_ADM_PARAMS_H
#define LOCKSTEP_OPENCL_ADM_PARAMS_H

enum {
    LS_ADM_P_WI, LS_ADM_P_HI, LS_ADM_P_W, LS_ADM_P_H,
    LS_ADM_P_R0, LS_ADM_P_R1, LS_ADM_P_C0, LS_ADM_P_C1,
    LS_ADM_P_L, LS_ADM_P_R, LS_ADM_P_T, LS_ADM_P_B,
    LS_ADM_P_I32, /* 3 */
    LS_ADM_P_I16 = LS_ADM_P_I32 + 3, /* 3 */
    LS_ADM_P_CM_CS = LS_ADM_P_I16 + 3, /* 3 */
    LS_ADM_P_CM_CR = LS_ADM_P_CM_CS + 3, /* 3 */
    LS_ADM_P_CM_RS = LS_ADM_P_CM_CR + 3, LS_ADM_P_CM_RR,
    LS_ADM_P_DEN_CS, LS_ADM_P_DEN_CR, LS_ADM_P_DEN_RS, LS_ADM_P_DEN_RR, LS_ADM_P_DEN_SQ,
    LS_ADM_P_DETAILS, /* 0 where the scale's details are not needed (adm_skip_scale0) */
    LS_ADM_P_APPROX,  /* 0 at the last scale: no next input */
    LS_ADM_CL_NP = 40
};

enum {
    LS_ADM_O_APPROX,             /* [2] reference, distorted */
    LS_ADM_O_BAND = 2,           /* [2][3] */
    LS_ADM_O_R = 8,              /* [3] */
    LS_ADM_O_A = 11,             /* [3] */
    LS_ADM_O_F_DLM = 14, LS_ADM_O_M_DLM, LS_ADM_O_F_AIM, LS_ADM_O_M_AIM,
    LS_ADM_CL_NO = 18
};

#endif
