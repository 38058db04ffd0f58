/*
 * reducescatter_ring.c — ring reduce-scatter (the first half of ring all-reduce, wrht III.D).
 *
 * N-1 rounds; in round r node i adds block (i - r - 1) mod N into node i+1's, so node i ends with
 * block i summed over all nodes. One chunk per transfer to the neighbour: one step per round.
 *   steps = N - 1
 */
#include "algo/algos.h"

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    /* SIZE is the whole vector; the spec counts one block per node. */
    int rc = oc__plan_work("ring", nodes, (uint64_t)nodes * (nodes - 1), why, len);
    if (!rc) rc = oc__plan_plain(p, "ring", coll, nodes, root, bytes, 1, params, why, len);
    if (!rc) p->spec.units = p->spec.transfers = (uint64_t)nodes * (nodes - 1); /* work */
    if (!rc) p->spec.window_skips = 1; /* ring_phases.c: a shard's senders from its window */
    if (!rc) p->spec.families = 1;     /* ring_phases.c: every whole round one family */
    return rc;
}

static int generate(const oc__plan *p, oc__emit *e) {
    return oc__ring_phases(e, p->spec.nodes, 1, 0);
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__formula_steps(rep, in, (double)p->spec.nodes - 1);
    return 0;
}

const oc__algo oc__algo_reducescatter_ring = {
    .info = {"ring", OC_REDUCESCATTER, "ring,fattree,switch", "ring reduce-scatter, N-1 rounds", "",
             "N-1 steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
