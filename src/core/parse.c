/*
 * parse.c — numbers, sizes and lists as the user writes them.
 *
 * Everything user-facing is parsed here once, so that the CLI, schedule files and the library's
 * parameter lists refuse bad input the same way: one clear reason, never a crash. Sizes follow the
 * CLI contract: "4096", "4KiB", "4MiB", "1GiB", "4MB" (binary units for KiB/MiB/GiB/
 * TiB, decimal for kB/MB/GB/TB). Numbers are decimal only: strtod alone would take "0x10" as 16,
 * "0x1p-1", "inf" and "nan", none of which a person writing a latency means.
 */
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- numbers ---- */

int oc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    if (!text || !*text) return OC_EPARSE;
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p)) return OC_EPARSE;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE) return OC_ERANGE;
    if (*end) return OC_EPARSE;
    if (v < min || v > max) return OC_ERANGE;
    *out = (uint64_t)v;
    return 0;
}

/* 1 if text is a decimal number: [+-]digits[.digits][(e|E)[+-]digits], at least one digit before
 * the exponent. What strtod accepts beyond that (hex, inf, nan, space) is not. */
static int is_decimal(const char *p) {
    if (*p == '+' || *p == '-') p++;
    size_t digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p))
            p++, digits++;
    }
    if (!digits) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return *p == 0;
}

int oc_parse_double(const char *text, double min, double max, double *out) {
    if (!text || !is_decimal(text)) return OC_EPARSE;
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (*end || end == text) return OC_EPARSE;
    if (errno == ERANGE || !isfinite(v)) return OC_ERANGE;
    if (v < min || v > max) return OC_ERANGE;
    *out = v;
    return 0;
}

int oc_parse_size(const char *text, uint64_t *out) {
    if (!text) return OC_EPARSE;
    const char *p = text;
    if (!isdigit((unsigned char)*p)) return OC_EPARSE; /* no sign, no space, not empty */
    uint64_t v = 0;
    while (isdigit((unsigned char)*p)) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return OC_ERANGE;
        v = v * 10 + d;
        p++;
    }
    static const struct {
        const char *suffix;
        uint64_t mult;
    } units[] = {
        {"", 1},
        {"B", 1},
        {"KiB", UINT64_C(1) << 10},
        {"MiB", UINT64_C(1) << 20},
        {"GiB", UINT64_C(1) << 30},
        {"TiB", UINT64_C(1) << 40},
        {"PiB", UINT64_C(1) << 50},
        {"kB", UINT64_C(1000)},
        {"KB", UINT64_C(1000)},
        {"MB", UINT64_C(1000000)},
        {"GB", UINT64_C(1000000000)},
        {"TB", UINT64_C(1000000000000)},
        {"PB", UINT64_C(1000000000000000)},
        /* nccl-tests' sizes (its -b/-e: "8", "1K", "128M", "2G", K = 1024): one grammar for
         * every size the tools read, perf's and opticoll-mpi's included. Capitals only: "4k"
         * reads as 4000 to as many people as 4096, so it is refused rather than guessed. */
        {"K", UINT64_C(1) << 10},
        {"M", UINT64_C(1) << 20},
        {"G", UINT64_C(1) << 30},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(p, units[i].suffix) == 0) {
            if (v > OC_MAX_BYTES / units[i].mult) return OC_ERANGE;
            v *= units[i].mult;
            if (v > OC_MAX_BYTES) return OC_ERANGE;
            *out = v;
            return 0;
        }
    }
    return OC_EPARSE;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* One value of a list: a size or a node count. */
static int list_value(const char *text, int sizes, uint64_t *v) {
    if (sizes) return oc_parse_size(text, v);
    return oc_parse_u64(text, 1, OC_MAX_NODES, v);
}

/* The grammar of oc_parse_list (opticoll.h); `sweep`, `tune` and `reproduce --sizes` share it. */
int oc_parse_list(const char *text, int sizes, uint64_t *out, size_t max, size_t *n) {
    const uint64_t hi = sizes ? OC_MAX_BYTES : OC_MAX_NODES;
    *n = 0;
    if (!text || !*text) return OC_EPARSE;
    /* strtok_r would skip an empty item ("4,,8", "4,"): refuse it, it is a typo */
    for (const char *c = text; *c; c++)
        if (*c == ',' && (c == text || c[1] == ',' || c[1] == 0)) return OC_EPARSE;
    char *copy = strdup(text), *save = NULL;
    if (!copy) return OC_ENOMEM;
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, ".."), *step;
        uint64_t a, b, s = 2;
        int mul = 1;
        if (!dots) {
            if (list_value(item, sizes, &a)) rc = OC_EPARSE;
            else if (*n >= max) rc = OC_ERANGE;
            else out[(*n)++] = a;
            continue;
        }
        *dots = 0;
        step = strchr(dots + 2, ':');
        if (step) {
            *step++ = 0;
            mul = *step == '*';
            if ((*step != '*' && *step != '+') || oc_parse_u64(step + 1, mul ? 2 : 1, hi, &s)) {
                rc = OC_EPARSE;
                continue;
            }
        }
        if (list_value(item, sizes, &a) || list_value(dots + 2, sizes, &b) || a > b ||
            (mul && a == 0)) {
            rc = OC_EPARSE;
            continue;
        }
        /* A..B always ends at B: the user wrote B, and a sweep that stopped short of it without a
         * word (4KiB..64MiB:*16 at 16 MiB) reads as if B had run. */
        for (uint64_t v = a; !rc;) {
            if (*n >= max) {
                rc = OC_ERANGE;
                break;
            }
            out[(*n)++] = v;
            if (v == b) break;
            v = (mul ? v > b / s : v > b - s) ? b : mul ? v * s : v + s;
        }
    }
    free(copy);
    if (rc) {
        *n = 0;
        return rc;
    }
    qsort(out, *n, sizeof *out, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (!k || out[k - 1] != out[i]) out[k++] = out[i];
    *n = k;
    return 0;
}
