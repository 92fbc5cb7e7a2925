/* Shared by the fuzz targets: the entry point libFuzzer calls, and the fuzz input as a file that
 * the readers and the model loader can open by name (an in-memory file, no disk). */
#ifndef LOCKSTEP_TESTS_LIBFUZZER_FUZZ_H
#define LOCKSTEP_TESTS_LIBFUZZER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "input/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data into a new memfd and its name ("/proc/self/fd/N") into path; returns the fd (close
 * it when done), aborts when the system refuses (no fuzzing without it). */
int fuzz_file(const uint8_t *data, size_t size, char path[64]);

/* data as a NUL-terminated string (cut at the first NUL byte); free() it. */
char *fuzz_string(const uint8_t *data, size_t size);

/* Splits data at NUL bytes into at most max strings, each a NUL-terminated copy in one malloc'ed
 * block (*block, free() it); returns the count. */
unsigned fuzz_split(const uint8_t *data, size_t size, char **items, unsigned max, char **block);

/* Opens data as a file with ls_input_open(raw) and reads it: every frame in order (mode bit 0: luma
 * only after the first, bit 1: the first skipped), then at every frame index where it can. */
void fuzz_read_input(const uint8_t *data, size_t size, const LsRawParams *raw, unsigned mode);

#endif
