/*
 * radix.c — mixed-radix tree shapes for the multi-stage ring algorithms (see radix.h): OpTree's
 * m-ary tree of depth k (optree III.D) generalised to one radix per stage, so that any N has a
 * tree (an exact factorisation, or near-equal radices whose product just covers N).
 */
#include "algo/radix.h"
#include "core/quote.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int oc__radices_parse(const char *text, oc__radices *t, char *why, size_t len) {
    t->k = 0;
    const char *p = text;
    while (*p) {
        uint64_t v = 0;
        const char *start = p;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (uint64_t)(*p - '0');
            if (v > (1u << 20)) break;
            p++;
        }
        if (p == start || v < 2 || (*p && *p != 'x' && (*p < '0' || *p > '9')))
            return oc__fail(why, len, OC_EINVAL,
                            "radices=%s: expected radices of at least 2 joined by 'x', like 4x4x4",
                            OC_Q(text));
        /* well formed but out of range: say which range */
        if (v > (1u << 20))
            return oc__fail(why, len, OC_EINVAL, "radices=%s: a radix is at most %u", OC_Q(text),
                            1u << 20);
        if (t->k >= OC_RADIX_MAX_STAGES)
            return oc__fail(why, len, OC_EINVAL, "radices=%s: at most %d radices", OC_Q(text),
                            (int)OC_RADIX_MAX_STAGES);
        t->m[t->k++] = (uint32_t)v;
        if (*p == 'x') {
            p++;
            if (!*p) return oc__fail(why, len, OC_EINVAL, "radices=%s: ends with 'x'", OC_Q(text));
        }
    }
    if (t->k == 0) return oc__fail(why, len, OC_EINVAL, "radices= is empty");
    return 0;
}

void oc__radices_format(const oc__radices *t, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = 0;
    for (uint32_t j = 0; j < t->k && at < len; j++)
        at += (size_t)snprintf(buf + at, len - at, j ? "x%u" : "%u", t->m[j]);
}

uint64_t oc__radices_product(const oc__radices *t) {
    uint64_t v = 1;
    for (uint32_t j = 0; j < t->k; j++) {
        v *= t->m[j];
        if (v > (UINT64_C(1) << 40)) return v;
    }
    return v;
}

int oc__radices_balanced(uint32_t N, uint32_t k, oc__radices *t) {
    if (k < 1 || k > OC_RADIX_MAX_STAGES) return 0;
    uint32_t base = (uint32_t)floor(pow((double)N, 1.0 / k));
    if (base < 2) base = 2;
    while (base > 2 && pow((double)base, (double)k) > (double)N * 1.0000001)
        base--;
    /* now base^k <= N (or base = 2); add +1s until the product covers N */
    for (uint32_t r = 0; r <= k; r++) {
        double prod = pow(base + 1.0, r) * pow((double)base, (double)(k - r));
        if (prod >= (double)N - 0.5) {
            t->k = k;
            for (uint32_t j = 0; j < k; j++)
                t->m[j] = j < r ? base + 1 : base;
            return 1;
        }
    }
    return 0;
}

int oc__radices_exact(uint32_t N, uint32_t k, oc__radices *t) {
    uint32_t primes[64], np = 0, n = N;
    if (k < 1 || k > OC_RADIX_MAX_STAGES) return 0;
    for (uint32_t p = 2; (uint64_t)p * p <= n; p++)
        while (n % p == 0) {
            primes[np++] = p;
            n /= p;
        }
    if (n > 1) primes[np++] = n;
    if (np < k) return 0;
    uint64_t r[OC_RADIX_MAX_STAGES];
    for (uint32_t j = 0; j < k; j++)
        r[j] = 1;
    for (int i = (int)np - 1; i >= 0; i--) { /* largest prime first, into the smallest radix */
        uint32_t best = 0;
        for (uint32_t j = 1; j < k; j++)
            if (r[j] < r[best]) best = j;
        r[best] *= primes[i];
    }
    for (uint32_t j = 0; j < k; j++)
        if (r[j] < 2 || r[j] > (1u << 20)) return 0;
    /* sort descending */
    for (uint32_t a = 0; a < k; a++)
        for (uint32_t b = a + 1; b < k; b++)
            if (r[b] > r[a]) {
                uint64_t x = r[a];
                r[a] = r[b];
                r[b] = x;
            }
    t->k = k;
    for (uint32_t j = 0; j < k; j++)
        t->m[j] = (uint32_t)r[j];
    return 1;
}

uint32_t oc__radices_max(const oc__radices *t) {
    uint32_t v = 0;
    for (uint32_t j = 0; j < t->k; j++)
        if (t->m[j] > v) v = t->m[j];
    return v;
}

/* Reverses the stage order. */
static void radices_reverse(oc__radices *t) {
    for (uint32_t a = 0, b = t->k ? t->k - 1 : 0; a < b; a++, b--) {
        uint32_t x = t->m[a];
        t->m[a] = t->m[b];
        t->m[b] = x;
    }
}

static int same(const oc__radices *a, const oc__radices *b) {
    return a->k == b->k && memcmp(a->m, b->m, a->k * sizeof a->m[0]) == 0;
}

size_t oc__radices_options(uint32_t N, uint32_t k, int cover, oc__radices out[4]) {
    oc__radices opt[4];
    int have[4] = {0, 0, 0, 0};
    have[0] = oc__radices_exact(N, k, &opt[0]);
    if (have[0]) {
        opt[1] = opt[0];
        radices_reverse(&opt[1]);
        have[1] = 1;
    }
    if (cover) {
        have[2] = oc__radices_balanced(N, k, &opt[2]);
        if (have[2]) {
            opt[3] = opt[2];
            radices_reverse(&opt[3]);
            have[3] = 1;
        }
    }
    size_t n = 0;
    for (int i = 0; i < 4; i++) {
        if (!have[i]) continue;
        int dup = 0;
        for (size_t j = 0; j < n; j++)
            dup |= same(&out[j], &opt[i]);
        if (!dup) out[n++] = opt[i];
    }
    return n;
}

uint32_t oc__radices_max_depth(uint32_t N) {
    uint32_t kmax = 1;
    while ((UINT64_C(1) << kmax) < N)
        kmax++;
    return kmax;
}

/* The classic reduction: take the whole parts of a/m and b/m out, then swap the roles of a and m
 * on the lattice points under the line (Euclid); T is the integer type wide enough for a n + b. */
#define FLOOR_SUM(T, n0, m0, a0, b0, out)                                                          \
    do {                                                                                           \
        T n_ = (n0), m_ = (m0), a_ = (a0), b_ = (b0), ans_ = 0;                                    \
        while (n_) {                                                                               \
            if (a_ >= m_) {                                                                        \
                ans_ += (n_ - 1) * n_ / 2 * (a_ / m_);                                             \
                a_ %= m_;                                                                          \
            }                                                                                      \
            if (b_ >= m_) {                                                                        \
                ans_ += n_ * (b_ / m_);                                                            \
                b_ %= m_;                                                                          \
            }                                                                                      \
            T y_ = a_ * n_ + b_;                                                                   \
            if (y_ < m_) break;                                                                    \
            n_ = y_ / m_;                                                                          \
            b_ = y_ % m_;                                                                          \
            T t_ = m_;                                                                             \
            m_ = a_;                                                                               \
            a_ = t_;                                                                               \
        }                                                                                          \
        (out) = (uint64_t)ans_;                                                                    \
    } while (0)

uint64_t oc__floor_sum(uint64_t n, uint64_t m, uint64_t a, uint64_t b) {
    uint64_t r;
    if (n < (UINT64_C(1) << 31) && a < (UINT64_C(1) << 32) && b < (UINT64_C(1) << 62) &&
        m < (UINT64_C(1) << 32))
        FLOOR_SUM(uint64_t, n, m, a, b, r); /* everything fits 64 bits: faster */
    else
        FLOOR_SUM(unsigned __int128, n, m, a, b, r); /* a n + b can pass 2^64 for N near 2^32 */
    return r;
}

int oc__radices_need(const oc_kv *params, const char *const *known, uint32_t N, char *why,
                     size_t len) {
    int rc = oc__kv_only(params, known, "optree", why, len);
    if (rc) return rc;
    if (!oc_kv_get(params, "radices") && !oc_kv_get(params, "k") && N > 1)
        return oc__fail(why, len, OC_EINVAL,
                        "optree needs radices= or k= (the pipeline chooses them when unset)");
    return 0;
}

int oc__radices_args(const oc_kv *params, uint32_t N, const char **radices, char *why, size_t len) {
    *radices = oc_kv_get(params, "radices");
    const char *ktext = oc_kv_get(params, "k");
    if (*radices && ktext)
        return oc__fail(why, len, OC_EINVAL, "give either radices= or k=, not both");
    if (N == 1 && (*radices || (ktext && strcmp(ktext, "0") != 0)))
        return oc__fail(why, len, OC_EINVAL, "one node needs no stages");
    return 0;
}

int oc__radices_record(oc_kv *used, const oc__radices *t, uint32_t N, char *why, size_t len) {
    char text[256] = "", kbuf[16];
    oc__radices_format(t, text, sizeof text);
    snprintf(kbuf, sizeof kbuf, "%u", t->k);
    if ((N > 1 && oc_kv_set(used, "radices", text)) || oc_kv_set(used, "k", kbuf))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}
