/*
 * fuzz.h — what the fuzz targets of fuzz/ share.
 *
 * Each fuzz/fuzz_NAME.c is one libFuzzer target: LLVMFuzzerTestOneInput hands one input to one
 * reader or parser of opticoll (schedule JSON, MSCCL XML, decision files, rack traces, models
 * files, sizes, numbers, node and size lists, --net / -p values) and checks, beyond "no crash, no
 * leak, no undefined behaviour, no hang", what the reader promises about what it accepts.
 *
 * Two builds use the same sources (fuzz/fuzz.cmake): with clang and OC_FUZZ=ON each target is a
 * libFuzzer binary (-fsanitize=fuzzer,address,undefined); in every other build it is linked with
 * fuzz/replay.c, a main() that runs the target once on every file of its corpus, so the seed and
 * regression inputs of fuzz/corpus/NAME/ run in the ordinary and the sanitizer test suites too.
 *
 * A reader that only takes a path (oc_verify_file, the decision file reader) gets the input as a
 * memfd, an in-memory file named /proc/self/fd/N, rewritten for every input: no disk traffic and
 * nothing left behind.
 */
#ifndef OC_FUZZ_H
#define OC_FUZZ_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif

#include "core/core.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken promise of the reader: a crash that names the file, the line and the condition, so
 * that libFuzzer keeps the input that made it. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: %s:%d: broken promise: %s\n", __FILE__, __LINE__, #cond);       \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The library's memory budget for targets that run the pipeline (verifier, models): below
 * libFuzzer's -rss_limit_mb=2048, with room for AddressSanitizer's quarantine, so that a small
 * file asking for a large verification ({"collective": "alltoall", "nodes": 16064}: ~1.5 GB of
 * contribution sets, inside the default 4 GiB) is refused by the budget, as a user's would be
 * under OPTICOLL_MEMORY_BUDGET_MIB, instead of exhausting the fuzzer. The settings of the thread
 * that runs the inputs (core/settings.c: what the library's internals read outside a call, and
 * what its calls given no settings inherit), made once. */
#define FUZZ_MEMORY_BUDGET (UINT64_C(256) << 20)
static inline void fuzz_budget(void) {
    static const oc_settings fuzz_settings = {.memory_budget = FUZZ_MEMORY_BUDGET};
    oc__settings_enter(&fuzz_settings);
}

/* The input as a NUL-terminated string (a NUL inside it ends the string early, as it would on a
 * command line). Aborts when out of memory: a fuzz run has no other way to say so. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s) abort();
    if (size) memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Splits the string s at the first `sep` (which becomes a NUL): the rest, or "" when there is
 * none. */
static inline char *fuzz_split(char *s, char sep) {
    char *at = strchr(s, sep);
    if (!at) return s + strlen(s);
    *at = 0;
    return at + 1;
}

/* Writes the input into the process's one memfd and puts its name in path[0..len). */
static inline void fuzz_file(const uint8_t *data, size_t size, char *path, size_t len) {
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("oc-fuzz", 0)) < 0) abort();
    if (ftruncate(fd, 0)) abort();
    for (size_t done = 0; done < size;) {
        ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);
        if (n <= 0) abort();
        done += (size_t)n;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd);
}

#endif
