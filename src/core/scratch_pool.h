/* Scratch blocks of an extractor's finished calls, reused by the next ones. Frames are scored
 * concurrently, so each call needs memory of its own; allocating it per call would map, fault in
 * (the kernel zeroes every page) and unmap megabytes per frame. A call takes a block, owns it
 * exclusively until it gives it back, and the pool keeps at most a few (one per thread that ran
 * at once). */
#ifndef LOCKSTEP_CORE_SCRATCH_POOL_H
#define LOCKSTEP_CORE_SCRATCH_POOL_H

#include <stddef.h>

typedef struct LsScratchPool LsScratchPool;

/* A pool of blocks of `bytes` bytes, 64-byte aligned; NULL when out of memory. */
LsScratchPool *ls_scratch_pool_create(size_t bytes);
/* A block: one given back before, or a new one, zero-filled (vector tails that read past the
 * rows they use read defined values; a reused block holds an earlier call's values, defined too).
 * NULL when out of memory. */
void *ls_scratch_take(LsScratchPool *pool);
void ls_scratch_give(LsScratchPool *pool, void *block);
/* Frees the pool and the blocks it holds (every block taken must have been given back). */
void ls_scratch_pool_destroy(LsScratchPool *pool);

#endif
