/*
 * reducescatter_ring.c — ring reduce-scatter (the first half of ring all-reduce, wrht III.D).
 *
 * N-1 rounds; in round r node i adds block (i - r - 1) mod N into node i+1's, so node i ends with
 * block i summed over all nodes. One chunk per transfer to the neighbour: one step per round.
 *   steps = N - 1
 */
#include "algo/algos.h"

#include <stdlib.h>

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "ring", why, len);
    if (rc) return rc;
    /* SIZE is the whole vector; the spec counts one block per node. */
    return oc__plan_begin(p, coll, nodes, root, bytes, 1, why, len);
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
    free(P);
    return rc;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    rep->has_formula = 1;
    rep->steps_formula = (double)p->spec.nodes - 1;
    rep->has_time_formula = 1;
    rep->time_formula_s = rep->steps_formula * in->step_time;
    return 0;
}

const oc__algo oc__algo_reducescatter_ring = {
    .info = {"ring", OC_REDUCESCATTER, "ring", "ring reduce-scatter, N-1 rounds", "", "N-1 steps",
             ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
