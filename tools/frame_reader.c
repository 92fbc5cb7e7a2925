#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame_reader.h"

#define MAX_READERS 16
/* frames each input's decoding thread may run ahead of the scoring */
#define AHEAD_FRAMES 8

typedef struct Pair {
    int ready;
    int rr, rd;          /* ls_input_read_at results for reference and distorted */
    VmafPicture ref, dist;
    char err[512];
} Pair;

struct FrameReader {
    VmafContext *ctx;
    LsInput *ref, *dist;
    const char *ref_name, *dist_name;
    unsigned skip_ref, skip_dist, limit;
    unsigned n_delivered;

    /* parallel reading */
    pthread_t thread[MAX_READERS];
    unsigned n_threads;
    pthread_mutex_t claim;   /* orders claims and picture fetches by frame index */
    pthread_mutex_t lock;    /* the ring */
    pthread_cond_t cond;
    Pair *ring;
    unsigned ring_size, next_claim;
    int stop;
    bool borrow; /* the readers borrow the frames from the mapped files (no pool pictures) */

    /* decoding ahead: one thread per input reads it in order into its own ring (containers,
     * whose decoding would otherwise serialise with the scoring) */
    struct Ahead {
        FrameReader *fr;
        LsInput *in;
        const char *role;   /* "reference", "distorted" */
        unsigned skip;
        pthread_t thread;
        int started;
        struct {
            int ready, r;
            VmafPicture pic;
            char err[512];
        } slot[AHEAD_FRAMES];
    } ahead[2];
    int ahead_mode;
};

/* Reads frame `frame` (at_index) or the next frame of `in` into pic. An input of a lower depth
 * than the pictures (a common bit depth, --aom_ctc v6.0+) is read at its own depth and shifted
 * up by the difference. Returns as ls_input_read. */
static int read_frame(LsInput *in, bool at_index, uint64_t frame, VmafPicture *pic, char *err,
                      size_t err_len)
{
    const LsVideoInfo *info = ls_input_info(in);
    if (info->bpc == pic->bpc)
        return at_index ? ls_input_read_at(in, frame, pic, err, err_len)
                        : ls_input_read(in, pic, err, err_len);
    VmafPicture own;
    if (vmaf_picture_alloc(&own, info->fmt, info->bpc, info->w, info->h)) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    const int r = at_index ? ls_input_read_at(in, frame, &own, err, err_len)
                           : ls_input_read(in, &own, err, err_len);
    const unsigned shift = pic->bpc - own.bpc;
    for (unsigned p = 0; r > 0 && p < 3 && own.data[p]; p++) {
        for (unsigned y = 0; y < own.h[p]; y++) {
            const uint8_t *src = (const uint8_t *)own.data[p] + (size_t)y * (size_t)own.stride[p];
            uint16_t *dst =
                (uint16_t *)((uint8_t *)pic->data[p] + (size_t)y * (size_t)pic->stride[p]);
            for (unsigned x = 0; x < own.w[p]; x++)
                dst[x] = (uint16_t)((own.bpc > 8 ? ((const uint16_t *)src)[x] : src[x]) << shift);
        }
    }
    vmaf_picture_unref(&own);
    return r;
}

static void *reader_thread(void *arg)
{
    FrameReader *fr = arg;
    for (;;) {
        /* pictures are taken in frame order, so frame n never waits for a picture held by a
         * later frame; the ring lock stays free meanwhile for the consumer */
        pthread_mutex_lock(&fr->claim);
        pthread_mutex_lock(&fr->lock);
        while (!fr->stop && (fr->next_claim >= fr->limit ||
                             fr->next_claim >= fr->n_delivered + fr->ring_size))
            pthread_cond_wait(&fr->cond, &fr->lock);
        if (fr->stop) {
            pthread_mutex_unlock(&fr->lock);
            pthread_mutex_unlock(&fr->claim);
            return NULL;
        }
        const unsigned n = fr->next_claim++;
        Pair *p = &fr->ring[n % fr->ring_size];
        pthread_mutex_unlock(&fr->lock);
        VmafPicture ref = { 0 }, dist = { 0 };
        char err[512] = "";
        int rr, rd;
        if (fr->borrow) {
            pthread_mutex_unlock(&fr->claim);
            /* unread pictures stay empty: finish_pair unrefs both */
            rr = ls_input_borrow_at(fr->ref, fr->skip_ref + (uint64_t)n, &ref, err, sizeof(err));
            rd = rr < 0 ? 0
                        : ls_input_borrow_at(fr->dist, fr->skip_dist + (uint64_t)n, &dist, err,
                                             sizeof(err));
        } else {
            vmaf_fetch_preallocated_picture(fr->ctx, &ref);
            vmaf_fetch_preallocated_picture(fr->ctx, &dist);
            pthread_mutex_unlock(&fr->claim);
            rr = read_frame(fr->ref, true, fr->skip_ref + (uint64_t)n, &ref, err, sizeof(err));
            rd = rr < 0 ? 0 : read_frame(fr->dist, true, fr->skip_dist + (uint64_t)n, &dist, err,
                                         sizeof(err));
        }
        pthread_mutex_lock(&fr->lock);
        p->ref = ref;
        p->dist = dist;
        p->rr = rr;
        p->rd = rd;
        snprintf(p->err, sizeof(p->err), "%s", err);
        p->ready = 1;
        pthread_cond_broadcast(&fr->cond);
        pthread_mutex_unlock(&fr->lock);
    }
}

static int skip_frames(LsInput *in, unsigned n, char *err, size_t len)
{
    for (unsigned i = 0; i < n; i++) {
        const int r = ls_input_skip(in, err, len);
        if (r <= 0)
            return r;
    }
    return 1;
}

/* The skipped frames of one input, then its frames in order: `ready` slots hold them until the
 * consumer takes the pair. Stops after the first frame that is not read (the end or an error),
 * whose result the slot keeps. */
static void *ahead_thread(void *arg)
{
    struct Ahead *a = arg;
    FrameReader *fr = a->fr;
    char err[512] = "";
    int r = skip_frames(a->in, a->skip, err, sizeof(err));
    if (r == 0) {
        snprintf(err, sizeof(err), "the %s input has no frame after skipping %u", a->role, a->skip);
        r = -EINVAL;
    }
    for (unsigned n = 0; n < fr->limit; n++) {
        pthread_mutex_lock(&fr->lock);
        while (!fr->stop && n >= fr->n_delivered + AHEAD_FRAMES)
            pthread_cond_wait(&fr->cond, &fr->lock);
        const int stop = fr->stop;
        pthread_mutex_unlock(&fr->lock);
        if (stop)
            return NULL;
        VmafPicture pic;
        vmaf_fetch_preallocated_picture(fr->ctx, &pic);
        if (r > 0)
            r = read_frame(a->in, false, 0, &pic, err, sizeof(err));
        pthread_mutex_lock(&fr->lock);
        a->slot[n % AHEAD_FRAMES].pic = pic;
        a->slot[n % AHEAD_FRAMES].r = r;
        snprintf(a->slot[n % AHEAD_FRAMES].err, sizeof(a->slot[0].err), "%s", err);
        a->slot[n % AHEAD_FRAMES].ready = 1;
        pthread_cond_broadcast(&fr->cond);
        pthread_mutex_unlock(&fr->lock);
        if (r <= 0)
            return NULL;
    }
    return NULL;
}

int frame_reader_open(FrameReader **out, VmafContext *ctx, LsInput *ref, LsInput *dist,
                      unsigned skip_ref, unsigned skip_dist, unsigned limit, unsigned cpu_scorers,
                      bool borrow)
{
    FrameReader *fr = calloc(1, sizeof(*fr));
    if (!fr)
        return -ENOMEM;
    fr->ctx = ctx;
    fr->ref = ref;
    fr->dist = dist;
    fr->skip_ref = skip_ref;
    fr->skip_dist = skip_dist;
    fr->limit = limit ? limit : ~0u;
    pthread_mutex_init(&fr->claim, NULL);
    pthread_mutex_init(&fr->lock, NULL);
    pthread_cond_init(&fr->cond, NULL);
    const LsVideoInfo *info = ls_input_info(ref);
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    fr->ahead_mode = ls_input_is_decoded(ref) || ls_input_is_decoded(dist);
    if (fr->ahead_mode) {
        /* the pool below counts ring_size pictures for each input */
        fr->ring_size = AHEAD_FRAMES;
    } else if (ls_input_can_read_at(ref) && ls_input_can_read_at(dist) &&
               info->frame_bytes >= (256u << 10)) {
        /* below ~256 KB a frame reads faster than threads hand it over. A GPU run's rate is
         * the host's reading (pread into pinned pictures), so it reads on all cores but two,
         * which the scoring thread and the driver's host-function thread (speed_chroma's
         * entropies) keep: VMAF v1 at 4K 10-bit on CUDA (49.8 MB a frame) went from 1.8 to
         * 1.3 ms/frame with 16 readers instead of 8 on the H200's 16-core host, and once the
         * packing got cheaper 14 readers took 1.10 ms on average against 1.21 for 16 (six runs
         * each, bench/README.md). */
        fr->n_threads = cpus < 4    ? 2
                        : cpu_scorers ? (unsigned)(cpus / 2)
                        : cpus >= 8   ? (unsigned)(cpus - 2)
                                      : (unsigned)cpus;
        if (fr->n_threads > MAX_READERS)
            fr->n_threads = MAX_READERS;
        /* A reader fills a frame pair (pread into pool pictures) many times faster than a CPU
         * thread scores it, so one reader per two scoring threads keeps the ring full; every
         * reader more, and a second ring slot for each, only adds pool pictures that the kernel
         * zeroes on first touch (1 scoring thread on 16 cores: 40 pictures, 320 MB at 1080p
         * 10-bit, where 14 do). */
        const unsigned enough = cpu_scorers ? (cpu_scorers + 1) / 2 : MAX_READERS;
        if (fr->n_threads > enough)
            fr->n_threads = enough;
        /* a GPU takes frames faster than one read each per reader: it gets a second slot each */
        fr->ring_size = cpu_scorers ? fr->n_threads : 2 * fr->n_threads;
    }
    const unsigned bpc = info->bpc > ls_input_info(dist)->bpc ? info->bpc : ls_input_info(dist)->bpc;
    /* A borrowed frame costs a populate of its pages; a copied one a pread of every byte into a
     * pool picture, whose memory the kernel zeroes on first touch (a 1080p run's pool: about as
     * much as it copies in 20 frames). */
    fr->borrow = borrow && fr->n_threads && cpu_scorers && info->bpc == bpc &&
                 ls_input_info(dist)->bpc == bpc && ls_input_map(ref) && ls_input_map(dist);
    const VmafPictureConfiguration pcfg = {
        .pic_params = { .w = info->w, .h = info->h, .bpc = bpc, .pix_fmt = info->fmt },
        /* two pictures for each frame read ahead, each frame the context still holds, and the
         * pair being handed in */
        .pic_cnt = 2 * (fr->ring_size + lockstep_max_frames_held(ctx) + 2),
    };
    int err = fr->borrow ? 0 : vmaf_preallocate_pictures(ctx, pcfg);
    if (err)
        goto fail;
    for (unsigned k = 0; fr->ahead_mode && k < 2; k++) {
        struct Ahead *a = &fr->ahead[k];
        a->fr = fr;
        a->in = k ? dist : ref;
        a->role = k ? "distorted" : "reference";
        a->skip = k ? skip_dist : skip_ref;
        if (pthread_create(&a->thread, NULL, ahead_thread, a)) {
            err = -ENOMEM;
            goto fail;
        }
        a->started = 1;
    }
    if (fr->n_threads) {
        fr->ring = calloc(fr->ring_size, sizeof(*fr->ring));
        if (!fr->ring) {
            err = -ENOMEM;
            goto fail;
        }
        for (unsigned i = 0; i < fr->n_threads; i++) {
            if (pthread_create(&fr->thread[i], NULL, reader_thread, fr)) {
                fr->n_threads = i;
                err = -ENOMEM;
                goto fail;
            }
        }
    }
    *out = fr;
    return 0;
fail:
    frame_reader_close(fr);
    return err;
}

static int finish_pair(FrameReader *fr, int rr, int rd, const char *why, VmafPicture *ref,
                       VmafPicture *dist, char *err, size_t len)
{
    if (rr > 0 && rd > 0) {
        fr->n_delivered++;
        return 1;
    }
    vmaf_picture_unref(ref);
    vmaf_picture_unref(dist);
    if (rr < 0 || rd < 0) {
        snprintf(err, len, "%s", why);
        return rr < 0 ? rr : rd;
    }
    if (rr != rd) {
        snprintf(err, len,
                 "the %s input ended before the %s one (after %u frames): the inputs must have "
                 "the same number of frames (see --frame_cnt)",
                 rr ? "distorted" : "reference", rr ? "reference" : "distorted", fr->n_delivered);
        return -EINVAL;
    }
    return 0;
}

int frame_reader_next(FrameReader *fr, VmafPicture *ref, VmafPicture *dist, char *err,
                      size_t err_len)
{
    if (fr->n_delivered >= fr->limit)
        return 0;
    if (fr->ahead_mode) {
        pthread_mutex_lock(&fr->lock);
        const unsigned i = fr->n_delivered % AHEAD_FRAMES;
        while (!fr->ahead[0].slot[i].ready || !fr->ahead[1].slot[i].ready)
            pthread_cond_wait(&fr->cond, &fr->lock);
        *ref = fr->ahead[0].slot[i].pic;
        *dist = fr->ahead[1].slot[i].pic;
        const int rr = fr->ahead[0].slot[i].r, rd = fr->ahead[1].slot[i].r;
        char why[512];
        snprintf(why, sizeof(why), "%s",
                 rr < 0 ? fr->ahead[0].slot[i].err : fr->ahead[1].slot[i].err);
        fr->ahead[0].slot[i].ready = fr->ahead[1].slot[i].ready = 0;
        const int ret = finish_pair(fr, rr, rd, why, ref, dist, err, err_len);
        pthread_cond_broadcast(&fr->cond);
        pthread_mutex_unlock(&fr->lock);
        return ret;
    }
    if (!fr->n_threads) {
        if (fr->n_delivered == 0) {
            int r = skip_frames(fr->ref, fr->skip_ref, err, err_len);
            if (r == 0)
                snprintf(err, err_len, "the reference input has no frame after skipping %u", fr->skip_ref);
            if (r <= 0)
                return r ? r : -EINVAL;
            r = skip_frames(fr->dist, fr->skip_dist, err, err_len);
            if (r == 0)
                snprintf(err, err_len, "the distorted input has no frame after skipping %u", fr->skip_dist);
            if (r <= 0)
                return r ? r : -EINVAL;
        }
        vmaf_fetch_preallocated_picture(fr->ctx, ref);
        vmaf_fetch_preallocated_picture(fr->ctx, dist);
        char why[512] = "";
        const int rr = read_frame(fr->ref, false, 0, ref, why, sizeof(why));
        const int rd = rr < 0 ? 0 : read_frame(fr->dist, false, 0, dist, why, sizeof(why));
        return finish_pair(fr, rr, rd, why, ref, dist, err, err_len);
    }
    pthread_mutex_lock(&fr->lock);
    Pair *p = &fr->ring[fr->n_delivered % fr->ring_size];
    while (!p->ready)
        pthread_cond_wait(&fr->cond, &fr->lock);
    p->ready = 0;
    *ref = p->ref;
    *dist = p->dist;
    const int rr = p->rr, rd = p->rd;
    char why[512];
    snprintf(why, sizeof(why), "%s", p->err);
    int ret = finish_pair(fr, rr, rd, why, ref, dist, err, err_len);
    if (ret == 0 && fr->n_delivered == 0 && (fr->skip_ref || fr->skip_dist))
        snprintf(err, err_len, "no frames left after skipping"), ret = -EINVAL;
    pthread_cond_broadcast(&fr->cond);
    pthread_mutex_unlock(&fr->lock);
    return ret;
}

unsigned frame_reader_threads(const FrameReader *fr) { return fr->n_threads; }

void frame_reader_read_planes(FrameReader *fr, unsigned n_planes)
{
    ls_input_read_planes(fr->ref, n_planes);
    ls_input_read_planes(fr->dist, n_planes);
}

void frame_reader_close(FrameReader *fr)
{
    if (!fr)
        return;
    pthread_mutex_lock(&fr->lock);
    fr->stop = 1;
    pthread_cond_broadcast(&fr->cond);
    pthread_mutex_unlock(&fr->lock);
    /* a reader blocked on the pool gets a picture back as these are released */
    for (unsigned k = 0; fr->ahead_mode && k < 2; k++) {
        for (unsigned i = 0; i < AHEAD_FRAMES; i++) {
            pthread_mutex_lock(&fr->lock);
            if (fr->ahead[k].slot[i].ready) {
                vmaf_picture_unref(&fr->ahead[k].slot[i].pic);
                fr->ahead[k].slot[i].ready = 0;
            }
            pthread_mutex_unlock(&fr->lock);
        }
    }
    for (unsigned k = 0; k < 2; k++)
        if (fr->ahead[k].started)
            pthread_join(fr->ahead[k].thread, NULL);
    for (unsigned k = 0; fr->ahead_mode && k < 2; k++)
        for (unsigned i = 0; i < AHEAD_FRAMES; i++)
            if (fr->ahead[k].slot[i].ready)
                vmaf_picture_unref(&fr->ahead[k].slot[i].pic);
    for (unsigned i = 0; fr->ring && i < fr->ring_size; i++) {
        pthread_mutex_lock(&fr->lock);
        Pair *p = &fr->ring[i];
        if (p->ready) {
            vmaf_picture_unref(&p->ref);
            vmaf_picture_unref(&p->dist);
            p->ready = 0;
        }
        pthread_mutex_unlock(&fr->lock);
    }
    for (unsigned i = 0; i < fr->n_threads; i++)
        pthread_join(fr->thread[i], NULL);
    for (unsigned i = 0; fr->ring && i < fr->ring_size; i++) {
        Pair *p = &fr->ring[i];
        if (p->ready) {
            vmaf_picture_unref(&p->ref);
            vmaf_picture_unref(&p->dist);
        }
    }
    pthread_mutex_destroy(&fr->claim);
    pthread_mutex_destroy(&fr->lock);
    pthread_cond_destroy(&fr->cond);
    free(fr->ring);
    free(fr);
}
