/* Frame pairs for the CLI, in order: read in the calling thread, or — for regular files with large
 * frames — by several threads ahead of the scoring, each reading whole frames at their offsets
 * (pread), so that reading neither serialises with scoring nor caps a GPU backend's throughput;
 * for CPU scoring those threads map the frames instead of copying them (borrowed pictures). */
#ifndef LOCKSTEP_TOOLS_FRAME_READER_H
#define LOCKSTEP_TOOLS_FRAME_READER_H

#include "input/input.h"
#include "lockstep/lockstep.h"

typedef struct FrameReader FrameReader;

/* Pictures come from ctx's pool, which this sizes (vmaf_preallocate_pictures), at the higher of
 * the two inputs' depths (the other input is shifted up to it): call after the
 * features are registered and before any other use of the pool. limit: frames to deliver at most (0 = all).
 * cpu_scorers: the CPU threads that score the frames (the calling thread counts as one), which
 * bounds the reader threads and so the pool; 0 for a GPU backend, which reads with all of them.
 * borrow: the frames may stay in the files' pages (ls_input_borrow_at) where both inputs allow it
 * and need no depth shift, with no pool and no copy; only for scoring on the CPU (a GPU uploads
 * from the pool's pinned pictures). */
int frame_reader_open(FrameReader **fr, VmafContext *ctx, LsInput *ref, LsInput *dist,
                      unsigned skip_ref, unsigned skip_dist, unsigned limit, unsigned cpu_scorers,
                      bool borrow);
/* 1: a pair was read (the caller owns both pictures); 0: both inputs ended together; negative:
 * an error, described in err (a truncated or unreadable frame, inputs of different lengths). */
int frame_reader_next(FrameReader *fr, VmafPicture *ref, VmafPicture *dist, char *err,
                      size_t err_len);
unsigned frame_reader_threads(const FrameReader *fr);
/* Frames read from now on fill only the first n_planes planes (ls_input_read_planes). */
void frame_reader_read_planes(FrameReader *fr, unsigned n_planes);
void frame_reader_close(FrameReader *fr);

#endif
