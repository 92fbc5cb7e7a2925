#define _DEFAULT_SOURCE /* madvise */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/geometry.h"
#include "core/picture_ref.h"

struct VmafRef {
    atomic_int count;
    void *mem;
    size_t size;
    size_t mapped;           /* the length of mem's mapping, 0: mem is from aligned_alloc */
    LsPicturePool *pool;     /* returned here when the count reaches 0 */
    VmafPicture pic;         /* pool pictures: the picture as handed out */
};

struct LsPicturePool {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    VmafRef **free_list;
    VmafRef *refs;
    unsigned n_free, count;
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

/* bytes of zeroed memory aligned to `align` (a power of two, a multiple of the page size), in
 * huge pages where the kernel has them; NULL when out of memory */
static void *map_aligned(size_t bytes, size_t align)
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
    madvise(start, bytes, MADV_HUGEPAGE);
#endif
    return start;
}

static void release_mem(VmafRef *ref)
{
    if (ref->mapped)
        munmap(ref->mem, ref->mapped);
    else
        free(ref->mem);
}

static int alloc_into(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                      unsigned h, VmafRef *ref)
{
    size_t total;
    const int err = layout(pic, fmt, bpc, w, h, &total);
    if (err)
        return err;
    /* 64 bytes of slack past the end: SIMD kernels may over-read the last row's padding; whole
     * pages, so that a GPU backend can pin pool pictures; large pictures in huge pages, which
     * cuts the page faults of first use (most of the start-up of a 1080p run), mapped straight
     * from the kernel: its pages come zeroed on first touch, where a memset would write every
     * byte once more */
    const size_t page = total >= ((size_t)2 << 20) ? (size_t)2 << 20 : 4096;
    const size_t bytes = (total + 64 + page - 1) & ~(page - 1);
    uint8_t *mem;
    if (page > 4096) {
        mem = map_aligned(bytes, page);
        if (!mem)
            return -ENOMEM;
        ref->mapped = bytes;
    } else {
        mem = aligned_alloc(page, bytes);
        if (!mem)
            return -ENOMEM;
        memset(mem, 0, total + 64);
        ref->mapped = 0;
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
    const int err = alloc_into(pic, pix_fmt, bpc, w, h, ref);
    if (err)
        free(ref);
    return err;
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
                           unsigned w, unsigned h, unsigned count)
{
    if (!count)
        return -EINVAL;
    LsPicturePool *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return -ENOMEM;
    pool->refs = calloc(count, sizeof(*pool->refs));
    pool->free_list = calloc(count, sizeof(*pool->free_list));
    if (!pool->refs || !pool->free_list) {
        free(pool->refs);
        free(pool->free_list);
        free(pool);
        return -ENOMEM;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->freed, NULL);
    for (unsigned i = 0; i < count; i++) {
        VmafRef *ref = &pool->refs[i];
        const int err = alloc_into(&ref->pic, fmt, bpc, w, h, ref);
        if (err) {
            pool->count = i;
            ls_picture_pool_destroy(pool);
            return err;
        }
        ref->pool = pool;
        pool->free_list[pool->n_free++] = ref;
        pool->count = i + 1;
    }
    *out = pool;
    return 0;
}

int ls_picture_pool_fetch(LsPicturePool *pool, VmafPicture *pic)
{
    pthread_mutex_lock(&pool->lock);
    while (!pool->n_free)
        pthread_cond_wait(&pool->freed, &pool->lock);
    VmafRef *ref = pool->free_list[--pool->n_free];
    pthread_mutex_unlock(&pool->lock);
    atomic_store(&ref->count, 1);
    *pic = ref->pic;
    return 0;
}

void ls_picture_pool_destroy(LsPicturePool *pool)
{
    if (!pool)
        return;
    for (unsigned i = 0; i < pool->count; i++)
        release_mem(&pool->refs[i]);
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
