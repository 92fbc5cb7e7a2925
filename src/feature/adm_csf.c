/* CSF factors of the ADM extractors. Every cast and every float/double boundary below is the
 * reference's: a float operand widened into a double expression stays exact, each (float) is one
 * rounding. */
#include <math.h>

#include "feature/adm_csf.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Watson 1997, Y channel (float literals, adm_filters.json watson97) */
static const float watson_a = 0.495f, watson_k = 0.466f, watson_f0 = 0.401f;
static const float watson_g[4] = { 1.501f, 1.0f, 0.534f, 1.0f };
static const float watson_amplitude[6][4] = {
    { 0.62171f, 0.67234f, 0.72709f, 0.67234f },   { 0.34537f, 0.41317f, 0.49428f, 0.41317f },
    { 0.18004f, 0.22727f, 0.28688f, 0.22727f },   { 0.091401f, 0.11792f, 0.15214f, 0.11792f },
    { 0.045943f, 0.059758f, 0.077727f, 0.059758f }, { 0.023013f, 0.030018f, 0.039156f, 0.030018f },
};

float ls_adm_csf_resolution(double norm_view_dist, int ref_display_height)
{
    return (float)(((norm_view_dist * (double)ref_display_height) * M_PI) / 180.0);
}

float ls_adm_watson_factor(int lambda, int theta, double norm_view_dist, int ref_display_height)
{
    const float r = ls_adm_csf_resolution(norm_view_dist, ref_display_height);
    const float temp = (float)log10(((pow(2.0, lambda + 1) * (double)watson_f0) *
                                     (double)watson_g[theta]) /
                                    (double)r);
    const float kt = watson_k * temp;
    const float q = (float)(((2.0 * (double)watson_a) * pow(10.0, (double)(kt * temp))) /
                            (double)watson_amplitude[lambda][theta]);
    return 1.0f / q;
}

/* Barten (adm_filters.json barten_csf; float literals) */
static const float barten_lum[6] = { 0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f };
static const float barten_p[6][5] = {
    { 0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f },
    { 0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f },
    { 0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f },
    { 1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f },
    { 1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f },
    { 1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f },
};
static const float barten_sa[4] = { 30.162f, 4.0627f, 1.6596f, 0.2712f };
static const float barten_mtf_a[4] = { 0.42483859630129f, 0.57243510393648f,
                                       0.000167576239164937f, 0.00255872352306433f };
static const float barten_mtf_b[4] = { 0.028f, 0.37f, 37.0f, 360.0f };
static const float barten_luminance = 100.0f;

static float lerp(float x0, float y0, float x1, float y1, float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

float ls_adm_barten_factor(int lambda, double scale, double norm_view_dist, int ref_display_height)
{
    const float r = ls_adm_csf_resolution(norm_view_dist, ref_display_height);
    const float sf = (float)((double)r / pow(2.0, lambda + 1));
    const float lum = barten_luminance;
    int i = 0;
    while (i < 4 && !(barten_lum[i] <= lum && lum <= barten_lum[i + 1]))
        i++;
    const float xl = (float)log10((double)barten_lum[i]);
    const float xr = (float)log10((double)barten_lum[i + 1]);
    const float xs = (float)log10((double)lum);
    float p[4];
    for (int m = 0; m < 4; m++)
        p[m] = lerp(xl, barten_p[i][m + 1], xr, barten_p[i + 1][m + 1], xs);
    const float a = (float)(1.0f + pow((double)(p[0] * sf), (double)p[1]));
    const float b =
        (float)(1.0f / pow(1 - exp(-pow((double)(sf / 7), 2)), (double)p[2]));
    const float csf = (float)((double)p[3] / pow((double)(a * b), 0.5));
    float mtf = 0.0f;
    for (int q = 0; q < 4; q++)
        mtf = (float)(mtf + (double)barten_mtf_a[q] * exp(-(double)(barten_mtf_b[q] * sf)));
    const float rod = (float)((double)barten_sa[0] *
                              pow(pow((double)(barten_sa[1] / lum), (double)barten_sa[2]) + 1,
                                  -(double)barten_sa[3]));
    const float cm = csf * mtf;
    return (float)((double)(cm * rod) * scale);
}

float ls_adm_native_factor(int lambda, int diag, double norm_view_dist, int ref_display_height)
{
    const float r = ls_adm_csf_resolution(norm_view_dist, ref_display_height);
    float sf = (float)((double)r / pow(2.0, lambda + 1));
    if (diag)
        sf = (float)((double)sf / 0.7);
    return (float)((0.31 + 0.69 * (double)sf) * exp(-0.29 * (double)sf));
}
