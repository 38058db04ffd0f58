/*
 * util.c — errors, checked allocation, number and size parsing, key=value lists.
 *
 * Everything user-facing is parsed here once, so that the CLI, schedule files and the library's
 * parameter lists refuse bad input the same way: one clear reason, never a crash. Sizes follow the
 * CLI contract of DESIGN.md: "4096", "4KiB", "4MiB", "1GiB", "4MB" (binary units for KiB/MiB/GiB/
 * TiB, decimal for kB/MB/GB/TB).
 */
#include "core/core.h"
#include "core/quote.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

int oc_parse_double(const char *text, double min, double max, double *out) {
    if (!text || !*text || isspace((unsigned char)*text)) return OC_EPARSE;
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

/* ---- key=value lists ---- */

oc_kv *oc_kv_new(void) {
    return calloc(1, sizeof(oc_kv));
}

void oc_kv_free(oc_kv *kv) {
    if (!kv) return;
    for (size_t i = 0; i < kv->count; i++) {
        free(kv->keys[i]);
        free(kv->values[i]);
    }
    free(kv->keys);
    free(kv->values);
    free(kv);
}

int oc_kv_set(oc_kv *kv, const char *key, const char *value) {
    if (!kv || !key || !*key || !value) return OC_EINVAL;
    char *v = strdup(value);
    if (!v) return OC_ENOMEM;
    for (size_t i = 0; i < kv->count; i++) {
        if (strcmp(kv->keys[i], key) == 0) {
            free(kv->values[i]);
            kv->values[i] = v;
            return 0;
        }
    }
    size_t kcap = kv->cap, vcap = kv->cap;
    if (oc__grow((void **)&kv->keys, &kcap, kv->count + 1, sizeof(char *)) ||
        oc__grow((void **)&kv->values, &vcap, kv->count + 1, sizeof(char *))) {
        free(v);
        return OC_ENOMEM;
    }
    kv->cap = kcap < vcap ? kcap : vcap;
    char *k = strdup(key);
    if (!k) {
        free(v);
        return OC_ENOMEM;
    }
    kv->keys[kv->count] = k;
    kv->values[kv->count] = v;
    kv->count++;
    return 0;
}

int oc_kv_set_pair(oc_kv *kv, const char *pair) {
    if (!pair) return OC_EPARSE;
    const char *eq = strchr(pair, '=');
    if (!eq || eq == pair) return OC_EPARSE;
    size_t klen = (size_t)(eq - pair);
    char *key = malloc(klen + 1);
    if (!key) return OC_ENOMEM;
    memcpy(key, pair, klen);
    key[klen] = 0;
    int rc = oc_kv_set(kv, key, eq + 1);
    free(key);
    return rc;
}

const char *oc_kv_get(const oc_kv *kv, const char *key) {
    if (!kv) return NULL;
    for (size_t i = 0; i < kv->count; i++)
        if (strcmp(kv->keys[i], key) == 0) return kv->values[i];
    return NULL;
}

size_t oc_kv_count(const oc_kv *kv) {
    return kv ? kv->count : 0;
}
const char *oc_kv_key(const oc_kv *kv, size_t i) {
    return kv && i < kv->count ? kv->keys[i] : NULL;
}
const char *oc_kv_value(const oc_kv *kv, size_t i) {
    return kv && i < kv->count ? kv->values[i] : NULL;
}

int oc__kv_u64(const oc_kv *kv, const char *key, uint64_t dflt, uint64_t min, uint64_t max,
               uint64_t *out, char *why, size_t whylen) {
    const char *v = oc_kv_get(kv, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    int rc = oc_parse_u64(v, min, max, out);
    if (rc)
        return oc__fail(why, whylen, rc, "%s=%s: expected a whole number from %llu to %llu", key,
                        OC_Q(v), (unsigned long long)min, (unsigned long long)max);
    return 0;
}

int oc__kv_double(const oc_kv *kv, const char *key, double dflt, double min, double max,
                  double *out, char *why, size_t whylen) {
    const char *v = oc_kv_get(kv, key);
    if (!v) {
        *out = dflt;
        return 0;
    }
    int rc = oc_parse_double(v, min, max, out);
    if (rc)
        return oc__fail(why, whylen, rc, "%s=%s: expected a number from %g to %g", key, OC_Q(v),
                        min, max);
    return 0;
}

int oc__kv_only(const oc_kv *kv, const char *const *known, const char *what, char *why,
                size_t whylen) {
    for (size_t i = 0; i < oc_kv_count(kv); i++) {
        int ok = 0;
        for (const char *const *k = known; *k; k++)
            if (strcmp(*k, kv->keys[i]) == 0) ok = 1;
        if (!ok) {
            char list[256] = "";
            for (const char *const *k = known; *k; k++) {
                if (*list) strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *k, sizeof list - strlen(list) - 1);
            }
            return oc__fail(why, whylen, OC_ENOENT, "unknown %s parameter '%s' (known: %s)", what,
                            OC_Q(kv->keys[i]), *list ? list : "none");
        }
    }
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
