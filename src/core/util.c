/*
 * util.c — errors, checked allocation, number and size parsing, key=value lists.
 *
 * Everything user-facing is parsed here once, so that the CLI, schedule files and the library's
 * parameter lists refuse bad input the same way: one clear reason, never a crash. Sizes follow the
 * CLI contract: "4096", "4KiB", "4MiB", "1GiB", "4MB" (binary units for KiB/MiB/GiB/
 * TiB, decimal for kB/MB/GB/TB). Numbers are decimal only: strtod alone would take "0x10" as 16,
 * "0x1p-1", "inf" and "nan", none of which a person writing a latency means.
 *
 * The memory budget lives here too: one number every reader and checker asks
 * before an allocation whose size comes from input, so a 50-byte file cannot take 16 GB. Reading a
 * file goes through oc__read_file, which stops at the cap while it reads.
 *
 * Key=value lists keep their insertion order (the reports print them in it) and a hash index over
 * the keys beside it, so a schedule with 200k parameters is read in linear time.
 */
#include "core/core.h"
#include "core/quote.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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

/* ---- the memory budget ---- */

static _Atomic uint64_t memory_budget; /* 0: OC_DEFAULT_MEMORY_BUDGET */

int oc_set_memory_budget(uint64_t bytes) {
    if (bytes != 0 && (bytes < (UINT64_C(1) << 20) || bytes > OC_MAX_MEMORY_BUDGET))
        return OC_EINVAL;
    atomic_store(&memory_budget, bytes);
    return 0;
}

uint64_t oc_memory_budget(void) {
    uint64_t b = atomic_load(&memory_budget);
    return b ? b : OC_DEFAULT_MEMORY_BUDGET;
}

/* The knobs of chunk-sharded verification (opticoll.h), beside the budget they share. */
static _Atomic uint32_t verify_shard;    /* 0: automatic */
static _Atomic unsigned verify_threads; /* 0: 2 */

void oc_set_verify_shard(uint32_t chunks) {
    atomic_store(&verify_shard, chunks);
}

uint32_t oc_verify_shard(void) {
    return atomic_load(&verify_shard);
}

void oc_set_verify_threads(unsigned threads) {
    atomic_store(&verify_threads, threads);
}

unsigned oc_verify_threads(void) {
    unsigned t = atomic_load(&verify_threads);
    return t ? t : 2;
}

int oc_budget_check(uint64_t bytes, const char *what, char *why, size_t whylen) {
    const uint64_t budget = oc_memory_budget();
    if (bytes <= budget) return 0;
    char need[32], have[32];
    oc__format_bytes(need, sizeof need, bytes);
    oc__format_bytes(have, sizeof have, budget);
    return oc__fail(why, whylen, OC_ETOOBIG,
                    "%s needs %s, more than the memory budget of %s (set "
                    "OPTICOLL_MEMORY_BUDGET_MIB)",
                    what, need, have);
}

int oc_memory_budget_from_env(const char *mib, const char *old_mib, char *why, size_t whylen) {
    /* A variable set to nothing (`OPTICOLL_MEMORY_BUDGET_MIB= cmd`, the shell's way of clearing
     * one for a command) is unset, as for the shell's own variables, not a bad number. */
    if (mib && !*mib) mib = NULL;
    if (old_mib && !*old_mib) old_mib = NULL;
    const char *name = mib ? "OPTICOLL_MEMORY_BUDGET_MIB" : "OPTICOLL_VERIFY_BUDGET_MIB";
    const char *value = mib ? mib : old_mib;
    if (!value) return 0;
    char quoted[OC__QUOTE_SIZE]; /* the value is the user's text: escaped and cut */
    uint64_t v;
    if (oc_parse_u64(value, 1, OC_MAX_MEMORY_BUDGET >> 20, &v) || oc_set_memory_budget(v << 20))
        return oc__fail(why, whylen, OC_EINVAL,
                        "%s=%s: expected a whole number of MiB from 1 to %llu", name,
                        oc__quote(quoted, sizeof quoted, value),
                        (unsigned long long)(OC_MAX_MEMORY_BUDGET >> 20));
    return 0;
}

uint64_t oc__file_cap(void) {
    return oc_memory_budget() / 64;
}

int oc__read_file(const char *path, uint64_t cap, const char *what, char **out, size_t *len,
                  char *why, size_t whylen) {
    *out = NULL;
    *len = 0;
    if (!what) what = path;
    char quoted[OC__QUOTE_SIZE]; /* a file name reaches the message escaped and cut */
    what = oc__quote(quoted, sizeof quoted, what);
    const int budget_cap = !cap || cap >= oc__file_cap();
    if (budget_cap) cap = oc__file_cap();
    /* Opened without waiting: a FIFO with no writer would block open() for ever. Once open, the
     * descriptor blocks again, so a FIFO whose writer is there is read whole, and one whose
     * writer never came reads as empty (read() on a FIFO without a writer is end of file). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    int flags = fd < 0 ? -1 : fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        const int e = errno;
        if (fd >= 0) close(fd);
        return oc__fail(why, whylen, OC_EIO, "cannot read %s: %s", what, strerror(e));
    }
    char *buf = NULL;
    size_t n = 0, bcap = 0;
    int rc = 0;
    for (;;) {
        /* Never ask for more than cap + 1 bytes: one byte past the cap proves the file is over
         * it, and a device that never ends (/dev/zero) stops there. */
        size_t want = 65536;
        if ((uint64_t)n + want > cap + 1) want = (size_t)(cap + 1 - n);
        if (oc__grow((void **)&buf, &bcap, n + want + 1, 1)) {
            rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory reading %s", what);
            break;
        }
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > cap) {
            char c[32];
            oc__format_bytes(c, sizeof c, cap);
            rc = budget_cap
                     ? oc__fail(why, whylen, OC_ETOOBIG,
                                "%s is larger than %s, the input file cap (1/64 of the "
                                "memory budget; set OPTICOLL_MEMORY_BUDGET_MIB)",
                                what, c)
                     : oc__fail(why, whylen, OC_ETOOBIG,
                                "%s is larger than %s, the most this kind of file may be", what, c);
            break;
        }
        if (got < want) {
            if (ferror(f))
                rc = oc__fail(why, whylen, OC_EIO, "cannot read %s: %s", what, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    if (!buf && !(buf = malloc(1))) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    buf[n] = 0;
    *out = buf;
    *len = n;
    return 0;
}

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

/* ---- key=value lists ---- */

oc_kv *oc_kv_new(void) {
    return calloc(1, sizeof(oc_kv));
}

void oc_kv_free(oc_kv *kv) {
    if (!kv) return;
    free(kv->slots);
    for (size_t i = 0; i < kv->count; i++) {
        free(kv->keys[i]);
        free(kv->values[i]);
    }
    free(kv->keys);
    free(kv->values);
    free(kv);
}

/* FNV-1a: short keys, no adversary worth a keyed hash (a file can only slow its own reading). */
static uint64_t key_hash(const char *key) {
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

/* The slot of `key` in the index: the one holding it, or the empty one where it would go. */
static size_t kv_slot(const oc_kv *kv, const char *key) {
    size_t mask = kv->nslots - 1, at = (size_t)key_hash(key) & mask;
    while (kv->slots[at] && strcmp(kv->keys[kv->slots[at] - 1], key) != 0)
        at = (at + 1) & mask;
    return at;
}

/* Makes room in the index for one more key (rebuilding it twice as large when half full). */
static int kv_reserve(oc_kv *kv) {
    if (kv->count >= UINT32_MAX - 1) return OC_ENOMEM;
    if (kv->nslots && (kv->count + 1) * 2 <= kv->nslots) return 0;
    size_t n = kv->nslots ? kv->nslots * 2 : 16;
    uint32_t *slots = oc__calloc(n, sizeof *slots);
    if (!slots) return OC_ENOMEM;
    free(kv->slots);
    kv->slots = slots;
    kv->nslots = n;
    for (size_t i = 0; i < kv->count; i++)
        kv->slots[kv_slot(kv, kv->keys[i])] = (uint32_t)(i + 1);
    return 0;
}

int oc_kv_set(oc_kv *kv, const char *key, const char *value) {
    if (!kv || !key || !*key || !value) return OC_EINVAL;
    char *v = strdup(value);
    if (!v) return OC_ENOMEM;
    if (kv_reserve(kv)) {
        free(v);
        return OC_ENOMEM;
    }
    size_t slot = kv_slot(kv, key);
    if (kv->slots[slot]) {
        size_t i = kv->slots[slot] - 1;
        free(kv->values[i]);
        kv->values[i] = v;
        return 0;
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
    kv->slots[slot] = (uint32_t)kv->count;
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
    if (!kv || !key || !kv->nslots) return NULL;
    uint32_t i = kv->slots[kv_slot(kv, key)];
    return i ? kv->values[i - 1] : NULL;
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

int oc__kv_copy(const oc_kv *src, oc_kv **out) {
    *out = oc_kv_new();
    for (size_t i = 0; *out && i < oc_kv_count(src); i++)
        if (oc_kv_set(*out, oc_kv_key(src, i), oc_kv_value(src, i))) {
            oc_kv_free(*out);
            *out = NULL;
        }
    return *out ? 0 : OC_ENOMEM;
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
