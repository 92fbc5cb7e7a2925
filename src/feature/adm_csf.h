/* CSF factors of the ADM extractors: the float factor per scale and orientation that weights the
 * wavelet bands. Host code (glibc's log10, pow, exp, as the reference calls them); the integer
 * ADM turns the same floats into its fixed-point factors, so both extractors share this.
 * Spec: features/adm.md §6.1, §6.4 (Watson 1997, Barten), features/float_adm.md §7.2 (the float
 * ADM's "native" CSF); constants: tables/adm_filters.json (watson97, barten_csf). */
#ifndef LOCKSTEP_FEATURE_ADM_CSF_H
#define LOCKSTEP_FEATURE_ADM_CSF_H

/* Orientation index of the Watson tables: 1 = the h and v bands, 2 = the d band. */
enum { LS_ADM_THETA_HV = 1, LS_ADM_THETA_D = 2 };

/* (float)(((nvd * rdh) * pi) / 180): the display's resolution in cycles per degree times 2. */
float ls_adm_csf_resolution(double norm_view_dist, int ref_display_height);

/* Watson 1997: 1.0f / Q(lambda, theta) for scale lambda 0..3. */
float ls_adm_watson_factor(int lambda, int theta, double norm_view_dist, int ref_display_height);

/* Barten's CSF at 100 cd/m2 times `scale` (adm.md §6.4), scale lambda 0..3. */
float ls_adm_barten_factor(int lambda, double scale, double norm_view_dist,
                           int ref_display_height);

/* float ADM's "ADM native" CSF (float_adm.md §7.2, adm_csf_mode=2): theta 0 for h/v, 45 degrees
 * (diag != 0) for d. */
float ls_adm_native_factor(int lambda, int diag, double norm_view_dist, int ref_display_height);

#endif
