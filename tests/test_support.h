/* Helpers shared by the extractor unit tests: a counting CHECK with a message, exact bit views of
 * floats and doubles (tests compare bits, never within an epsilon), and reading a spec table. */
#ifndef LOCKSTEP_TEST_SUPPORT_H
#define LOCKSTEP_TEST_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static inline uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

static inline uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof(u));
    return u;
}

/* The whole file, NUL-terminated, or NULL. */
static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = 0;
    fclose(f);
    return buf;
}

/* Spec tables (JSON) read as text: the text after the next "key", past the colon; and the next
 * number (a hex or decimal literal, quoted or not), *pos moved past it. */
static inline const char *json_after(const char *from, const char *key)
{
    char quoted[96];
    snprintf(quoted, sizeof(quoted), "\"%s\"", key);
    const char *at = from ? strstr(from, quoted) : NULL;
    if (!at)
        return NULL;
    at = strchr(at + strlen(quoted), ':');
    return at ? at + 1 : NULL;
}

static inline double next_number(const char **pos)
{
    const char *p = *pos;
    while (*p && !(*p == '-' || (*p >= '0' && *p <= '9')))
        p++;
    char *end;
    const double v = strtod(p, &end);
    *pos = end;
    return v;
}

#endif
