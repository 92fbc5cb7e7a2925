/* Minimal assertions for the unit tests: count, report, and exit non-zero on any failure. */
#ifndef LOCKSTEP_TEST_UTIL_H
#define LOCKSTEP_TEST_UTIL_H

#include <stdio.h>
#include <string.h>

static unsigned test_passed, test_failed;

#define CHECK(cond)                                                                            \
    do {                                                                                       \
        if (cond) {                                                                            \
            test_passed++;                                                                     \
        } else {                                                                               \
            test_failed++;                                                                     \
            fprintf(stderr, "%s:%d: FAIL %s\n", __FILE__, __LINE__, #cond);                    \
        }                                                                                      \
    } while (0)

/* doubles compared by their bits */
#define CHECK_BITS(a, b) CHECK(memcmp(&(double){ (a) }, &(double){ (b) }, sizeof(double)) == 0)

static inline int test_summary(void)
{
    printf("%u passed, %u failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

#endif
