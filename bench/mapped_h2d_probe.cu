// Whether the copy engine can read a GPU run's frames straight from the page cache: the input
// files mapped read-only and registered with the driver (cudaHostRegisterReadOnly), so that no
// host thread reads or writes a sample. Makes two Y4M-shaped files of N 4K 10-bit 4:2:0 frames
// (header, then "FRAME\n" and the planes), maps them, and times: registering the whole mapping
// and registering it in windows of W frames (the cost per frame), and the per-plane copies of
// each frame pair from the registered pages (six copies per pair, as the twins' upload), against
// the same copies from a pinned ring (cudaHostAlloc).
//
// usage: mapped_h2d_probe DIR N W    (nvcc -O2 -Xcompiler -fopenmp -o mapped_h2d_probe bench/mapped_h2d_probe.cu)
#include <cuda_runtime.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CHECK(x)                                                                                 \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "mapped_h2d_probe: %s: %s\n", #x, cudaGetErrorString(e_));           \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char header[] = "YUV4MPEG2 W3840 H2160 F24:1 Ip A1:1 C420p10 XYSCSS=420P10\n";
static const size_t luma = (size_t)3840 * 2160 * 2, chroma = luma / 4;
static const size_t frame = luma + 2 * chroma;

static size_t frame_offset(int f) { return sizeof header - 1 + (size_t)f * (6 + frame) + 6; }

static void make_file(const char *path, int n, int seed)
{
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0) { perror(path); exit(1); }
    unsigned short *buf = (unsigned short *)malloc(frame);
    if (write(fd, header, sizeof header - 1) < 0) { perror("write"); exit(1); }
    for (int f = 0; f < n; f++) {
        for (size_t i = 0; i < frame / 2; i++)
            buf[i] = (unsigned short)((i * 2654435761u + f * 97 + seed) & 1023);
        if (write(fd, "FRAME\n", 6) != 6 || write(fd, buf, frame) != (ssize_t)frame) {
            perror("write");
            exit(1);
        }
    }
    free(buf);
    close(fd);
}

// six copies per pair, frames f0.. f0+count-1 of the two sources (base: frame 0's planes)
static float copy_frames(const unsigned char *const src[2], size_t stride, int count, int n,
                         unsigned char *dev, cudaStream_t s)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, s));
    for (int f = 0; f < count; f++)
        for (int side = 0; side < 2; side++) {
            const unsigned char *p = src[side] + (size_t)(f % n) * stride;
            size_t off = side * frame;
            CHECK(cudaMemcpyAsync(dev + off, p, luma, cudaMemcpyHostToDevice, s));
            CHECK(cudaMemcpyAsync(dev + off + luma, p + luma, chroma, cudaMemcpyHostToDevice, s));
            CHECK(cudaMemcpyAsync(dev + off + luma + chroma, p + luma + chroma, chroma,
                                  cudaMemcpyHostToDevice, s));
        }
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms / count;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: mapped_h2d_probe DIR N W\n");
        return 2;
    }
    const int n = atoi(argv[2]), w = atoi(argv[3]);
    char path[2][512];
    for (int side = 0; side < 2; side++) {
        snprintf(path[side], sizeof path[side], "%s/mapped_%d.y4m", argv[1], side);
        make_file(path[side], n, side);
    }
    int ro = 0;
    CHECK(cudaDeviceGetAttribute(&ro, cudaDevAttrHostRegisterReadOnlySupported, 0));
    printf("read-only registration supported: %d\n", ro);
    const size_t len = frame_offset(n);
    unsigned char *map[2];
    for (int side = 0; side < 2; side++) {
        int fd = open(path[side], O_RDONLY);
        map[side] = (unsigned char *)mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
        if (map[side] == MAP_FAILED) { perror("mmap"); return 1; }
        close(fd);
    }
    unsigned char *dev;
    CHECK(cudaMalloc((void **)&dev, 2 * frame));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));

    // the pinned ring's rate, for comparison
    unsigned char *ring[2];
    for (int side = 0; side < 2; side++) {
        CHECK(cudaHostAlloc((void **)&ring[side], 4 * frame, cudaHostAllocDefault));
        memset(ring[side], side, 4 * frame);
    }
    const unsigned char *ring_src[2] = { ring[0], ring[1] };
    for (int rep = 0; rep < 3; rep++)
        printf("pinned ring of 4 pairs: %.3f ms per pair\n",
               copy_frames(ring_src, frame, 120, 4, dev, s));

    // the whole mapping at once
    for (int flags_i = 0; flags_i < 2; flags_i++) {
        unsigned flags = flags_i ? cudaHostRegisterReadOnly : cudaHostRegisterDefault;
        double t0 = now_ms();
        cudaError_t e = cudaHostRegister(map[0], len, flags);
        double t1 = now_ms();
        printf("register %.1f MB, flags %s: %s, %.1f ms (%.2f ms per frame)\n", len / 1e6,
               flags_i ? "ReadOnly" : "Default", cudaGetErrorString(e), t1 - t0, (t1 - t0) / n);
        if (e != cudaSuccess) {
            cudaGetLastError();
            continue;
        }
        e = cudaHostRegister(map[1], len, flags);
        if (e != cudaSuccess) {
            printf("second file: %s\n", cudaGetErrorString(e));
            return 1;
        }
        const unsigned char *src[2] = { map[0] + frame_offset(0), map[1] + frame_offset(0) };
        for (int rep = 0; rep < 3; rep++)
            printf("registered page cache, %d pairs: %.3f ms per pair\n", n,
                   copy_frames(src, 6 + frame, 120, n, dev, s));
        t0 = now_ms();
        CHECK(cudaHostUnregister(map[0]));
        CHECK(cudaHostUnregister(map[1]));
        printf("unregister both: %.1f ms\n", now_ms() - t0);

        // windows of w frames: register (page-aligned cover), copy, unregister
        const long page = sysconf(_SC_PAGESIZE);
        double reg = 0, unreg = 0;
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        CHECK(cudaEventRecord(a, s));
        for (int f0 = 0; f0 + w <= n; f0 += w) {
            unsigned char *lo[2];
            size_t span[2];
            for (int side = 0; side < 2; side++) {
                size_t beg = frame_offset(f0) & ~(size_t)(page - 1);
                size_t end = (frame_offset(f0 + w - 1) + frame + page - 1) & ~(size_t)(page - 1);
                if (end > len) end = len;
                lo[side] = map[side] + beg;
                span[side] = end - beg;
                t0 = now_ms();
                CHECK(cudaHostRegister(lo[side], span[side], flags));
                reg += now_ms() - t0;
            }
            const unsigned char *src[2] = { map[0] + frame_offset(f0), map[1] + frame_offset(f0) };
            copy_frames(src, 6 + frame, w, w, dev, s);
            t0 = now_ms();
            for (int side = 0; side < 2; side++)
                CHECK(cudaHostUnregister(lo[side]));
            unreg += now_ms() - t0;
        }
        CHECK(cudaEventRecord(b, s));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        const int done = n / w * w;
        printf("windows of %d frames (serial, not overlapped): register %.3f, unregister %.3f ms "
               "per pair; all %.3f ms per pair\n",
               w, reg / done, unreg / done, ms / done);
    }
    // a copy whose source spans two registrations that meet inside it: refused, staged or DMA?
    {
        const long page = sysconf(_SC_PAGESIZE);
        const size_t f1 = frame_offset(1);
        const size_t cut = (f1 + luma / 2) & ~(size_t)(page - 1);
        CHECK(cudaHostRegister(map[0], cut, cudaHostRegisterReadOnly));
        CHECK(cudaHostRegister(map[0] + cut, len - cut, cudaHostRegisterReadOnly));
        unsigned char *back = (unsigned char *)malloc(luma);
        for (int rep = 0; rep < 3; rep++) {
            cudaEvent_t a, b;
            CHECK(cudaEventCreate(&a));
            CHECK(cudaEventCreate(&b));
            CHECK(cudaEventRecord(a, s));
            cudaError_t e = cudaMemcpyAsync(dev, map[0] + f1, luma, cudaMemcpyHostToDevice, s);
            CHECK(cudaEventRecord(b, s));
            CHECK(cudaEventSynchronize(b));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            CHECK(cudaMemcpy(back, dev, luma, cudaMemcpyDeviceToHost));
            printf("luma copy across two registrations: %s, %.3f ms (%.1f GB/s), bytes %s\n",
                   cudaGetErrorString(e), ms, luma / 1e6 / ms,
                   memcmp(back, map[0] + f1, luma) ? "DIFFER" : "same");
        }
        // and within one registration, for the rate and the bytes
        const size_t f4 = frame_offset(4);
        CHECK(cudaMemcpy(dev, map[0] + f4, luma, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(back, dev, luma, cudaMemcpyDeviceToHost));
        printf("luma copy inside one registration: bytes %s\n",
               memcmp(back, map[0] + f4, luma) ? "DIFFER" : "same");
        CHECK(cudaHostUnregister(map[0]));
        CHECK(cudaHostUnregister(map[0] + cut));
        // pageable (not registered) page cache, for comparison: the driver stages it
        for (int rep = 0; rep < 2; rep++) {
            double t0 = now_ms();
            CHECK(cudaMemcpy(dev, map[0] + f4, luma, cudaMemcpyHostToDevice));
            printf("luma copy from unregistered pages: %.3f ms\n", now_ms() - t0);
        }
        free(back);
    }
    // registering windows from several threads at once: does pinning scale?
    for (int threads = 1; threads <= 8; threads *= 2) {
        const long page = sysconf(_SC_PAGESIZE);
        const int per = n / threads;
        double t0 = now_ms();
        #pragma omp parallel for num_threads(threads)
        for (int t = 0; t < threads; t++) {
            size_t beg = frame_offset(t * per) & ~(size_t)(page - 1);
            size_t end = frame_offset((t + 1) * per) & ~(size_t)(page - 1);
            cudaError_t e = cudaHostRegister(map[1] + beg, end - beg, cudaHostRegisterReadOnly);
            if (e != cudaSuccess) printf("thread %d: %s\n", t, cudaGetErrorString(e));
        }
        double t1 = now_ms();
        for (int t = 0; t < threads; t++) {
            size_t beg = frame_offset(t * per) & ~(size_t)(page - 1);
            cudaHostUnregister(map[1] + beg);
        }
        printf("register %d frames in %d threads at once: %.1f ms (%.3f ms per frame), "
               "unregister %.1f ms\n", per * threads, threads, t1 - t0, (t1 - t0) / (per * threads),
               now_ms() - t1);
    }
    return 0;
}
