/* Getting frames to the device without per-frame allocation: a packed layout of the planes a twin
 * reads (reference planes, then distorted planes, rows without padding, each plane 256-byte
 * aligned), and a small pool of host threads that copies picture rows into the pinned staging
 * buffer (one thread's memcpy cannot keep up with the copy engine at 4K). */
#ifndef LOCKSTEP_CORE_FRAME_PACK_H
#define LOCKSTEP_CORE_FRAME_PACK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "lockstep/picture.h"

typedef struct LsFrameLayout {
    unsigned n_planes;
    unsigned bpc, bytes_per_sample;
    unsigned w[3], h[3];
    size_t row_bytes[3];
    size_t offset[2][3]; /* [0] reference, [1] distorted: byte offset of each plane */
    size_t size;         /* bytes of one packed frame pair */
    /* 10-bit frames sent 16 samples in 20 bytes (core/pack10.h), when ls_frame_layout_pack10
     * chose it: the planes at packed_offset, rows of packed_row_bytes, packed_size in all */
    int pack10;
    size_t packed_row_bytes[3];
    size_t packed_offset[2][3];
    size_t packed_size;
} LsFrameLayout;

void ls_frame_layout_init(LsFrameLayout *l, unsigned n_planes, unsigned bpc, const unsigned w[3],
                         const unsigned h[3]);

/* Adds the 10-bit packed form to l where it applies (10-bit samples, every row a whole number of
 * groups) and returns 1; else 0, l unchanged. */
int ls_frame_layout_pack10(LsFrameLayout *l);

/* Host memory that the device reads by DMA (pinned pool pictures). */
typedef struct LsHostBlock {
    const unsigned char *ptr;
    size_t size;
} LsHostBlock;

/* 1 when the planes of pic that l holds can be uploaded straight from the picture, one copy per
 * plane: rows without padding (stride = row bytes) and each plane inside one of the n blocks. */
int ls_frame_direct(const LsFrameLayout *l, const VmafPicture *pic, const LsHostBlock *blocks,
                    unsigned n);
/* The same for a picture whose planes the reader packed (ls_picture_packed10; l->pack10): each
 * packed plane (packed_row_bytes * h bytes from data[p]) inside one of the blocks. */
int ls_frame_direct_packed(const LsFrameLayout *l, const VmafPicture *pic,
                           const LsHostBlock *blocks, unsigned n);
/* Copies the packed planes of such pictures into dst, the layout's packed form. */
void ls_frame_copy_packed(const LsFrameLayout *l, unsigned char *dst, const VmafPicture *ref,
                          const VmafPicture *dis);

#define LS_FRAME_PACK_MAX_THREADS 8
#define LS_FRAME_PACK_MAX_COPIES 6

typedef struct LsFramePackCopy {
    unsigned char *dst;
    const unsigned char *src;
    ptrdiff_t src_stride;
    size_t row_bytes;     /* of the source */
    size_t dst_row_bytes; /* of dst: row_bytes, or the packed row's */
    unsigned rows;
} LsFramePackCopy;

typedef struct LsFramePacker {
    pthread_t thread[LS_FRAME_PACK_MAX_THREADS];
    unsigned n_threads;
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    int sync_ready;
    unsigned generation, pending;
    int stop;
    LsFramePackCopy copy[LS_FRAME_PACK_MAX_COPIES];
    unsigned n_copies, total_rows;
    int pack10;                   /* this frame's rows are packed (core/pack10.h), not copied */
    uint16_t (*pack_row)(uint32_t *dst, const uint16_t *src, size_t n);
    uint16_t any[LS_FRAME_PACK_MAX_THREADS + 1]; /* per part: the OR of the samples it packed */
} LsFramePacker;

/* Starts the helper threads (none on small frames or machines). Returns 0 or -errno. */
int ls_frame_packer_init(LsFramePacker *pk, size_t frame_bytes);
void ls_frame_packer_close(LsFramePacker *pk);
/* Copies the planes of ref and dis into dst (the layout's packed form); returns when done. */
void ls_frame_pack(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                  const VmafPicture *ref, const VmafPicture *dis);
/* The same into the packed form of a layout with pack10 (dst: packed_size bytes). Returns 0, or 1
 * when a sample lies above 10 bits: dst is then not the frame, which goes unpacked instead (the
 * packed form holds only 10 bits, and the kernels must see what the picture holds). */
int ls_frame_pack10(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                    const VmafPicture *ref, const VmafPicture *dis);

#endif
