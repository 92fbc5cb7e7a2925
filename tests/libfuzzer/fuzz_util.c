#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

int fuzz_file(const uint8_t *data, size_t size, char path[64])
{
    const int fd = memfd_create("lockstep-fuzz", MFD_CLOEXEC);
    if (fd < 0) {
        perror("memfd_create");
        abort();
    }
    for (size_t done = 0; done < size;) {
        const ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            perror("write");
            abort();
        }
        done += (size_t)n;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

unsigned fuzz_split(const uint8_t *data, size_t size, char **items, unsigned max, char **block)
{
    char *s = fuzz_string(data, size);
    unsigned n = 0;
    for (size_t i = 0; i <= size && n < max;) {
        items[n++] = s + i;
        i += strlen(s + i) + 1;
    }
    *block = s;
    return n;
}
