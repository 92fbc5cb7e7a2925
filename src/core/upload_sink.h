#ifndef LOCKSTEP_CORE_UPLOAD_SINK_H
#define LOCKSTEP_CORE_UPLOAD_SINK_H

#include <stddef.h>

#include "libvmaf/picture.h"

/* Where a reader may send a picture's bytes as it produces them, instead of writing them into the
 * picture: a GPU backend that keeps a device copy of the pool's pinned memory offers one
 * (lockstep_upload_sink). The reader packs each band into a small host buffer the sink hands out
 * and the sink copies it to the device while it is still in the cache; the picture's host
 * memory is never written, which saves the host a write and the copy engine a read from memory
 * (bench/README.md, twelfth session). Such a picture is marked with ls_picture_set_uploaded and
 * holds nothing readable on the host. */
typedef struct LsUploadWriter LsUploadWriter;

typedef struct LsUploadSink {
    /* A writer for one picture, or NULL: pic's memory is not memory the sink mirrors (the
     * reader writes the picture then). A thread keeps its writer until end. */
    LsUploadWriter *(*begin)(struct LsUploadSink *sink, const VmafPicture *pic);
    /* Host memory for the n bytes (n <= LS_UPLOAD_MAX_BYTES) that belong at dst in the picture,
     * written before the next call; NULL on an error, with lockstep_last_error. */
    void *(*buffer)(LsUploadWriter *w, void *dst, size_t n);
    /* Every byte handed over is on the device; the writer is free again, even on an error.
     * 0, or a negative errno with lockstep_last_error. */
    int (*end)(LsUploadWriter *w);
} LsUploadSink;

enum { LS_UPLOAD_MAX_BYTES = 256u << 10 };

/* The sink that received pic's planes (those of ls_picture_packed10), or NULL: they are in its
 * host memory. A pool clears it when it hands the picture out, the reader when it starts one. */
void ls_picture_set_uploaded(VmafPicture *pic, const LsUploadSink *sink);
const LsUploadSink *ls_picture_uploaded(const VmafPicture *pic);

/* The sink every extractor of the context sends its pictures through (extractor.h:
 * upload_sink), or NULL: none offers one yet, or they are not the same one. */
struct VmafContext;
LsUploadSink *ls_context_upload_sink(struct VmafContext *ctx);

#endif
