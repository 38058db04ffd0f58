/*
 * circulant_rotated.c — the schedule of every block on one tree rotated to its node, shared by
 * the circulant all-gather (allgather_circulant.c: the tree forwards, its essay says why and how
 * the tree and the search are chosen) and its dual, the circulant reduce-scatter
 * (reducescatter_circulant.c: the same rounds backwards, every transfer turned round and made a
 * reduction; its essay proves the order and the bound). One plan, one search, one formula: the
 * collective (plan->spec.coll) decides only the direction of time, so the two algorithms take
 * the same parameters, the same trees and the same search bound by construction.
 */
#include "algo/circulant.h"

#include <stdio.h>
#include <stdlib.h>

/* The steps of N rotations at once: every round at least its busiest link over the channels. */
static uint64_t tree_steps(const oc__circ_tree *t, uint64_t channels) {
    uint64_t steps = 0;
    for (uint32_t r = 1; r <= t->depth; r++)
        steps += oc__ceil_div(oc__circ_round_load(t, r), channels ? channels : 1);
    return steps;
}

/* The budgeted mirrored trees (`first`) are built up to this many nodes, O(N^2 budget / 8)
 * each, and searched at depths 2 .. CIRC_BUDGET_DEPTHS + 1 (where a first round is a large part
 * of the few steps). */
enum { CIRC_BUDGET_NODES = 256, CIRC_BUDGET_DEPTHS = 7 };

/* The transfers a search above OC__CIRC_QUADRATIC_NODES maps at most, in whole candidates. */
#define CIRC_LARGE_MAP (UINT64_C(1) << 24)

/* The first round's budgets worth trying: up to the whole first round of the widest left part,
 * h (h + 1) / 2 arc units a direction (h = floor((N - 1) / 2)); more is no constraint. */
static uint64_t budget_cap(uint32_t N) {
    const uint64_t h = N ? (N - 1) / 2 : 0;
    return h * (h + 1) / 2;
}

/* The tree of a depth and variant (0: the quadratic programme's shortest, 1: the slope merges',
 * 2: the mirrored programme's, circulant.h), with first > 0 (variant 2 only) the mirrored tree
 * whose first round takes at most `first` arc units a direction. */
static int build_tree(uint32_t N, uint32_t depth, uint32_t variant, uint64_t first,
                      oc__circ_tree *t) {
    oc__circ_dp dp;
    int rc = oc__circ_dp_build_mirror(&dp, N, depth - 1, variant == 1, variant == 2);
    if (rc) return rc;
    rc = variant != 2 ? oc__circ_tree_of(&dp, depth, t)
         : first      ? oc__circ_tree_mirror_budget(&dp, depth, first, t)
                      : oc__circ_tree_mirror_of(&dp, depth, t);
    oc__circ_dp_free(&dp);
    return rc;
}

int oc__circ_rot_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen) {
    int rc = oc__kv_only(params, oc__circ_rot_params, "circulant", why, whylen);
    if (rc) return rc;
    if (nodes > OC__CIRC_MAX_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circulant: at most %u nodes (N (N - 1) one-block transfers)",
                        (unsigned)OC__CIRC_MAX_NODES);
    const uint32_t cap = oc__circ_depth_cap(nodes);
    /* without a network to search on: the depth whose tree the ring's link slots could carry
     * at one wavelength pair a node, about log3 N */
    const uint64_t dflt = oc__circ_default_depth(nodes, cap);
    uint64_t depth = dflt;
    if ((rc = oc__kv_u64(params, "depth", dflt, 1, cap, &depth, why, whylen))) return rc;
    /* the quadratic programme's tree up to OC__CIRC_QUADRATIC_NODES, the slope merges' above */
    uint64_t variant = 0;
    if ((rc = oc__kv_u64(params, "variant", nodes > OC__CIRC_QUADRATIC_NODES, 0, 2, &variant, why,
                         whylen)))
        return rc;
    if (variant != 1 && nodes > OC__CIRC_QUADRATIC_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circulant: variant=%llu (a quadratic programme's tree) takes at most %u "
                        "nodes",
                        (unsigned long long)variant, (unsigned)OC__CIRC_QUADRATIC_NODES);
    uint64_t first = 0;
    if (oc_kv_get(params, "first")) {
        if (variant != 2 || depth < 2 || nodes > CIRC_BUDGET_NODES)
            return oc__fail(why, whylen, OC_EINVAL,
                            "circulant: first (the first round's budget) takes variant=2, "
                            "depth >= 2 and at most %u nodes",
                            (unsigned)CIRC_BUDGET_NODES);
        if ((rc = oc__kv_u64(params, "first", 0, 1, budget_cap(nodes), &first, why, whylen)))
            return rc;
    }
    if ((rc = oc__plan_work("circulant", nodes, (uint64_t)nodes * (nodes ? nodes - 1 : 0), why,
                            whylen)))
        return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, whylen))) return rc;
    /* the work (core.h): every block on a spanning tree, one chunk an arc */
    plan->spec.units = plan->spec.transfers = (uint64_t)nodes * (nodes ? nodes - 1 : 0);
    oc__circ_tree *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    plan->state = t;
    if (nodes >= 2) {
        if ((rc = build_tree(nodes, (uint32_t)depth, (uint32_t)variant, first, t)))
            return oc__fail(why, whylen, rc, "out of memory");
        uint64_t most = 0;
        for (uint32_t r = 1; r <= depth; r++)
            if (t->count[r] > most) most = t->count[r];
        plan->rounds = depth;
        plan->spec.max_round = most * nodes;
    }
    plan->spec.window_skips = 1; /* a round's transfers in label order (emit_round) */
    char v[16], var[16], fb[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)depth);
    snprintf(var, sizeof var, "%llu", (unsigned long long)variant);
    snprintf(fb, sizeof fb, "%llu", (unsigned long long)first);
    return oc_kv_set(plan->used, "depth", v) || oc_kv_set(plan->used, "variant", var) ||
                   (first && oc_kv_set(plan->used, "first", fb))
               ? oc__fail(why, whylen, OC_ENOMEM, "out of memory")
               : 0;
}

/* Node x of block 0's tree in block j's tree: x + j around the ring (x, j < N). */
static uint32_t rotate(uint32_t x, uint32_t j, uint32_t N) {
    const uint32_t y = x + j;
    return y >= N ? y - N : y;
}

/* Round r: for every block j in label order, its arcs parent(p) -> p of depth r, rotated by j;
 * with `reduce` each turned round, p -> parent(p), as a reduction (the reduce-scatter's round). */
static int emit_round(const oc__circ_tree *t, oc__emit *e, uint32_t r, int reduce) {
    const uint32_t N = t->N, k = t->count[r];
    if (!k) return 0;
    const uint32_t lo = e->windowed ? (e->win_lo < N ? e->win_lo : N) : 0;
    const uint32_t hi = e->windowed ? (e->win_hi < N ? e->win_hi : N) : N;
    oc__emit_skip(e, (uint64_t)lo * k);
    if (hi > lo) {
        /* The round's arcs found once (a scan of the tree per block would cost N^2 a round), in
         * ascending p as before, so the transfers come out in the same order. */
        uint32_t *child = malloc((size_t)k * sizeof *child);
        if (!child) return OC_ENOMEM;
        uint32_t found = 0;
        for (uint32_t p = 1; p < N && found < k; p++)
            if (t->label[p] == r) child[found++] = p;
        oc__transfer *out;
        int rc = oc__emit_many(e, (uint64_t)(hi - lo) * k, &out);
        if (rc) {
            free(child);
            return rc;
        }
        for (uint32_t j = lo; j < hi; j++)
            for (uint32_t i = 0; i < found; i++) {
                const uint32_t p = child[i], to = rotate(p, j, N), from = rotate(t->parent[p], j, N);
                *out++ = reduce ? (oc__transfer){to, from, j, 1, (uint32_t)OC_OP_REDUCE}
                                : (oc__transfer){from, to, j, 1, (uint32_t)OC_OP_COPY};
            }
        free(child);
    }
    oc__emit_skip(e, (uint64_t)(N - hi) * k);
    return 0;
}

/* The all-gather's rounds 1..depth; the reduce-scatter's the same rounds backwards, depth..1: a
 * node sends its partial sum of block j to its parent once every child of it in j's tree (a
 * deeper label, an earlier round here) has added theirs (reducescatter_circulant.c). */
int oc__circ_rot_generate(const oc__plan *plan, oc__emit *e) {
    const oc__circ_tree *t = plan->state;
    const int reduce = plan->spec.coll == OC_REDUCESCATTER;
    int rc = 0;
    if (t->N < 2) return 0;
    for (uint32_t i = 1; i <= t->depth && !rc; i++) {
        const uint32_t r = reduce ? t->depth + 1 - i : i;
        if (!(rc = emit_round(t, e, r, reduce))) rc = oc__emit_round(e);
    }
    return rc;
}

void oc__circ_rot_release(oc__plan *plan) {
    oc__circ_tree *t = plan->state;
    if (t) oc__circ_tree_free(t);
    free(t);
    plan->state = NULL;
}

typedef struct circ_cand {
    uint64_t steps;
    uint32_t depth, variant;
    uint64_t first; /* variant 2's first-round budget, 0: none */
} circ_cand;

static int by_steps(const void *a, const void *b) {
    const circ_cand *x = a, *y = b;
    if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
    if (x->depth != y->depth) return x->depth < y->depth ? -1 : 1;
    if (x->variant != y->variant) return x->variant < y->variant ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Every depth 1..min(floor(N/2), 48) and each variant of its tree (circulant.c: the quadratic
 * programme's, the slope merges', the mirrored one; at N <= 256 and depths 2..8 the mirrored one
 * with its first round budgeted to F w and 2 F w too), each bounded by its tree's rounds' loads
 * (tree_steps), in order of that bound (ties: the shallower, then the lower variant, then the
 * smaller budget). */
int oc__circ_rot_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    const uint32_t N = in->nodes;
    const int pin_d = oc_kv_get(in->params, "depth") != NULL,
              pin_v = oc_kv_get(in->params, "variant") != NULL,
              pin_f = oc_kv_get(in->params, "first") != NULL;
    if ((pin_d && pin_v) || pin_f || N < 3 || N > OC__CIRC_MAX_NODES) return 0;
    const int large = N > OC__CIRC_QUADRATIC_NODES;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, whylen);
    if (rc) return rc;
    const uint32_t cap = oc__circ_depth_cap(N);
    uint64_t d_lo = 1, d_hi = cap, v_lo = (uint64_t)large, v_hi = large ? 1 : 2;
    if (pin_d && (rc = oc__kv_u64(in->params, "depth", 1, 1, cap, &d_lo, why, whylen))) return rc;
    if (pin_v && (rc = oc__kv_u64(in->params, "variant", 0, 0, 2, &v_lo, why, whylen))) return rc;
    if (pin_v && v_lo != 1 && large) return 0; /* the plan refuses it with its own line */
    if (pin_d) d_hi = d_lo;
    if (pin_v) v_hi = v_lo;
    circ_cand c[3 * OC__CIRC_MAX_DEPTH + 2 * CIRC_BUDGET_DEPTHS];
    uint32_t n = 0;
    /* one programme for variants 0 and 2 (the quadratic one with its mirrored part), one for 1 */
    for (int slopes = 0; slopes <= 1 && !rc; slopes++) {
        const int v0 = !slopes && v_lo == 0, v1 = slopes && v_lo <= 1 && v_hi >= 1,
                  v2 = !slopes && v_hi == 2;
        if (!v0 && !v1 && !v2) continue;
        oc__circ_dp dp;
        if ((rc = oc__circ_dp_build_mirror(&dp, N, (uint32_t)d_hi - 1, slopes, v2)))
            return oc__fail(why, whylen, rc, "out of memory");
        for (uint64_t d = d_lo; d <= d_hi && !rc; d++)
            for (uint32_t v = 0; v <= 2 && !rc; v++) {
                if (!(v == 0 ? v0 : v == 1 ? v1 : v2)) continue;
                oc__circ_tree t;
                rc = v == 2 ? oc__circ_tree_mirror_of(&dp, (uint32_t)d, &t)
                            : oc__circ_tree_of(&dp, (uint32_t)d, &t);
                if (rc) break;
                c[n++] = (circ_cand){tree_steps(&t, f.channels), (uint32_t)d, v, 0};
                oc__circ_tree_free(&t);
                /* the mirrored tree with its first round in one or two steps' worth */
                for (uint64_t m = 1; v == 2 && m <= 2 && !rc && N <= CIRC_BUDGET_NODES && d >= 2 &&
                                     d <= CIRC_BUDGET_DEPTHS + 1;
                     m++) {
                    const uint64_t budget = m * (f.channels ? f.channels : 1);
                    if (budget > budget_cap(N)) break;
                    if ((rc = oc__circ_tree_mirror_budget(&dp, (uint32_t)d, budget, &t))) break;
                    c[n++] = (circ_cand){tree_steps(&t, f.channels), (uint32_t)d, v, budget};
                    oc__circ_tree_free(&t);
                }
            }
        oc__circ_dp_free(&dp);
    }
    if (rc) return oc__fail(why, whylen, rc, "out of memory");
    const uint32_t cap2 = n;
    qsort(c, n, sizeof *c, by_steps);
    static const char *const name = "each round's busiest directed link: ceil(load / (F w)) steps";
    /* Above OC__CIRC_QUADRATIC_NODES a candidate maps N (N - 1) transfers (about 2 s CPU at
     * N = 4096): only the trees of least load bound are mapped, as many as CIRC_LARGE_MAP
     * transfers allow (one at 4096 nodes, four at 2048), the rest recorded as not mapped, under
     * their least bound (the essay: not a proof that they lose). */
    const uint64_t each = (uint64_t)N * (N - 1), keep = each ? CIRC_LARGE_MAP / each : 1;
    for (uint32_t i = 0; i < cap2 && !rc; i++) {
        if (large && i == (keep > 1 ? keep : 1)) {
            const oc__bound rest = {.time_s = (double)c[i].steps * f.step_time,
                                    .steps = c[i].steps,
                                    .name = name,
                                    .transfers = (uint64_t)N * (N - 1)};
            return oc__search_prune(s,
                                    "trees of a larger or equal load bound, not mapped: above "
                                    "1024 nodes only the least-bound trees are (N (N - 1) "
                                    "transfers a candidate, 2^24 in all)",
                                    &rest, cap2 - i);
        }
        oc__bound b = {.time_s = (double)c[i].steps * f.step_time,
                       .steps = c[i].steps,
                       .name = name,
                       .transfers = (uint64_t)N * (N - 1)};
        const int yes = oc__search_can_win(s, &b);
        if (yes < 0) return yes;
        if (!yes) return oc__search_prune(s, "trees whose bound cannot win", &b, cap2 - i);
        char v[16];
        snprintf(v, sizeof v, "%u", c[i].depth);
        static const char *const variants[] = {"0", "1", "2"};
        char fb[24];
        snprintf(fb, sizeof fb, "%llu", (unsigned long long)c[i].first);
        const char *kv[] = {"depth", v, "variant", variants[c[i].variant], "first", fb};
        rc = oc__search_offer(s, &b, c[i].first ? 3 : 2, kv);
    }
    return rc;
}

int oc__circ_rot_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__circ_tree *t = plan->state;
    const uint64_t steps = t->N < 2 ? 0 : tree_steps(t, in->channels);
    oc__formula_steps(rep, in, (double)steps);
    if (rep->steps == steps || t->N < 2) return 0;
    return oc__report_note(rep,
                           "the tree's rounds bound it at %llu steps (each round's busiest link "
                           "over %llu channels); the colouring of its arcs took %llu",
                           (unsigned long long)steps,
                           (unsigned long long)(in->channels ? in->channels : 1),
                           (unsigned long long)rep->steps);
}

const char *const oc__circ_rot_params[] = {"depth", "variant", "first", NULL};
