/*
 * alltoall_sex.c — the standard exchange (SEX) all-to-all on the combining store-and-forward
 * hypercube Q_n (all-to-all-scatter notes, "Combining model with SF switching: Hypercube").
 *
 * n rounds, each a perfect matching along one dimension: every node sends its partner, in one
 * combined message, all the packets it holds that are destined for the partner's half, and keeps
 * what it receives. In the notes the dimensions go from the top (round i splits off the subcube
 * of dimension n-i); we go from bit 0 up, which is the same algorithm with the dimensions renamed
 * and keeps each destination's sources one contiguous label range: before the round of bit k, node
 * x holds the packets (d, s) with d's bits below k equal to x's and s's bits from k up equal to
 * x's, i.e. sources [x with bits below k cleared, + 2^k). Every message carries 2^(n-1) = N/2
 * packets (the notes' "2n-1" in this section is 2^(n-1): it equals N/2 there), so with mu bytes a
 * packet
 *     t = n (ts + mu tm 2^(n-1)),   n steps,
 * exact on the model with full-duplex links (a node sends and receives its block at once).
 * N must be a power of two.
 */
#include "aas/aas.h"

static const char *const params_[] = {NULL};

static int sex_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                    const oc_kv *params, char *why, size_t len) {
    uint32_t n;
    if (!oc__aas_pow2(nodes, &n))
        return oc__fail(why, len, OC_ENOTSUP,
                        "sex runs on a hypercube: N must be a power of two, not %u", nodes);
    int rc = oc__aas_plan(p, "sex", coll, nodes, root, bytes, params, params_,
                          (uint64_t)nodes * nodes, why, len);
    /* the work (core.h): n exchanges of N/2 packets a node, each a range a packet's source */
    if (!rc) p->spec.units = (uint64_t)n * nodes * nodes / 2;
    if (!rc) p->spec.transfers = (uint64_t)nodes * (nodes - 1);
    return rc;
}

static int sex_generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes;
    uint32_t n;
    oc__aas_pow2(N, &n);
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t low = (UINT32_C(1) << k) - 1, bit = UINT32_C(1) << k;
        for (uint32_t x = 0; x < N; x++) {
            const uint32_t y = x ^ bit;
            /* destinations: d's bits below k are x's, bit k is y's, bits above k any */
            for (uint32_t hi = 0; hi < N >> (k + 1); hi++) {
                const uint32_t d = (hi << (k + 1)) | (y & bit) | (x & low);
                int rc = oc__aas_send(e, x, y, d, x & ~low, bit);
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int sex_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__direct_cfg c;
    if (oc__aas_network(in, &c)) return 0;
    uint32_t n;
    oc__aas_pow2(p->spec.nodes, &n);
    const double mu = (double)p->spec.chunk_bytes;
    oc__aas_formula(rep, n, n * (c.ts + mu * c.tm * (double)(p->spec.nodes / 2)));
    return oc__aas_assumptions(rep, &c, 0, 1, -1, 1);
}

const oc__algo oc__algo_alltoall_sex = {
    .info = {"sex", OC_ALLTOALL, "hypercube",
             "standard exchange: n perfect matchings, one combined block of N/2 packets each",
             "N a power of two", "t = n (ts + mu tm 2^(n-1)), n steps (combining SF hypercube)",
             ""},
    .param_names = params_,
    .plan = sex_plan,
    .generate = sex_generate,
    .formula = sex_formula,
};
