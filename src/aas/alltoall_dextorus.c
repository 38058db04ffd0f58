/*
 * alltoall_dextorus.c — the direct exchange on a cycle, `dex-torus` (all-to-all-scatter notes,
 * "Noncombining model with WH switching: Meshes/tori", "Direct exchange AAS on a cycle").
 *
 * The notes describe it only through a figure we do not have and a Lemma: on T(z) it takes
 * "2[ z/2]2" rounds, 1-port, non-combining, dimension-order routed, and is "asymptotically
 * optimal". We read that as (1/2) ceil(z/2)^2 = z^2/8 for z = 4t: it is exactly the bandwidth bound
 * (each node sends sum_d min(d, z-d) = z^2/4 packet-hops, z^3/4 in all, over 2z directed links),
 * while 2 ceil(z/2)^2 would be four times that bound and not optimal. Our schedule: logical round
 * i = 1..floor(z/2) sends every node's packet to the node i to its right and the node i to its
 * left (once when 2i = z: the torus routes that tie to the right). A round needs about i steps
 * (each direction's links carry i messages of it), and the model splits it by first fit, 1-port
 * and link limits kept (we emit the messages class by class of x mod i, which packs better: 43
 * steps instead of 48 on T(16)); the mapped steps are our result, shown beside the Lemma's value
 * and the bisection bound. Any z >= 1; needs wormhole switching. The notes' 2-D interleaving of
 * micro-permutations is not implemented.
 */
#include "aas/aas.h"

#include <math.h>

static const char *const params_[] = {NULL};

static int dt_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    int rc = oc__aas_plan(p, "dex-torus", coll, nodes, root, bytes, params, params_,
                          (uint64_t)nodes * nodes, why, len);
    if (!rc) p->spec.units = p->spec.transfers = (uint64_t)nodes * (nodes - 1); /* the work */
    return rc;
}

static int dt_generate(const oc__plan *p, oc__emit *e) {
    const uint32_t z = p->spec.nodes;
    for (uint32_t i = 1; 2 * i <= z; i++) {
        /* class by class of x mod i (disjoint arcs: first fit puts a class in one step), each
         * right message followed by the left message of the node i/2 further on, whose ports are
         * free in that step */
        for (uint32_t c = 0; c < i; c++)
            for (uint32_t x = c; x < z; x += i) {
                int rc = oc__aas_send(e, x, (x + i) % z, (x + i) % z, x, 1);
                const uint32_t y = (x + i / 2) % z;
                if (!rc && 2 * i < z)
                    rc = oc__aas_send(e, y, (y + z - i) % z, (y + z - i) % z, y, 1);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int dt_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__direct_cfg c;
    if (oc__aas_network(in, &c)) return 0;
    const double h = ceil(p->spec.nodes / 2.0);
    oc__aas_formula(rep, h * h / 2, -1);
    int rc = oc__report_note(rep, "Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
                                  "'2[z/2]2' is garbled); no time formula in the notes");
    rc |= oc__aas_assumptions(rep, &c, 1, 0, 0, -1);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_dextorus = {
    .info = {"dex-torus", OC_ALLTOALL, "torus",
             "direct exchange on a cycle: round i sends to the nodes i to the right and left; "
             "congested rounds split by the model",
             "a 1-D torus (dims=N); wormhole switching", "(1/2) ceil(z/2)^2 rounds (Lemma, read)",
             ""},
    .param_names = params_,
    .plan = dt_plan,
    .generate = dt_generate,
    .formula = dt_formula,
};
