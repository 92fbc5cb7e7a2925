/* PSNR-HVS tables (psnr_hvs.md §4), shared by the CPU extractor, its AVX2 variant and the CUDA
 * and OpenCL kernels. Index [plane][8 * i + j]: plane 0 = luma, 1 = cb, 2 = cr (the chroma tables
 * serve every subsampling); i = row (vertical frequency), j = column.
 *
 * Literals are binary32 values written as C99 hex floats, so every compiler (gcc, nvcc, OpenCL C)
 * reads the same bits. csf: the reference's decimal literals rounded once to binary32
 * (shared/spec/tables/psnr_hvs_csf.json, float32_hex). mask: (float)((csf * K) * (csf * K)) with
 * K = 0.3885746225901003 and every step before the final rounding in double; kept as constants
 * because fp64-free devices cannot build it, and a float-only build of it is wrong in 98 of the
 * 192 entries. tests/test_psnr_hvs.c checks both tables against the JSON.
 *
 * Storage: LS_CONSTANT (core/portable.h): __constant in OpenCL C, constant memory in CUDA device
 * code, static const elsewhere. */
#ifndef LOCKSTEP_FEATURE_PSNR_HVS_TABLES_H
#define LOCKSTEP_FEATURE_PSNR_HVS_TABLES_H

#include "core/portable.h"

/* contrast sensitivity weights */
LS_CONSTANT float ls_psnr_hvs_csf[3][64] = {
    {
        0x1.9e902ap+0f, 0x1.2523f2p+1f, 0x1.0ae47ap+1f, 0x1.7bd134p+0f, 0x1.00951ap+0f, 0x1.5b49bep-1f, 0x1.dd6a1p-2f, 0x1.4e586ap-2f,
        0x1.2523f2p+1f, 0x1.f176bep+0f, 0x1.062298p+1f, 0x1.aff39ep+0f, 0x1.3b066cp+0f, 0x1.bce32p-1f, 0x1.39c238p-1f, 0x1.bee12ap-2f,
        0x1.0ae47ap+1f, 0x1.062298p+1f, 0x1.57e1dep+0f, 0x1.179102p+0f, 0x1.c06226p-1f, 0x1.577df8p-1f, 0x1.00e302p-1f, 0x1.7d71c2p-2f,
        0x1.7bd134p+0f, 0x1.aff39ep+0f, 0x1.179102p+0f, 0x1.8baf0ap-1f, 0x1.3615f8p-1f, 0x1.eeb036p-2f, 0x1.858f4cp-2f, 0x1.2edf64p-2f,
        0x1.00951ap+0f, 0x1.3b066cp+0f, 0x1.c06226p-1f, 0x1.3615f8p-1f, 0x1.cbc5acp-2f, 0x1.695bcep-2f, 0x1.21cc96p-2f, 0x1.d0cbdep-3f,
        0x1.5b49bep-1f, 0x1.bce32p-1f, 0x1.577df8p-1f, 0x1.eeb036p-2f, 0x1.695bcep-2f, 0x1.14cef6p-2f, 0x1.b85b38p-3f, 0x1.648468p-3f,
        0x1.dd6a1p-2f, 0x1.39c238p-1f, 0x1.00e302p-1f, 0x1.858f4cp-2f, 0x1.21cc96p-2f, 0x1.b85b38p-3f, 0x1.59d846p-3f, 0x1.16d7ep-3f,
        0x1.4e586ap-2f, 0x1.bee12ap-2f, 0x1.7d71c2p-2f, 0x1.2edf64p-2f, 0x1.d0cbdep-3f, 0x1.648468p-3f, 0x1.16d7ep-3f, 0x1.beceb4p-4f,
    },
    {
        0x1.e93fe2p+0f, 0x1.3af998p+1f, 0x1.2ecebap+0f, 0x1.265afap+0f, 0x1.0cd7fep+0f, 0x1.cbc92p-1f, 0x1.7e981p-1f, 0x1.3aef1ep-1f,
        0x1.3af998p+1f, 0x1.95d5c4p+0f, 0x1.36b09ep+0f, 0x1.61c438p+0f, 0x1.54bc8ap+0f, 0x1.2c9dfap+0f, 0x1.fe28b6p-1f, 0x1.a96a78p-1f,
        0x1.2ecebap+0f, 0x1.36b09ep+0f, 0x1.f519ccp-1f, 0x1.06b8p+0f, 0x1.080d34p+0f, 0x1.eb8d08p-1f, 0x1.b31c0ep-1f, 0x1.7662a2p-1f,
        0x1.265afap+0f, 0x1.61c438p+0f, 0x1.06b8p+0f, 0x1.b8fe9cp-1f, 0x1.9a884cp-1f, 0x1.80bc6ep-1f, 0x1.5eec8ep-1f, 0x1.37a6d6p-1f,
        0x1.0cd7fep+0f, 0x1.54bc8ap+0f, 0x1.080d34p+0f, 0x1.9a884cp-1f, 0x1.5a657ap-1f, 0x1.360484p-1f, 0x1.199c3ep-1f, 0x1.fbb43p-2f,
        0x1.cbc92p-1f, 0x1.2c9dfap+0f, 0x1.eb8d08p-1f, 0x1.80bc6ep-1f, 0x1.360484p-1f, 0x1.078368p-1f, 0x1.d1420ap-2f, 0x1.a0d1ccp-2f,
        0x1.7e981p-1f, 0x1.fe28b6p-1f, 0x1.b31c0ep-1f, 0x1.5eec8ep-1f, 0x1.199c3ep-1f, 0x1.d1420ap-2f, 0x1.8e9398p-2f, 0x1.5e920cp-2f,
        0x1.3aef1ep-1f, 0x1.a96a78p-1f, 0x1.7662a2p-1f, 0x1.37a6d6p-1f, 0x1.fbb43p-2f, 0x1.a0d1ccp-2f, 0x1.5e920cp-2f, 0x1.2e9f94p-2f,
    },
    {
        0x1.04f4c6p+1f, 0x1.5000c4p+1f, 0x1.4305f2p+0f, 0x1.1c35eep+0f, 0x1.039408p+0f, 0x1.bbf084p-1f, 0x1.716882p-1f, 0x1.301484p-1f,
        0x1.5000c4p+1f, 0x1.b0edcep+0f, 0x1.2bfb76p+0f, 0x1.5593p+0f, 0x1.48fe48p+0f, 0x1.2241aep+0f, 0x1.ec93acp-1f, 0x1.9ac11ap-1f,
        0x1.4305f2p+0f, 0x1.2bfb76p+0f, 0x1.e3d4acp-1f, 0x1.fb5426p-1f, 0x1.fde70cp-1f, 0x1.da9c2cp-1f, 0x1.a41d2ap-1f, 0x1.697b7ep-1f,
        0x1.1c35eep+0f, 0x1.5593p+0f, 0x1.fb5426p-1f, 0x1.a9cbcap-1f, 0x1.8c624p-1f, 0x1.7379f8p-1f, 0x1.52d46ap-1f, 0x1.2ce932p-1f,
        0x1.039408p+0f, 0x1.48fe48p+0f, 0x1.fde70cp-1f, 0x1.8c624p-1f, 0x1.4e7548p-1f, 0x1.2b5548p-1f, 0x1.0fe7a4p-1f, 0x1.ea34cep-2f,
        0x1.bbf084p-1f, 0x1.2241aep+0f, 0x1.da9c2cp-1f, 0x1.7379f8p-1f, 0x1.2b5548p-1f, 0x1.fcdcf6p-2f, 0x1.c13926p-2f, 0x1.927446p-2f,
        0x1.716882p-1f, 0x1.ec93acp-1f, 0x1.a41d2ap-1f, 0x1.52d46ap-1f, 0x1.0fe7a4p-1f, 0x1.c13926p-2f, 0x1.80d706p-2f, 0x1.527d06p-2f,
        0x1.301484p-1f, 0x1.9ac11ap-1f, 0x1.697b7ep-1f, 0x1.2ce932p-1f, 0x1.ea34cep-2f, 0x1.927446p-2f, 0x1.527d06p-2f, 0x1.243196p-2f,
    },
};

/* masking weights */
LS_CONSTANT float ls_psnr_hvs_mask[3][64] = {
    {
        0x1.95764cp-2f, 0x1.95764cp-1f, 0x1.501a36p-1f, 0x1.545812p-2f, 0x1.36a2fcp-3f, 0x1.1c8b2p-4f, 0x1.0cdcbap-5f, 0x1.07baep-6f,
        0x1.95764cp-1f, 0x1.23eb3p-1f, 0x1.443a26p-1f, 0x1.b8305ep-2f, 0x1.d44324p-3f, 0x1.d2f2bep-4f, 0x1.d08144p-5f, 0x1.d723cep-6f,
        0x1.501a36p-1f, 0x1.443a26p-1f, 0x1.16fd6cp-2f, 0x1.70c806p-3f, 0x1.da50fp-4f, 0x1.165b6cp-4f, 0x1.375fbcp-5f, 0x1.574434p-6f,
        0x1.545812p-2f, 0x1.b8305ep-2f, 0x1.70c806p-3f, 0x1.715f86p-4f, 0x1.c5b192p-5f, 0x1.20ab9ep-5f, 0x1.66072ep-6f, 0x1.b0d4ep-7f,
        0x1.36a2fcp-3f, 0x1.d44324p-3f, 0x1.da50fp-4f, 0x1.c5b192p-5f, 0x1.f2b792p-6f, 0x1.34114p-6f, 0x1.8c4594p-7f, 0x1.fdad1ap-8f,
        0x1.1c8b2p-4f, 0x1.d2f2bep-4f, 0x1.165b6cp-4f, 0x1.20ab9ep-5f, 0x1.34114p-6f, 0x1.698a7ep-7f, 0x1.c97c4cp-8f, 0x1.2bde2cp-8f,
        0x1.0cdcbap-5f, 0x1.d08144p-5f, 0x1.375fbcp-5f, 0x1.66072ep-6f, 0x1.8c4594p-7f, 0x1.c97c4cp-8f, 0x1.1a2ef2p-8f, 0x1.6ee03cp-9f,
        0x1.07baep-6f, 0x1.d723cep-6f, 0x1.574434p-6f, 0x1.b0d4ep-7f, 0x1.fdad1ap-8f, 0x1.2bde2cp-8f, 0x1.6ee03cp-9f, 0x1.d6fce2p-10f,
    },
    {
        0x1.1a5b98p-1f, 0x1.d41d02p-1f, 0x1.b0a542p-3f, 0x1.98d48p-3f, 0x1.5508e8p-3f, 0x1.f2bf1p-4f, 0x1.5956b2p-4f, 0x1.d3fddep-5f,
        0x1.d41d02p-1f, 0x1.84919ep-2f, 0x1.c7768ep-3f, 0x1.274226p-2f, 0x1.11e8aep-2f, 0x1.aa68acp-3f, 0x1.33021cp-3f, 0x1.aaf80ep-4f,
        0x1.b0a542p-3f, 0x1.c7768ep-3f, 0x1.2833e6p-3f, 0x1.45ac26p-3f, 0x1.48fc38p-3f, 0x1.1d0536p-3f, 0x1.bea61ap-4f, 0x1.4aadcap-4f,
        0x1.98d48p-3f, 0x1.274226p-2f, 0x1.45ac26p-3f, 0x1.cad00ap-4f, 0x1.8d9daep-4f, 0x1.5d3768p-4f, 0x1.228864p-4f, 0x1.ca4992p-5f,
        0x1.5508e8p-3f, 0x1.11e8aep-2f, 0x1.48fc38p-3f, 0x1.8d9daep-4f, 0x1.1b158ep-4f, 0x1.c57e82p-5f, 0x1.76317ep-5f, 0x1.300f74p-5f,
        0x1.f2bf1p-4f, 0x1.aa68acp-3f, 0x1.1d0536p-3f, 0x1.5d3768p-4f, 0x1.c57e82p-5f, 0x1.47a534p-5f, 0x1.feb064p-6f, 0x1.99e346p-6f,
        0x1.5956b2p-4f, 0x1.33021cp-3f, 0x1.bea61ap-4f, 0x1.228864p-4f, 0x1.76317ep-5f, 0x1.feb064p-6f, 0x1.76cb34p-6f, 0x1.21f29ap-6f,
        0x1.d3fddep-5f, 0x1.aaf80ep-4f, 0x1.4aadcap-4f, 0x1.ca4992p-5f, 0x1.300f74p-5f, 0x1.99e346p-6f, 0x1.21f29ap-6f, 0x1.b01e9p-7f,
    },
    {
        0x1.415132p-1f, 0x1.0a59fep+0f, 0x1.ec5768p-3f, 0x1.7d22bcp-3f, 0x1.3deed2p-3f, 0x1.d0f602p-4f, 0x1.41f1fcp-4f, 0x1.b44a2cp-5f,
        0x1.0a59fep+0f, 0x1.ba2edcp-2f, 0x1.a89c1ep-3f, 0x1.1341e8p-2f, 0x1.feb556p-3f, 0x1.8d860ep-3f, 0x1.1e361cp-3f, 0x1.8e0bcp-4f,
        0x1.ec5768p-3f, 0x1.a89c1ep-3f, 0x1.142346p-3f, 0x1.2f9c76p-3f, 0x1.32b31ap-3f, 0x1.09b686p-3f, 0x1.a06484p-4f, 0x1.34474ap-4f,
        0x1.7d22bcp-3f, 0x1.1341e8p-2f, 0x1.2f9c76p-3f, 0x1.abbb7ep-4f, 0x1.72ae68p-4f, 0x1.458f7p-4f, 0x1.0eda18p-4f, 0x1.ab3e2ap-5f,
        0x1.3deed2p-3f, 0x1.feb556p-3f, 0x1.32b31ap-3f, 0x1.72ae68p-4f, 0x1.07e86cp-4f, 0x1.a6c632p-5f, 0x1.5cd86p-5f, 0x1.1b7692p-5f,
        0x1.d0f602p-4f, 0x1.8d860ep-3f, 0x1.09b686p-3f, 0x1.458f7p-4f, 0x1.a6c632p-5f, 0x1.317356p-5f, 0x1.dc183cp-6f, 0x1.7e1f2ep-6f,
        0x1.41f1fcp-4f, 0x1.1e361cp-3f, 0x1.a06484p-4f, 0x1.0eda18p-4f, 0x1.5cd86p-5f, 0x1.dc183cp-6f, 0x1.5d67bp-6f, 0x1.0e4e74p-6f,
        0x1.b44a2cp-5f, 0x1.8e0bcp-4f, 0x1.34474ap-4f, 0x1.ab3e2ap-5f, 0x1.1b7692p-5f, 0x1.7e1f2ep-6f, 0x1.0e4e74p-6f, 0x1.92d8fp-7f,
    },
};

#endif
