/* SpEED anti-alias Gaussian taps for every odd width 3..37 (speed.md §4.2: standard deviation
 * F(2N / 5), twice the float_vif window's), concatenated in width order: width N starts at
 * LS_SPEED_ANTIALIAS_OFFSET(N). Valid kernel scales reach widths 5..35 (default 9). Literals are
 * the binary32 values of shared/spec/tables/speed.json (antialias_taps_by_width, taps_hex) as C99
 * hex floats; tests/test_speed.c checks each one against the JSON. The local-mean filter's taps
 * (standard deviation N / 5) are float_vif's (float_vif_taps.h), as the reference's are.
 *
 * Storage: LS_CONSTANT (core/portable.h): constant memory in CUDA device code, static const
 * elsewhere. */
#ifndef LOCKSTEP_FEATURE_SPEED_TAPS_H
#define LOCKSTEP_FEATURE_SPEED_TAPS_H

#include "core/portable.h"

#define LS_SPEED_MAX_ANTIALIAS_TAPS 37

/* widths 3, 5, ..., N-2 hold ((N-1)/2)^2 - 1 taps */
#define LS_SPEED_ANTIALIAS_OFFSET(n) ((((n) - 1) / 2) * (((n) - 1) / 2) - 1)

LS_CONSTANT float
    ls_speed_antialias_taps[LS_SPEED_ANTIALIAS_OFFSET(LS_SPEED_MAX_ANTIALIAS_TAPS + 2)] = {
    /* 3 */ 0x1.2bd792p-2f, 0x1.a850dcp-2f, 0x1.2bd792p-2f,
    /* 5 */ 0x1.3841bep-3f, 0x1.c654bcp-3f, 0x1.016988p-2f, 0x1.c654bcp-3f, 0x1.3841bep-3f,
    /* 7 */ 0x1.9f82cp-4f, 0x1.1dc8e6p-3f, 0x1.5a0b38p-3f, 0x1.70d4f6p-3f, 0x1.5a0b38p-3f,
    0x1.1dc8e6p-3f, 0x1.9f82cp-4f,
    /* 9 */ 0x1.35db8cp-4f, 0x1.95ed7p-4f, 0x1.ec4b3cp-4f, 0x1.1459bp-3f, 0x1.1f3866p-3f,
    0x1.1459bp-3f, 0x1.ec4b3cp-4f, 0x1.95ed7p-4f, 0x1.35db8cp-4f,
    /* 11 */ 0x1.ed2878p-5f, 0x1.371a18p-4f, 0x1.74bfccp-4f, 0x1.a8210ep-4f, 0x1.ca4c06p-4f,
    0x1.d6498ap-4f, 0x1.ca4c06p-4f, 0x1.a8210ep-4f, 0x1.74bfccp-4f, 0x1.371a18p-4f, 0x1.ed2878p-5f,
    /* 13 */ 0x1.992978p-5f, 0x1.f57472p-5f, 0x1.28205ep-4f, 0x1.510c34p-4f, 0x1.71b216p-4f,
    0x1.86c88cp-4f, 0x1.8e13ap-4f, 0x1.86c88cp-4f, 0x1.71b216p-4f, 0x1.510c34p-4f, 0x1.28205ep-4f,
    0x1.f57472p-5f, 0x1.992978p-5f,
    /* 15 */ 0x1.5d72f6p-5f, 0x1.a29956p-5f, 0x1.e7b20cp-5f, 0x1.1450dp-4f, 0x1.30876ap-4f,
    0x1.466dacp-4f, 0x1.545122p-4f, 0x1.591398p-4f, 0x1.545122p-4f, 0x1.466dacp-4f, 0x1.30876ap-4f,
    0x1.1450dp-4f, 0x1.e7b20cp-5f, 0x1.a29956p-5f, 0x1.5d72f6p-5f,
    /* 17 */ 0x1.30dc86p-5f, 0x1.668b8ep-5f, 0x1.9ca91ep-5f, 0x1.d0c866p-5f, 0x1.0024f6p-4f,
    0x1.1448fcp-4f, 0x1.23a244p-4f, 0x1.2d3fdap-4f, 0x1.308648p-4f, 0x1.2d3fdap-4f, 0x1.23a244p-4f,
    0x1.1448fcp-4f, 0x1.0024f6p-4f, 0x1.d0c866p-5f, 0x1.9ca91ep-5f, 0x1.668b8ep-5f, 0x1.30dc86p-5f,
    /* 19 */ 0x1.0e517ap-5f, 0x1.392cbp-5f, 0x1.649908p-5f, 0x1.8f128cp-5f, 0x1.b6f0dap-5f,
    0x1.da816ap-5f, 0x1.f825cp-5f, 0x1.073942p-4f, 0x1.0e2626p-4f, 0x1.107f6ap-4f, 0x1.0e2626p-4f,
    0x1.073942p-4f, 0x1.f825cp-5f, 0x1.da816ap-5f, 0x1.b6f0dap-5f, 0x1.8f128cp-5f, 0x1.649908p-5f,
    0x1.392cbp-5f, 0x1.0e517ap-5f,
    /* 21 */ 0x1.e58f02p-6f, 0x1.15c4e2p-5f, 0x1.39545p-5f, 0x1.5c77e8p-5f, 0x1.7e182ap-5f,
    0x1.9d11c2p-5f, 0x1.b84572p-5f, 0x1.cea92cp-5f, 0x1.df58dep-5f, 0x1.e9a57cp-5f, 0x1.ed20e4p-5f,
    0x1.e9a57cp-5f, 0x1.df58dep-5f, 0x1.cea92cp-5f, 0x1.b84572p-5f, 0x1.9d11c2p-5f, 0x1.7e182ap-5f,
    0x1.5c77e8p-5f, 0x1.39545p-5f, 0x1.15c4e2p-5f, 0x1.e58f02p-6f,
    /* 23 */ 0x1.b8a1ccp-6f, 0x1.f2d46ep-6f, 0x1.170a7p-5f, 0x1.3484d6p-5f, 0x1.511ad2p-5f,
    0x1.6c0354p-5f, 0x1.8473d2p-5f, 0x1.99a9f4p-5f, 0x1.aaf596p-5f, 0x1.b7c226p-5f, 0x1.bf9f1p-5f,
    0x1.c245fep-5f, 0x1.bf9f1p-5f, 0x1.b7c226p-5f, 0x1.aaf596p-5f, 0x1.99a9f4p-5f, 0x1.8473d2p-5f,
    0x1.6c0354p-5f, 0x1.511ad2p-5f, 0x1.3484d6p-5f, 0x1.170a7p-5f, 0x1.f2d46ep-6f, 0x1.b8a1ccp-6f,
    /* 25 */ 0x1.934b1cp-6f, 0x1.c471b6p-6f, 0x1.f688d6p-6f, 0x1.144eeap-5f, 0x1.2cd24ep-5f,
    0x1.444032p-5f, 0x1.5a06f2p-5f, 0x1.6d977ap-5f, 0x1.7e6b4ap-5f, 0x1.8c0a6ep-5f, 0x1.96110ep-5f,
    0x1.9c341ap-5f, 0x1.9e450ap-5f, 0x1.9c341ap-5f, 0x1.96110ep-5f, 0x1.8c0a6ep-5f, 0x1.7e6b4ap-5f,
    0x1.6d977ap-5f, 0x1.5a06f2p-5f, 0x1.444032p-5f, 0x1.2cd24ep-5f, 0x1.144eeap-5f, 0x1.f688d6p-6f,
    0x1.c471b6p-6f, 0x1.934b1cp-6f,
    /* 27 */ 0x1.73c62ap-6f, 0x1.9dd44ep-6f, 0x1.c8b5a6p-6f, 0x1.f3bae8p-6f, 0x1.0f114ep-5f,
    0x1.238f14p-5f, 0x1.36ec0ep-5f, 0x1.48bda2p-5f, 0x1.589d04p-5f, 0x1.662b1cp-5f, 0x1.71142cp-5f,
    0x1.791328p-5f, 0x1.7df49p-5f, 0x1.7f98ap-5f, 0x1.7df49p-5f, 0x1.791328p-5f, 0x1.71142cp-5f,
    0x1.662b1cp-5f, 0x1.589d04p-5f, 0x1.48bda2p-5f, 0x1.36ec0ep-5f, 0x1.238f14p-5f, 0x1.0f114ep-5f,
    0x1.f3bae8p-6f, 0x1.c8b5a6p-6f, 0x1.9dd44ep-6f, 0x1.73c62ap-6f,
    /* 29 */ 0x1.58d084p-6f, 0x1.7d342p-6f, 0x1.a25006p-6f, 0x1.c7a2a2p-6f, 0x1.ec9d0cp-6f,
    0x1.08531cp-5f, 0x1.198f74p-5f, 0x1.29b308p-5f, 0x1.386ed2p-5f, 0x1.4577c4p-5f, 0x1.50894ap-5f,
    0x1.59679ap-5f, 0x1.5fe1c8p-5f, 0x1.63d394p-5f, 0x1.6526bp-5f, 0x1.63d394p-5f, 0x1.5fe1c8p-5f,
    0x1.59679ap-5f, 0x1.50894ap-5f, 0x1.4577c4p-5f, 0x1.386ed2p-5f, 0x1.29b308p-5f, 0x1.198f74p-5f,
    0x1.08531cp-5f, 0x1.ec9d0cp-6f, 0x1.c7a2a2p-6f, 0x1.a25006p-6f, 0x1.7d342p-6f, 0x1.58d084p-6f,
    /* 31 */ 0x1.417e5ap-6f, 0x1.61496ep-6f, 0x1.81b524p-6f, 0x1.a25facp-6f, 0x1.c2dd52p-6f,
    0x1.e2ba98p-6f, 0x1.00bf54p-5f, 0x1.0f571ap-5f, 0x1.1ce752p-5f, 0x1.2934a8p-5f, 0x1.34077ap-5f,
    0x1.3d2d64p-5f, 0x1.447adep-5f, 0x1.49cc8p-5f, 0x1.4d082ap-5f, 0x1.4e1ddcp-5f, 0x1.4d082ap-5f,
    0x1.49cc8p-5f, 0x1.447adep-5f, 0x1.3d2d64p-5f, 0x1.34077ap-5f, 0x1.2934a8p-5f, 0x1.1ce752p-5f,
    0x1.0f571ap-5f, 0x1.00bf54p-5f, 0x1.e2ba98p-6f, 0x1.c2dd52p-6f, 0x1.a25facp-6f, 0x1.81b524p-6f,
    0x1.61496ep-6f, 0x1.417e5ap-6f,
    /* 33 */ 0x1.2d1f5p-6f, 0x1.492318p-6f, 0x1.65b308p-6f, 0x1.8283fcp-6f, 0x1.9f435ap-6f,
    0x1.bb9874p-6f, 0x1.d72632p-6f, 0x1.f18cf8p-6f, 0x1.05365ap-5f, 0x1.10b392p-5f, 0x1.1b1112p-5f,
    0x1.2424f4p-5f, 0x1.2bc9a6p-5f, 0x1.31ded8p-5f, 0x1.364a7p-5f, 0x1.38f938p-5f, 0x1.39df78p-5f,
    0x1.38f938p-5f, 0x1.364a7p-5f, 0x1.31ded8p-5f, 0x1.2bc9a6p-5f, 0x1.2424f4p-5f, 0x1.1b1112p-5f,
    0x1.10b392p-5f, 0x1.05365ap-5f, 0x1.f18cf8p-6f, 0x1.d72632p-6f, 0x1.bb9874p-6f, 0x1.9f435ap-6f,
    0x1.8283fcp-6f, 0x1.65b308p-6f, 0x1.492318p-6f, 0x1.2d1f5p-6f,
    /* 35 */ 0x1.1b2cd2p-6f, 0x1.340bc6p-6f, 0x1.4d655ap-6f, 0x1.66fee4p-6f, 0x1.809806p-6f,
    0x1.99eba8p-6f, 0x1.b2b10cp-6f, 0x1.ca9d1cp-6f, 0x1.e163d4p-6f, 0x1.f6b9d2p-6f, 0x1.052af4p-5f,
    0x1.0df966p-5f, 0x1.15a844p-5f, 0x1.1c1b16p-5f, 0x1.213986p-5f, 0x1.24effcp-5f, 0x1.27301ap-5f,
    0x1.27f12p-5f, 0x1.27301ap-5f, 0x1.24effcp-5f, 0x1.213986p-5f, 0x1.1c1b16p-5f, 0x1.15a844p-5f,
    0x1.0df966p-5f, 0x1.052af4p-5f, 0x1.f6b9d2p-6f, 0x1.e163d4p-6f, 0x1.ca9d1cp-6f, 0x1.b2b10cp-6f,
    0x1.99eba8p-6f, 0x1.809806p-6f, 0x1.66fee4p-6f, 0x1.4d655ap-6f, 0x1.340bc6p-6f, 0x1.1b2cd2p-6f,
    /* 37 */ 0x1.0b3e7ep-6f, 0x1.2178aep-6f, 0x1.381e84p-6f, 0x1.4f018ap-6f, 0x1.65eee8p-6f,
    0x1.7cb008p-6f, 0x1.930b5p-6f, 0x1.a8c526p-6f, 0x1.bda0c4p-6f, 0x1.d1617p-6f, 0x1.e3cb86p-6f,
    0x1.f4a5aep-6f, 0x1.01dcfep-5f, 0x1.086b8ap-5f, 0x1.0de896p-5f, 0x1.124188p-5f, 0x1.156774p-5f,
    0x1.174f72p-5f, 0x1.17f2dap-5f, 0x1.174f72p-5f, 0x1.156774p-5f, 0x1.124188p-5f, 0x1.0de896p-5f,
    0x1.086b8ap-5f, 0x1.01dcfep-5f, 0x1.f4a5aep-6f, 0x1.e3cb86p-6f, 0x1.d1617p-6f, 0x1.bda0c4p-6f,
    0x1.a8c526p-6f, 0x1.930b5p-6f, 0x1.7cb008p-6f, 0x1.65eee8p-6f, 0x1.4f018ap-6f, 0x1.381e84p-6f,
    0x1.2178aep-6f, 0x1.0b3e7ep-6f,
};

#endif
