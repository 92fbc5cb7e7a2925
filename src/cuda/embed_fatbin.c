/* Build tool: writes a binary file (an nvcc fatbin) as a C array, so kernels are built into the
 * library: embed_fatbin IN OUT.c SYMBOL defines `const unsigned char SYMBOL[]` and
 * `const size_t SYMBOL_size`. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s IN OUT.c SYMBOL\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        fclose(in);
        return 1;
    }
    fprintf(out, "/* generated from %s by embed_fatbin: do not edit */\n#include <stddef.h>\n\n",
            argv[1]);
    /* cuModuleLoadData reads the fatbin's headers in place: keep it aligned */
    fprintf(out, "extern const unsigned char %s[];\n", argv[3]);
    fprintf(out, "extern const size_t %s_size;\n", argv[3]);
    fprintf(out, "_Alignas(64) const unsigned char %s[] = {", argv[3]);
    size_t n = 0;
    int c;
    while ((c = fgetc(in)) != EOF) {
        fprintf(out, "%s0x%02x,", n % 16 ? " " : "\n    ", c);
        n++;
    }
    fprintf(out, "\n};\nconst size_t %s_size = %zu;\n", argv[3], n);
    const int bad = ferror(in) || n == 0;
    fclose(in);
    if (fclose(out) || bad) {
        fprintf(stderr, "embed_fatbin: %s: read or write failed (or empty input)\n", argv[1]);
        remove(argv[2]);
        return 1;
    }
    return 0;
}
