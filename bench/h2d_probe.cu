// The copy engine's rate from pinned host memory, alone: what a GPU run's upload could be with
// nothing else on the host. Copies a 4K 10-bit 4:2:0 frame pair, packed (core/pack10.h: 31.1 MB,
// six planes) or not (49.8 MB), from a ring of RING pinned pairs: per plane (as the CUDA twins'
// upload does) or in one copy per pair. With "touch", the host rewrites the ring (normal stores)
// before each timed run, as the readers write pictures: a ring that fits the last-level cache
// then shows whether the engine reads faster from there.
//
// usage: h2d_probe packed|unpacked RING [touch]     (nvcc -O2 -o h2d_probe bench/h2d_probe.cu)
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                                                 \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "h2d_probe: %s: %s\n", #x, cudaGetErrorString(e_));                  \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: h2d_probe packed|unpacked RING [touch]\n");
        return 2;
    }
    const bool packed = !strcmp(argv[1], "packed");
    const int ring = atoi(argv[2]);
    const bool touch = argc > 3 && !strcmp(argv[3], "touch");
    const size_t luma = (size_t)3840 * 2160 * (packed ? 10 : 16) / 8;
    const size_t plane[3] = { luma, luma / 4, luma / 4 };
    const size_t pair = 2 * (plane[0] + plane[1] + plane[2]);
    if (ring < 1 || ring > 64)
        return 2;
    unsigned char *host[64], *dev;
    for (int k = 0; k < ring; k++) {
        CHECK(cudaHostAlloc((void **)&host[k], pair, cudaHostAllocDefault));
        memset(host[k], k, pair);
    }
    CHECK(cudaMalloc((void **)&dev, pair));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    for (int per_plane = 0; per_plane < 2; per_plane++) {
        const int n = 120;
        float best = 1e30f;
        for (int rep = 0; rep < 3; rep++) {
            CHECK(cudaStreamSynchronize(s));
            for (int k = 0; touch && k < ring; k++)
                memset(host[k], rep + k, pair);
            CHECK(cudaEventRecord(a, s));
            for (int f = 0; f < n; f++) {
                unsigned char *h = host[f % ring];
                if (per_plane) {
                    size_t off = 0;
                    for (int side = 0; side < 2; side++)
                        for (int p = 0; p < 3; p++) {
                            CHECK(cudaMemcpyAsync(dev + off, h + off, plane[p],
                                                  cudaMemcpyHostToDevice, s));
                            off += plane[p];
                        }
                } else {
                    CHECK(cudaMemcpyAsync(dev, h, pair, cudaMemcpyHostToDevice, s));
                }
            }
            CHECK(cudaEventRecord(b, s));
            CHECK(cudaEventSynchronize(b));
            float ms;
            CHECK(cudaEventElapsedTime(&ms, a, b));
            best = ms / n < best ? ms / n : best;
        }
        printf("h2d_probe %s, ring %d%s, %s: %.3f ms per pair of %.1f MB, %.1f GB/s\n", argv[1],
               ring, touch ? ", host rewrites each pair first" : "",
               per_plane ? "six copies per pair" : "one copy per pair", best, pair / 1e6,
               pair / 1e6 / best);
    }
    return 0;
}
