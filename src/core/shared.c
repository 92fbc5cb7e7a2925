#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/shared.h"

typedef struct Entry {
    char *key;
    void *obj;
    void (*destroy)(void *obj);
    struct Entry *next;
} Entry;

struct LsShared {
    Entry *head;
};

int ls_shared_create(LsShared **sh)
{
    *sh = calloc(1, sizeof(**sh));
    return *sh ? 0 : -ENOMEM;
}

void ls_shared_destroy(LsShared *sh)
{
    if (!sh)
        return;
    for (Entry *e = sh->head, *next; e; e = next) {
        next = e->next;
        if (e->destroy)
            e->destroy(e->obj);
        free(e->key);
        free(e);
    }
    free(sh);
}

void *ls_shared_get(LsShared *sh, const char *key, void *(*create)(void *arg, int *err),
                    void *arg, void (*destroy)(void *obj), int *err)
{
    *err = 0;
    for (Entry *e = sh->head; e; e = e->next)
        if (!strcmp(e->key, key))
            return e->obj;
    Entry *e = calloc(1, sizeof(*e));
    if (!e || !(e->key = strdup(key))) {
        free(e);
        *err = -ENOMEM;
        return NULL;
    }
    e->obj = create(arg, err);
    if (!e->obj) {
        if (!*err)
            *err = -ENOMEM;
        free(e->key);
        free(e);
        return NULL;
    }
    e->destroy = destroy;
    e->next = sh->head; /* newest first: later objects may use earlier ones */
    sh->head = e;
    return e->obj;
}
