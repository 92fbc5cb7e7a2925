/* The CUDA twins, for the registry (core/registry.c). */
#ifndef LOCKSTEP_CUDA_EXTRACTORS_H
#define LOCKSTEP_CUDA_EXTRACTORS_H

#include "core/extractor.h"

extern const LsExtractor ls_fex_psnr_cuda;
extern const LsExtractor ls_fex_psnr_hvs_cuda;
extern const LsExtractor ls_fex_motion_cuda;
extern const LsExtractor ls_fex_float_motion_cuda;
extern const LsExtractor ls_fex_vif_cuda;
extern const LsExtractor ls_fex_adm_cuda;
extern const LsExtractor ls_fex_float_ssim_cuda;
extern const LsExtractor ls_fex_ssim_cuda;
extern const LsExtractor ls_fex_float_vif_cuda;
extern const LsExtractor ls_fex_float_adm_cuda;
extern const LsExtractor ls_fex_speed_chroma_cuda;
extern const LsExtractor ls_fex_speed_temporal_cuda;
extern const LsExtractor ls_fex_cambi_cuda;

#endif
