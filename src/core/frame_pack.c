/* Packed frame layout and the row-copy pool (frame_pack.h), shared by the CUDA and OpenCL twins. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/frame_pack.h"
#include "core/pack10.h"

#define PLANE_ALIGN 256u

void ls_frame_layout_init(LsFrameLayout *l, unsigned n_planes, unsigned bpc, const unsigned w[3],
                         const unsigned h[3])
{
    memset(l, 0, sizeof(*l));
    l->n_planes = n_planes;
    l->bpc = bpc;
    l->bytes_per_sample = bpc > 8 ? 2 : 1;
    size_t off = 0;
    for (unsigned side = 0; side < 2; side++) {
        for (unsigned p = 0; p < n_planes; p++) {
            l->w[p] = w[p];
            l->h[p] = h[p];
            l->row_bytes[p] = (size_t)w[p] * l->bytes_per_sample;
            l->offset[side][p] = off;
            off += (l->row_bytes[p] * h[p] + PLANE_ALIGN - 1) / PLANE_ALIGN * PLANE_ALIGN;
        }
    }
    l->size = off;
}

int ls_frame_layout_pack10(LsFrameLayout *l)
{
    if (!ls_pack10_fits(l->bpc, l->n_planes, l->w))
        return 0;
    size_t off = 0;
    for (unsigned side = 0; side < 2; side++) {
        for (unsigned p = 0; p < l->n_planes; p++) {
            l->packed_row_bytes[p] = ls_pack10_bytes(l->w[p]);
            l->packed_offset[side][p] = off;
            off += (l->packed_row_bytes[p] * l->h[p] + PLANE_ALIGN - 1) / PLANE_ALIGN * PLANE_ALIGN;
        }
    }
    l->packed_size = off;
    l->pack10 = 1;
    return 1;
}

/* whether bytes from ptr lie inside one of the n blocks */
static int in_blocks(const void *ptr, size_t bytes, const LsHostBlock *blocks, unsigned n)
{
    const uintptr_t lo = (uintptr_t)ptr;
    for (unsigned i = 0; i < n; i++)
        if (lo >= (uintptr_t)blocks[i].ptr && bytes <= blocks[i].size &&
            lo - (uintptr_t)blocks[i].ptr <= blocks[i].size - bytes)
            return 1;
    return 0;
}

int ls_frame_direct(const LsFrameLayout *l, const VmafPicture *pic, const LsHostBlock *blocks,
                    unsigned n)
{
    for (unsigned p = 0; p < l->n_planes; p++)
        if ((size_t)pic->stride[p] != l->row_bytes[p] || !pic->data[p] ||
            !in_blocks(pic->data[p], l->row_bytes[p] * l->h[p], blocks, n))
            return 0;
    return 1;
}

int ls_frame_direct_packed(const LsFrameLayout *l, const VmafPicture *pic,
                           const LsHostBlock *blocks, unsigned n)
{
    for (unsigned p = 0; p < l->n_planes; p++)
        if (!pic->data[p] || !in_blocks(pic->data[p], l->packed_row_bytes[p] * l->h[p], blocks, n))
            return 0;
    return 1;
}

void ls_frame_copy_packed(const LsFrameLayout *l, unsigned char *dst, const VmafPicture *ref,
                          const VmafPicture *dis)
{
    for (unsigned side = 0; side < 2; side++)
        for (unsigned p = 0; p < l->n_planes; p++)
            memcpy(dst + l->packed_offset[side][p], (side ? dis : ref)->data[p],
                   l->packed_row_bytes[p] * l->h[p]);
}

/* Rows [first, last) of the concatenated copies; returns the OR of the samples packed. */
static uint16_t copy_rows(const LsFramePacker *pk, unsigned first, unsigned last)
{
    uint16_t any = 0;
    unsigned base = 0;
    for (unsigned c = 0; c < pk->n_copies && first < last; c++) {
        const LsFramePackCopy *cp = &pk->copy[c];
        const unsigned end = base + cp->rows;
        if (first < end) {
            const unsigned stop = last < end ? last : end;
            for (unsigned r = first - base; r < stop - base; r++) {
                unsigned char *dst = cp->dst + (size_t)r * cp->dst_row_bytes;
                const unsigned char *src = cp->src + (ptrdiff_t)r * cp->src_stride;
                if (pk->pack10)
                    any |= pk->pack_row((uint32_t *)(void *)dst,
                                        (const uint16_t *)(const void *)src, cp->row_bytes / 2);
                else
                    memcpy(dst, src, cp->row_bytes);
            }
            first = stop;
        }
        base = end;
    }
    return any;
}

static void share(LsFramePacker *pk, unsigned part, unsigned parts)
{
    const uint64_t rows = pk->total_rows;
    pk->any[part] =
        copy_rows(pk, (unsigned)(rows * part / parts), (unsigned)(rows * (part + 1) / parts));
}

static void *pack_thread(void *arg)
{
    LsFramePacker *pk = arg;
    pthread_mutex_lock(&pk->lock);
    const unsigned part = 1 + pk->sync_ready++; /* part 0 is the caller's */
    unsigned seen = 0; /* threads start before the first frame: generation 0 is "no work" */
    for (;;) {
        while (!pk->stop && pk->generation == seen)
            pthread_cond_wait(&pk->go, &pk->lock);
        if (pk->stop)
            break;
        seen = pk->generation;
        pthread_mutex_unlock(&pk->lock);
        share(pk, part, pk->n_threads + 1);
        pthread_mutex_lock(&pk->lock);
        if (--pk->pending == 0)
            pthread_cond_signal(&pk->done);
    }
    pthread_mutex_unlock(&pk->lock);
    return NULL;
}

int ls_frame_packer_init(LsFramePacker *pk, size_t frame_bytes)
{
    memset(pk, 0, sizeof(*pk));
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = cpus > 2 ? (unsigned)(cpus / 2) - 1 : 0;
    if (n > LS_FRAME_PACK_MAX_THREADS)
        n = LS_FRAME_PACK_MAX_THREADS;
    if (frame_bytes < ((size_t)4 << 20))
        n = 0; /* below a few MB the hand-off costs more than it saves */
    if (pthread_mutex_init(&pk->lock, NULL))
        return -ENOMEM;
    if (pthread_cond_init(&pk->go, NULL) || pthread_cond_init(&pk->done, NULL))
        return -ENOMEM;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&pk->thread[i], NULL, pack_thread, pk))
            break; /* fewer helpers: slower, still correct */
        pk->n_threads++;
    }
    return 0;
}

void ls_frame_packer_close(LsFramePacker *pk)
{
    pthread_mutex_lock(&pk->lock);
    pk->stop = 1;
    pthread_cond_broadcast(&pk->go);
    pthread_mutex_unlock(&pk->lock);
    for (unsigned i = 0; i < pk->n_threads; i++)
        pthread_join(pk->thread[i], NULL);
    pthread_cond_destroy(&pk->go);
    pthread_cond_destroy(&pk->done);
    pthread_mutex_destroy(&pk->lock);
    pk->n_threads = 0;
}

/* Both forms: copies (or packs, with pack10) every plane of the layout into dst; returns the OR
 * of the samples packed. */
static uint16_t pack_frame(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                           const VmafPicture *ref, const VmafPicture *dis, int pack10)
{
    pk->n_copies = 0;
    pk->total_rows = 0;
    pk->pack10 = pack10;
    if (pack10 && !pk->pack_row)
        pk->pack_row = ls_pack10_row_fn();
    for (unsigned side = 0; side < 2; side++) {
        const VmafPicture *pic = side ? dis : ref;
        for (unsigned p = 0; p < l->n_planes; p++) {
            LsFramePackCopy *cp = &pk->copy[pk->n_copies++];
            cp->dst = dst + (pack10 ? l->packed_offset : l->offset)[side][p];
            cp->src = pic->data[p];
            cp->src_stride = pic->stride[p];
            cp->row_bytes = l->row_bytes[p];
            cp->dst_row_bytes = pack10 ? l->packed_row_bytes[p] : l->row_bytes[p];
            cp->rows = l->h[p];
            pk->total_rows += l->h[p];
        }
    }
    if (!pk->n_threads)
        return copy_rows(pk, 0, pk->total_rows);
    pthread_mutex_lock(&pk->lock);
    pk->pending = pk->n_threads;
    pk->generation++;
    pthread_cond_broadcast(&pk->go);
    pthread_mutex_unlock(&pk->lock);
    share(pk, 0, pk->n_threads + 1);
    pthread_mutex_lock(&pk->lock);
    while (pk->pending)
        pthread_cond_wait(&pk->done, &pk->lock);
    pthread_mutex_unlock(&pk->lock);
    uint16_t any = 0;
    for (unsigned i = 0; i <= pk->n_threads; i++)
        any |= pk->any[i];
    return any;
}

void ls_frame_pack(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                  const VmafPicture *ref, const VmafPicture *dis)
{
    pack_frame(pk, l, dst, ref, dis, 0);
}

int ls_frame_pack10(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                    const VmafPicture *ref, const VmafPicture *dis)
{
    return (pack_frame(pk, l, dst, ref, dis, 1) >> 10) != 0;
}
