/* A main() for the fuzz targets when they are built without libFuzzer: runs
 * LLVMFuzzerInitialize, then LLVMFuzzerTestOneInput once per file named on the command line
 * (a directory stands for the files in it, not recursively). Arguments starting with '-' are
 * libFuzzer options and are ignored, so one command line ("-runs=0 DIR...") replays a corpus
 * with either build. Each input is passed in an exact-size heap buffer, as libFuzzer does, so
 * ASan and valgrind see an overread. Exits 0 after at least one input, 2 when there was none
 * or a file could not be read; a broken invariant aborts. */
#include "fuzz_common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;

    if (f == NULL) {
        fprintf(stderr, "fuzz-replay: cannot open %s\n", path);
        return -1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *nb;

            cap = cap != 0 ? cap * 2 : 4096;
            nb = (uint8_t *)realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    {
        uint8_t *exact = (uint8_t *)malloc(n != 0 ? n : 1);

        if (exact == NULL) {
            free(buf);
            return -1;
        }
        if (n != 0) {
            memcpy(exact, buf, n);
        }
        free(buf);
        LLVMFuzzerTestOneInput(exact, n);
        free(exact);
    }
    return 1;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Runs every regular file of dir, in name order. Returns the count, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0, i;
    int total = 0;

    if (d == NULL) {
        fprintf(stderr, "fuzz-replay: cannot open %s\n", dir);
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        if (n == cap) {
            char **nn;

            cap = cap != 0 ? cap * 2 : 64;
            nn = (char **)realloc(names, cap * sizeof *names);
            if (nn == NULL) {
                break;
            }
            names = nn;
        }
        names[n] = (char *)malloc(strlen(dir) + strlen(e->d_name) + 2);
        if (names[n] == NULL) {
            break;
        }
        sprintf(names[n], "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n != 0) {
        qsort(names, n, sizeof *names, cmp_names);
    }
    for (i = 0; i < n; i++) {
        struct stat st;

        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            int r = run_file(names[i]);

            if (r < 0) {
                total = -1;
            } else if (total >= 0) {
                total += r;
            }
        }
        free(names[i]);
    }
    free(names);
    return total;
}

int main(int argc, char **argv)
{
    int i, total = 0, bad = 0;

    LLVMFuzzerInitialize(&argc, &argv);
    for (i = 1; i < argc; i++) {
        struct stat st;
        int r;

        if (argv[i][0] == '-') {
            continue;
        }
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz-replay: no such file or directory: %s\n", argv[i]);
            bad = 1;
            continue;
        }
        r = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
        if (r < 0) {
            bad = 1;
        } else {
            total += r;
        }
    }
    printf("fuzz-replay: %s: %d inputs replayed, no invariant broken\n", argv[0], total);
    if (bad || total == 0) {
        fprintf(stderr, "fuzz-replay: %s\n", bad ? "an input could not be read" : "no input given");
        return 2;
    }
    return 0;
}
