/* The one list of extractors. One entry per line; GPU twins behind their backend's switch. */
#include <stddef.h>
#include <string.h>

#include "core/registry.h"
#include "feature/adm.h"
#include "feature/motion.h"
#include "feature/psnr.h"
#include "feature/psnr_hvs.h"
#include "feature/ssim.h"
#if LOCKSTEP_HAVE_CUDA
#include "cuda/extractors.h"
#endif
#if LOCKSTEP_HAVE_OPENCL
#include "opencl/extractors.h"
#endif

const LsExtractor *const ls_extractors[] = {
    &ls_fex_psnr,
    &ls_fex_float_psnr,
    &ls_fex_psnr_hvs,
    &ls_fex_float_motion,
    &ls_fex_motion,
    &ls_fex_float_ssim,
    &ls_fex_ssim,
    &ls_fex_adm,
#if LOCKSTEP_HAVE_CUDA
    &ls_fex_psnr_cuda,
    &ls_fex_psnr_hvs_cuda,
#endif
#if LOCKSTEP_HAVE_OPENCL
    &ls_fex_psnr_opencl,
    &ls_fex_psnr_hvs_opencl,
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
