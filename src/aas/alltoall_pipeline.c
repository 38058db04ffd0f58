/*
 * alltoall_pipeline.c — the pipelined all-to-all on the 1-D torus T(z), z = N (all-to-all-scatter
 * notes, "Combining model with SF switching: 1-D torus").
 *
 * directions=1 (the notes' 1-port half-duplex scheme): every node forms one combined message of
 * its z-1 packets and sends it right; in round k = 1..z-1 a node receives from its left neighbour
 * the z-k+1 packets of the source k-1 places to its left, keeps its own and forwards the other z-k.
 *     t = sum_{i=1}^{z-1} (ts + mu tm (z-i)) = (ts + mu tm z/2)(z-1),   z-1 steps (exact).
 * directions=2 (the notes' all-port full-duplex scheme): the packets for the R = floor(z/2) nodes
 * to the right go right and those for the L = z-1-R nodes to the left go left, both pipelines at
 * once. Round k carries R-k+1 packets to the right (L-k+1 to the left), so
 *     t = sum_{k=1}^{R} (ts + mu tm (R-k+1)) = R ts + mu tm R (R+1)/2,   R steps.
 * For z odd this is the notes' sum, ts (z-1)/2 + mu tm (z^2-1)/8; the notes simplify it to
 * ts (z-1)/2 + mu tm z^2/8, which is mu tm / 8 too much: we report the sum (exact) and say so.
 * For z even the notes give nothing: the right pipeline carries z/2 packets (the node opposite is
 * reached going right, as the torus model routes ties), R = z/2, and the sum above is ours.
 * Any z >= 1 works. The ring is the node order 0, 1, ..., z-1 of a 1-D torus (dims=z).
 *
 * The search (the search contract, algos.h): the space is directions in {1, 2}; both are mapped
 * (two candidates, no bound needed), directions=1 offered first as the simpler scheme. Which one
 * wins depends on the torus's ports and duplex: one port or half duplex serialises the two
 * pipelines of directions=2, all ports and full duplex run them at once.
 */
#include "aas/aas.h"

#include <stdlib.h>
#include <string.h>

static const char *const params_[] = {"directions", NULL};

static int pl_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    uint64_t dirs;
    int rc = oc__kv_u64(params, "directions", 1, 1, 2, &dirs, why, len);
    if (rc) return rc;
    const uint64_t z = nodes;
    rc = oc__aas_plan(p, "pipeline", coll, nodes, root, bytes, params, params_, z * z * z / 2 + 1,
                      why, len);
    if (rc) return rc;
    /* the work (core.h): a packet a transfer, each over its distance (both ways: the shorter) */
    p->spec.units = p->spec.transfers = dirs == 2 ? z * (z * z / 4) : z * z * (z - 1) / 2;
    int *state = malloc(sizeof *state);
    if (!state || oc_kv_set(p->used, "directions", dirs == 1 ? "1" : "2")) {
        free(state);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    *state = (int)dirs;
    p->state = state;
    return 0;
}

static void pl_release(oc__plan *p) {
    free(p->state);
    p->state = NULL;
}

/* Round k of the pipeline going `dir` (+1 right, -1 left) that carries the packets for the
 * `reach` nearest nodes that way: node x forwards to x + dir the packets of source x - dir (k-1)
 * for the nodes x + dir, ..., s + dir reach. */
static int pipe_round(oc__emit *e, uint32_t z, int dir, uint32_t reach, uint32_t k) {
    if (k > reach) return 0;
    for (uint32_t x = 0; x < z; x++) {
        const uint32_t to = dir > 0 ? (x + 1) % z : (x + z - 1) % z;
        const uint32_t s = dir > 0 ? (x + z - (k - 1) % z) % z : (x + (k - 1)) % z;
        for (uint32_t j = 0; j + k <= reach; j++) { /* reach - k + 1 packets */
            const uint32_t step = (k + j) % z;
            const uint32_t d = dir > 0 ? (s + step) % z : (s + z - step) % z;
            int rc = oc__aas_send(e, x, to, d, s, 1);
            if (rc) return rc;
        }
    }
    return 0;
}

static int pl_generate(const oc__plan *p, oc__emit *e) {
    const uint32_t z = p->spec.nodes;
    const int dirs = *(const int *)p->state;
    const uint32_t R = dirs == 1 ? z - 1 : z / 2, L = z - 1 - R;
    for (uint32_t k = 1; k <= R; k++) {
        int rc = pipe_round(e, z, +1, R, k);
        if (!rc) rc = pipe_round(e, z, -1, L, k);
        if (!rc) rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int pl_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__direct_cfg c;
    if (oc__aas_network(in, &c)) return 0;
    const double z = p->spec.nodes, mu = (double)p->spec.chunk_bytes;
    const int dirs = *(const int *)p->state;
    int rc = 0;
    if (dirs == 1) {
        oc__aas_formula(rep, z - 1, (c.ts + mu * c.tm * z / 2) * (z - 1));
        rc = oc__aas_assumptions(rep, &c, 0, 1, -1, -1);
    } else {
        const double R = (double)(p->spec.nodes / 2);
        oc__aas_formula(rep, R, R * c.ts + mu * c.tm * R * (R + 1) / 2);
        rc = oc__aas_assumptions(rep, &c, 0, 1, 1, 1);
        if (p->spec.nodes % 2)
            rc |= oc__report_num(rep, "notes_simplified_time_s",
                                 c.ts * (z - 1) / 2 + mu * c.tm * z * z / 8) ||
                  oc__report_note(rep, "the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, "
                                       "mu tm/8 more than the sum itself (z^2-1)/8 (reported)");
        else
            rc |= oc__report_note(rep, "z even: the notes give no formula; R = z/2 rounds, "
                                       "R ts + mu tm R (R+1)/2 is ours");
    }
    return rc ? OC_ENOMEM : 0;
}

static int pl_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "directions") || in->nodes < 3) return 0; /* pinned, or one way */
    static const char *const dirs[] = {"1", "2"};
    const oc__bound none = {0};
    for (size_t i = 0; i < 2; i++) {
        const char *kv[] = {"directions", dirs[i]};
        if (oc__search_offer(s, &none, 1, kv))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

const oc__algo oc__algo_alltoall_pipeline = {
    .info = {"pipeline", OC_ALLTOALL, "torus",
             "1-D torus: combined messages pipelined round the ring (directions=2: both ways)",
             "a 1-D torus (dims=N)",
             "directions=1: (ts + mu tm z/2)(z-1); directions=2, z odd: ts (z-1)/2 + mu tm z^2/8",
             "directions=the faster on the network: 1 = right only (1-port half duplex), 2 = "
             "both ways (all-port full duplex)"},
    .param_names = params_,
    .plan = pl_plan,
    .generate = pl_generate,
    .release = pl_release,
    .search = pl_search,
    .formula = pl_formula,
};
