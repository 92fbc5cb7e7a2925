/* checkasm: every SIMD variant against its C reference, bit for bit, on seeded random and
 * extreme inputs; the same binary times them with --bench. */
#ifndef LOCKSTEP_CHECKASM_H
#define LOCKSTEP_CHECKASM_H

#include <stdbool.h>
#include <stdint.h>

uint32_t checkasm_rand(void);
/* Counts a comparison; on failure prints the unit, variant and the parameters given. */
bool checkasm_check(bool ok, const char *unit, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
bool checkasm_bench_enabled(void);
double checkasm_seconds(void);

void checkasm_check_psnr(void);
void checkasm_check_pack10(void);

#endif
