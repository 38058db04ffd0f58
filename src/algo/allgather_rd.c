/*
 * allgather_rd.c — recursive-doubling all-gather in radix r (the second half of rhd, lumorph
 * section 4; MPICH's recursive doubling in radix 2). The method and the fold for N not a power of
 * r are in rhd.c: one label per block, ordered so that every core node's part is one range (its
 * own block, then its extras'). With a = alpha, c = one block's bytes x beta, k = log_r P,
 * m = ceil((N-P)/P) and s = m + 1 (the largest part):
 *     steps = k (r-1) [+ 2m]
 *     time  = k (r-1) a + (P-1) s c [+ m (a + c) + m (a + N c)]
 * exact for N = r^k (s = 1: k (r-1) a + (N-1) b beta on the switch, b = one block); for other N
 * an upper bound (every core part is taken as large as the largest). On the ring (more than one
 * wavelength) the formula is k (+2) steps of the seed's per-step time.
 */
#include "algo/rhd.h"

static const char *const params_[] = {"radix", NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    return oc__rhd_plan(p, "rd", coll, nodes, root, bytes, params, why, len);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const oc__rhd *h = p->state;
    int rc = oc__rhd_fold(h, e, 1, OC_OP_COPY, 0, 0);
    if (!rc) rc = oc__rhd_doubling(h, e);
    if (!rc) rc = oc__rhd_fold(h, e, 0, OC_OP_COPY, 0, h->N);
    return rc;
}

const oc__algo oc__algo_allgather_rd = {
    .info = {"rd", OC_ALLGATHER, "ring,fattree,switch,fabric",
             "recursive doubling in radix r; other N fold onto r^floor(log_r N) nodes", "",
             "k (r-1) steps, k = log_r N (+2 ceil((N-P)/P) folding N > P = r^k)",
             "radix=2: parts per level (2 = doubling, 4 = quadrupling)"},
    .param_names = params_,
    .plan = plan,
    .generate = generate,
    .release = oc__rhd_release,
    .formula = oc__rhd_one_way_formula,
};
