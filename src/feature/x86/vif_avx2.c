#include "feature/vif.h"
void ls_vif_sigmas_avx2(const void *const ref_rows[LS_VIF_MAX_TAPS],
                        const void *const dis_rows[LS_VIF_MAX_TAPS], unsigned w,
                        const LsVifLevel *level, int32_t *sigma1_sq, int32_t *sigma2_sq,
                        int32_t *sigma12, void *tmp)
{ ls_vif_sigmas_c(ref_rows, dis_rows, w, level, sigma1_sq, sigma2_sq, sigma12, tmp); }
void ls_vif_pixels_avx2(const int32_t *sigma1_sq, const int32_t *sigma2_sq,
                        const int32_t *sigma12, unsigned n, double gain_limit, LsVifAccum *acc)
{ ls_vif_pixels_c(sigma1_sq, sigma2_sq, sigma12, n, gain_limit, acc); }
void ls_vif_decimate_avx2(const void *const rows[LS_VIF_MAX_TAPS], unsigned w,
                          const LsVifLevel *level, uint16_t *dst, void *tmp)
{ ls_vif_decimate_c(rows, w, level, dst, tmp); }
