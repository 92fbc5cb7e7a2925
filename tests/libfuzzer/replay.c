/* Without libFuzzer (gcc builds): runs the target once on each file named, and on each file of
 * each folder named, so that the corpus and the kept crashing inputs are a plain regression test
 * under any build, the sanitizer build included. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    unsigned runs = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]);
            runs++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        char *names[4096];
        unsigned n = 0;
        struct dirent *e;
        while (dir && (e = readdir(dir)) && n < 4096)
            if (e->d_name[0] != '.')
                names[n++] = strdup(e->d_name);
        if (dir)
            closedir(dir);
        qsort(names, n, sizeof(*names), by_name);
        for (unsigned k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]);
            bad |= run_file(path);
            runs++;
            free(names[k]);
        }
    }
    printf("%u inputs run\n", runs);
    return bad || !runs;
}
