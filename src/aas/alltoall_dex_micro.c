/*
 * alltoall_dex_micro.c — `dex-micro`: the direct exchange on a cycle T(z) in micro-permutation
 * rounds (all-to-all-scatter notes, "Noncombining model with WH switching", "Meshes/tori",
 * "Direct exchange AAS on a cycle"; the Lemma "In T(z), this AAS takes 2[ z/2]2 rounds").
 *
 * Every pair of nodes exchanges its two packets directly (non-combining, wormhole, 1-port,
 * dimension-order routing: the shorter way round, the positive way on a tie). Unlike dex-torus,
 * whose logical rounds the model splits by first fit, every round here is a micro-permutation:
 * no two of its messages share a sender, a receiver or a directed link, so a round is one step
 * of the full-duplex wormhole torus (micro_sched.h). The moves are offered longest distance
 * first, each exchange's two directions together (i -> i+d, then i+d -> i), and packed by list
 * scheduling (ours: the notes' figure of the schedule is missing).
 *
 * Rounds against the notes: each node sends sum_d min(d, z-d) packet-hops, z^3/4 in all for z even,
 * over 2z directed links: at least z^2/8 rounds, which is the Lemma read as (1/2) ceil(z/2)^2
 * (dex-torus.c explains that reading); at least z - 1 rounds with one port. The report gives our
 * rounds beside both; the seed's formula is the Lemma's reading. Any z >= 1 up to 512 (the list
 * scheduling is quadratic in the moves); the run needs a 1-D torus (dims=N) and wormhole
 * switching, as the notes' model.
 */
#include "aas/micro_sched.h"

#include <math.h>
#include <stdlib.h>

static const char *const params_[] = {NULL};

enum { MICRO_MAX_Z = 512 };

static int dm_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    if (nodes > MICRO_MAX_Z)
        return oc__fail(why, len, OC_ETOOBIG,
                        "dex-micro packs its rounds by list scheduling, quadratic in the z(z-1) "
                        "moves: at most %u nodes, not %u",
                        MICRO_MAX_Z, nodes);
    int rc = oc__aas_plan(p, "dex-micro", coll, nodes, root, bytes, params, params_,
                          (uint64_t)nodes * nodes, why, len);
    if (rc) return rc;
    p->spec.units = p->spec.transfers = (uint64_t)nodes * (nodes - 1); /* the work (core.h) */
    if ((rc = oc__micro_plan_new(p, "dex-micro", (uint64_t)nodes * nodes, why, len))) return rc;
    oc__micro_plan *m = p->state;
    const uint32_t z = nodes;
    m->g = (oc__micro_grid){{z, 1}, 1};
    for (uint32_t d = z / 2; d >= 1; d--)
        for (uint32_t i = 0; i < z; i++) {
            const uint32_t j = (i + d) % z;
            m->moves[m->n++] = (oc__move){i, j, j, i, 0};
            if (2 * d < z) m->moves[m->n++] = (oc__move){j, i, i, j, 0};
        }
    return oc__micro_pack(&m->g, m->moves, m->n, &m->round_of, &m->rounds, why, len);
}

static int dm_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__micro_plan *m = p->state;
    const double z = p->spec.nodes, h = ceil(z / 2);
    int rc = oc__report_num(rep, "micro_rounds", m->rounds);
    rc |= oc__report_num(rep, "lemma_rounds_read", h * h / 2);
    oc__direct_cfg c;
    if (rc || oc__aas_network(in, &c)) return rc ? OC_ENOMEM : 0;
    oc__aas_formula(rep, h * h / 2, -1);
    rc = oc__report_note(rep,
                         "dex-micro: %u micro-permutation rounds (list scheduling, ours) against "
                         "the Lemma read as (1/2) ceil(z/2)^2 = %.0f (printed '2[z/2]2'); the "
                         "notes give no time",
                         m->rounds, h * h / 2);
    rc |= oc__aas_assumptions(rep, &c, 1, 0, 0, 1);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_dex_micro = {
    .info = {"dex-micro", OC_ALLTOALL, "torus",
             "direct exchange on a cycle in micro-permutation rounds: no two messages of a round "
             "share a port or a link (one WH step each)",
             "a 1-D torus (dims=N), N <= 512; wormhole switching",
             "(1/2) ceil(z/2)^2 rounds (Lemma, read)", ""},
    .param_names = params_,
    .plan = dm_plan,
    .generate = oc__micro_generate,
    .release = oc__micro_plan_free,
    .formula = dm_formula,
};
