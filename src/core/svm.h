/* The libsvm model embedded in VMAF model files: parsed from its text, evaluated as libsvm's
 * svm_predict does for the regression types. Spec: model.md §4, §5.2. */
#ifndef LOCKSTEP_CORE_SVM_H
#define LOCKSTEP_CORE_SVM_H

#include <stddef.h>

/* One entry of a sparse vector; index -1 ends the vector. */
typedef struct LsSvmNode {
    int index;
    double value;
} LsSvmNode;

typedef struct LsSvm LsSvm;

/* Parses libsvm's model text. On error writes "line N: ..." into err and returns -EINVAL.
 * Numbers go through strtod: call it in the "C" numeric locale. */
int ls_svm_parse(const char *text, LsSvm **svm, char *err, size_t err_len);
void ls_svm_free(LsSvm *svm);

/* The decision value for x (index-sorted, ended by index -1): Σ coef_i·K(x, SV_i) − rho in
 * support-vector order; ±1 for one_class. */
double ls_svm_predict(const LsSvm *svm, const LsSvmNode *x);

#endif
