/*
 * util.c — errors, the version, checked allocation, and one small function of analysis.
 *
 * Errors are negative codes from one X-macro list (opticoll.h), each with its text
 * (oc_strerror); oc__fail writes a reason, quoted as a last net (quote.c), and returns the code,
 * so a failure is one line: `return oc__fail(why, len, OC_EINVAL, "...")`. Allocation whose size
 * is a product checks the product (oc__malloc_array, oc__calloc) and buffers grow by doubling
 * (oc__grow). The principal branch of Lambert's W is here for the closed forms that need it (the
 * star's h'_opt, star_tcp_common.c).
 *
 * What used to live here beside these has rooms of its own in core: the memory budget and
 * bounded file reads (budget.c), number, size and list parsing (parse.c), key=value lists
 * (kv.c).
 */
#include "core/core.h"
#include "core/quote.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef OC_VERSION_TEXT
#error "OC_VERSION_TEXT: the build passes CMakeLists.txt's project version"
#endif
const char *oc_version(void) {
    return OC_VERSION_TEXT; /* CMakeLists.txt's project(VERSION), the one place it is written */
}

const char *oc_strerror(int err) {
    switch (err) {
    case OC_OK:
        return "success";
#define OC__ERRNO_TEXT(name, code, text)                                                           \
    case OC_##name:                                                                                \
        return text;
        OC_ERRNO_MAP(OC__ERRNO_TEXT)
#undef OC__ERRNO_TEXT
    default:
        return "unknown error";
    }
}

int oc__fail(char *why, size_t len, int err, const char *fmt, ...) {
    if (why && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
        oc__quote_line(why, len);
    }
    return err;
}

void *oc__calloc(size_t n, size_t size) {
    if (n == 0 || size == 0) return calloc(1, 1);
    if (n > SIZE_MAX / size) return NULL;
    return calloc(n, size);
}

void *oc__malloc_array(size_t n, size_t size) {
    if (n == 0 || size == 0) return malloc(1);
    if (n > SIZE_MAX / size) return NULL;
    return malloc(n * size);
}

int oc__grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return OC_ENOMEM;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem) return OC_ENOMEM;
    void *q = realloc(*p, ncap * elem);
    if (!q) return OC_ENOMEM;
    *p = q;
    *cap = ncap;
    return 0;
}

double oc__lambert_w0(double x) {
    double w = x < 1 ? x : log(x) - log(log(x) + 1);
    for (int i = 0; i < 100; i++) {
        double e = exp(w), d = (w * e - x) / (e * (w + 1));
        w -= d;
        if (fabs(d) < 1e-14 * (1 + fabs(w))) break;
    }
    return w;
}
