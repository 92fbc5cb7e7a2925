/* LOCKSTEP_FAULT_INJECT (fault.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fault.h"

static const char *const class_names[LS_FAULT_CLASSES] = { "alloc", "copy", "launch", "sync" };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int enabled;
static uint64_t fail_at[LS_FAULT_CLASSES]; /* 0: never */
static atomic_uint_fast64_t calls[LS_FAULT_CLASSES];
static uint64_t device_memory;             /* 0: the device's own */

/* "123", "64K", "2M", "1G": 0 when malformed (and for "0", which means nothing here either). */
static uint64_t parse_count(const char *s, int allow_suffix)
{
    char *end;
    const unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *s == '-')
        return 0;
    uint64_t scale = 1;
    if (allow_suffix && *end && !end[1]) {
        scale = *end == 'K' ? 1ull << 10 : *end == 'M' ? 1ull << 20 : *end == 'G' ? 1ull << 30 : 0;
        end++;
    }
    return *end || !scale || v > UINT64_MAX / scale ? 0 : v * scale;
}

static void parse(void)
{
    const char *spec = getenv("LOCKSTEP_FAULT_INJECT");
    if (!spec || !*spec)
        return;
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", spec);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(item, ':');
        int known = 0;
        if (colon) {
            *colon = 0;
            if (!strcmp(item, "device_memory")) {
                known = (device_memory = parse_count(colon + 1, 1)) != 0;
            } else {
                for (unsigned c = 0; c < LS_FAULT_CLASSES; c++)
                    if (!strcmp(item, class_names[c]))
                        known = (fail_at[c] = parse_count(colon + 1, 0)) != 0;
            }
        }
        if (!known) {
            fprintf(stderr, "lockstep: LOCKSTEP_FAULT_INJECT=\"%s\" ignored: expected CLASS:N "
                            "(alloc, copy, launch, sync; N from 1) or device_memory:BYTES, "
                            "comma-separated\n", spec);
            memset(fail_at, 0, sizeof(fail_at));
            device_memory = 0;
            return;
        }
    }
    enabled = 1;
}

int ls_fault_enabled(void)
{
    pthread_once(&once, parse);
    return enabled;
}

int ls_fault_inject(enum LsFaultClass c)
{
    pthread_once(&once, parse);
    return fail_at[c] && atomic_fetch_add(&calls[c], 1) + 1 == fail_at[c];
}

uint64_t ls_fault_device_memory(uint64_t actual)
{
    pthread_once(&once, parse);
    return device_memory ? device_memory : actual;
}
