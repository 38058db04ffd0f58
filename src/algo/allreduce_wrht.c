/*
 * allreduce_wrht.c — WRHT, Wavelength Reused Hierarchical Tree all-reduce (wrht III.C-E).
 *
 * Reduce stage: the nodes are cut along the ring into groups of m; the middle node of each group
 * collects the whole vector of the others (reducing as it receives: the data stays size d). The
 * representatives are grouped again, level after level, until at most `alltoall` remain; those
 * exchange their partial sums all-to-all (each adds all the others', so all hold the total).
 * Broadcast stage: the reverse, each representative copying the result to its group.
 *   steps = 2 ceil(log_m N), or 2 ceil(log_m N) - 1 with the final all-to-all (section III.D);
 *   Lemma 1: at least 2 ceil(log_(2w+1) N), the largest group w wavelengths serve being m = 2w+1.
 * The seed's rule holds when a group fits in one step (ceil(m/2) <= w wavelengths per side) and the
 * last all-to-all among m* representatives fits (ceil(m*^2/8) <= w); we map every round instead,
 * and choose m and the all-to-all level by mapped time.
 *
 * Striping (ours, not the seed's): with pieces=P the vector is cut into P chunks and every transfer
 * carries all P on P wavelengths at once (the ring model gives a transfer of P chunks P
 * wavelength-slots). The seed's WRHT is pieces=1: every step moves the whole vector d on one
 * wavelength, so its bandwidth term is (number of steps) x d/B, against 2(N-1)/N x d/B for the
 * ring; a group of m leaves the busiest link w / floor(m/2) wavelengths per member to spare, and
 * striping over them divides that term by P.
 *
 * Search (wrht_search.c, the search contract): the space is m = 2..N, every level at which the tree
 * can stop with an all-to-all (alltoall = that level's count, or 1 for the pure tree) and
 * pieces = 1..65536; the default is the least mapped time over all of it. Candidates are skipped
 * only by a proven bound on the ring: sum over rounds of ceil(pieces x load / channels) steps of
 * the step time at that chunking, with each round's load a lower bound on its busiest link (the
 * first group's representative's links; the all-to-all's busiest stretch and its average over
 * the ring), and whole ranges of pieces and of m >= M bounded at once.
 */
#include "algo/algos.h"
#include "algo/wrht_tree.h"

#include <math.h>
#include <stdlib.h>

static const char *const wrht_params[] = {"m", "alltoall", "pieces", "rep", NULL};

static int generate(const oc__plan *p, oc__emit *e) {
    const oc__wrht_tree *t = p->state;
    int rc = 0;
    for (uint32_t l = 0; l < t->levels && !rc; l++) {
        for (uint32_t a = 0; a < t->count[l + 1] && !rc; a++) {
            uint32_t size = oc__wrht_group_size(t, l, a), rep = t->reps[l + 1][a];
            for (uint32_t i = 0; i < size && !rc; i++) {
                uint32_t x = t->reps[l][a * t->m + i];
                if (x != rep) rc = oc__emit_transfer(e, x, rep, OC_OP_REDUCE, 0, p->spec.chunks);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    const uint32_t top = t->count[t->levels];
    if (top > 1 && !rc) { /* the last step of the reduce stage: all-to-all among the top */
        const uint32_t *R = t->reps[t->levels];
        for (uint32_t i = 0; i < top && !rc; i++)
            for (uint32_t j = 0; j < top && !rc; j++)
                if (i != j) rc = oc__emit_transfer(e, R[i], R[j], OC_OP_REDUCE, 0, p->spec.chunks);
        if (!rc) rc = oc__emit_round(e);
    }
    for (uint32_t l = t->levels; l-- > 0 && !rc;) {
        for (uint32_t a = 0; a < t->count[l + 1] && !rc; a++) {
            uint32_t size = oc__wrht_group_size(t, l, a), rep = t->reps[l + 1][a];
            for (uint32_t i = 0; i < size && !rc; i++) {
                uint32_t x = t->reps[l][a * t->m + i];
                if (x != rep) rc = oc__emit_transfer(e, rep, x, OC_OP_COPY, 0, p->spec.chunks);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

/* The transfers, counted from the pins before the tree is built (generate above): a level's groups
 * send every member but their representative, count[l] - count[l+1] transfers, so the reduce
 * stage sends N - top and the broadcast stage as many back, and the all-to-all among the top
 * representatives is top (top - 1). The counts follow from m and alltoall alone (count[l+1] =
 * ceil(count[l] / m), stopping at 1 or at most alltoall), and with alltoall = 1 (the plan's
 * default) top is 1 whatever m is: 2(N - 1). Only alltoall > 1 with m unpinned is not counted
 * here, and the tree's plan refuses it (the search pins m). */
static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    uint64_t m, a2a, pieces;
    int rep;
    int rc = oc__wrht_pins(nodes, params, 1, &m, &a2a, &pieces, &rep, why, len);
    if (rc) return rc;
    if (!a2a) a2a = 1;
    if (m || a2a == 1) {
        const uint64_t step = m ? m : 2; /* alltoall = 1 stops at 1 for any m >= 2 */
        uint64_t top = nodes;
        while (top > 1 && top > a2a)
            top = (top + step - 1) / step;
        const uint64_t work = 2 * (nodes - top) + top * (top - 1);
        if ((rc = oc__plan_work("wrht", nodes, work, why, len))) return rc;
    }
    return oc__wrht_plan_striped(p, coll, nodes, root, bytes, params, why, len);
}

static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    return oc__wrht_search(in, s, 1, why, len);
}

/* The seed's rule at group size m (III.C-D): L = ceil(log_m N) levels; the last reduce step is an
 * all-to-all among m* = ceil(N / m^(L-1)) representatives when it fits, ceil(m*^2/8) <= w, giving
 * 2L - 1 steps, and 2L otherwise. *mstar and *a2a receive m* and whether it fits. */
static double seed_steps(double N, double m, double w, double *mstar, int *a2a) {
    uint32_t L = 0;
    double below = 1; /* m^(L-1) when the loop ends */
    for (double x = 1; x < N; x *= m) {
        below = x;
        L++;
    }
    *mstar = L ? ceil(N / below) : 1;
    *a2a = *mstar > 1 && ceil(*mstar * *mstar / 8) <= w;
    return 2.0 * L - (*a2a ? 1 : 0);
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__wrht_tree *t = p->state;
    const double N = p->spec.nodes, m = t->m, w = (double)in->channels;
    int rc = 0;
    if (p->spec.nodes < 2) {
        oc__formula_steps(rep, in, 0);
        return 0;
    }
    double mstar;
    int seed_a2a;
    oc__formula_steps(rep, in, seed_steps(N, m, w, &mstar, &seed_a2a));
    uint32_t Lw = 0;
    for (double x = 1; x < N; x *= 2 * w + 1)
        Lw++;
    const uint32_t top = t->count[t->levels];
    rc |= oc__report_num(rep, "m_seed_bound", 2 * w + 1);
    rc |= oc__report_num(rep, "steps_lemma1", 2.0 * Lw);
    rc |= oc__report_num(rep, "mstar_seed", mstar);
    rc |= oc__report_num(rep, "levels", (double)t->levels);
    rc |= oc__report_num(rep, "alltoall_representatives", top > 1 ? (double)top : 0);
    if (t->pieces > 1)
        rc |= oc__report_note(rep,
                              "striped (ours, not the seed's): the vector is cut into %u pieces "
                              "carried side by side on spare wavelengths, so a step moves 1/%u of "
                              "it; the seed's WRHT (pieces=1) moves the whole vector every step",
                              t->pieces, t->pieces);
    if ((double)rep->steps != rep->steps_formula) {
        int seed_shape = seed_a2a ? (top == (uint32_t)mstar) : (top <= 1);
        if (!seed_shape)
            rc |= oc__report_note(rep,
                                  "the seed's rule ends with %s; this schedule ends with %s "
                                  "(alltoall=%u, chosen by mapped time)",
                                  seed_a2a ? "an all-to-all among m* representatives"
                                           : "a single representative",
                                  top > 1 ? "an all-to-all" : "a single representative", top);
        if (ceil(m / 2.0) > w)
            rc |= oc__report_note(rep,
                                  "the seed assumes a group of m = %.0f is collected in one step "
                                  "(ceil(m/2) <= w = %.0f); here it is not",
                                  m, w);
        if (top > 1 && ceil((double)top * top / 8) > w)
            rc |= oc__report_note(rep,
                                  "the all-to-all among %u representatives needs ceil(r^2/8) = "
                                  "%.0f wavelengths, more than w = %.0f",
                                  top, ceil((double)top * top / 8), w);
        rc |= oc__report_note(rep, "mapped: %llu steps over %llu rounds, load bound %llu",
                              (unsigned long long)rep->steps, (unsigned long long)rep->rounds,
                              (unsigned long long)rep->steps_lb);
    }
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_allreduce_wrht = {
    .info = {"wrht", OC_ALLREDUCE, "ring",
             "WRHT: groups of m collect at their middle node, level by level, all-to-all at the "
             "top, then broadcast back",
             "", "2 ceil(log_m N) or 2 ceil(log_m N) - 1 steps; m <= 2w+1 (Lemma 1)",
             "m=M: group size; alltoall=R: finish with an all-to-all once at most R "
             "representatives remain (1: never); pieces=P: stripe the vector over P wavelengths "
             "(1: the seed's WRHT; at the ring's spread=0 the P pieces ride one lightpath, no "
             "gain); rep=middle|first|last: the group's representative (middle: the seed's); "
             "unset: chosen by mapped time"},
    .param_names = wrht_params,
    .plan = plan,
    .generate = generate,
    .release = oc__wrht_release,
    .search = search,
    .bounds_hold_unspread = 1, /* wrht_search.c's bounds read the ring's spread */
    .formula = formula,
};
