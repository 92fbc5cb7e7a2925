#ifndef LOCKSTEP_CORE_REGISTRY_H
#define LOCKSTEP_CORE_REGISTRY_H

#include "core/extractor.h"

/* NULL-terminated list of every extractor built in. */
extern const LsExtractor *const ls_extractors[];

/* The extractor named `name` for `backend` (CPU extractors for LOCKSTEP_BACKEND_CPU; the twin of
 * the named CPU extractor for a GPU backend), or NULL. */
const LsExtractor *ls_extractor_find(const char *name, enum LockstepBackend backend);
/* The first CPU extractor whose provided features contain `feature` (how models find theirs). */
const LsExtractor *ls_extractor_providing(const char *feature);

#endif
