/* Option dictionaries for feature extractors (libvmaf's VmafFeatureDictionary). */
#ifndef LOCKSTEP_FEATURE_H
#define LOCKSTEP_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* exported (lockstep.h says why) */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Creates *dict if NULL. A numeric value is normalised as libvmaf does: strtof, then "%g". */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key, const char *val);
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
