/* The lockstep command line as library calls: a run takes the CLI's arguments (features, models,
 * options, --frame_range, -o...) and scores the way the CLI does, from files or from frames the
 * caller gives. The CLI itself is a thin client of these calls, and so are the Python package
 * and its Dask runner: what they score is the CLI's, bit for bit. The shared libraries export
 * them (liblockstep.so, libvmaf.so.3); liblockstep.a holds the scoring API only. */
#ifndef LOCKSTEP_RUN_H
#define LOCKSTEP_RUN_H

#include <stddef.h>

#include "lockstep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* exported (lockstep.h says why) */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct LockstepRun LockstepRun;

/* Parses argv as the CLI does (argv[0] is the program's name, used in messages), opens -r and -d,
 * loads the models and sets up the context. Returns 0, or the CLI's exit status: 1 for a usage
 * error, 2 when an informational option (--help, --version, --list-extractors) printed its text
 * and there is nothing to score, 255 for any other error; lockstep_run_error says what went
 * wrong. *run is set in every case but out of memory (NULL then): close it with
 * lockstep_run_close. Thread-safe (parsing is serialised inside). */
int lockstep_run_open(LockstepRun **run, int argc, const char *const *argv);
/* The same for frames given with lockstep_run_read_frame instead of files: argv has no -r/-d
 * (nor what only files have: raw geometry, frame skips and counts, --frame_range); the frames
 * are w x h in pix_fmt at bpc bits. */
int lockstep_run_open_frames(LockstepRun **run, int argc, const char *const *argv,
                             enum VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h);
/* The frames a run over the whole inputs scores: the reference's after --frame_skip_ref, at
 * most --frame_cnt (without --frame_range: it counts the video, to cut it into shards). Before
 * any frame is read; where the reference cannot be read at frame indices (a pipe, Y4M frames
 * with parameters) it is read through, and the run can then only be closed. */
int lockstep_run_count_frames(LockstepRun *run, unsigned *count);
/* Reads every frame pair of the inputs (a shard's and its context with --frame_range) and
 * finishes the run (lockstep_run_finish). Returns as lockstep_run_open. */
int lockstep_run_files(LockstepRun *run);
/* Scores the next frame pair (frame numbers count from 0): planes[p] points at row 0 of plane p,
 * stride[p] bytes apart, samples uint8_t at 8 bits and uint16_t above; planes 1 and 2 are
 * ignored for 4:0:0. The samples are copied: the caller's buffers are free on return. */
int lockstep_run_read_frame(LockstepRun *run, const void *const ref[3],
                            const ptrdiff_t ref_stride[3], const void *const dist[3],
                            const ptrdiff_t dist_stride[3]);
/* After the last frame: flushes, predicts the models over the frames reported and writes -o's
 * report (a shard report with --frame_range). Once per run. */
int lockstep_run_finish(LockstepRun *run);
/* The message of the last failure ("" when none): one line, as the CLI prints it. */
const char *lockstep_run_error(const LockstepRun *run);
/* The context holding the scores (per frame, pooled, aggregates) once finished; NULL before
 * setup. Owned by the run. */
VmafContext *lockstep_run_context(LockstepRun *run);
/* The frames reported: first and count (with --frame_range, the shard's frames in the video). */
void lockstep_run_frames(const LockstepRun *run, unsigned *first, unsigned *count);
/* The models predicted, in the order the CLI prints them (none with -n). */
unsigned lockstep_run_model_count(const LockstepRun *run);
int lockstep_run_model_info(const LockstepRun *run, unsigned i, LockstepShardModel *model);
void lockstep_run_close(LockstepRun *run);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
