/*
 * alltoall_dex.c — the direct exchange (DEX) all-to-all (all-to-all-scatter notes, "Noncombining
 * model with WH switching: Direct exchange AAS on hypercube" and "Meshes/tori").
 *
 * Round i = 1..N-1: every node x exchanges its packet with mate x XOR i (N = 2^n). On the
 * hypercube every such permutation is contention-free under e-cube routing (notes, section 10),
 * so a round is one step and, on the model (ts + h td + mu tm per message, h hops), costs
 * ts + popcount(i) td + mu tm exactly. The notes write the total as
 *     t = (2^n - 1)(ts + n td/2 + mu tm)
 * ("2n-1" there is 2^n - 1: the number of permutations), taking n/2 as the hop count of every
 * round. It is the average over all N mates including x itself; over the N-1 rounds the hops sum
 * to n 2^(n-1), so the exact time is (2^n - 1)(ts + mu tm) + n 2^(n-1) td, n td/2 more than the
 * notes' form. We report the notes' form as the closed form and the exact sum as
 * `exact_time_s`; the tests assert both.
 *
 * On a mesh (or torus) of 2^n nodes with binary addresses the same permutations are routed XY;
 * links then carry up to max(z1, z2)/2 messages of one permutation (the notes' congestion, shown
 * as max_link_congestion) and the model splits such a round into that many steps or more. The
 * notes give no closed form there ("depends on the way the communication system handles link
 * congestion"), and neither do we. Needs wormhole switching (mates are not neighbours).
 */
#include "aas/aas.h"

static const char *const params_[] = {NULL};

static int dex_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                    const oc_kv *params, char *why, size_t len) {
    uint32_t n;
    if (!oc__aas_pow2(nodes, &n))
        return oc__fail(why, len, OC_ENOTSUP,
                        "dex pairs x with x XOR i: N must be a power of two, not %u (on a 1-D "
                        "torus of any size use dex-torus)",
                        nodes);
    int rc = oc__aas_plan(p, "dex", coll, nodes, root, bytes, params, params_,
                          (uint64_t)nodes * nodes, why, len);
    if (!rc) p->spec.units = p->spec.transfers = (uint64_t)nodes * (nodes - 1); /* the work */
    return rc;
}

static int dex_generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes;
    for (uint32_t i = 1; i < N; i++) {
        for (uint32_t x = 0; x < N; x++) {
            int rc = oc__aas_send(e, x, x ^ i, x ^ i, x, 1);
            if (rc) return rc;
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

/* The exact time on the hypercube: sum over i of ts + popcount(i) td + mu tm. */
static double dex_exact_time(const oc__direct_cfg *c, uint32_t n, double mu);
double dex_exact_time(const oc__direct_cfg *c, uint32_t n, double mu) {
    const double N = (double)(UINT64_C(1) << n);
    return (N - 1) * (c->ts + mu * c->tm) + n * (N / 2) * c->td;
}

static int dex_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__direct_cfg c;
    if (oc__aas_network(in, &c)) return 0;
    uint32_t n;
    oc__aas_pow2(p->spec.nodes, &n);
    const double N = p->spec.nodes, mu = (double)p->spec.chunk_bytes;
    int rc = 0;
    if (c.kind == OC_DIRECT_HYPERCUBE) {
        oc__aas_formula(rep, N - 1, (N - 1) * (c.ts + n * c.td / 2 + mu * c.tm));
        rc |= oc__report_num(rep, "exact_time_s", dex_exact_time(&c, n, mu));
        rc |= oc__report_note(rep, "the notes count n/2 hops in every round; the mates' hops sum "
                                   "to n 2^(n-1), n td/2 more (exact_time_s)");
        rc |= oc__aas_assumptions(rep, &c, 1, 0, -1, 1);
    } else {
        rc |= oc__report_note(rep, "XY routing of the XOR permutations: the notes expect link "
                                   "congestion up to max(z1,z2)/2 and give no closed form");
    }
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_dex = {
    .info = {"dex", OC_ALLTOALL, "hypercube,mesh,torus",
             "direct exchange: N-1 rounds, node x exchanges one packet with x XOR i (wormhole)",
             "N a power of two; wormhole switching",
             "hypercube: t = (2^n - 1)(ts + n td/2 + mu tm), 2^n - 1 steps", ""},
    .param_names = params_,
    .plan = dex_plan,
    .generate = dex_generate,
    .formula = dex_formula,
};
