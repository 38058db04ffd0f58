/*
 * ring_phases.c — the rounds of the ring reduce-scatter and ring all-gather over any ordered list
 * of nodes, shared by the ring, hierarchical-ring and reduce-scatter algorithms (wrht III.D,
 * Table I: Ring 2(N-1) steps; Patarasuk and Yuan [8] of that seed).
 *
 * The n nodes P[0..n-1] form a logical ring; the data is cut into n blocks, block k being the
 * label range [first + k*width, first + (k+1)*width). Reduce-scatter round r (0 <= r < n-1):
 * P[i] sends block (i - r - 1) mod n to P[i+1], which adds it to its own; after n-1 rounds P[i]
 * holds block i summed over all n nodes. All-gather round r: P[i] sends block (i - r) mod n, which
 * it holds complete, to P[i+1]. A caller runs several such rings in the same round (hierarchical
 * ring) by calling these for each ring before ending the round.
 */
#include "algo/algos.h"

#include <stdlib.h>

/* Emits P[i] -> P[i+1] of block (i - shift) mod n for i in [a, b), in order. */
static int ring_span(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                     uint32_t shift, oc__op op, uint32_t a, uint32_t b) {
    /* the block and the receiver advance with i, wrapping at n: no division a transfer */
    uint32_t block = (uint32_t)(((uint64_t)a + 2 * (uint64_t)n - shift) % n);
    if (a >= b) return 0;
    if (width == 0 || first + (uint64_t)n * width > e->spec->chunks) {
        /* a malformed span goes one by one: the emitter names its first bad transfer */
        for (uint32_t i = a; i < b; i++) {
            const uint32_t next = i + 1 == n ? 0 : i + 1;
            int rc = oc__emit_transfer(e, P[i], P[next], op, first + block * width, width);
            if (rc) return rc;
            if (++block == n) block = 0;
        }
        return 0;
    }
    oc__transfer *x;
    int rc = oc__emit_many(e, b - a, &x);
    if (rc) return rc;
    for (uint32_t i = a; i < b; i++, x++) {
        const uint32_t next = i + 1 == n ? 0 : i + 1;
        *x = (oc__transfer){P[i], P[next], first + block * width, width, (uint32_t)op};
        if (++block == n) block = 0;
    }
    return 0;
}

/* One ring round: P[i] sends block (i - shift) mod n to P[i+1]. A windowed emitter (a verifier
 * shard) gets only the senders whose block touches its window, found from the window without
 * looking at the others (oc__emit_skip keeps their places): a shard costs its own transfers. */
static int ring_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t shift, oc__op op) {
    if (!e->windowed) return ring_span(e, P, n, first, width, shift, op, 0, n);
    const uint64_t lo = e->win_lo, hi = e->win_hi, end = first + (uint64_t)n * width;
    uint64_t bl = lo > first ? (lo - first) / width : 0;
    uint64_t bh = hi > first ? oc__ceil_div(hi - first, width) : 0;
    if (hi <= first || lo >= end) bl = bh = 0;
    if (bh > n) bh = n;
    if (bl >= bh) {
        oc__emit_skip(e, n);
        return 0;
    }
    /* the senders of blocks [bl, bh): a circular range of i from (bl + shift) mod n */
    const uint32_t s0 = (uint32_t)((bl + shift) % n), L = (uint32_t)(bh - bl);
    int rc;
    if ((uint64_t)s0 + L <= n) {
        oc__emit_skip(e, s0);
        rc = ring_span(e, P, n, first, width, shift, op, s0, s0 + L);
        oc__emit_skip(e, n - s0 - L);
    } else {
        const uint32_t w = s0 + L - n; /* [0, w) and [s0, n) */
        rc = ring_span(e, P, n, first, width, shift, op, 0, w);
        oc__emit_skip(e, s0 - w);
        if (!rc) rc = ring_span(e, P, n, first, width, shift, op, s0, n);
    }
    return rc;
}

int oc__ring_rs_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r) {
    return ring_round(e, P, n, first, width, (uint32_t)(((uint64_t)r + 1) % n), OC_OP_REDUCE);
}

int oc__ring_ag_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r) {
    return ring_round(e, P, n, first, width, r % n, OC_OP_COPY);
}

/* A round of the ring of every node in order, block k being label k: the whole round as one
 * family (core.h: node k sends block (k - shift) mod N to node k + 1), which the sinks that know
 * how take in O(1); a windowed emitter (a verifier shard) gets its window's transfers alone. */
static int whole_ring_round(oc__emit *e, const uint32_t *P, uint32_t N, uint32_t shift, oc__op op) {
    if (e->windowed) return ring_round(e, P, N, 0, 1, shift, op);
    const oc__family f = {.n = N, .hop = 1, .shift = shift, .first = 0, .width = 1, .op = op};
    return oc__emit_family(e, &f);
}

int oc__ring_phases(oc__emit *e, uint32_t N, int rs, int ag) {
    uint32_t *P = malloc((N ? N : 1) * sizeof(uint32_t));
    if (!P) return OC_ENOMEM;
    for (uint32_t i = 0; i < N; i++)
        P[i] = i;
    int rc = 0;
    /* the shifts of oc__ring_rs_round and oc__ring_ag_round (N >= 2 here) */
    for (uint32_t r = 0; rs && r + 1 < N && !rc; r++)
        if (!(rc = whole_ring_round(e, P, N, (r + 1) % N, OC_OP_REDUCE))) rc = oc__emit_round(e);
    for (uint32_t r = 0; ag && r + 1 < N && !rc; r++)
        if (!(rc = whole_ring_round(e, P, N, r, OC_OP_COPY))) rc = oc__emit_round(e);
    free(P);
    return rc;
}
