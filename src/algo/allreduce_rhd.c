/*
 * allreduce_rhd.c — recursive halving then recursive doubling in mixed radix (lumorph section 4:
 * radix=2 is Lumorph-2, radix=4 Lumorph-4; MPICH's Rabenseifner all-reduce in radix 2). The
 * method, the parameters (radices=, radix=, fold=), the fold onto P < N nodes, the parameter
 * search (its space and its proven bounds) and the costs are in rhd.c. The vector is cut into P
 * chunks (P = N unless folded). With a = alpha, c = one chunk's bytes x beta, k levels of radices
 * r_p, S = sum_p (r_p - 1) and m = ceil((N-P)/P):
 *     steps = 2 S [+ 2m]
 *     time  = 2 S a + 2 (P-1) c [+ 2 m (a + P c)]
 * which on the switch for N = 2^k, radix 2 is 2 log2(N) alpha + 2 (N-1)/N n beta. The schedule is
 * generic and also runs on the optical ring and the fat-tree (like rd); there a and c are the
 * model's fixed and per-chunk parts of one step, and the time formula is only the alpha-beta
 * estimate: those models split and cost rounds by their own resources. On the ring (more than one
 * wavelength) a node's r-1 transfers of a level travel in parallel, so the formula there is
 * 2k (+2) steps of the seed's per-step time.
 * Unpinned, the search of rhd.c picks the radices by the model's time: at N = 128 and 64 MiB on
 * the fabric radix=4 folds onto 64 nodes and doubles the bandwidth term (949 us), radix 2 takes
 * 502 us, and the search finds radices=2x2x2x16 (479 us: the wide level where w_p = 1).
 *
 * On the photonic fabric (lumorph section 4) a level's r-1 transfers are r-1 concurrent circuits
 * that split the tile's W wavelengths in whole wavelengths, floor(W / (r-1)) each (radix 4 on 16
 * wavelengths: 3 x 5 = 15 used), so a level is one round, one alpha, and its w_p chunks go
 * W / floor(W / (r-1)) times slower than on the whole tile. The fabric reconfigures its MZIs
 * whenever a round's circuits differ from the previous round's: every round except the first
 * doubling level, which reuses the last halving level's circuits (the same r-1 peers). With
 * c = one chunk at the tile's full 300 GB/s, s(d) = W / floor(W / d), and m as above:
 *     rounds    = 2k [+ 2]                       (alpha each)
 *     reconfigs = rounds - 1   (k >= 1)          (3.7 us each)
 *     bandwidth = 2 sum_p w_p s(r_p - 1) c [+ 2 P s(m) c]
 * (one radix r: sum_p w_p s(r-1) = (P-1)/(r-1) s(r-1))
 * which is the fabric model's time exactly, for every N (the fold rounds are one round each, the
 * core node with m extras being the slowest). The seed's own accounting ("the alpha value is
 * 0.7 + 3.7 us" for every round) charges one reconfiguration more than the fabric needs.
 */
#include "algo/rhd.h"

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    return oc__rhd_plan(p, "rhd", coll, nodes, root, bytes, params, why, len);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const oc__rhd *h = p->state;
    return oc__rhd_generate(h, e, OC__RHD_BOTH);
}

static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    return oc__rhd_search(in, s, OC__RHD_BOTH, why, len);
}

/* The closed form on the photonic fabric (above); nothing when the tile has too few wavelengths
 * for the circuits (the model refuses such a run). */
static int fabric_formula(const oc__rhd *h, const oc__formula_in *in, oc_report *rep) {
    const double c = in->step_time - in->step_fixed;
    const int fold = h->N > h->P;
    const double lv = oc__rhd_fabric_chunks(h, in), fm = fold ? oc__formula_split(in, h->m) : 1;
    if ((h->k && lv == 0) || fm == 0) return 0;
    const double rounds = 2.0 * h->k + (fold ? 2 : 0);
    const double reconfigs = rounds - (h->k ? 1 : 0);
    const double bw = 2.0 * lv * c + (fold ? 2.0 * h->P * fm * c : 0);
    return oc__formula_circuits(rep, in, rounds, reconfigs, bw);
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__rhd *h = p->state;
    const double a = in->step_fixed, c = in->step_time - in->step_fixed;
    if (in->lanes) return fabric_formula(h, in, rep);
    if (in->wavelengths > 1) { /* the optical ring: a node's r-1 transfers go in parallel */
        oc__formula_steps(rep, in, 2.0 * h->k + (h->N > h->P ? 2 : 0));
        char detail[1024];
        const uint64_t proven = oc__rhd_ring_detail(h, in, OC__RHD_BOTH, detail, sizeof detail);
        return oc__note_rounds_on_ring(rep, in, detail, proven);
    }
    const double lv = 2.0 * (double)oc__rhd_sends(h), fold = h->N > h->P ? 2.0 * h->m : 0;
    rep->has_formula = 1;
    rep->steps_formula = lv + fold;
    rep->has_time_formula = 1;
    rep->time_formula_s = lv * a + 2.0 * (h->P - 1) * c + fold * (a + h->P * c);
    return 0;
}

const oc__algo oc__algo_allreduce_rhd = {
    .info = {"rhd", OC_ALLREDUCE, "ring,fattree,switch,fabric",
             "recursive halving then doubling in mixed radix (radix=2: Lumorph-2, 4: Lumorph-4); "
             "any N as a product of radices, or folded onto r^floor(log_r N) nodes",
             "", "2 sum (r_p - 1) steps (+2 ceil((N-P)/P) folding onto P < N)",
             "radices=AxB..: factors >= 2 whose product is N, the halving order (4x4x4x2); "
             "radix=r: every level r (N not a power of r: folds); fold=0|1: fold onto "
             "r^floor(log_r N) (MPICH) or not; unset: searched by mapped time"},
    .param_names = oc__rhd_params,
    .plan = plan,
    .generate = generate,
    .release = oc__rhd_release,
    .search = search,
    .formula = formula,
    .bounds_hold_split = 1, /* rhd_search.c's split rounds */
};
