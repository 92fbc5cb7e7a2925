#include "core/scratch_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct LsScratchPool {
    pthread_mutex_t lock;
    size_t bytes;
    void *free[16];
    unsigned n_free;
};

LsScratchPool *ls_scratch_pool_create(size_t bytes)
{
    LsScratchPool *pool = calloc(1, sizeof(*pool));
    if (!pool)
        return NULL;
    pthread_mutex_init(&pool->lock, NULL);
    pool->bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
    return pool;
}

void *ls_scratch_take(LsScratchPool *pool)
{
    void *mem = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->n_free)
        mem = pool->free[--pool->n_free];
    pthread_mutex_unlock(&pool->lock);
    if (!mem) {
        mem = aligned_alloc(64, pool->bytes);
        if (mem)
            memset(mem, 0, pool->bytes);
    }
    return mem;
}

void ls_scratch_give(LsScratchPool *pool, void *block)
{
    pthread_mutex_lock(&pool->lock);
    if (pool->n_free < sizeof(pool->free) / sizeof(pool->free[0])) {
        pool->free[pool->n_free++] = block;
        block = NULL;
    }
    pthread_mutex_unlock(&pool->lock);
    free(block);
}

void ls_scratch_pool_destroy(LsScratchPool *pool)
{
    if (!pool)
        return;
    for (unsigned i = 0; i < pool->n_free; i++)
        free(pool->free[i]);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}
