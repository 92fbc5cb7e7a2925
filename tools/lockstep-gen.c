/* lockstep-gen: writes a deterministic synthetic reference/distorted pair for samples, GPU parity
 * runs and benchmarks.
 *
 * The reference is textured moving content: a gradient, oriented plane waves at six scales with a
 * 1/f-like spectrum, a drifting zone plate, sharp-edged moving rectangles and seeded grain, all
 * panning per frame. The distorted file is the reference blurred (3x3 binomial), quantised and
 * re-noised, like a codec at low rate. Seed 1, 8-bit 4:2:0: PSNR-Y 37.7 dB, float_ssim 0.924,
 * integer_motion2 2.9 at 576x324; PSNR-Y 32.6-32.9 dB, float_ssim 0.90-0.92, motion2 3.9-4.2 at
 * 720p, 1080p and 2160p.
 *
 * The same seed gives the same bytes on every machine and compiler: all arithmetic that reaches
 * the output is integer, and the few tables computed in floating point use only +, -, * and /
 * (a polynomial sine, no libm), rounded to integers. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/input.h"
#include "lockstep/picture.h"

/* Content is built in 8-bit code units with FRAC fractional bits, so that deeper outputs get
 * real low bits rather than shifted 8-bit values. */
#define FRAC 8
#define ONE (1 << FRAC)
#define N_RECTS 5
#define N_WAVES 6
/* Waves are summed in int16 with 16-bit multiply-high: column tables hold sin/cos in Q15, row
 * tables twice the amplitude in fixed point, so (col * row) >> 16 is amplitude * sin * cos in
 * fixed point. The amplitudes of one plane add up to under 100 code units: no overflow. */
#define COL_UNIT 32767.0

static const double PI = 3.14159265358979323846;

typedef struct Rng {
    uint64_t state;
} Rng;

static uint64_t rng_next(Rng *rng)
{
    uint64_t z = (rng->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform in [lo, hi) with 2^-53 resolution; exact and portable */
static double rng_range(Rng *rng, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_next(rng) >> 11) / 9007199254740992.0);
}

/* sin without libm: reduction to [-pi/2, pi/2] and a Taylor polynomial (error < 1e-11). */
static double det_sin(double x)
{
    static const double inv_factorial_ratio[8] = {
        1.0 / 6, 1.0 / 20, 1.0 / 42, 1.0 / 72, 1.0 / 110, 1.0 / 156, 1.0 / 210, 1.0 / 272,
    };
    const double two_pi = 2.0 * PI;
    const double k = x / two_pi;
    const double kr = (double)(int64_t)(k < 0 ? k - 0.5 : k + 0.5);
    double r = x - kr * two_pi;
    if (r > PI / 2)
        r = PI - r;
    else if (r < -PI / 2)
        r = -PI - r;
    const double r2 = r * r;
    double term = r, sum = r;
    for (int n = 0; n < 8; n++) {
        term = -term * r2 * inv_factorial_ratio[n];
        sum += term;
    }
    return sum;
}

static int32_t round_to_int(double v)
{
    return (int32_t)(v < 0 ? v - 0.5 : v + 0.5);
}

static int16_t round_to_i16(double v)
{
    return (int16_t)round_to_int(v);
}

typedef struct Wave {
    double amp, kx, ky, phase, speed; /* ky, kx in radians per luma pixel */
} Wave;

typedef struct PlaneParams {
    double base, grad_x, grad_y;
    int n_waves;
    Wave wave[N_WAVES];
    double ring_amp, ring_k, ring_cx, ring_cy, ring_vx, ring_vy;
    int32_t grain; /* grain amplitude in code units (noise table entries are 1/255 steps) */
    int32_t rect_offset[N_RECTS];
} PlaneParams;

typedef struct Rect {
    double x, y, w, h, vx, vy; /* luma units */
} Rect;

typedef struct Scene {
    unsigned w, h;
    /* Content is designed at 324 lines and magnified for larger frames, as real high-resolution
     * video is smoother per pixel; the distortion grows with it (block), so that scores that
     * look at a downscaled picture (SSIM scales with the frame) still see it. */
    double zoom;
    unsigned block;
    double pan_x, pan_y; /* luma pixels per frame */
    PlaneParams plane[3];
    Rect rect[N_RECTS];
    uint64_t seed;
} Scene;

static void scene_init(Scene *s, unsigned w, unsigned h, uint64_t seed)
{
    Rng rng = { seed * 0x2545f4914f6cdd1dull + 0x1234567ull };
    memset(s, 0, sizeof(*s));
    s->w = w;
    s->h = h;
    s->seed = seed;
    const unsigned short_side = w < h ? w : h;
    s->zoom = short_side > 324 ? short_side / 324.0 : 1.0;
    s->block = (unsigned)(s->zoom + 0.5);
    s->pan_x = rng_range(&rng, 1.5, 3.5) * s->zoom;
    s->pan_y = rng_range(&rng, -1.0, 1.0) * s->zoom;
    const double side = w > h ? w : h;
    for (int p = 0; p < 3; p++) {
        PlaneParams *pp = &s->plane[p];
        const double scale = p ? 0.45 : 1.0; /* chroma is calmer than luma */
        pp->base = p ? 128.0 : 118.0;
        pp->grad_x = rng_range(&rng, -30, 30) * scale;
        pp->grad_y = rng_range(&rng, -20, 20) * scale;
        /* 1/f-like spectrum: three waves scaled to the frame, three at fixed periods (in
         * pixels at 324 lines) so that small frames have fine texture too */
        const double period[N_WAVES] = {
            side / rng_range(&rng, 1.5, 2.5),         side / rng_range(&rng, 3.5, 5.0),
            side / rng_range(&rng, 8.0, 11.0),        rng_range(&rng, 24, 40) * s->zoom,
            rng_range(&rng, 11, 16) * s->zoom,        rng_range(&rng, 5.5, 8.0) * s->zoom,
        };
        const double amp[N_WAVES] = { 34, 22, 14, 10, 7, 5 };
        pp->n_waves = p ? 4 : N_WAVES;
        for (int i = 0; i < N_WAVES; i++) {
            Wave *wv = &pp->wave[i];
            const double angle = rng_range(&rng, 0, PI);
            const double k = 2 * PI / period[i];
            wv->amp = amp[i] * scale;
            wv->kx = k * det_sin(angle + PI / 2);
            wv->ky = k * det_sin(angle);
            wv->phase = rng_range(&rng, 0, 2 * PI);
            wv->speed = rng_range(&rng, -0.2, 0.2);
        }
        pp->ring_amp = p ? 0 : 6;
        /* the zone plate reaches about a quarter of the sampling rate at the frame's corners */
        pp->ring_k = PI / (4.0 * side * 0.75);
        pp->ring_cx = rng_range(&rng, 0.3, 0.7) * w;
        pp->ring_cy = rng_range(&rng, 0.3, 0.7) * h;
        pp->ring_vx = rng_range(&rng, -2, 2) * s->zoom;
        pp->ring_vy = rng_range(&rng, -1, 1) * s->zoom;
        pp->grain = p ? 2 : 4;
        for (int r = 0; r < N_RECTS; r++) {
            const double mag = rng_range(&rng, 20, 50) * scale;
            pp->rect_offset[r] = round_to_int((rng_next(&rng) & 1 ? mag : -mag) * ONE);
        }
    }
    for (int r = 0; r < N_RECTS; r++) {
        Rect *rc = &s->rect[r];
        rc->w = w * rng_range(&rng, 0.06, 0.22) + 1;
        rc->h = h * rng_range(&rng, 0.06, 0.22) + 1;
        rc->x = w * rng_range(&rng, 0, 1);
        rc->y = h * rng_range(&rng, 0, 1);
        rc->vx = rng_range(&rng, -6, 6) * s->zoom;
        rc->vy = rng_range(&rng, -3, 3) * s->zoom;
    }
}

/* Grain comes from two tables of triangular noise (reference, distorted), read at a random
 * offset per row: contiguous reads keep the loops vectorisable. */
#define NOISE_LEN (1u << 16)

typedef struct Tables {
    int32_t *col_base, *row_base;
    /* sin(a + b) = sin a cos b + cos a sin b, with a from the column and b from the row; int16
     * so that each wave costs two 16-bit multiplies per sample */
    int16_t *col_sin[N_WAVES + 1], *col_cos[N_WAVES + 1];
    int16_t *row_sin[N_WAVES + 1], *row_cos[N_WAVES + 1];
    int16_t *noise[2]; /* NOISE_LEN + width entries in [-255, 255] */
    int16_t *wave_sum;
    int32_t *acc, *line;
    int32_t *blur_rows; /* 3 rows of horizontal blur sums */
    int32_t *block_mean, *block_blur; /* one value per block of the distortion */
} Tables;

static int tables_alloc(Tables *t, unsigned w, unsigned h, unsigned block, uint64_t seed)
{
    memset(t, 0, sizeof(*t));
    const size_t blocks = (size_t)((w + block - 1) / block) * ((h + block - 1) / block);
    int ok = (t->col_base = malloc(sizeof(int32_t) * w)) &&
             (t->line = malloc(sizeof(int32_t) * w)) &&
             (t->block_mean = malloc(sizeof(int32_t) * blocks)) &&
             (t->block_blur = malloc(sizeof(int32_t) * blocks)) &&
             (t->row_base = malloc(sizeof(int32_t) * h)) &&
             (t->acc = malloc(sizeof(int32_t) * w)) &&
             (t->wave_sum = malloc(sizeof(int16_t) * w)) &&
             (t->blur_rows = malloc(sizeof(int32_t) * 3 * (size_t)w));
    for (int i = 0; ok && i <= N_WAVES; i++)
        ok = (t->col_sin[i] = malloc(sizeof(int16_t) * w)) &&
             (t->col_cos[i] = malloc(sizeof(int16_t) * w)) &&
             (t->row_sin[i] = malloc(sizeof(int16_t) * h)) &&
             (t->row_cos[i] = malloc(sizeof(int16_t) * h));
    for (int k = 0; ok && k < 2; k++) {
        const size_t len = NOISE_LEN + (size_t)w;
        ok = (t->noise[k] = malloc(sizeof(int16_t) * len)) != NULL;
        Rng rng = { seed ^ (k ? 0x5bd1e995u : 0x27d4eb2fu) };
        for (size_t i = 0; ok && i < len; i++) {
            const uint64_t r = rng_next(&rng);
            t->noise[k][i] = (int16_t)((int)(r & 0xff) + (int)((r >> 8) & 0xff) - 255);
        }
    }
    return ok ? 0 : -ENOMEM;
}

static void tables_free(Tables *t)
{
    free(t->col_base);
    free(t->row_base);
    for (int i = 0; i <= N_WAVES; i++) {
        free(t->col_sin[i]);
        free(t->col_cos[i]);
        free(t->row_sin[i]);
        free(t->row_cos[i]);
    }
    free(t->noise[0]);
    free(t->noise[1]);
    free(t->wave_sum);
    free(t->line);
    free(t->block_mean);
    free(t->block_blur);
    free(t->acc);
    free(t->blur_rows);
}

static unsigned noise_offset(uint64_t seed, unsigned frame, int plane, unsigned y, int distorted)
{
    uint64_t x = seed ^ ((uint64_t)frame << 32) ^ ((uint64_t)plane << 24) ^ y ^
                 ((uint64_t)distorted << 62);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (unsigned)x & (NOISE_LEN - 1);
}

/* fixed point 8-bit units to the output depth, rounded and clipped */
static inline int32_t to_depth(int32_t v, unsigned shift, int32_t max)
{
    v = v < 0 ? 0 : v;
    v = ((v << shift) + ONE / 2) >> FRAC;
    return v > max ? max : v;
}

static void fill_wave_tables(const PlaneParams *pp, const Scene *s, unsigned frame, Tables *t,
                             unsigned pw, unsigned ph)
{
    const double sx = (double)s->w / pw, sy = (double)s->h / ph;
    const double dx = s->pan_x * frame, dy = s->pan_y * frame;
    const double unit = COL_UNIT;

    for (unsigned x = 0; x < pw; x++) {
        const double u = (x + 0.5) * sx + dx;
        t->col_base[x] = round_to_int((pp->base + pp->grad_x * (u / s->w - 0.5)) * ONE);
        for (int i = 0; i < pp->n_waves; i++) {
            const Wave *wv = &pp->wave[i];
            const double a = wv->kx * u + wv->phase + wv->speed * frame;
            t->col_sin[i][x] = round_to_i16(unit * det_sin(a));
            t->col_cos[i][x] = round_to_i16(unit * det_sin(a + PI / 2));
        }
        const double ru = (x + 0.5) * sx - (pp->ring_cx + pp->ring_vx * frame);
        const double a = pp->ring_k * ru * ru;
        t->col_sin[N_WAVES][x] = round_to_i16(unit * det_sin(a));
        t->col_cos[N_WAVES][x] = round_to_i16(unit * det_sin(a + PI / 2));
    }
    for (unsigned y = 0; y < ph; y++) {
        const double v = (y + 0.5) * sy + dy;
        t->row_base[y] = round_to_int(pp->grad_y * (v / s->h - 0.5) * ONE);
        for (int i = 0; i < pp->n_waves; i++) {
            const Wave *wv = &pp->wave[i];
            const double b = wv->ky * v;
            t->row_sin[i][y] = round_to_i16(2 * wv->amp * ONE * det_sin(b));
            t->row_cos[i][y] = round_to_i16(2 * wv->amp * ONE * det_sin(b + PI / 2));
        }
        const double rv = (y + 0.5) * sy - (pp->ring_cy + pp->ring_vy * frame);
        const double b = pp->ring_k * rv * rv;
        t->row_sin[N_WAVES][y] = round_to_i16(2 * pp->ring_amp * ONE * det_sin(b));
        t->row_cos[N_WAVES][y] = round_to_i16(2 * pp->ring_amp * ONE * det_sin(b + PI / 2));
    }
}

/* moving rectangles with sharp edges, wrapping around the frame */
static void add_rects(const Scene *s, const PlaneParams *pp, unsigned frame, unsigned y,
                      unsigned pw, double sx, double sy, int32_t *acc)
{
    const double yl = (y + 0.5) * sy;
    for (int r = 0; r < N_RECTS; r++) {
        const Rect *rect = &s->rect[r];
        double ry = rect->y + rect->vy * frame;
        ry -= (double)(int64_t)(ry / s->h) * s->h;
        if (ry < 0)
            ry += s->h;
        double off_y = yl - ry;
        if (off_y < 0)
            off_y += s->h;
        if (off_y >= rect->h)
            continue;
        double rx = rect->x + rect->vx * frame;
        rx -= (double)(int64_t)(rx / s->w) * s->w;
        if (rx < 0)
            rx += s->w;
        const unsigned x0 = (unsigned)(rx / sx), len = (unsigned)(rect->w / sx) + 1;
        for (unsigned i = 0; i < len && i < pw; i++) {
            unsigned x = x0 + i;
            while (x >= pw)
                x -= pw;
            acc[x] += pp->rect_offset[r];
        }
    }
}

/* sin(a + b) = sin a cos b + cos a sin b */
static void add_wave(int16_t *restrict sum, const int16_t *restrict col_sin,
                     const int16_t *restrict col_cos, int16_t row_cos, int16_t row_sin, unsigned n)
{
    for (unsigned x = 0; x < n; x++)
        sum[x] = (int16_t)(sum[x] + ((col_sin[x] * row_cos) >> 16) +
                           ((col_cos[x] * row_sin) >> 16));
}

static void render_plane(const Scene *s, Tables *t, int p, unsigned frame, VmafPicture *pic)
{
    const PlaneParams *pp = &s->plane[p];
    const unsigned pw = pic->w[p], ph = pic->h[p], bpc = pic->bpc, shift = bpc - 8;
    const int32_t max = (int32_t)((1u << bpc) - 1);
    const double sx = (double)s->w / pw, sy = (double)s->h / ph;
    const int n_terms = pp->ring_amp > 0 ? N_WAVES + 1 : pp->n_waves;

    fill_wave_tables(pp, s, frame, t, pw, ph);
    for (unsigned y = 0; y < ph; y++) {
        int32_t *acc = t->acc;
        const int16_t *noise = t->noise[0] + noise_offset(s->seed, frame, p, y, 0);
        const int32_t grain = pp->grain, base = t->row_base[y];
        memset(t->wave_sum, 0, sizeof(int16_t) * pw);
        for (int i = 0; i < n_terms; i++) {
            if (i >= pp->n_waves && i < N_WAVES)
                continue;
            add_wave(t->wave_sum, t->col_sin[i], t->col_cos[i], t->row_cos[i][y],
                     t->row_sin[i][y], pw);
        }
        for (unsigned x = 0; x < pw; x++)
            acc[x] = t->col_base[x] + base + noise[x] * grain + t->wave_sum[x];
        add_rects(s, pp, frame, y, pw, sx, sy, acc);
        void *row = (uint8_t *)pic->data[p] + (size_t)y * (size_t)pic->stride[p];
        if (bpc == 8) {
            uint8_t *out = row;
            for (unsigned x = 0; x < pw; x++)
                out[x] = (uint8_t)to_depth(acc[x], 0, max);
        } else {
            uint16_t *out = row;
            for (unsigned x = 0; x < pw; x++)
                out[x] = (uint16_t)to_depth(acc[x], shift, max);
        }
    }
}

static void load_row(const void *row, unsigned bpc, unsigned w, int32_t *out)
{
    if (bpc == 8) {
        const uint8_t *r = row;
        for (unsigned x = 0; x < w; x++)
            out[x] = r[x];
    } else {
        const uint16_t *r = row;
        for (unsigned x = 0; x < w; x++)
            out[x] = r[x];
    }
}

/* [1 2 1] with edges replicated; in and out must differ */
static void horizontal_blur(const int32_t *in, unsigned w, int32_t *out)
{
    if (w == 1) {
        out[0] = 4 * in[0];
        return;
    }
    out[0] = 3 * in[0] + in[1];
    for (unsigned x = 1; x + 1 < w; x++)
        out[x] = in[x - 1] + 2 * in[x] + in[x + 1];
    out[w - 1] = in[w - 2] + 3 * in[w - 1];
}

/* Block means of a plane, blurred with [1 2 1] x [1 2 1] (edges replicated) and quantised;
 * leaves quantised blur - mean per block in block_blur: the error of a coarse codec. */
static void block_blur_delta(const VmafPicture *ref, int p, unsigned k, int32_t step, Tables *t)
{
    const unsigned w = ref->w[p], h = ref->h[p], bpc = ref->bpc;
    const unsigned bw = (w + k - 1) / k, bh = (h + k - 1) / k;
    int32_t *mean = t->block_mean, *blur = t->block_blur;

    memset(mean, 0, sizeof(int32_t) * bw * bh);
    for (unsigned y = 0; y < h; y++) {
        load_row((const uint8_t *)ref->data[p] + (size_t)y * (size_t)ref->stride[p], bpc, w,
                 t->line);
        int32_t *sums = mean + (size_t)(y / k) * bw;
        for (unsigned bx = 0, x = 0; bx < bw; bx++)
            for (unsigned i = 0; i < k && x < w; i++, x++)
                sums[bx] += t->line[x];
    }
    for (unsigned by = 0; by < bh; by++)
        for (unsigned bx = 0; bx < bw; bx++) {
            const int32_t count = (int32_t)(((bx + 1) * k > w ? w - bx * k : k) *
                                            ((by + 1) * k > h ? h - by * k : k));
            int32_t *m = &mean[(size_t)by * bw + bx];
            *m = (*m + count / 2) / count;
        }
    for (unsigned by = 0; by < bh; by++) {
        const int32_t *rows[3] = { mean + (size_t)(by ? by - 1 : 0) * bw, mean + (size_t)by * bw,
                                   mean + (size_t)(by + 1 < bh ? by + 1 : by) * bw };
        for (unsigned bx = 0; bx < bw; bx++) {
            const unsigned l = bx ? bx - 1 : 0, r = bx + 1 < bw ? bx + 1 : bx;
            int32_t sum = 0;
            for (int j = 0; j < 3; j++)
                sum += (rows[j][l] + 2 * rows[j][bx] + rows[j][r]) * (j == 1 ? 2 : 1);
            const int32_t blurred = (sum + 8) >> 4;
            blur[(size_t)by * bw + bx] = ((blurred + step / 2) & ~(step - 1)) - rows[1][bx];
        }
    }
}

/* dis = quantise(blur of ref) + grain. The blur is [1 2 1] x [1 2 1] on samples for frames up to
 * 324 lines; larger frames also get it, quantised, on block means (blocks of s->block samples),
 * plus grain per block. */
static void distort_plane(const Scene *s, Tables *t, int p, unsigned frame, const VmafPicture *ref,
                          VmafPicture *dis)
{
    const unsigned w = ref->w[p], h = ref->h[p], bpc = ref->bpc, shift = bpc - 8;
    const unsigned k = s->block;
    const int32_t max = (int32_t)((1u << bpc) - 1);
    /* power-of-two quantiser step (8 code units at 8 bits, 4 for chroma), scaled with the depth */
    const int32_t step = (p ? 4 : 8) << shift;
    const int32_t step_mask = ~(step - 1), half_step = step / 2;
    const int32_t grain = (p ? 1 : 3) << shift;
    const uint8_t *src = ref->data[p];
    const ptrdiff_t stride = ref->stride[p];
    int32_t *rows[3] = { t->blur_rows, t->blur_rows + w, t->blur_rows + 2 * (size_t)w };
    int32_t *line = t->line, *blurred = t->acc;

    if (k > 1) {
        block_blur_delta(ref, p, k, 2 * step, t);
    } else {
        load_row(src, bpc, w, line);
        horizontal_blur(line, w, rows[1]);
        memcpy(rows[0], rows[1], sizeof(int32_t) * w);
    }
    for (unsigned y = 0; y < h; y++) {
        if (k > 1) {
            load_row(src + (size_t)y * (size_t)stride, bpc, w, line);
            const int32_t *delta = t->block_blur + (size_t)(y / k) * ((w + k - 1) / k);
            /* grain at the block scale too, or downscaling scores would average it away */
            const int16_t *block_noise = t->noise[1] + noise_offset(~s->seed, frame, p, y / k, 1);
            for (unsigned bx = 0, x = 0; x < w; bx++) {
                const int32_t d = delta[bx] + ((block_noise[bx] * grain) >> FRAC);
                for (unsigned i = 0; i < k && x < w; i++, x++)
                    blurred[x] = line[x] + d;
            }
        } else {
            const unsigned below = y + 1 < h ? y + 1 : y;
            load_row(src + (size_t)below * (size_t)stride, bpc, w, line);
            horizontal_blur(line, w, rows[2]);
            const int32_t *r0 = rows[0], *r1 = rows[1], *r2 = rows[2];
            for (unsigned x = 0; x < w; x++)
                blurred[x] = (r0[x] + 2 * r1[x] + r2[x] + 8) >> 4;
            int32_t *first = rows[0];
            rows[0] = rows[1];
            rows[1] = rows[2];
            rows[2] = first;
        }
        const int16_t *noise = t->noise[1] + noise_offset(s->seed, frame, p, y, 1);
        void *row = (uint8_t *)dis->data[p] + (size_t)y * (size_t)dis->stride[p];
        for (unsigned x = 0; x < w; x++) {
            int32_t v = ((blurred[x] + half_step) & step_mask) + ((noise[x] * grain) >> FRAC);
            blurred[x] = v < 0 ? 0 : v > max ? max : v;
        }
        if (bpc == 8) {
            uint8_t *out = row;
            for (unsigned x = 0; x < w; x++)
                out[x] = (uint8_t)blurred[x];
        } else {
            uint16_t *out = row;
            for (unsigned x = 0; x < w; x++)
                out[x] = (uint16_t)blurred[x];
        }
    }
}

static void usage(FILE *f, const char *argv0)
{
    fprintf(f,
            "Usage: %s [-w W] [-h H] [-p 420|422|444|400] [-b 8..16] [-n FRAMES] [--seed S] "
            "[--raw] REF DIS\n"
            "Writes a deterministic synthetic reference/distorted pair (Y4M, or raw planar YUV "
            "with --raw).\n"
            "Defaults: -w 576 -h 324 -p 420 -b 8 -n 10 --seed 1.\n",
            argv0);
}

static int parse_unsigned(const char *arg, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!arg || !*arg || *arg == '-')
        return -1;
    errno = 0;
    const unsigned long long v = strtoull(arg, &end, 0);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long long w = 576, h = 324, bpc = 8, frames = 10, seed = 1;
    enum VmafPixelFormat fmt = VMAF_PIX_FMT_YUV420P;
    int raw = 0;
    const char *paths[2] = { NULL, NULL };
    int n_paths = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long *target = NULL, max = 0;
        if (!strcmp(a, "--help")) {
            usage(stdout, argv[0]);
            return 0;
        } else if (!strcmp(a, "--raw")) {
            raw = 1;
            continue;
        } else if (!strcmp(a, "-w")) {
            target = &w, max = LS_INPUT_MAX_DIM;
        } else if (!strcmp(a, "-h")) {
            target = &h, max = LS_INPUT_MAX_DIM;
        } else if (!strcmp(a, "-b")) {
            target = &bpc, max = 16;
        } else if (!strcmp(a, "-n")) {
            target = &frames, max = 1000000;
        } else if (!strcmp(a, "--seed")) {
            target = &seed, max = UINT64_MAX;
        } else if (!strcmp(a, "-p")) {
            if (i + 1 >= argc || (fmt = ls_pix_fmt_from_name(argv[i + 1])) ==
                                     VMAF_PIX_FMT_UNKNOWN) {
                fprintf(stderr, "%s: -p needs 420, 422, 444 or 400\n", argv[0]);
                return 1;
            }
            i++;
            continue;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "%s: unknown option %s\n", argv[0], a);
            usage(stderr, argv[0]);
            return 1;
        } else {
            if (n_paths == 2) {
                fprintf(stderr, "%s: too many file names\n", argv[0]);
                usage(stderr, argv[0]);
                return 1;
            }
            paths[n_paths++] = a;
            continue;
        }
        if (i + 1 >= argc || parse_unsigned(argv[i + 1], max, target) < 0 ||
            (target == &bpc && bpc < 8) || ((target == &w || target == &h) && !*target)) {
            fprintf(stderr, "%s: bad value for %s: %s\n", argv[0], a,
                    i + 1 < argc ? argv[i + 1] : "(missing)");
            return 1;
        }
        i++;
    }
    if (n_paths != 2) {
        usage(stderr, argv[0]);
        return 1;
    }

    LsVideoInfo info = { .w = (unsigned)w, .h = (unsigned)h, .bpc = (unsigned)bpc, .fmt = fmt,
                         .y4m = !raw, .fps_num = 25, .fps_den = 1 };
    VmafPicture ref, dis;
    memset(&ref, 0, sizeof(ref));
    memset(&dis, 0, sizeof(dis));
    Tables tables;
    FILE *files[2] = { NULL, NULL };
    Scene scene;
    int ret = 0;

    scene_init(&scene, info.w, info.h, seed);
    if (tables_alloc(&tables, info.w, info.h, scene.block, seed) < 0 ||
        vmaf_picture_alloc(&ref, fmt, info.bpc, info.w, info.h) < 0 ||
        vmaf_picture_alloc(&dis, fmt, info.bpc, info.w, info.h) < 0) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        ret = 1;
        goto done;
    }
    for (int f = 0; f < 2; f++) {
        files[f] = !strcmp(paths[f], "-") ? stdout : fopen(paths[f], "wb");
        if (!files[f]) {
            fprintf(stderr, "%s: cannot create %s: %s\n", argv[0], paths[f], strerror(errno));
            ret = 1;
            goto done;
        }
        if (!raw && ls_y4m_write_header(files[f], &info) < 0) {
            fprintf(stderr, "%s: cannot write %s\n", argv[0], paths[f]);
            ret = 1;
            goto done;
        }
    }

    const int n_planes = fmt == VMAF_PIX_FMT_YUV400P ? 1 : 3;
    for (unsigned long long n = 0; n < frames; n++) {
        for (int p = 0; p < n_planes; p++) {
            render_plane(&scene, &tables, p, (unsigned)n, &ref);
            distort_plane(&scene, &tables, p, (unsigned)n, &ref, &dis);
        }
        if (ls_write_frame(files[0], &ref, !raw) < 0 || ls_write_frame(files[1], &dis, !raw) < 0) {
            fprintf(stderr, "%s: write error: %s\n", argv[0], strerror(errno));
            ret = 1;
            goto done;
        }
    }

done:
    for (int f = 0; f < 2; f++) {
        if (files[f] && files[f] != stdout && fclose(files[f]) && !ret) {
            fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], paths[f], strerror(errno));
            ret = 1;
        }
    }
    tables_free(&tables);
    if (ref.data[0])
        vmaf_picture_unref(&ref);
    if (dis.data[0])
        vmaf_picture_unref(&dis);
    return ret;
}
