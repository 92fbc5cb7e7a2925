#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/backend.h"
#include "core/geometry.h"
#include "core/picture_ref.h"
#include "core/upload_sink.h"

struct VmafRef {
    atomic_int count;
    void *mem;
    size_t size;
    size_t mapped;           /* the length of mem's mapping, 0: mem is from aligned_alloc */
    int from_host_memory;    /* mem is from the pool's LsHostMemory */
    LsPicturePool *pool;     /* returned here when the count reaches 0 */
    /* borrowed pictures (ls_picture_borrow): mem is its owner's, handed back through this */
    void (*give_back)(void *mem, size_t size);
    VmafPicture pic;         /* pool pictures: the picture as handed out */
    atomic_uint depth_checked; /* ls_picture_set_depth_checked's planes */
    atomic_uint packed10;      /* ls_picture_set_packed10's planes */
    _Atomic(const LsUploadSink *) uploaded; /* ls_picture_set_uploaded */
};

struct LsPicturePool {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    VmafRef **free_list;
    VmafRef *refs;
    unsigned n_free, count;
    LsHostMemory host;       /* where the pictures' memory comes from (alloc NULL: the heap) */
};

static int layout(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                  unsigned h, size_t *total)
{
    if (fmt < VMAF_PIX_FMT_YUV420P || fmt > VMAF_PIX_FMT_YUV400P || bpc < 8 || bpc > 16 || !w ||
        !h || w > 65536 || h > 65536)
        return -EINVAL;
    memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = fmt;
    pic->bpc = bpc;
    const unsigned n_planes = ls_plane_sizes(fmt, w, h, pic->w, pic->h);
    const size_t bytes = bpc > 8 ? 2 : 1;
    *total = 0;
    for (unsigned p = 0; p < n_planes; p++) {
        /* rows padded to 32 samples (libvmaf's layout); keeps SIMD row loads aligned */
        pic->stride[p] = (ptrdiff_t)(((pic->w[p] + 31u) & ~31u) * bytes);
        *total += (size_t)pic->stride[p] * pic->h[p];
    }
    return 0;
}

/* bytes (a multiple of align) of zeroed memory aligned to `align` (a power of two, a multiple of
 * the page size), NULL when out of memory; in huge pages, where the kernel has them, as far as
 * `used` fills them and in small pages after: the kernel zeroes a whole huge page on first
 * touch, and the tail of a
 * picture (a 1080p 8-bit 4:2:0 one fills 1.48 huge pages) would cost a huge page of zeroing for a
 * fraction of one. A tail of more than half a huge page stays huge: its small pages' faults would
 * cost about what the zeroing saves (1080p 10-bit 4:2:0 fills 2.97, 4K 8-bit luma 3.96). */
static void *map_aligned(size_t bytes, size_t align, size_t used)
{
    uint8_t *m = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uint8_t *start = (uint8_t *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
    if (start > m)
        munmap(m, (size_t)(start - m));
    if (start + bytes < m + bytes + align)
        munmap(start + bytes, (size_t)(m + bytes + align - (start + bytes)));
#ifdef MADV_HUGEPAGE
    size_t huge = (used + align / 2) / align * align;
    if (huge > bytes)
        huge = bytes;
    if (huge)
        madvise(start, huge, MADV_HUGEPAGE);
    if (huge < bytes)
        madvise(start + huge, bytes - huge, MADV_NOHUGEPAGE);
#endif
    return start;
}

static void release_mem(VmafRef *ref)
{
    if (ref->give_back)
        ref->give_back(ref->mem, ref->size);
    else if (ref->from_host_memory)
        ref->pool->host.release(ref->pool->host.self, ref->mem);
    else if (ref->mapped)
        munmap(ref->mem, ref->mapped);
    else
        free(ref->mem);
}

/* Zeroes the bytes of a picture laid out at mem that no row of samples covers. */
static void zero_unwritten(const VmafPicture *pic, uint8_t *mem, size_t total, size_t bytes)
{
    const size_t sample = pic->bpc > 8 ? 2 : 1;
    uint8_t *plane = mem;
    for (unsigned i = 0; i < 3 && pic->w[i]; i++) {
        const size_t row = (size_t)pic->w[i] * sample, pad = (size_t)pic->stride[i] - row;
        for (unsigned y = 0; pad && y < pic->h[i]; y++)
            memset(plane + (size_t)y * pic->stride[i] + row, 0, pad);
        plane += (size_t)pic->stride[i] * pic->h[i];
    }
    memset(mem + total, 0, bytes - total);
}

static int alloc_into(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                      unsigned h, VmafRef *ref, const LsHostMemory *host)
{
    size_t total;
    const int err = layout(pic, fmt, bpc, w, h, &total);
    if (err)
        return err;
    /* 64 bytes of slack past the end: SIMD kernels may over-read the last row's padding; whole
     * pages, so that a GPU backend can pin pool pictures; large pictures in huge pages, which
     * cuts the page faults of first use (most of the start-up of a 1080p run), mapped straight
     * from the kernel: its pages come zeroed on first touch, where a memset would write every
     * byte once more. A backend's host memory (LsHostMemory: pinned, which its device reads by
     * DMA) comes in whole small pages; what no frame's rows write (the rows' padding, the slack)
     * is zeroed, the samples are left to the frames that fill them (a memset of a 4K run's
     * pinned pool, a gigabyte, would be a tenth of a second of its start-up) */
    uint8_t *mem = NULL;
    if (host && host->alloc) {
        const size_t bytes = (total + 64 + 4095) & ~(size_t)4095;
        if ((mem = host->alloc(host->self, bytes)))
            zero_unwritten(pic, mem, total, bytes);
    }
    const size_t page = total >= ((size_t)2 << 20) ? (size_t)2 << 20 : 4096;
    const size_t bytes = (total + 64 + page - 1) & ~(page - 1);
    ref->from_host_memory = mem != NULL;
    ref->mapped = 0;
    if (!mem && page > 4096) {
        mem = map_aligned(bytes, page, total + 64);
        if (!mem)
            return -ENOMEM;
        ref->mapped = bytes;
    } else if (!mem) {
        mem = aligned_alloc(page, bytes);
        if (!mem)
            return -ENOMEM;
        memset(mem, 0, total + 64);
    }
    uint8_t *p = mem;
    for (unsigned i = 0; i < 3 && pic->w[i]; i++) {
        pic->data[i] = p;
        p += (size_t)pic->stride[i] * pic->h[i];
    }
    ref->mem = mem;
    ref->size = total;
    atomic_init(&ref->count, 1);
    pic->ref = ref;
    return 0;
}

int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                       unsigned h)
{
    if (!pic)
        return -EINVAL;
    VmafRef *ref = calloc(1, sizeof(*ref));
    if (!ref)
        return -ENOMEM;
    const int err = alloc_into(pic, pix_fmt, bpc, w, h, ref, NULL);
    if (err)
        free(ref);
    return err;
}

int ls_picture_borrow(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                      unsigned h, const LsBorrowedFrame *frame)
{
    if (!pic || !frame)
        return -EINVAL;
    size_t total;
    const int err = layout(pic, fmt, bpc, w, h, &total);
    if (err)
        return err;
    VmafRef *ref = calloc(1, sizeof(*ref));
    if (!ref)
        return -ENOMEM;
    for (unsigned i = 0; i < 3 && pic->w[i]; i++) {
        pic->data[i] = frame->plane[i];
        pic->stride[i] = frame->stride[i];
    }
    ref->mem = frame->mem;
    ref->size = frame->size;
    ref->give_back = frame->give_back;
    atomic_init(&ref->count, 1);
    pic->ref = ref;
    return 0;
}

void ls_picture_set_depth_checked(VmafPicture *pic, unsigned planes)
{
    if (pic && pic->ref)
        atomic_store(&pic->ref->depth_checked, planes);
}

bool ls_picture_depth_checked(const VmafPicture *pic, unsigned plane)
{
    return pic && pic->ref && (atomic_load(&pic->ref->depth_checked) >> plane & 1u);
}

void ls_picture_set_packed10(VmafPicture *pic, unsigned planes)
{
    if (pic && pic->ref)
        atomic_store(&pic->ref->packed10, planes);
}

unsigned ls_picture_packed10(const VmafPicture *pic)
{
    return pic && pic->ref ? atomic_load(&pic->ref->packed10) : 0u;
}

void ls_picture_set_uploaded(VmafPicture *pic, const LsUploadSink *sink)
{
    if (pic && pic->ref)
        atomic_store(&pic->ref->uploaded, sink);
}

const LsUploadSink *ls_picture_uploaded(const VmafPicture *pic)
{
    return pic && pic->ref ? atomic_load(&pic->ref->uploaded) : NULL;
}

void ls_picture_ref(VmafPicture *dst, const VmafPicture *src)
{
    *dst = *src;
    atomic_fetch_add(&src->ref->count, 1);
}

int vmaf_picture_unref(VmafPicture *pic)
{
    if (!pic || !pic->ref)
        return -EINVAL;
    VmafRef *ref = pic->ref;
    if (atomic_fetch_sub(&ref->count, 1) == 1) {
        LsPicturePool *pool = ref->pool;
        if (pool) {
            pthread_mutex_lock(&pool->lock);
            pool->free_list[pool->n_free++] = ref;
            pthread_cond_signal(&pool->freed);
            pthread_mutex_unlock(&pool->lock);
        } else {
            release_mem(ref);
            free(ref);
        }
    }
    memset(pic, 0, sizeof(*pic));
    return 0;
}

int ls_picture_pool_create(LsPicturePool **out, enum VmafPixelFormat fmt, unsigned bpc,
                           unsigned w, unsigned h, unsigned count, const LsHostMemory *host)
{
    LsPicturePool *pool = count ? calloc(1, sizeof(*pool)) : NULL;
    if (pool) {
        pool->refs = calloc(count, sizeof(*pool->refs));
        pool->free_list = calloc(count, sizeof(*pool->free_list));
    }
    if (!pool || !pool->refs || !pool->free_list) {
        if (pool) {
            free(pool->refs);
            free(pool->free_list);
        }
        free(pool);
        if (host && host->done)
            host->done(host->self); /* the pool owns its hold on host from here */
        return count ? -ENOMEM : -EINVAL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->freed, NULL);
    if (host)
        pool->host = *host;
    for (unsigned i = 0; i < count; i++) {
        VmafRef *ref = &pool->refs[i];
        ref->pool = pool; /* before the allocation: release_mem finds the pool's host memory */
        const int err = alloc_into(&ref->pic, fmt, bpc, w, h, ref, &pool->host);
        if (err) {
            pool->count = i;
            ls_picture_pool_destroy(pool);
            return err;
        }
        pool->free_list[pool->n_free++] = ref;
        pool->count = i + 1;
    }
    *out = pool;
    return 0;
}

int ls_picture_pool_fetch(LsPicturePool *pool, VmafPicture *pic)
{
    return ls_picture_pool_fetch_within(pool, pic, -1);
}

int ls_picture_pool_fetch_within(LsPicturePool *pool, VmafPicture *pic, int ms)
{
    struct timespec until;
    if (ms > 0) {
        clock_gettime(CLOCK_REALTIME, &until); /* the condition variable's clock */
        until.tv_nsec += (long)ms * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
    }
    pthread_mutex_lock(&pool->lock);
    while (!pool->n_free && ms != 0) {
        if (ms < 0)
            pthread_cond_wait(&pool->freed, &pool->lock);
        else if (pthread_cond_timedwait(&pool->freed, &pool->lock, &until) == ETIMEDOUT)
            break;
    }
    if (!pool->n_free) {
        pthread_mutex_unlock(&pool->lock);
        return -ETIMEDOUT;
    }
    VmafRef *ref = pool->free_list[--pool->n_free];
    pthread_mutex_unlock(&pool->lock);
    atomic_store(&ref->count, 1);
    atomic_store(&ref->depth_checked, 0u); /* new samples will be written */
    atomic_store(&ref->packed10, 0u);
    atomic_store(&ref->uploaded, NULL);
    *pic = ref->pic;
    return 0;
}

void ls_picture_pool_destroy(LsPicturePool *pool)
{
    if (!pool)
        return;
    for (unsigned i = 0; i < pool->count; i++)
        release_mem(&pool->refs[i]);
    if (pool->host.done)
        pool->host.done(pool->host.self);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->freed);
    free(pool->refs);
    free(pool->free_list);
    free(pool);
}

unsigned ls_picture_pool_count(const LsPicturePool *pool) { return pool ? pool->count : 0; }

void *ls_picture_pool_block(const LsPicturePool *pool, unsigned i, size_t *size)
{
    *size = pool->refs[i].size;
    return pool->refs[i].mem;
}
