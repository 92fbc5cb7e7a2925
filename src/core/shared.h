/* Objects that the extractors of one context share, found by a key: the GPU backends keep one
 * frame pipeline per device here, so that every twin of a run reads the frame that one upload
 * put on the device. Created by the first extractor that asks, destroyed with the context after
 * every extractor has been closed. */
#ifndef LOCKSTEP_CORE_SHARED_H
#define LOCKSTEP_CORE_SHARED_H

typedef struct LsShared LsShared;

int ls_shared_create(LsShared **sh);
/* Destroys every object, newest first. */
void ls_shared_destroy(LsShared *sh);

/* The object under `key`, made by create(arg) if there is none yet (NULL from create: the call
 * fails with -ENOMEM unless *err was set). destroy is called with it at ls_shared_destroy.
 * Extractors call this from init, which the context runs in one thread. */
void *ls_shared_get(LsShared *sh, const char *key, void *(*create)(void *arg, int *err),
                    void *arg, void (*destroy)(void *obj), int *err);

#endif
