/*
 * allgather_ring.c — ring all-gather (optree III.D.2, Table I; Chen et al. [7] of that seed).
 *
 * In round r (0 <= r < N-1) node i sends to node i+1 the block it received in round r-1 (its own
 * block in round 0), i.e. the block of node i-r. Every transfer is one block between neighbours, so
 * a round needs one wavelength on every clockwise link: N-1 rounds, N-1 steps.
 *   Cost = (N-1).(a + d/B)        steps = N - 1
 */
#include "algo/algos.h"

static const char *const no_params[] = {NULL};

static int ring_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                     uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_work("ring", nodes, (uint64_t)nodes * (nodes - 1), why, len);
    if (!rc) rc = oc__plan_plain(plan, "ring", coll, nodes, root, bytes, 1, params, why, len);
    plan->rounds = nodes - 1u;
    if (!rc) plan->spec.units = plan->spec.transfers = (uint64_t)nodes * (nodes - 1); /* work */
    /* ring_phases.c: every whole round one family, taken whole by the verifier and the model;
     * said so that the word ahead (run/shard.c) does not cost its transfers one by one (131072
     * nodes: "about 29 min" ahead of a run of 0.2 s) */
    if (!rc) plan->spec.families = 1;
    return rc;
}

static int ring_generate(const oc__plan *plan, oc__emit *e) {
    return oc__ring_phases(e, plan->spec.nodes, 0, 1);
}

static int ring_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    oc__formula_steps(rep, in, (double)plan->spec.nodes - 1);
    return 0;
}

const oc__algo oc__algo_allgather_ring = {
    .info = {"ring", OC_ALLGATHER, "ring,fattree,switch",
             "each node forwards one block to its neighbour, N-1 rounds", "",
             "N-1 steps; (N-1)(a + d/B)", ""},
    .param_names = no_params,
    .plan = ring_plan,
    .generate = ring_generate,
    .formula = ring_formula,
};
