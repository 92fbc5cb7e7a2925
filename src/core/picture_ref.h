#ifndef LOCKSTEP_CORE_PICTURE_REF_H
#define LOCKSTEP_CORE_PICTURE_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/backend.h"
#include "lockstep/picture.h"

/* Takes another reference: dst becomes a copy of src sharing its memory. */
void ls_picture_ref(VmafPicture *dst, const VmafPicture *src);

/* A picture whose samples stay in memory its owner keeps (frames of a mapped file): planes as
 * laid out there, any stride of at least a row's bytes. give_back (may be NULL) runs with mem and
 * size when the last reference goes. */
typedef struct LsBorrowedFrame {
    void *plane[3];
    ptrdiff_t stride[3];
    void *mem;
    size_t size;
    void (*give_back)(void *mem, size_t size);
} LsBorrowedFrame;
int ls_picture_borrow(VmafPicture *pic, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                      unsigned h, const LsBorrowedFrame *frame);

/* Planes (bit p for plane p) whose every sample the reader has found within the picture's
 * depth (src/input/input.c), so that an extractor which must not meet a sample above it need
 * not look again. The reader sets none before it writes samples and the checked ones after;
 * a pool clears them when it hands the picture out. Pictures from elsewhere (the library's
 * callers) have none. */
void ls_picture_set_depth_checked(VmafPicture *pic, unsigned planes);
bool ls_picture_depth_checked(const VmafPicture *pic, unsigned plane);

/* Planes (bit p for plane p) that hold their samples in the 10-bit packed form of
 * core/pack10.h instead of 16-bit words: row y of plane p is the packed row at
 * data[p] + y * ls_pack10_bytes(w[p]) (stride does not apply). Only the CLI's reader writes them
 * (ls_input_pack10), for a run whose every extractor is a CUDA twin, which uploads them as they
 * are; the context refuses them to any other extractor. A pool clears the mark when it hands the
 * picture out, the reader when it starts a frame. */
void ls_picture_set_packed10(VmafPicture *pic, unsigned planes);
unsigned ls_picture_packed10(const VmafPicture *pic);

/* Whether a row of w 16-bit samples has one above max (2^bpc - 1: all ones, so the OR tells):
 * the depth check of the reader and of extractors that check their own input. */
static inline bool ls_row_above_depth(const void *row, unsigned w, unsigned max)
{
    const uint16_t *r = (const uint16_t *)row;
    uint16_t any = 0; /* 16-bit lanes: the OR vectorises without widening */
    for (unsigned j = 0; j < w; j++)
        any = (uint16_t)(any | r[j]);
    return any > max;
}

typedef struct LsPicturePool LsPicturePool;
/* host: where the pictures' memory comes from (NULL: the heap); it must outlive the pool. */
int ls_picture_pool_create(LsPicturePool **pool, enum VmafPixelFormat fmt, unsigned bpc,
                           unsigned w, unsigned h, unsigned count, const LsHostMemory *host);
int ls_picture_pool_fetch(LsPicturePool *pool, VmafPicture *pic); /* blocks until one is free */
/* waits up to ms milliseconds (0: not at all, < 0: as ls_picture_pool_fetch); -ETIMEDOUT when
 * none came back */
int ls_picture_pool_fetch_within(LsPicturePool *pool, VmafPicture *pic, int ms);
void ls_picture_pool_destroy(LsPicturePool *pool);
/* The pool's memory blocks (one per picture), for GPU backends that pin them. */
unsigned ls_picture_pool_count(const LsPicturePool *pool);
void *ls_picture_pool_block(const LsPicturePool *pool, unsigned i, size_t *size);

#endif
