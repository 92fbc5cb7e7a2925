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
    unsigned bytes_per_sample;
    unsigned w[3], h[3];
    size_t row_bytes[3];
    size_t offset[2][3]; /* [0] reference, [1] distorted: byte offset of each plane */
    size_t size;         /* bytes of one packed frame pair */
} LsFrameLayout;

void ls_frame_layout_init(LsFrameLayout *l, unsigned n_planes, unsigned bpc, const unsigned w[3],
                         const unsigned h[3]);

#define LS_FRAME_PACK_MAX_THREADS 8
#define LS_FRAME_PACK_MAX_COPIES 6

typedef struct LsFramePackCopy {
    unsigned char *dst;
    const unsigned char *src;
    ptrdiff_t src_stride;
    size_t row_bytes;
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
} LsFramePacker;

/* Starts the helper threads (none on small frames or machines). Returns 0 or -errno. */
int ls_frame_packer_init(LsFramePacker *pk, size_t frame_bytes);
void ls_frame_packer_close(LsFramePacker *pk);
/* Copies the planes of ref and dis into dst (the layout's packed form); returns when done. */
void ls_frame_pack(LsFramePacker *pk, const LsFrameLayout *l, unsigned char *dst,
                  const VmafPicture *ref, const VmafPicture *dis);

#endif
