#ifndef LOCKSTEP_CORE_DICT_H
#define LOCKSTEP_CORE_DICT_H

#include "core/options.h"
#include "lockstep/feature.h"

/* The entries in insertion order (a repeated key keeps its first position, latest value). */
const LsOptionValue *ls_dict_entries(const VmafFeatureDictionary *dict, unsigned *n);

#endif
