/* Extractor `float_psnr`: luma PSNR on 8-bit-normalised float samples (psnr.md §4). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/extractor.h"
#include "feature/psnr.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

typedef struct FloatPsnrPriv {
    double peak, psnr_max;
    float scale;
} FloatPsnrPriv;

static int float_psnr_init(LsFex *fex, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                           unsigned h)
{
    (void)fmt, (void)w, (void)h;
    FloatPsnrPriv *p = fex->priv;
    fex->n_planes_read = 1; /* float_psnr scores luma */
    switch (bpc) {
    case 8: p->peak = 255.0, p->psnr_max = 60.0, p->scale = 1.0f; break;
    case 10: p->peak = 255.75, p->psnr_max = 72.0, p->scale = 4.0f; break;
    case 12: p->peak = 255.9375, p->psnr_max = 84.0, p->scale = 16.0f; break;
    case 16: p->peak = 255.99609375, p->psnr_max = 108.0, p->scale = 256.0f; break;
    default: return ls_fex_error(fex, "float_psnr: bit depth %u is not supported (8, 10, 12 or 16)", bpc);
    }
    return 0;
}

/* Up to 12 bit every diff² is a multiple of 2^-8 and the double chain never rounds, so an integer
 * sum of the squared sample differences, scaled once, is the reference's value. At 16 bit the
 * float products round and the single row-major double chain is replayed as written. */
static double noise_sum(const VmafPicture *ref, const VmafPicture *dis, float scale)
{
    const unsigned w = ref->w[0], h = ref->h[0];
    if (ref->bpc == 8) {
        uint64_t sse = 0;
        for (unsigned y = 0; y < h; y++) {
            const uint8_t *r = (const uint8_t *)ref->data[0] + y * ref->stride[0];
            const uint8_t *d = (const uint8_t *)dis->data[0] + y * dis->stride[0];
            for (unsigned x = 0; x < w; x++) {
                const int e = (int)r[x] - (int)d[x];
                sse += (uint64_t)(e * e);
            }
        }
        return (double)sse;
    }
    if (ref->bpc <= 12) {
        uint64_t sse = 0;
        for (unsigned y = 0; y < h; y++) {
            const uint16_t *r = (const uint16_t *)((const uint8_t *)ref->data[0] + y * ref->stride[0]);
            const uint16_t *d = (const uint16_t *)((const uint8_t *)dis->data[0] + y * dis->stride[0]);
            for (unsigned x = 0; x < w; x++) {
                const int64_t e = (int64_t)r[x] - (int64_t)d[x];
                sse += (uint64_t)(e * e);
            }
        }
        return (double)sse / ((double)scale * (double)scale);
    }
    double noise = 0;
    for (unsigned y = 0; y < h; y++) {
        const uint16_t *r = (const uint16_t *)((const uint8_t *)ref->data[0] + y * ref->stride[0]);
        const uint16_t *d = (const uint16_t *)((const uint8_t *)dis->data[0] + y * dis->stride[0]);
        for (unsigned x = 0; x < w; x++) {
            const float diff = ((float)r[x] / scale + 0) - ((float)d[x] / scale + 0);
            noise += (double)(diff * diff);
        }
    }
    return noise;
}

static int float_psnr_extract(LsFex *fex, const VmafPicture *ref, const VmafPicture *dist,
                              unsigned index, LsCollector *fc)
{
    const FloatPsnrPriv *p = fex->priv;
    double noise = noise_sum(ref, dist, p->scale);
    noise /= (double)(int)(ref->w[0] * ref->h[0]);
    const double score = MIN(10 * log10(p->peak * p->peak / MAX(noise, 1e-10)), p->psnr_max);
    return ls_collector_append(fc, "float_psnr", score, index);
}

static const char *const float_psnr_provided[] = { "float_psnr", NULL };

const LsExtractor ls_fex_float_psnr = {
    .name = "float_psnr",
    .priv_size = sizeof(FloatPsnrPriv),
    .backend = LOCKSTEP_BACKEND_CPU,
    .provided_features = float_psnr_provided,
    .init = float_psnr_init,
    .extract = float_psnr_extract,
};
