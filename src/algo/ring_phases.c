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

int oc__ring_rs_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t block = (uint32_t)(((uint64_t)i + 2 * (uint64_t)n - r - 1) % n);
        int rc =
            oc__emit_transfer(e, P[i], P[(i + 1) % n], OC_OP_REDUCE, first + block * width, width);
        if (rc) return rc;
    }
    return 0;
}

int oc__ring_ag_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r) {
    for (uint32_t i = 0; i < n; i++) {
        uint32_t block = (uint32_t)(((uint64_t)i + n - r) % n);
        int rc =
            oc__emit_transfer(e, P[i], P[(i + 1) % n], OC_OP_COPY, first + block * width, width);
        if (rc) return rc;
    }
    return 0;
}

int oc__ring_phases(oc__emit *e, uint32_t N, int rs, int ag) {
    uint32_t *P = malloc((N ? N : 1) * sizeof(uint32_t));
    if (!P) return OC_ENOMEM;
    for (uint32_t i = 0; i < N; i++)
        P[i] = i;
    int rc = 0;
    for (uint32_t r = 0; rs && r + 1 < N && !rc; r++)
        if (!(rc = oc__ring_rs_round(e, P, N, 0, 1, r))) rc = oc__emit_round(e);
    for (uint32_t r = 0; ag && r + 1 < N && !rc; r++)
        if (!(rc = oc__ring_ag_round(e, P, N, 0, 1, r))) rc = oc__emit_round(e);
    free(P);
    return rc;
}
