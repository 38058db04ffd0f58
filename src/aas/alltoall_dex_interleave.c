/*
 * alltoall_dex_interleave.c — `dex-interleave`: the all-to-all on the 2-D wormhole mesh
 * M(z1, z2) by the cartesian product of the cycle's direct exchange, its horizontal and vertical
 * micro-permutations interleaved in the same rounds (all-to-all-scatter notes, "Noncombining
 * model with WH switching", "Meshes/tori": "up to t horizontal and vertical disjoint
 * micro-permutations can be interleaved simultaneously, so that all mesh links are used in each
 * round", figure "Interleaving of horizontal and vertical disjoint micro-permutations in M(8,8)").
 *
 * Packet (d, s) goes in at most two direct moves, non-combining: along s's row to the node of
 * d's column, then along that column to d (one move when s and d share a row or a column). Every
 * round is a micro-permutation (micro_sched.h: no shared sender, receiver or directed link, XY
 * routes), so a round is one wormhole step; a vertical move runs in a later round than the
 * horizontal one that brought its packet. The moves are offered horizontal first, longest first,
 * then vertical, and packed by list scheduling, which puts vertical moves of some columns into
 * the rounds where other rows still move horizontally: the interleaving. The notes give neither
 * the schedule (a figure we do not have, for z = 4t) nor a round count, so the packing and its
 * rounds are ours; the report gives the rounds beside the bisection bound. Any sides (the mesh
 * model's numbering node = x + z1 y), N <= 1024; dims=AxB, by default the mesh model's default
 * (the squarest A x B, A >= B).
 */
#include "aas/mesh_xchg.h"
#include "aas/micro_sched.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const params_[] = {"dims", NULL};

enum { INTERLEAVE_MAX_N = 1024 };

static int di_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    uint32_t z[OC_DIRECT_MAX_DIMS] = {0}, nd = 2;
    const char *dims = oc_kv_get(params, "dims");
    char valid[200];
    oc__dims_valid(valid, sizeof valid, nodes, 0, 0);
    if (dims) {
        int rc = oc__direct_parse_dims(dims, z, &nd, why, len);
        if (rc) return rc;
        if (nd == 1) z[1] = 1;
        if (nd > 2 || (uint64_t)z[0] * z[1] != nodes)
            return oc__fail(why, len, OC_EINVAL,
                            "dex-interleave: dims=%s is not a 2-D mesh of %u nodes; valid: %s",
                            dims, nodes, valid);
    } else {
        oc__direct_square_dims(nodes, &z[0], &z[1]);
    }
    if (nodes > INTERLEAVE_MAX_N)
        return oc__fail(why, len, OC_ETOOBIG,
                        "dex-interleave packs its rounds by list scheduling: at most %u nodes, "
                        "not %u",
                        INTERLEAVE_MAX_N, nodes);
    int rc = oc__aas_plan(p, "dex-interleave", coll, nodes, root, bytes, params, params_,
                          2 * (uint64_t)nodes * nodes, why, len);
    if (rc) return rc;
    /* the work (core.h): a move a packet, two for a packet off its row and column */
    p->spec.units = p->spec.transfers =
        (uint64_t)nodes * (nodes - 1) + (uint64_t)nodes * (z[0] - 1) * (z[1] - 1);
    char buf[32];
    snprintf(buf, sizeof buf, "%ux%u", z[0], z[1]);
    if ((rc = oc__micro_plan_new(p, "dex-interleave", 2 * (uint64_t)nodes * nodes, why, len)))
        return rc;
    oc__micro_plan *m = p->state;
    if (oc_kv_set(p->used, "dims", buf)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    const uint32_t X = z[0], Y = z[1];
    m->g = (oc__micro_grid){{X, Y}, 0};
    /* horizontal moves, longest first (a move in the same column has none) */
    for (uint32_t dist = X - 1; dist >= 1 && X > 1; dist--)
        for (uint32_t s = 0; s < nodes; s++)
            for (uint32_t d = 0; d < nodes; d++) {
                const uint32_t sx = s % X, dx = d % X;
                if ((sx > dx ? sx - dx : dx - sx) != dist) continue;
                m->moves[m->n++] = (oc__move){s, dx + X * (s / X), d, s, 0};
            }
    /* vertical moves, each after its packet's horizontal move (if any) */
    const size_t nh = m->n;
    for (size_t k = 0; k < nh; k++) {
        const oc__move *h = &m->moves[k];
        if (h->to != h->d) m->moves[m->n++] = (oc__move){h->to, h->d, h->d, h->s, (uint32_t)k + 1};
    }
    for (uint32_t s = 0; s < nodes; s++) /* same column: one vertical move */
        for (uint32_t d = 0; d < nodes; d++)
            if (d != s && d % X == s % X) m->moves[m->n++] = (oc__move){s, d, d, s, 0};
    return oc__micro_pack(&m->g, m->moves, m->n, &m->round_of, &m->rounds, why, len);
}

static int di_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__micro_plan *m = p->state;
    int rc = oc__report_num(rep, "micro_rounds", m->rounds);
    oc__direct_cfg c;
    int go = 0;
    if (!rc) rc = oc__mesh_formula_net(in, rep, "dex-interleave", m->g.z[0], m->g.z[1], &c, &go);
    if (rc || !go) return rc ? OC_ENOMEM : 0;
    rc = oc__report_note(rep,
                         "dex-interleave: %u micro-permutation rounds (list scheduling, ours); "
                         "the notes give no round count or time for the interleaving",
                         m->rounds);
    rc |= oc__aas_assumptions(rep, &c, 1, 0, 0, 1);
    return rc ? OC_ENOMEM : 0;
}

/* Offers nothing (no parameter is searched: dims is the network's): it refuses, before the plan
 * packs its moves (seconds to minutes at N = 1000), a store-and-forward mesh of the plan's own
 * dims with a side of 3 or more. There the model refuses the first transfer that is not one hop
 * (net/direct.c), and the plan has such moves: the row moves of up to z1 - 1 hops, the longest
 * first and so in round 0, or the column moves of up to z2 - 1 hops in a later round. */
static int di_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    (void)s;
    const oc__direct_cfg *c = oc__netcfg_direct(&in->net->cfg);
    if (!c || c->kind != OC_DIRECT_MESH || c->wormhole || c->nodes != in->nodes) return 0;
    uint32_t z[OC_DIRECT_MAX_DIMS] = {0}, nd = 2;
    const char *dims = oc_kv_get(in->params, "dims");
    if (dims) {
        char ignored[200];
        if (oc__direct_parse_dims(dims, z, &nd, ignored, sizeof ignored)) return 0; /* the plan says */
        if (nd == 1) z[1] = 1;
    } else {
        oc__direct_square_dims(in->nodes, &z[0], &z[1]);
    }
    const uint32_t net_y = c->ndims > 1 ? c->dims[1] : 1;
    if (nd > 2 || c->ndims > 2 || z[0] != c->dims[0] || z[1] != net_y) return 0;
    const uint32_t far = z[0] > z[1] ? z[0] - 1 : z[1] - 1;
    if (far < 2) return 0;
    return oc__fail(why, len, OC_ENOTSUP,
                    "dex-interleave: its moves go up to %u hops (along a side of the %ux%u mesh) "
                    "in one wormhole step, and this mesh is store-and-forward, which moves "
                    "messages between neighbours only (use --net switching=wh)",
                    far, z[0], z[1]);
}

const oc__algo oc__algo_alltoall_dex_interleave = {
    .info = {"dex-interleave", OC_ALLTOALL, "mesh",
             "row then column direct moves, horizontal and vertical micro-permutations "
             "interleaved in the same rounds (one WH step each)",
             "N <= 1024; wormhole switching", "(none in the notes)",
             "dims=AxB: the mesh's sides (as --net dims); unset: the mesh model's default"},
    .param_names = params_,
    .plan = di_plan,
    .generate = oc__micro_generate,
    .release = oc__micro_plan_free,
    .formula = di_formula,
    .search = di_search,
};
