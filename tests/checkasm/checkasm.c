#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"

static const struct {
    const char *name;
    void (*check)(void);
} checks[] = {
    { "psnr", checkasm_check_psnr },
    { "pack10", checkasm_check_pack10 },
};

static uint64_t rng_state = 0x853c49e6748fea9bull;
static unsigned n_checked, n_failed;
static bool bench;

uint32_t checkasm_rand(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

bool checkasm_check(bool ok, const char *unit, const char *fmt, ...)
{
    n_checked++;
    if (ok)
        return true;
    n_failed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s: ", unit);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return false;
}

bool checkasm_bench_enabled(void) { return bench; }

double checkasm_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench"))
            bench = true;
        else if (!strncmp(argv[i], "--seed=", 7))
            rng_state = strtoull(argv[i] + 7, NULL, 10);
    }
    for (unsigned i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        const unsigned before = n_failed, before_checked = n_checked;
        checks[i].check();
        printf("%-12s %u comparisons, %s\n", checks[i].name, n_checked - before_checked,
               n_failed == before ? "bit-identical" : "FAILED");
    }
    printf("%u passed, %u failed\n", n_checked - n_failed, n_failed);
    return n_failed ? 1 : 0;
}
