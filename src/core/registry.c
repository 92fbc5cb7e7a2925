/* The one list of extractors. One entry per line; GPU twins behind their backend's switch.
 * CPU extractors in libvmaf's order (model.md §3.1): a model feature is computed by the first
 * one that provides it, should two ever provide the same name. */
#include <stddef.h>
#include <string.h>

#include "core/registry.h"
#include "feature/float_adm.h"
#include "feature/cambi.h"
#include "feature/float_vif.h"
#include "feature/ciede.h"
#include "feature/adm.h"
#include "feature/motion.h"
#include "feature/ms_ssim.h"
#include "feature/psnr.h"
#include "feature/psnr_hvs.h"
#include "feature/speed.h"
#include "feature/ssim.h"
#include "feature/vif.h"
#if LOCKSTEP_HAVE_CUDA
#include "cuda/extractors.h"
#endif
#if LOCKSTEP_HAVE_OPENCL
#include "opencl/extractors.h"
#endif

const LsExtractor *const ls_extractors[] = {
    &ls_fex_float_psnr,
    &ls_fex_float_adm,
    &ls_fex_float_vif,
    &ls_fex_float_motion,
    &ls_fex_speed_chroma,
    &ls_fex_speed_temporal,
    &ls_fex_float_ms_ssim,
    &ls_fex_float_ssim,
    &ls_fex_ciede,
    &ls_fex_psnr,
    &ls_fex_psnr_hvs,
    &ls_fex_adm,
    &ls_fex_motion,
    &ls_fex_vif,
    &ls_fex_cambi,
    &ls_fex_ssim,
#if LOCKSTEP_HAVE_CUDA
    &ls_fex_psnr_cuda,
    &ls_fex_psnr_hvs_cuda,
    &ls_fex_float_motion_cuda,
    &ls_fex_motion_cuda,
    &ls_fex_vif_cuda,
    &ls_fex_adm_cuda,
    &ls_fex_float_ssim_cuda,
    &ls_fex_ssim_cuda,
    &ls_fex_float_vif_cuda,
    &ls_fex_float_adm_cuda,
    &ls_fex_speed_chroma_cuda,
    &ls_fex_speed_temporal_cuda,
    &ls_fex_cambi_cuda,
#endif
#if LOCKSTEP_HAVE_OPENCL
    &ls_fex_psnr_opencl,
    &ls_fex_psnr_hvs_opencl,
    &ls_fex_vif_opencl,
    &ls_fex_adm_opencl,
    &ls_fex_motion_opencl,
    &ls_fex_float_motion_opencl,
    &ls_fex_ssim_opencl,
    &ls_fex_float_ssim_opencl,
    &ls_fex_float_vif_opencl,
    &ls_fex_float_adm_opencl,
#endif
    NULL,
};

const LsExtractor *ls_extractor_find(const char *name, enum LockstepBackend backend)
{
    for (unsigned i = 0; ls_extractors[i]; i++) {
        const LsExtractor *ex = ls_extractors[i];
        if (ex->backend != backend)
            continue;
        const char *cpu_name = ex->cpu_twin ? ex->cpu_twin->name : ex->name;
        if (!strcmp(cpu_name, name))
            return ex;
    }
    return NULL;
}

const char *lockstep_extractor_name(unsigned i, enum LockstepBackend *backend)
{
    for (unsigned k = 0; ls_extractors[k]; k++) {
        if (k == i) {
            if (backend)
                *backend = ls_extractors[k]->backend;
            return ls_extractors[k]->name;
        }
    }
    return NULL;
}

const LsExtractor *ls_extractor_providing(const char *feature)
{
    for (unsigned i = 0; ls_extractors[i]; i++) {
        const LsExtractor *ex = ls_extractors[i];
        if (ex->backend != LOCKSTEP_BACKEND_CPU || !ex->provided_features)
            continue;
        for (const char *const *p = ex->provided_features; *p; p++)
            if (!strcmp(*p, feature))
                return ex;
    }
    return NULL;
}
