/* The host's side of a GPU run, alone: how fast T threads read frame pairs from the page cache
 * the way the CLI's readers do (pread in 64 KB bands into a buffer on the stack) and, with
 * "pack" or "stream", pack them into destination frames as input/input.c does for a CUDA run
 * (core/pack10.h; "stream": non-temporal stores). "map" packs (streaming) from the files mapped
 * instead, each frame's pages populated first and dropped after, as the CPU runs' borrowed
 * frames are (input/input.c); "mapkeep" leaves them mapped. Each thread claims whole frame pairs and
 * writes into two destination frames of its own, in turn. Prints the rate of file bytes and the
 * wall time per frame pair, which is the floor under a GPU run's time per frame.
 *
 * usage: host_read REF DIS FRAME_BYTES FRAMES THREADS read|pack|stream|map|mapkeep [HEADER_BYTES]
 *   (HOST_READ_ISA=avx2: the AVX2 packer where ls_pack10_row_fn would take AVX-512)
 *   (FRAME_BYTES of payload after each 6-byte "FRAME\n"; HEADER_BYTES: the Y4M header's) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/pack10.h"

enum { BAND = 64 << 10 };

static int fd[2];
static size_t frame_bytes, header_bytes;
static unsigned frames;
static int mode; /* 0 read, 1 pack, 2 stream, 3 map */
static const unsigned char *map[2];
static int keep; /* mapkeep: the frames' pages stay mapped */
static LsPack10RowFn row; /* ls_pack10_row_fn(), or AVX2's with HOST_READ_ISA=avx2 */
static atomic_uint next_frame;
static atomic_ullong checksum;
static pthread_barrier_t ready; /* destinations allocated and touched: the clock starts */

static void *worker(void *arg)
{
    (void)arg;
    const size_t packed = ls_pack10_bytes(frame_bytes / 2);
    unsigned char *dst[2];
    for (int k = 0; k < 2; k++) {
        dst[k] = aligned_alloc(64, (packed + 63) / 64 * 64);
        memset(dst[k], 0, packed);
    }
    pthread_barrier_wait(&ready);
    uint16_t band[BAND / 2];
    uint16_t any = 0;
    unsigned turn = 0;
    for (;;) {
        const unsigned n = atomic_fetch_add(&next_frame, 1);
        if (n >= frames)
            break;
        for (int side = 0; side < 2; side++) {
            const off_t start = (off_t)(header_bytes + (uint64_t)n * (frame_bytes + 6) + 6);
            unsigned char *out = dst[turn++ & 1];
            if (mode == 3) {
                const size_t page = 4096;
                const uintptr_t a = (uintptr_t)(map[side] + start) & ~(page - 1);
                const uintptr_t e = ((uintptr_t)(map[side] + start) + frame_bytes + page - 1) &
                                    ~(page - 1);
                if (madvise((void *)a, e - a, 22 /* MADV_POPULATE_READ */)) {
                    perror("host_read: madvise");
                    exit(1);
                }
                any |= ls_pack10_row_stream(row, (uint32_t *)(void *)out,
                                            (const uint16_t *)(const void *)(map[side] + start),
                                            frame_bytes / 2 / 16 * 16);
                if (!keep)
                    madvise((void *)a, e - a, MADV_DONTNEED);
                continue;
            }
            for (size_t at = 0; at < frame_bytes; at += BAND) {
                const size_t want = frame_bytes - at < BAND ? frame_bytes - at : BAND;
                if (pread(fd[side], band, want, start + (off_t)at) != (ssize_t)want) {
                    fprintf(stderr, "host_read: short read at frame %u\n", n);
                    exit(1);
                }
                if (mode == 1)
                    any |= row((uint32_t *)(void *)(out + at / 32 * 20), band, want / 2 / 16 * 16);
                else if (mode == 2)
                    any |= ls_pack10_row_stream(row, (uint32_t *)(void *)(out + at / 32 * 20),
                                                band, want / 2 / 16 * 16);
                else
                    any |= band[want / 2 - 1];
            }
        }
    }
    atomic_fetch_add(&checksum, any);
    free(dst[0]);
    free(dst[1]);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: host_read REF DIS FRAME_BYTES FRAMES THREADS read|pack|stream|map|mapkeep "
                        "[HEADER_BYTES]\n");
        return 2;
    }
    for (int k = 0; k < 2; k++)
        if ((fd[k] = open(argv[1 + k], O_RDONLY)) < 0) {
            perror(argv[1 + k]);
            return 1;
        }
    frame_bytes = strtoull(argv[3], NULL, 10);
    frames = (unsigned)strtoul(argv[4], NULL, 10);
    const unsigned threads = (unsigned)strtoul(argv[5], NULL, 10);
    keep = !strcmp(argv[6], "mapkeep");
    mode = !strcmp(argv[6], "pack")     ? 1
           : !strcmp(argv[6], "stream") ? 2
           : !strcmp(argv[6], "map") || keep ? 3
                                        : 0;
    for (int k = 0; mode == 3 && k < 2; k++) {
        struct stat st;
        if (fstat(fd[k], &st) ||
            (map[k] = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd[k], 0)) == MAP_FAILED) {
            perror("host_read: mmap");
            return 1;
        }
    }
    const char *isa = getenv("HOST_READ_ISA");
    row = isa && !strcmp(isa, "avx2") ? ls_pack10_row_avx2 : ls_pack10_row_fn();
    header_bytes = argc > 7 ? strtoull(argv[7], NULL, 10) : 0;
    if (!threads || threads > 256 || !frames || frame_bytes < 64) {
        fprintf(stderr, "host_read: bad arguments\n");
        return 2;
    }
    pthread_t t[256];
    struct timespec a, b;
    pthread_barrier_init(&ready, NULL, threads + 1);
    for (unsigned i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    pthread_barrier_wait(&ready);
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    const double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    printf("host_read %s (%s), %u threads, %u frame pairs of 2 x %.1f MB: %.3f ms per pair, %.1f GB/s "
           "of file (check %llu)\n", argv[6],
           row == ls_pack10_row_avx512 ? "avx512" : row == ls_pack10_row_avx2 ? "avx2" : "c", threads, frames, (double)frame_bytes / 1e6,
           s * 1e3 / frames, 2.0 * (double)frame_bytes * frames / s / 1e9,
           (unsigned long long)atomic_load(&checksum) & 1);
    return 0;
}
