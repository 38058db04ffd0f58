/*
 * allreduce_ring.c — ring all-reduce: ring reduce-scatter then ring all-gather (wrht I and III.D,
 * Table I; Patarasuk and Yuan [8] of that seed).
 *
 * The vector is cut into N chunks; N-1 rounds of reduce-scatter leave node i with chunk i summed
 * over all nodes, N-1 rounds of all-gather give every node every chunk. Every transfer is one chunk
 * to the clockwise neighbour, so each round is one step on the optical ring (one wavelength), and
 * on an electrical network each link carries one chunk per round.
 *   steps = 2(N-1);   time = 2(N-1)(a + (d/N)/B)
 * On the photonic fabric add one reconfiguration: the ring's circuits never change.
 */
#include "algo/algos.h"

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_work("ring", nodes, 2 * (uint64_t)nodes * (nodes - 1), why, len);
    if (!rc) rc = oc__plan_plain(p, "ring", coll, nodes, root, bytes, nodes, params, why, len);
    if (!rc) p->spec.window_skips = 1; /* ring_phases.c: a shard's senders from its window */
    if (!rc) p->spec.families = 1;     /* ring_phases.c: every whole round one family */
    p->rounds = 2 * ((uint64_t)nodes - 1);
    if (!rc) p->spec.units = p->spec.transfers = 2 * (uint64_t)nodes * (nodes - 1); /* work */
    return rc;
}

static int generate(const oc__plan *p, oc__emit *e) {
    return oc__ring_phases(e, p->spec.nodes, 1, 1);
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const double R = 2.0 * (p->spec.nodes - 1);
    /* The photonic fabric (lumorph section 3, Fig. 2b) sets the ring's circuits up once and keeps
     * them: one reconfiguration, one circuit per tile on all its wavelengths. */
    if (in->lanes && p->spec.nodes > 1)
        return oc__formula_circuits(rep, in, R, 1, R * (in->step_time - in->step_fixed));
    oc__formula_steps(rep, in, R);
    return 0;
}

const oc__algo oc__algo_allreduce_ring = {
    .info = {"ring", OC_ALLREDUCE, "ring,fattree,switch,fabric",
             "ring reduce-scatter then ring all-gather on N chunks, 2(N-1) rounds", "",
             "2(N-1) steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = generate,
    .formula = formula,
};
