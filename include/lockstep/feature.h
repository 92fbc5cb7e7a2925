/* Option dictionaries for feature extractors (libvmaf's VmafFeatureDictionary). */
#ifndef LOCKSTEP_FEATURE_H
#define LOCKSTEP_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Creates *dict if NULL. A numeric value is normalised as libvmaf does: strtof, then "%g". */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key, const char *val);
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif
