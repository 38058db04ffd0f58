/*
 * allgather_wrht.c — WRHT extended to all-gather (optree III.D.2, Table I's WRHT row).
 *
 * The WRHT hierarchy of groups of m along the ring (wrht_tree.c), with copies instead of
 * reductions: going up, every member sends its representative all the blocks below it (a
 * contiguous range of nodes, so one range of labels, growing by a factor m per level); at the top
 * the remaining representatives exchange their ranges all-to-all; going down, every representative
 * sends each member the blocks it lacks (at most two ranges: before and after its own). Unlike the
 * all-reduce, the data grows on the way up and every member receives almost N blocks on the way
 * down, which is why the seed finds WRHT weaker for all-gather.
 *   seed (optree III.D.2): 1 + ceil((N-p)/(p-1)) + (theta-1) p^(theta-1) or ... + theta p^(theta-1)
 *   steps, with p the group size and theta the number of levels.
 *
 * Search (wrht_search.c, the search contract): the space is m = 2..N and every level at which the
 * tree can stop with an all-to-all (alltoall = that level's count, or 1 for the pure tree); the
 * default is the least mapped time over all of it. A tree is skipped only by a proven bound on the
 * ring: sum over rounds of ceil(load / channels) steps of the step time, each round's load a lower
 * bound on its busiest link counted in blocks (up: the members' subtrees; down: the N - subtree
 * blocks each member lacks; the all-to-all: each representative's subtree to every other).
 */
#include "algo/algos.h"
#include "algo/wrht_tree.h"

#include <math.h>
#include <stdlib.h>

static const char *const wrht_params[] = {"m", "alltoall", "rep", NULL};

static int generate(const oc__plan *p, oc__emit *e) {
    const oc__wrht_tree *t = p->state;
    const uint32_t N = p->spec.nodes;
    int rc = 0;
    for (uint32_t l = 0; l < t->levels && !rc; l++) { /* up: members send what lies below them */
        for (uint32_t a = 0; a < t->count[l + 1] && !rc; a++) {
            uint32_t size = oc__wrht_group_size(t, l, a), rep = t->reps[l + 1][a];
            for (uint32_t i = 0; i < size && !rc; i++) {
                uint32_t k = a * t->m + i, x = t->reps[l][k];
                if (x != rep)
                    rc = oc__emit_transfer(e, x, rep, OC_OP_COPY, t->lo[l][k],
                                           t->hi[l][k] - t->lo[l][k]);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    const uint32_t top = t->count[t->levels], L = t->levels;
    if (top > 1 && !rc) {
        for (uint32_t i = 0; i < top && !rc; i++)
            for (uint32_t j = 0; j < top && !rc; j++)
                if (i != j)
                    rc = oc__emit_transfer(e, t->reps[L][i], t->reps[L][j], OC_OP_COPY, t->lo[L][i],
                                           t->hi[L][i] - t->lo[L][i]);
        if (!rc) rc = oc__emit_round(e);
    }
    for (uint32_t l = t->levels; l-- > 0 && !rc;) { /* down: what each member lacks */
        for (uint32_t a = 0; a < t->count[l + 1] && !rc; a++) {
            uint32_t size = oc__wrht_group_size(t, l, a), rep = t->reps[l + 1][a];
            for (uint32_t i = 0; i < size && !rc; i++) {
                uint32_t k = a * t->m + i, x = t->reps[l][k];
                if (x == rep) continue;
                if (t->lo[l][k] > 0) rc = oc__emit_transfer(e, rep, x, OC_OP_COPY, 0, t->lo[l][k]);
                if (!rc && t->hi[l][k] < N)
                    rc = oc__emit_transfer(e, rep, x, OC_OP_COPY, t->hi[l][k], N - t->hi[l][k]);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    return oc__wrht_search(in, s, 0, why, len);
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__wrht_tree *t = p->state;
    const double N = p->spec.nodes, P = t->m;
    if (p->spec.nodes < 2) {
        oc__formula_steps(rep, in, 0);
        return 0;
    }
    /* theta: levels of the tree, ceil(log_p N); the seed's two cases differ by the all-to-all. */
    double theta = 0;
    for (double x = 1; x < N; x *= P)
        theta++;
    int a2a = t->count[t->levels] > 1;
    oc__formula_steps(rep, in,
                      1 + ceil((N - P) / (P - 1)) + (a2a ? theta - 1 : theta) * pow(P, theta - 1));
    int rc = oc__report_num(rep, "theta", theta);
    rc |= oc__report_note(rep,
                          "the seed's count 1 + ceil((N-p)/(p-1)) + (theta-1 or theta) p^(theta-1) "
                          "assumes one block per wavelength per step; mapped: %llu steps over "
                          "%llu rounds, load bound %llu",
                          (unsigned long long)rep->steps, (unsigned long long)rep->rounds,
                          (unsigned long long)rep->steps_lb);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_allgather_wrht = {
    .info =
        {"wrht", OC_ALLGATHER, "ring",
         "WRHT's tree used for all-gather: blocks gathered up groups of m, exchanged at the "
         "top, sent back down",
         "", "1 + ceil((N-p)/(p-1)) + (theta-1) p^(theta-1) steps (optree III.D.2)",
         "m=M: group size; alltoall=R: all-to-all once at most R representatives remain; "
         "a transfer carries its blocks side by side or, at the ring's spread=0, on one lightpath; "
         "rep=middle|first|last: the group's representative (middle: the seed's); "
         "unset: chosen by mapped time"},
    .param_names = wrht_params,
    .max_nodes = OC_MAX_NODES,
    .plan = oc__wrht_plan,
    .generate = generate,
    .release = oc__wrht_release,
    .search = search,
    .bounds_hold_unspread = 1, /* wrht_search.c's bounds read the ring's spread */
    .formula = formula,
};
