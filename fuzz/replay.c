/*
 * replay.c — main() for the fuzz targets when they are not built with libFuzzer (fuzz/fuzz.h):
 * runs LLVMFuzzerTestOneInput once on every file named on the command line, or on every file of
 * a directory named there, in name order. This is how the ordinary and the sanitizer builds run
 * the seed and regression inputs of fuzz/corpus/NAME/ (CTest label "fuzz"). A broken promise or a
 * sanitizer report ends the run; a file that cannot be read is an error, and so is an input that
 * takes more than libFuzzer's -timeout (10 s). The regress-* inputs are the ones that once broke
 * a promise, crashed or took minutes (issue 27's tiny files asking for huge work among them).
 * Prints one line: the number of inputs run.
 */
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>

/* The most one input may take, as cmake/fuzz.cmake's -timeout=10 for the libFuzzer runs. */
enum { REPLAY_SECONDS = 10 };

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    uint8_t chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got > cap) {
            cap = (len + got) * 2;
            uint8_t *b = realloc(buf, cap);
            if (!b) abort();
            buf = b;
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: cannot read it\n", path);
        free(buf);
        return 1;
    }
    /* an exact-size copy, so that AddressSanitizer sees a read past the input's end */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) abort();
    if (len) memcpy(exact, buf, len);
    free(buf);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    LLVMFuzzerTestOneInput(exact, len);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(exact);
    /* A tiny input that asks for huge work (issue 27: 81 bytes kept verify busy past 60 s) is a
     * failure as libFuzzer's -timeout makes it one in the smoke runs (fuzz/run.sh check). */
    const double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (secs > REPLAY_SECONDS) {
        fprintf(stderr,
                "replay: %s took %.1f s, more than the %d s an input may (libFuzzer's -timeout)\n",
                path, secs, REPLAY_SECONDS);
        return 1;
    }
    return 0;
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of directory `dir` in name order; *count grows by the files run. */
static int run_dir(const char *dir, size_t *count) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **m = realloc(names, cap * sizeof *names);
            if (!m) abort();
            names = m;
        }
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) abort();
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (!rc && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            rc = run_file(names[i]);
            *count += !rc;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    size_t count = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        int rc = S_ISDIR(st.st_mode) ? run_dir(argv[i], &count) : run_file(argv[i]);
        if (!rc && !S_ISDIR(st.st_mode)) count++;
        if (rc) return 1;
    }
    printf("replay: %zu inputs run, no broken promise\n", count);
    return 0;
}
