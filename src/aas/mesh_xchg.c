/*
 * mesh_xchg.c — the mesh shape and the combined exchange block shared by bex and qex (see
 * mesh_xchg.h). The block of one exchange is N / 2^|M| packets; it is emitted as label ranges,
 * one per destination and run of consecutive sources, walking the subsets of the free bits with
 * the usual (sub - mask) & mask step: work linear in the transfers emitted.
 */
#include "aas/mesh_xchg.h"

#include <stdio.h>
#include <stdlib.h>

void oc__dims_valid(char *buf, size_t len, uint32_t N, int pow2, int square) {
    size_t at = 0, shown = 0;
    buf[0] = 0;
    for (uint32_t A = 1; A <= N && at < len; A++) {
        const uint32_t B = N / A;
        if (N % A || (pow2 && ((A & (A - 1)) || (B & (B - 1)))) || (square && A != B)) continue;
        if (shown++ == 12) {
            snprintf(buf + at, len - at, ", ...");
            return;
        }
        at += (size_t)snprintf(buf + at, len - at, "%s%ux%u", at ? ", " : "", A, B);
    }
    if (!shown) snprintf(buf, len, "none (N = %u)", N);
}

int oc__mesh_pow2_dims(oc__plan *p, const char *algo, uint32_t N, const oc_kv *params, int square,
                       uint32_t *X, uint32_t *Y, char *why, size_t len) {
    const char *d = oc_kv_get(params, "dims");
    uint32_t dims[OC_DIRECT_MAX_DIMS], nd, l;
    char valid[200];
    oc__dims_valid(valid, sizeof valid, N, 1, square);
    if (d) { /* the mesh model's own syntax and parser */
        char inner[200];
        if (oc__direct_parse_dims(d, dims, &nd, inner, sizeof inner))
            return oc__fail(why, len, OC_EPARSE, "%s: %s (valid for N = %u: %s)", algo, inner, N,
                            valid);
        if (nd == 1) dims[1] = 1;
        if (nd > 2)
            return oc__fail(why, len, OC_ENOTSUP, "%s runs on a 2-D mesh; dims=%s has %u sides; "
                            "valid: %s", algo, d, nd, valid);
        if (!oc__aas_pow2(dims[0], &l) || !oc__aas_pow2(dims[1], &l))
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a mesh with power-of-two sides; dims=%s is not; valid: %s",
                            algo, d, valid);
        if ((uint64_t)dims[0] * dims[1] != N)
            return oc__fail(why, len, OC_EINVAL, "%s: dims=%s is %llu nodes, not N = %u; valid: %s",
                            algo, d, (unsigned long long)dims[0] * dims[1], N, valid);
        if (square && dims[0] != dims[1])
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a square mesh M(2^k, 2^k) (N = 4^k); %s is not square; "
                            "valid: %s",
                            algo, d, valid);
    } else {
        if (!oc__aas_pow2(N, &l))
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a mesh with power-of-two sides (N = 2^k x 2^l); %u nodes "
                            "is not a power of two",
                            algo, N);
        oc__direct_square_dims(N, &dims[0], &dims[1]); /* the mesh model's default shape */
        if (square && dims[0] != dims[1])
            return oc__fail(why, len, OC_ENOTSUP,
                            "%s needs a square mesh M(2^k, 2^k) (N = 4^k); %ux%u is not square",
                            algo, dims[0], dims[1]);
    }
    *X = dims[0];
    *Y = dims[1];
    char buf[48];
    snprintf(buf, sizeof buf, "%ux%u", *X, *Y);
    return oc_kv_set(p->used, "dims", buf) ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

/* 1 if the direct network c is the 2-D mesh X x Y (Y = 1: also the 1-D mesh of X nodes). */
static int mesh_matches(const oc__direct_cfg *c, uint32_t X, uint32_t Y) {
    if (c->kind != OC_DIRECT_MESH || c->ndims < 1 || c->ndims > 2 || c->dims[0] != X) return 0;
    return c->ndims == 2 ? c->dims[1] == Y : Y == 1;
}

int oc__mesh_formula_net(const oc__formula_in *in, oc_report *rep, const char *algo, uint32_t X,
                         uint32_t Y, oc__direct_cfg *c, int *go) {
    *go = 0;
    if (oc__aas_network(in, c)) return 0;
    if (!mesh_matches(c, X, Y))
        return oc__report_note(rep,
                               "%s was planned for a %ux%u mesh (-p dims) but ran on a "
                               "different one (--net dims): its rounds are not contention-free "
                               "there and no closed form applies",
                               algo, X, Y);
    *go = 1;
    return 0;
}

int oc__dims_offer(const oc__search_in *in, oc__search *s, uint32_t A, uint32_t B, uint64_t rounds,
                   double chunks, uint64_t transfers, char *why, size_t len) {
    oc__formula_in f;
    int rc = in->figures(in, OC_ALLTOALL, 1, &f, why, len);
    if (rc) return rc;
    char d[32];
    snprintf(d, sizeof d, "%ux%u", A, B);
    const char *kv[] = {"dims", d};
    const oc__bound b = {(double)rounds * f.step_fixed + chunks * (f.step_time - f.step_fixed),
                         rounds,
                         "rounds x (start-up + hop) + the largest block of each round x its "
                         "per-byte time",
                         transfers};
    return oc__search_offer(s, &b, 1, kv) ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

int oc__dims_of_net(const oc__search_in *in, int kind, uint32_t *A, uint32_t *B) {
    const oc__direct_cfg *c = oc__netcfg_direct(&in->net->cfg);
    if (!c || c->nodes != in->nodes) return 0;
    if (c->kind == OC_DIRECT_HYPERCUBE || (kind >= 0 && c->kind != (oc__direct_kind)kind)) return 0;
    if (c->ndims < 1 || c->ndims > 2) return 0;
    *A = c->dims[0];
    *B = c->ndims == 2 ? c->dims[1] : 1;
    return 1;
}

/* Signed hops along network dimension i from coordinate a to b (direct.c's dim_delta). */
static int64_t net_delta(const oc__direct_cfg *c, uint32_t i, uint32_t a, uint32_t b) {
    const uint32_t z = c->dims[i];
    if (c->kind != OC_DIRECT_TORUS || z < 3) return (int64_t)b - (int64_t)a;
    const uint32_t f = b >= a ? b - a : b + z - a;
    return f <= z - f ? (int64_t)f : -(int64_t)(z - f);
}

uint64_t oc__shift_congestion(const oc__netcfg *net, const uint32_t *dims, uint32_t ndims,
                              uint32_t along) {
    const oc__direct_cfg *c = oc__netcfg_direct(net); /* NULL off the direct networks */
    uint64_t N = 1, stride = 1;
    for (uint32_t i = 0; i < ndims; i++) {
        if (i < along) stride *= dims[i];
        N *= dims[i];
    }
    if (!c || c->nodes != N || along >= ndims || !c->ndims) return 1;
    const uint64_t D = c->ndims;
    uint32_t *load = calloc((size_t)(N * D * 2), sizeof *load);
    if (!load) return 1;
    uint64_t most = 1;
    const uint32_t z = dims[along];
    for (uint64_t v = 0; v < N; v++) {
        const uint64_t x = v / stride % z;
        uint64_t cur = v, s = 1;
        const uint64_t to = v - x * stride + (x + 1) % z * stride;
        for (uint32_t i = 0; i < D; s *= c->dims[i], i++) { /* dimension order, as the model */
            const uint32_t zi = c->dims[i];
            uint64_t xi = cur / s % zi;
            const int64_t d = net_delta(c, i, (uint32_t)xi, (uint32_t)(to / s % zi));
            const int neg = d < 0;
            for (int64_t k = neg ? -d : d; k > 0; k--) {
                const uint64_t nx = neg ? (xi == 0 ? zi - 1 : xi - 1) : (xi + 1 == zi ? 0 : xi + 1);
                const uint64_t next = cur - xi * s + nx * s;
                /* half duplex names a link by its positive end, so both directions meet */
                const uint64_t id = !c->fullduplex && neg ? (next * D + i) * 2
                                                          : (cur * D + i) * 2 + (uint64_t)neg;
                if (++load[id] > most) most = load[id];
                cur = next;
                xi = nx;
            }
        }
    }
    free(load);
    return most;
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
    const uint32_t all = (uint32_t)((UINT64_C(1) << nbits) - 1);
    const unsigned L = low_run(done);
    const uint32_t low = (uint32_t)((UINT64_C(1) << L) - 1);
    const uint32_t fd = all & ~done & ~M, fs = done & ~low;
    const uint32_t d0 = (v & done) | (w & M), s0 = v & ~done & all;
    uint32_t a = 0;
    do {
        const uint32_t d = d0 | a;
        uint32_t b = 0;
        do {
            int rc = oc__aas_send(e, v, w, d, s0 | b, low + 1);
            if (rc) return rc;
            b = (b - fs) & fs;
        } while (b);
        a = (a - fd) & fd;
    } while (a);
    return 0;
}
