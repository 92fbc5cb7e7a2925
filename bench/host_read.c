/* The host's side of a GPU run, alone: how fast T threads read frame pairs from the page cache
 * the way the CLI's readers do (pread in 64 KB bands into a buffer on the stack) and, with
 * "pack" or "stream", pack them into destination frames as input/input.c does for a CUDA run
 * (core/pack10.h; "stream": non-temporal stores). "map" packs (streaming) from the files mapped
 * instead, each frame's pages populated first and dropped after, as the CPU runs' borrowed
 * frames are (input/input.c); "mapkeep" leaves them mapped. Built with -DHOST_READ_CUDA (and
 * cudart; bench/device_bounce.sh), two more modes put the copy engine behind the packing:
 * "streamdma" packs each pair (streaming stores) into pinned memory and then copies it to the
 * device, as a CUDA run does now (pinned pool pictures, uploaded whole); "bounce" packs with
 * normal stores into a small ring of pinned chunks (HOST_READ_CHUNK bytes, default 1 MB;
 * HOST_READ_CHUNKS of them per thread, default 4) and copies each chunk to the device as soon as
 * it is full, so that the packed bytes may still be in the cache when the engine reads them
 * (HOST_READ_BOUNCE_STREAM=1: streaming stores there too); "chunkdma" packs with normal stores
 * into pinned pairs, as "streamdma", and copies each HOST_READ_CHUNK of it from there as soon as it
 * is packed (a reader that uploads its own picture as it reads). Each thread claims whole frame pairs and
 * writes into two destination frames of its own, in turn. Prints the rate of file bytes and the
 * wall time per frame pair, which is the floor under a GPU run's time per frame.
 *
 * usage: host_read REF DIS FRAME_BYTES FRAMES THREADS read|pack|stream|map|mapkeep|streamdma|bounce|chunkdma
 *            [HEADER_BYTES]
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

#ifdef HOST_READ_CUDA
#include <cuda_runtime_api.h>
enum { MODE_STREAMDMA = 4, MODE_BOUNCE = 5, MODE_CHUNKDMA = 6 };
static size_t chunk_bytes = 1u << 20;
static unsigned chunk_count = 4;
static int bounce_stream;

static void cuda_check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "host_read: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}
#define CU(x) cuda_check((x), #x)

/* the packed bytes of one side, pread in bands and packed into a ring of pinned chunks, each
 * copied to dev (from dev_at on) once full */
typedef struct Bounce {
    unsigned char *chunk[64];
    cudaEvent_t ev[64];
    unsigned cur;
    size_t fill;
    cudaStream_t s;
} Bounce;

static void bounce_flush(Bounce *b, unsigned char *dev, size_t *dev_at)
{
    if (!b->fill)
        return;
    CU(cudaMemcpyAsync(dev + *dev_at, b->chunk[b->cur], b->fill, cudaMemcpyHostToDevice, b->s));
    CU(cudaEventRecord(b->ev[b->cur], b->s));
    *dev_at += b->fill;
    b->cur = (b->cur + 1) % chunk_count;
    CU(cudaEventSynchronize(b->ev[b->cur])); /* its last copy is done: it can be refilled */
    b->fill = 0;
}

static uint16_t bounce_side(Bounce *b, int f, off_t start, unsigned char *dev, size_t *dev_at,
                            uint16_t *band)
{
    uint16_t any = 0;
    for (size_t at = 0; at < frame_bytes; at += BAND) {
        const size_t want = frame_bytes - at < BAND ? frame_bytes - at : BAND;
        if (pread(f, band, want, start + (off_t)at) != (ssize_t)want) {
            fprintf(stderr, "host_read: short read\n");
            exit(1);
        }
        const size_t n = want / 2 / 16 * 16, out = ls_pack10_bytes(n);
        if (b->fill + out > chunk_bytes)
            bounce_flush(b, dev, dev_at);
        uint32_t *to = (uint32_t *)(void *)(b->chunk[b->cur] + b->fill);
        any |= bounce_stream ? ls_pack10_row_stream(row, to, band, n) : row(to, band, n);
        b->fill += out;
    }
    return any;
}
#endif

static void *worker(void *arg)
{
    (void)arg;
    const size_t packed = ls_pack10_bytes(frame_bytes / 2);
    unsigned char *dst[2];
    uint16_t band[BAND / 2];
    uint16_t any = 0;
    unsigned turn = 0;
#ifdef HOST_READ_CUDA
    if (mode >= MODE_STREAMDMA) {
        unsigned char *dev, *pair[2];
        cudaEvent_t pair_ev[2];
        Bounce b = { .cur = 0, .fill = 0 };
        CU(cudaStreamCreateWithFlags(&b.s, cudaStreamNonBlocking));
        CU(cudaMalloc((void **)&dev, 2 * packed));
        for (int k = 0; k < 2; k++) {
            CU(cudaHostAlloc((void **)&pair[k], 2 * packed, cudaHostAllocDefault));
            memset(pair[k], 0, 2 * packed);
            CU(cudaEventCreateWithFlags(&pair_ev[k], cudaEventDisableTiming));
            CU(cudaEventRecord(pair_ev[k], b.s));
        }
        for (unsigned k = 0; k < chunk_count; k++) {
            CU(cudaHostAlloc((void **)&b.chunk[k], chunk_bytes, cudaHostAllocDefault));
            memset(b.chunk[k], 0, chunk_bytes);
            CU(cudaEventCreateWithFlags(&b.ev[k], cudaEventDisableTiming));
            CU(cudaEventRecord(b.ev[k], b.s));
        }
        CU(cudaStreamSynchronize(b.s));
        pthread_barrier_wait(&ready);
        for (;;) {
            const unsigned n = atomic_fetch_add(&next_frame, 1);
            if (n >= frames)
                break;
            size_t dev_at = 0;
            const unsigned k = turn++ & 1;
            if (mode != MODE_BOUNCE)
                CU(cudaEventSynchronize(pair_ev[k]));
            for (int side = 0; side < 2; side++) {
                const off_t start = (off_t)(header_bytes + (uint64_t)n * (frame_bytes + 6) + 6);
                if (mode == MODE_BOUNCE) {
                    any |= bounce_side(&b, fd[side], start, dev, &dev_at, band);
                    continue;
                }
                unsigned char *out = pair[k] + side * packed;
                for (size_t at = 0; at < frame_bytes; at += BAND) {
                    const size_t want = frame_bytes - at < BAND ? frame_bytes - at : BAND;
                    if (pread(fd[side], band, want, start + (off_t)at) != (ssize_t)want) {
                        fprintf(stderr, "host_read: short read at frame %u\n", n);
                        exit(1);
                    }
                    uint32_t *to = (uint32_t *)(void *)(out + at / 32 * 20);
                    if (mode == MODE_STREAMDMA) {
                        any |= ls_pack10_row_stream(row, to, band, want / 2 / 16 * 16);
                        continue;
                    }
                    /* chunkdma: normal stores into the pinned pair, each chunk copied from
                     * there as soon as it is packed */
                    any |= row(to, band, want / 2 / 16 * 16);
                    const size_t done = side * packed + ls_pack10_bytes((at + want) / 2);
                    if (done - dev_at >= chunk_bytes) {
                        CU(cudaMemcpyAsync(dev + dev_at, pair[k] + dev_at, done - dev_at,
                                           cudaMemcpyHostToDevice, b.s));
                        dev_at = done;
                    }
                }
            }
            if (mode == MODE_BOUNCE) {
                bounce_flush(&b, dev, &dev_at);
            } else if (mode == MODE_CHUNKDMA) {
                if (dev_at < 2 * packed)
                    CU(cudaMemcpyAsync(dev + dev_at, pair[k] + dev_at, 2 * packed - dev_at,
                                       cudaMemcpyHostToDevice, b.s));
                CU(cudaEventRecord(pair_ev[k], b.s));
            } else {
                CU(cudaMemcpyAsync(dev, pair[k], 2 * packed, cudaMemcpyHostToDevice, b.s));
                CU(cudaEventRecord(pair_ev[k], b.s));
            }
        }
        CU(cudaStreamSynchronize(b.s));
        atomic_fetch_add(&checksum, any);
        return NULL;
    }
#endif
    for (int k = 0; k < 2; k++) {
        dst[k] = aligned_alloc(64, (packed + 63) / 64 * 64);
        memset(dst[k], 0, packed);
    }
    pthread_barrier_wait(&ready);
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
#ifdef HOST_READ_CUDA
    if (getenv("HOST_READ_CHUNK"))
        chunk_bytes = strtoull(getenv("HOST_READ_CHUNK"), NULL, 10);
    if (getenv("HOST_READ_CHUNKS"))
        chunk_count = (unsigned)strtoul(getenv("HOST_READ_CHUNKS"), NULL, 10);
    bounce_stream = getenv("HOST_READ_BOUNCE_STREAM") && atoi(getenv("HOST_READ_BOUNCE_STREAM"));
    if (chunk_count < 2 || chunk_count > 64 || chunk_bytes < 65536) {
        fprintf(stderr, "host_read: HOST_READ_CHUNKS 2..64, HOST_READ_CHUNK >= 65536\n");
        return 2;
    }
    if (!strcmp(argv[6], "streamdma") || !strcmp(argv[6], "bounce") ||
        !strcmp(argv[6], "chunkdma")) {
        mode = !strcmp(argv[6], "bounce")     ? MODE_BOUNCE
               : !strcmp(argv[6], "chunkdma") ? MODE_CHUNKDMA
                                              : MODE_STREAMDMA;
        CU(cudaFree(0)); /* the context, before the clock */
    } else
#endif
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
    char what[96];
    snprintf(what, sizeof what, "%s", argv[6]);
#ifdef HOST_READ_CUDA
    if (mode == MODE_BOUNCE)
        snprintf(what, sizeof what, "bounce %zu KB x %u%s", chunk_bytes >> 10, chunk_count,
                 bounce_stream ? " streaming" : "");
    if (mode == MODE_CHUNKDMA)
        snprintf(what, sizeof what, "chunkdma %zu KB", chunk_bytes >> 10);
#endif
    printf("host_read %s (%s), %u threads, %u frame pairs of 2 x %.1f MB: %.3f ms per pair, %.1f GB/s "
           "of file (check %llu)\n", what,
           row == ls_pack10_row_avx512 ? "avx512" : row == ls_pack10_row_avx2 ? "avx2" : "c", threads, frames, (double)frame_bytes / 1e6,
           s * 1e3 / frames, 2.0 * (double)frame_bytes * frames / s / 1e9,
           (unsigned long long)atomic_load(&checksum) & 1);
    return 0;
}
