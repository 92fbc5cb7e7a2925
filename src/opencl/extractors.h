/* The OpenCL twins, for the registry. */
#ifndef LOCKSTEP_OPENCL_EXTRACTORS_H
#define LOCKSTEP_OPENCL_EXTRACTORS_H

#include "core/extractor.h"

extern const LsExtractor ls_fex_psnr_opencl;
extern const LsExtractor ls_fex_psnr_hvs_opencl;
extern const LsExtractor ls_fex_vif_opencl;
extern const LsExtractor ls_fex_adm_opencl;
extern const LsExtractor ls_fex_motion_opencl;
extern const LsExtractor ls_fex_float_motion_opencl;
extern const LsExtractor ls_fex_ssim_opencl;
extern const LsExtractor ls_fex_float_ssim_opencl;
extern const LsExtractor ls_fex_float_vif_opencl;
extern const LsExtractor ls_fex_float_adm_opencl;

#endif
