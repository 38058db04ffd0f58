/*
 * gather_ktree.c — the gather on one fixed d-ary in-tree of the passive optical star: tuned once,
 * every block a level a round (issue 26, item 2; ours; the tree in star_fixed.c).
 *
 * Why. TCP1's gather (gather_tcp1.c, passive-optical-star 3.1 run backwards) meets new partners
 * every step, so it pays D a step: h D + ... At D = 100, one message a block, P = 100, k = 3 it
 * is 3.29 times the star's bound of D + ceil((P - 1) m / k') (the root takes in P - 1 blocks on
 * k' = min(k, P - 1) filters a step; src/bounds/bounds_star.c).
 *
 * The schedule. The complete d-ary tree rooted at the root, its last level dealt round-robin
 * over the root's subtrees (star_fixed.c). In round t = 1 .. S every processor at depth >= 1
 * sends its parent the blocks it received in round t - 1 (its own in round 1): block y climbs a
 * level a round and reaches the root in round depth(y). A processor sends to its parent only,
 * always on its first laser, and a parent hears at most d children, so every filter is tuned in
 * round 1 (where every processor but the root sends) and never again.
 *   rounds = S, the least with 1 + d + ... + d^S >= P;
 *   the root's child c sends in round t the blocks of its subtree at depth t; a processor deeper
 *   down sends in round t at most d^(t-1) blocks, no more than the root's children (whose levels
 *   are full below S, and dealt evenly at S), so round t costs the root's busiest child:
 *   time = D + ceil((P - 1) / d) m L tau exactly (one tuning; m = a block's messages), the
 *   bound's at d = k' to the rounding of (P - 1) m / k'.
 *
 * The search (algos.h's contract). Space: degree d = 1 .. min(k, P - 1); pin degree= (1..64;
 * above k the model splits the root's rounds and retunes). Proven bound of a candidate: S rounds
 * (steps), and the root takes in P - 1 blocks on its d children's streams, at most d a step, the
 * first step tuning: time >= D + max(S, ceil((P - 1) / d)) block times.
 */
#include "algo/star_fixed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ktree_state {
    uint32_t *parent, *depth, height, d;
} ktree_state;

static const char *const names[] = {"degree", NULL};

static void gk_release(oc__plan *plan) {
    ktree_state *st = plan->state;
    if (st) {
        free(st->parent);
        free(st->depth);
    }
    free(st);
    plan->state = NULL;
}

static int gk_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    uint64_t d;
    int rc = oc__kv_only(params, names, "ktree", why, len);
    if (rc || (rc = oc__kv_u64(params, "degree", 3, 1, 64, &d, why, len))) return rc;
    /* every block climbs its depth in levels: at most (P - 1) S transfers */
    const uint64_t S = oc__sf_tree_height(nodes, d);
    if ((rc = oc__plan_work("ktree", nodes, (uint64_t)(nodes - 1) * S, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len))) return rc;
    ktree_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = st;
    st->d = (uint32_t)d;
    if ((rc = oc__sf_tree(nodes, st->d, &st->parent, &st->depth, &st->height, why, len))) return rc;
    /* the work (core.h): block y climbs depth(y) levels, one transfer of q = 1 chunk each */
    uint64_t climbs = 0;
    for (uint32_t x = 1; x < nodes; x++)
        climbs += st->depth[x];
    plan->rounds = st->height;
    plan->spec.max_round = nodes;
    plan->spec.units = plan->spec.transfers = climbs;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)d);
    return oc_kv_set(plan->used, "degree", buf) ? oc__fail(why, len, OC_ENOMEM, "out of memory")
                                                : 0;
}

static int gk_generate(const oc__plan *plan, oc__emit *e) {
    const ktree_state *st = plan->state;
    const uint32_t P = plan->spec.nodes, root = plan->spec.root, q = plan->spec.q;
    /* holder[y]: the position holding y's block at the start of the round */
    uint32_t *holder = malloc((size_t)P * sizeof *holder);
    if (!holder) return OC_ENOMEM;
    for (uint32_t y = 0; y < P; y++)
        holder[y] = y;
    int rc = 0;
    for (uint32_t t = 1; t <= st->height && !rc; t++) {
        for (uint32_t y = 1; y < P && !rc; y++) {
            if (st->depth[y] < t) continue;
            const uint32_t from = holder[y], to = st->parent[from];
            rc = oc__emit_transfer(e, (root + from) % P, (root + to) % P, OC_OP_COPY,
                                   (root + y) % P * q, q);
            holder[y] = to;
        }
        if (!rc) rc = oc__emit_round(e);
    }
    free(holder);
    return rc;
}

static int gk_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "degree") || in->nodes < 2) return 0;
    uint32_t dmax = 1;
    int rc = oc__sf_degrees(in, "ktree", &dmax, why, len);
    if (rc) return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, in->coll, 1, &f, why, len))) return rc;
    const double chunk = f.step_time - f.step_fixed;
    const uint64_t P = in->nodes;
    char db[32];
    for (uint64_t d = dmax; d >= 1; d--) {
        const uint64_t S = oc__sf_tree_height(P, d), blocks = oc__ceil_div(P - 1, d);
        const oc__bound b = {.time_s = f.step_fixed + (double)(blocks > S ? blocks : S) * chunk,
                             .steps = S,
                             .name = "the tree's height; the root's P - 1 blocks on d streams; "
                                     "one tuning",
                             .transfers = (P - 1) * S};
        snprintf(db, sizeof db, "%llu", (unsigned long long)d);
        const char *kv[] = {"degree", db};
        if ((rc = oc__search_offer(s, &b, 1, kv))) return rc;
    }
    return 0;
}

const oc__algo oc__algo_gather_ktree = {
    .info = {"ktree", OC_GATHER, "star",
             "gather up one fixed d-ary tree: tuned once, every block a level a round", "",
             "S rounds (1 + d + ... + d^S >= N); one tuning",
             "degree=searched 1..min(k, N-1): children a processor"},
    .param_names = names,
    .plan = gk_plan,
    .generate = gk_generate,
    .release = gk_release,
    .search = gk_search,
};
