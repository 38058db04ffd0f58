/*
 * allgather_ring.c — ring all-gather (optree III.D.2, Table I; Chen et al. [7] of that seed).
 *
 * In round r (0 <= r < N-1) node i sends to node i+1 the block it received in round r-1 (its own
 * block in round 0), i.e. the block of node i-r. Every transfer is one block between neighbours, so
 * a round needs one wavelength on every clockwise link: N-1 rounds, N-1 steps.
 *   Cost = (N-1).(a + d/B)        steps = N - 1
 */
#include "algo/algos.h"

#include <math.h>

static const char *const no_params[] = {NULL};

static int ring_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                     uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "ring", why, len);
    if (rc) return rc;
    return oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
}

static int ring_generate(const oc__plan *plan, oc__emit *e) {
    const uint32_t N = plan->spec.nodes;
    for (uint32_t r = 0; r + 1 < N; r++) {
        for (uint32_t i = 0; i < N; i++) {
            uint32_t block = (i + N - r) % N;
            int rc = oc__emit_transfer(e, i, (i + 1) % N, OC_OP_COPY, block, 1);
            if (rc) return rc;
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int ring_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    rep->has_formula = 1;
    rep->steps_formula = (double)plan->spec.nodes - 1;
    rep->has_time_formula = 1;
    rep->time_formula_s = rep->steps_formula * in->step_time;
    return 0;
}

const oc__algo oc__algo_allgather_ring = {
    .info = {"ring", OC_ALLGATHER, "ring",
             "each node forwards one block to its neighbour, N-1 rounds", "",
             "N-1 steps; (N-1)(a + d/B)", ""},
    .param_names = no_params,
    .plan = ring_plan,
    .generate = ring_generate,
    .formula = ring_formula,
};
