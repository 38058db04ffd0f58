/*
 * allgather_rd.c — recursive-doubling all-gather in mixed radix (the second half of rhd, lumorph
 * section 4; MPICH's recursive doubling in radix 2). The method, the parameters, the fold onto
 * P < N nodes and the parameter search (its space and its bounds) are in rhd.c: one label per
 * block, ordered so that every core node's part is one range (its own block, then its extras').
 * radices= lists the levels most significant first, like rhd's halving: the doubling runs them
 * from the last. With a = alpha, c = one block's bytes x beta, S = the sum over the levels of
 * (r_p - 1), m = ceil((N-P)/P) and s = m + 1 (the largest part):
 *     steps = S [+ 2m]
 *     time  = S a + (P-1) s c [+ m (a + c) + m (a + N c)]
 * exact for P = N (s = 1: S a + (N-1) b beta on the switch, b = one block); folded, an upper
 * bound (every core part is taken as large as the largest). On the ring (more than one
 * wavelength) the formula is k levels (+2) steps of the seed's per-step time.
 */
#include "algo/rhd.h"

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    return oc__rhd_plan(p, "rd", coll, nodes, root, bytes, params, why, len);
}

static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    return oc__rhd_search(in, s, OC__RHD_DOUBLING, why, len);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const oc__rhd *h = p->state;
    return oc__rhd_generate(h, e, OC__RHD_DOUBLING);
}

const oc__algo oc__algo_allgather_rd = {
    .info = {"rd", OC_ALLGATHER, "ring,fattree,switch,fabric",
             "recursive doubling in mixed radix; any N as a product of radices, or folded onto "
             "r^floor(log_r N) nodes",
             "", "sum (r_p - 1) steps (+2 ceil((N-P)/P) folding onto P < N)",
             "radices=AxB..: factors >= 2 whose product is N, most significant first (the halving "
             "order: the doubling runs it backwards); "
             "radix=r: every level r (N not a power of r: folds); fold=0|1: fold onto "
             "r^floor(log_r N) (MPICH) or not; unset: searched by mapped time"},
    .param_names = oc__rhd_params,
    .max_nodes = OC_MAX_NODES,
    .plan = plan,
    .generate = generate,
    .release = oc__rhd_release,
    .search = search,
    .formula = oc__rhd_one_way_formula,
    .bounds_hold_split = 1, /* rhd_search.c's split rounds */
};
