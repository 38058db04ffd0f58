/*
 * allreduce_ring.c — ring all-reduce: ring reduce-scatter then ring all-gather (wrht I and III.D,
 * Table I; Patarasuk and Yuan [8] of that seed).
 *
 * The vector is cut into N chunks; N-1 rounds of reduce-scatter leave node i with chunk i summed
 * over all nodes, N-1 rounds of all-gather give every node every chunk. Every transfer is one chunk
 * to the clockwise neighbour, so each round is one step on the optical ring (one wavelength), and
 * on an electrical network each link carries one chunk per round.
 *   steps = 2(N-1);   time = 2(N-1)(a + (d/N)/B)
 */
#include "algo/algos.h"

#include <stdlib.h>

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "ring", why, len);
    if (rc) return rc;
    return oc__plan_begin(p, coll, nodes, root, bytes, nodes, why, len);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes;
    uint32_t *P = malloc(N * sizeof(uint32_t));
    if (!P) return OC_ENOMEM;
    for (uint32_t i = 0; i < N; i++)
        P[i] = i;
    int rc = 0;
    for (uint32_t r = 0; r + 1 < N && !rc; r++)
        if (!(rc = oc__ring_rs_round(e, P, N, 0, 1, r))) rc = oc__emit_round(e);
    for (uint32_t r = 0; r + 1 < N && !rc; r++)
        if (!(rc = oc__ring_ag_round(e, P, N, 0, 1, r))) rc = oc__emit_round(e);
    free(P);
    return rc;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    rep->has_formula = 1;
    rep->steps_formula = 2.0 * (p->spec.nodes - 1);
    rep->has_time_formula = 1;
    rep->time_formula_s = rep->steps_formula * in->step_time;
    return 0;
}

const oc__algo oc__algo_allreduce_ring = {
    .info = {"ring", OC_ALLREDUCE, "ring",
             "ring reduce-scatter then ring all-gather on N chunks, 2(N-1) rounds", "",
             "2(N-1) steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
