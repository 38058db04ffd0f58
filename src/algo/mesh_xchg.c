/*
 * mesh_xchg.c — the mesh shape and the combined exchange block shared by bex and qex (see
 * mesh_xchg.h). The block of one exchange is N / 2^|M| packets; it is emitted as label ranges,
 * one per destination and run of consecutive sources, walking the subsets of the free bits with
 * the usual (sub - mask) & mask step: work linear in the transfers emitted.
 */
#include "algo/mesh_xchg.h"

#include <stdio.h>
#include <string.h>

static unsigned log2u(uint32_t v) {
    unsigned k = 0;
    while ((UINT32_C(1) << k) < v)
        k++;
    return k;
}

int oc__mesh_pow2_dims(oc__plan *p, const char *algo, uint32_t N, const oc_kv *params, int square,
                       uint32_t *X, uint32_t *Y, char *why, size_t len) {
    const char *d = oc_kv_get(params, "dims");
    uint64_t x, y;
    if (d) {
        char a[32], b[32];
        const char *sep = strchr(d, 'x');
        size_t n = sep ? (size_t)(sep - d) : 0;
        if (!sep || n >= sizeof a || strlen(sep + 1) >= sizeof b)
            return oc__fail(why, len, OC_EPARSE, "%s: dims=%s is not of the form XxY (e.g. 8x4)",
                            algo, d);
        memcpy(a, d, n);
        a[n] = '\0';
        snprintf(b, sizeof b, "%s", sep + 1);
        if (oc_parse_u64(a, 1, OC_MAX_NODES, &x) || oc_parse_u64(b, 1, OC_MAX_NODES, &y))
            return oc__fail(why, len, OC_EPARSE,
                            "%s: dims=%s is not of the form XxY with sides 1..%u", algo, d,
                            OC_MAX_NODES);
        if ((x & (x - 1)) || (y & (y - 1)))
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a mesh with power-of-two sides; dims=%s is not", algo, d);
        if (x * y != N)
            return oc__fail(why, len, OC_EINVAL, "%s: dims=%s is %llu nodes, not N = %u", algo, d,
                            (unsigned long long)(x * y), N);
    } else {
        if (N & (N - 1))
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a mesh with power-of-two sides (N = 2^k x 2^l); %u nodes "
                            "is not a power of two",
                            algo, N);
        unsigned n = log2u(N);
        x = UINT64_C(1) << ((n + 1) / 2);
        y = UINT64_C(1) << (n / 2);
    }
    if (square && x != y)
        return oc__fail(why, len, OC_ENOTSUP,
                        "%s needs a square mesh M(2^k, 2^k) (N = 4^k); %llux%llu is not square",
                        algo, (unsigned long long)x, (unsigned long long)y);
    *X = (uint32_t)x;
    *Y = (uint32_t)y;
    char buf[48];
    snprintf(buf, sizeof buf, "%llux%llu", (unsigned long long)x, (unsigned long long)y);
    return oc_kv_set(p->used, "dims", buf) ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

static unsigned low_run(uint32_t done) {
    unsigned L = 0;
    while (L < 32 && (done >> L & 1u))
        L++;
    return L;
}

static unsigned popcount(uint32_t v) {
    unsigned c = 0;
    for (; v; v &= v - 1)
        c++;
    return c;
}

uint64_t oc__xchg_transfers(unsigned nbits, uint32_t done, uint32_t M) {
    const uint32_t all = (uint32_t)((UINT64_C(1) << nbits) - 1);
    const unsigned L = low_run(done);
    return (UINT64_C(1) << popcount(all & ~done & ~M)) << (popcount(done) - L);
}

int oc__xchg_emit(oc__emit *e, unsigned nbits, uint32_t v, uint32_t w, uint32_t done, uint32_t M) {
    const uint32_t all = (uint32_t)((UINT64_C(1) << nbits) - 1), N = all + 1;
    const unsigned L = low_run(done);
    const uint32_t low = (uint32_t)((UINT64_C(1) << L) - 1);
    const uint32_t fd = all & ~done & ~M, fs = done & ~low;
    const uint32_t d0 = (v & done) | (w & M), s0 = v & ~done & all;
    uint32_t a = 0;
    do {
        const uint32_t d = d0 | a;
        uint32_t b = 0;
        do {
            int rc = oc__emit_transfer(e, v, w, OC_OP_COPY, d * N + (s0 | b), low + 1);
            if (rc) return rc;
            b = (b - fs) & fs;
        } while (b);
        a = (a - fd) & fd;
    } while (a);
    return 0;
}
