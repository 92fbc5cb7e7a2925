/* The context's shared OpenCL device and its pinned picture memory (host_memory.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/log.h"
#include "opencl/host_memory.h"

typedef struct PinnedBlock {
    cl_mem mem;            /* CL_MEM_ALLOC_HOST_PTR, mapped at `mapped` for the whole run */
    unsigned char *mapped;
    unsigned char *ptr;    /* what alloc handed out: mapped, aligned to 4096 */
    size_t size;           /* bytes handed out */
} PinnedBlock;

struct LsClHost {
    LsClDevice dev;
    pthread_mutex_t lock;  /* the block list: the pool allocates, frame pipelines look up */
    PinnedBlock *block;
    LsHostBlock *range;    /* the blocks' { ptr, size }, for ls_frame_direct */
    unsigned n_blocks, cap;
    unsigned holds;        /* the context's shared objects, and a picture pool */
    int refused;           /* the driver refused one: the rest of the pool is the heap's */
};

typedef struct HostArgs {
    int index;
    char *err;
    size_t err_len;
} HostArgs;

/* Drops one hold; the last one closes the device. The context's shared objects go before its
 * picture pool (the frame pipelines hand the pictures they hold back to the pool), so the pool's
 * blocks are usually released before the last hold, by host_release. */
static void host_drop(void *obj)
{
    LsClHost *h = obj;
    pthread_mutex_lock(&h->lock);
    const unsigned left = --h->holds;
    pthread_mutex_unlock(&h->lock);
    if (left)
        return;
    const LsClFns *cl = h->dev.cl;
    for (unsigned i = 0; i < h->n_blocks; i++) {
        /* the pool gave its pictures back before the context's shared objects go */
        cl->clEnqueueUnmapMemObject(h->dev.queue, h->block[i].mem, h->block[i].mapped, 0, NULL,
                                    NULL);
        cl->clReleaseMemObject(h->block[i].mem);
    }
    if (h->n_blocks)
        cl->clFinish(h->dev.queue);
    free(h->block);
    free(h->range);
    pthread_mutex_destroy(&h->lock);
    ls_opencl_close(&h->dev);
    free(h);
}

static void *host_create(void *arg, int *ret)
{
    const HostArgs *a = arg;
    LsClHost *h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    if ((*ret = ls_opencl_open(&h->dev, a->index, a->err, a->err_len)) < 0) {
        free(h);
        return NULL;
    }
    pthread_mutex_init(&h->lock, NULL);
    h->holds = 1;
    return h;
}

LsClHost *ls_cl_host_get(LsShared *sh, int index, int *ret, char *err, size_t err_len)
{
    char key[64];
    snprintf(key, sizeof(key), "opencl-device:%d", index);
    HostArgs args = { index, err, err_len };
    snprintf(err, err_len, "out of memory");
    return ls_shared_get(sh, key, host_create, &args, host_drop, ret);
}

LsClDevice *ls_cl_host_device(LsClHost *h) { return &h->dev; }

int ls_cl_host_direct(LsClHost *h, const LsFrameLayout *l, const VmafPicture *pic)
{
    pthread_mutex_lock(&h->lock);
    const int direct = ls_frame_direct(l, pic, h->range, h->n_blocks);
    pthread_mutex_unlock(&h->lock);
    return direct;
}

/* LsHostMemory.alloc: a mapped CL_MEM_ALLOC_HOST_PTR buffer (the driver's pinned memory) */
static void *host_alloc(void *self, size_t bytes)
{
    LsClHost *h = self;
    /* exempt from fault injection, as cuMemHostRegister is: a refused block is no error */
    const LsClFns *cl = ls_opencl_unfaulted(h->dev.cl);
    const size_t align = 4096, size = bytes + align; /* drivers align host buffers less */
    cl_int rc = CL_SUCCESS;
    pthread_mutex_lock(&h->lock);
    if (h->refused) {
        pthread_mutex_unlock(&h->lock);
        return NULL;
    }
    if (h->n_blocks == h->cap) {
        const unsigned cap = h->cap ? 2 * h->cap : 64;
        PinnedBlock *block = realloc(h->block, cap * sizeof(*block));
        if (block)
            h->block = block;
        LsHostBlock *range = realloc(h->range, cap * sizeof(*range));
        if (range)
            h->range = range;
        if (!block || !range) {
            pthread_mutex_unlock(&h->lock);
            return NULL;
        }
        h->cap = cap;
    }
    cl_mem mem = cl->clCreateBuffer(h->dev.ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
                                    NULL, &rc);
    unsigned char *mapped = NULL;
    if (rc == CL_SUCCESS)
        mapped = cl->clEnqueueMapBuffer(h->dev.queue, mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                        size, 0, NULL, NULL, &rc);
    if (rc != CL_SUCCESS || !mapped) {
        char name[32];
        ls_log(VMAF_LOG_LEVEL_DEBUG, "opencl: no pinned picture memory (%s): the rest of the "
               "pictures are staged through a copy", ls_opencl_error_name(rc, name));
        if (mem)
            cl->clReleaseMemObject(mem);
        h->refused = 1;
        pthread_mutex_unlock(&h->lock);
        return NULL;
    }
    PinnedBlock *b = &h->block[h->n_blocks];
    b->mem = mem;
    b->mapped = mapped;
    b->ptr = (unsigned char *)(((uintptr_t)mapped + align - 1) & ~(uintptr_t)(align - 1));
    b->size = bytes;
    h->range[h->n_blocks] = (LsHostBlock){ b->ptr, b->size };
    h->n_blocks++;
    pthread_mutex_unlock(&h->lock);
    return b->ptr;
}

static void host_release(void *self, void *ptr)
{
    LsClHost *h = self;
    const LsClFns *cl = h->dev.cl;
    pthread_mutex_lock(&h->lock);
    for (unsigned i = 0; i < h->n_blocks; i++) {
        if (h->block[i].ptr != ptr)
            continue;
        cl->clEnqueueUnmapMemObject(h->dev.queue, h->block[i].mem, h->block[i].mapped, 0, NULL,
                                    NULL);
        cl->clFinish(h->dev.queue);
        cl->clReleaseMemObject(h->block[i].mem);
        h->n_blocks--;
        h->block[i] = h->block[h->n_blocks];
        h->range[i] = h->range[h->n_blocks];
        break;
    }
    pthread_mutex_unlock(&h->lock);
}

int ls_opencl_host_memory(LsShared *sh, int device, LsHostMemory *out, char *err,
                          size_t err_len)
{
    int ret = 0;
    LsClHost *h = ls_cl_host_get(sh, device, &ret, err, err_len);
    if (!h)
        return ret ? ret : -ENOMEM;
    pthread_mutex_lock(&h->lock);
    h->holds++;
    pthread_mutex_unlock(&h->lock);
    *out = (LsHostMemory){ host_alloc, host_release, host_drop, h };
    return 0;
}
