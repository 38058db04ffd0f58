/*
 * allreduce_rdg.c — recursive doubling in unequal groups for the all-reduce on the
 * circuit-switched fabric (issue 26, item 2; the split tree, and why it beats `rdk`'s fold, in
 * groups.c's essay), alone for small vectors or between a reduce-scatter and an all-gather in
 * groups of g nodes for large ones (as H-Ring does on the ring, allreduce_hring.c).
 *
 * The schedule, group=1 (the default for small vectors). Round t merges the classes of level
 * t - 1 into those of level t (groups.c): every node of a part A receives the vector of every
 * other part B of its class, reduced, from one of B's nodes (which holds B's sum, by induction),
 * so after round t a node holds its level-t class's sum, after the last the sum of all N. One
 * chunk: the vector is never cut. Rounds: the tree's levels (N = 100 on the seed's 1x3 switch: 4,
 * where rdk takes 5 and the relay depth allows 4).
 *
 * group=g (g divides N, 2 <= g <= N / 2). The vector is cut into g pieces; node x = i g + j is
 * member j of group i. Round 1, a reduce-scatter in each group: member j sends piece k to member
 * k (g - 1 circuits a tile), so member j holds its group's sum of piece j. Then, for each j, the
 * m = N / g members j of every group run the tree above on piece j alone (lane j: virtual node i
 * is node i g + j). Last round, an all-gather in each group: member j sends piece j to the
 * others. Rounds: the m-node tree's levels + 2; every transfer carries a g-th of the vector. At
 * N = 100, 1 MiB, g = 4: 5 rounds of a quarter vector on at most 3 circuits (36 us) against rhd's
 * 8 with a fold (45.8 us) and group=1's 4 rounds of the whole vector (58 us).
 *
 * No pair of nodes is in two rounds (a tree round's pairs lie in one class of its level and in
 * two of the level below; the group rounds' pairs lie in one group, the tree rounds' in two, and
 * m >= 2 keeps the tree between them), so every round's circuit set is new and pays a
 * reconfiguration: time = sum over rounds of (alpha + reconfig + a piece over floor(W / d)
 * wavelengths), d the round's busiest tile's circuits (g - 1 in the group rounds).
 *
 * The search (algos.h's contract). Space: group g in {1} and the divisors of N from 2 to N / 2;
 * radix r = 2 .. min(m, 64) for the tree over m = N / g, at most the MZI degree + 1 where the
 * network refuses a round above it, and at most W + 1; g - 1 likewise; a radix whose tree does
 * not exist (r = 2 off the powers of two) is not offered. Bound of a candidate: the time above,
 * exactly the model's cost where the fibres are ample (scarce fibres add passes). Steps bound:
 * the rounds. Pins: radix=r, group=g. N above 4096 (the tree's quadratic table) is refused.
 */
#include "algo/groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rdg_params[] = {"radix", "group", NULL};

typedef struct rdg_state {
    oc__groups tree; /* over m = N / group virtual nodes (none when N < 2) */
    uint32_t group;
} rdg_state;

/* A number from lo to hi in text, or the error naming the parameter. */
static int parse_u32(const char *name, const char *text, uint32_t lo, uint32_t hi, uint32_t *out,
                     char *why, size_t len) {
    char *end;
    const unsigned long v = strtoul(text, &end, 10);
    if (!*text || *end || v < lo || v > hi)
        return oc__fail(why, len, OC_EINVAL, "rdg: %s=%s: a number from %u to %u", name, text, lo,
                        hi);
    *out = (uint32_t)v;
    return 0;
}

static int rdg_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    int rc = oc__kv_only(params, rdg_params, "rdg", why, len);
    if (rc) return rc;
    const char *gtext = oc_kv_get(params, "group"), *rtext = oc_kv_get(params, "radix");
    if (nodes < 2 && (gtext || rtext))
        return oc__fail(why, len, OC_EINVAL, "rdg: %s= for %u node%s: nothing to do",
                        gtext ? "group" : "radix", nodes, nodes == 1 ? "" : "s");
    if (nodes > OC_GROUPS_MAX_NODES)
        return oc__fail(why, len, OC_ETOOBIG,
                        "rdg: %u nodes, at most %d (the split tree's table is quadratic in N)",
                        nodes, OC_GROUPS_MAX_NODES);
    uint32_t g = 1;
    if (gtext && (rc = parse_u32("group", gtext, 1, nodes / 2 ? nodes / 2 : 1, &g, why, len)))
        return rc;
    if (g > 1 && nodes % g)
        return oc__fail(why, len, OC_EINVAL, "rdg: group=%u does not divide N = %u", g, nodes);
    rdg_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    st->group = g;
    const uint32_t m = nodes / g;
    if (nodes >= 2) {
        char text[16];
        if (!rtext) { /* nothing searched (no network): radix 4, or the least above it */
            for (uint32_t r = m < 4 ? 2 : 4; !rc; r++) {
                snprintf(text, sizeof text, "%u", r);
                if ((rc = oc__groups_build(m, r, &st->tree, why, len)) != OC_EINVAL) break;
                rc = 0;
            }
        } else {
            uint32_t r = 0;
            if (!(rc = parse_u32("radix", rtext, 2, OC_GROUPS_MAX_RADIX, &r, why, len)) &&
                (rc = oc__groups_build(m, r, &st->tree, why, len)) && rc != OC_ENOMEM) {
                char inner[256];
                snprintf(inner, sizeof inner, "%s", why);
                rc = oc__fail(why, len, rc, "rdg: %s%s", inner,
                              g > 1 ? " (the tree is over N / group nodes)" : "");
            }
        }
    }
    const uint64_t transfers = st->tree.transfers * g + (g > 1 ? 2 * (uint64_t)nodes * (g - 1) : 0);
    if (!rc) rc = oc__plan_work("rdg", nodes, transfers, why, len);
    if (!rc) rc = oc__plan_begin(plan, coll, nodes, root, bytes, g, why, len);
    if (!rc && nodes >= 2) {
        char v[16];
        snprintf(v, sizeof v, "%u", st->tree.radix);
        if (oc_kv_set(plan->used, "radix", v)) rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        snprintf(v, sizeof v, "%u", g);
        if (!rc && oc_kv_set(plan->used, "group", v))
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    if (rc) {
        oc__groups_free(&st->tree);
        free(st);
        return rc;
    }
    plan->state = st;
    plan->rounds = nodes < 2 ? 0 : st->tree.rounds + (g > 1 ? 2u : 0u);
    /* the work (core.h): the tree's transfers in each of the g lanes and the two group rounds'
     * N (g - 1), each transfer one chunk (a piece, or the whole vector) */
    plan->spec.units = plan->spec.transfers = transfers;
    return 0;
}

static void rdg_release(oc__plan *plan) {
    rdg_state *st = plan->state;
    if (st) oc__groups_free(&st->tree);
    free(st);
    plan->state = NULL;
}

typedef struct lane {
    oc__emit *e;
    uint32_t group, j; /* lane j: virtual node i is node i group + j, its piece label j */
} lane;

static int reduce_in_lane(void *ctx, uint32_t src, uint32_t dst, uint32_t first, uint32_t count) {
    const lane *l = ctx;
    (void)first;
    (void)count;
    return oc__emit_transfer(l->e, src * l->group + l->j, dst * l->group + l->j, OC_OP_REDUCE, l->j,
                             1);
}

/* Round 1 (reduce) or the last (copy): every member j of every group hands its piece to, or
 * collects piece k from, the others. */
static int group_round(oc__emit *e, uint32_t N, uint32_t g, int reduce) {
    int rc = 0;
    for (uint32_t x = 0; x < N && !rc; x++)
        for (uint32_t k = 0; k < g && !rc; k++) {
            const uint32_t y = x - x % g + k;
            if (y != x)
                rc = reduce ? oc__emit_transfer(e, x, y, OC_OP_REDUCE, k, 1)
                            : oc__emit_transfer(e, x, y, OC_OP_COPY, x % g, 1);
        }
    return rc ? rc : oc__emit_round(e);
}

static int rdg_generate(const oc__plan *plan, oc__emit *e) {
    const rdg_state *st = plan->state;
    const uint32_t N = plan->spec.nodes, g = st->group;
    if (N < 2) return 0;
    int rc = g > 1 ? group_round(e, N, g, 1) : 0;
    for (uint32_t t = 1; t <= st->tree.levels && !rc; t++) {
        if (!st->tree.degree[t]) continue;
        for (uint32_t j = 0; j < g && !rc; j++) {
            lane l = {e, g, j};
            rc = oc__groups_level(&st->tree, t, reduce_in_lane, &l);
        }
        if (!rc) rc = oc__emit_round(e);
    }
    if (!rc && g > 1) rc = group_round(e, N, g, 0);
    return rc;
}

/* One round's least time with its busiest tile on d circuits, each carrying one chunk (a
 * piece): alpha, the reconfiguration, the chunk over floor(lanes / d) lanes; < 0 when the tile
 * has too few lanes for d circuits (the model refuses it). */
static double round_bound(const oc__formula_in *f, uint64_t d) {
    const double split = oc__formula_split(f, d);
    if (!(split > 0)) return -1;
    return f->step_fixed + f->reconfig_s + (f->step_time - f->step_fixed) * split;
}

/* The schedule's least time (the essay's), or < 0 when a round cannot be mapped. */
static double rdg_time(const oc__groups *tree, uint32_t g, const oc__formula_in *f) {
    double t = 0;
    if (g > 1) {
        const double one = round_bound(f, g - 1);
        if (one < 0) return -1;
        t += 2 * one;
    }
    for (uint32_t k = 1; k <= tree->levels; k++)
        if (tree->degree[k]) {
            const double one = round_bound(f, tree->degree[k]);
            if (one < 0) return -1;
            t += one;
        }
    return t;
}

static int rdg_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    if (N < 2 || N > OC_GROUPS_MAX_NODES ||
        (oc_kv_get(in->params, "radix") && oc_kv_get(in->params, "group")))
        return 0;
    const char *gpin = oc_kv_get(in->params, "group"), *rpin = oc_kv_get(in->params, "radix");
    int rc = 0;
    for (uint32_t g = 1; g <= N / 2 || g == 1; g++) {
        if ((g > 1 && N % g) || (gpin && strtoul(gpin, NULL, 10) != g)) continue;
        oc__formula_in f;
        if ((rc = in->figures(in, in->coll, g, &f, why, len))) return rc;
        if (g > 1 && ((f.max_degree && g - 1 > f.max_degree) || (f.lanes && g - 1 > f.lanes)))
            break; /* a larger group only has more circuits */
        const uint32_t m = N / g;
        uint64_t rmax = OC_GROUPS_MAX_RADIX < m ? OC_GROUPS_MAX_RADIX : m;
        if (f.max_degree && f.max_degree + 1 < rmax) rmax = f.max_degree + 1;
        if (f.lanes && f.lanes + 1 < rmax) rmax = f.lanes + 1;
        for (uint64_t r = 2; r <= rmax && !rc; r++) {
            if (rpin && strtoul(rpin, NULL, 10) != r) continue;
            oc__groups tree;
            char inner[256];
            const int built = oc__groups_build(m, (uint32_t)r, &tree, inner, sizeof inner);
            if (built == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
            if (built) continue; /* no tree at this radix */
            const double t = rdg_time(&tree, g, &f);
            if (t >= 0) {
                char rv[16], gv[16];
                snprintf(rv, sizeof rv, "%llu", (unsigned long long)r);
                snprintf(gv, sizeof gv, "%u", g);
                const oc__bound b = {
                    .time_s = t,
                    .steps = tree.rounds + (g > 1 ? 2u : 0u),
                    .name = "each round: alpha + reconfiguration + a piece over its busiest "
                            "tile's share of wavelengths",
                    .transfers = tree.transfers * g + (g > 1 ? 2 * (uint64_t)N * (g - 1) : 0)};
                const char *kv[] = {"radix", rv, "group", gv};
                rc = oc__search_offer(s, &b, 2, kv);
            }
            oc__groups_free(&tree);
        }
    }
    return rc;
}

static int rdg_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const rdg_state *st = plan->state;
    if (plan->spec.nodes < 2 || !in->lanes) return 0;
    const double payload = in->step_time - in->step_fixed;
    double bw = st->group > 1 ? 2 * payload * oc__formula_split(in, st->group - 1) : 0;
    for (uint32_t t = 1; t <= st->tree.levels; t++)
        if (st->tree.degree[t]) bw += payload * oc__formula_split(in, st->tree.degree[t]);
    const double rounds = st->tree.rounds + (st->group > 1 ? 2.0 : 0.0);
    return oc__formula_circuits(rep, in, rounds, rounds, bw);
}

static const char *const names[] = {"radix", "group", NULL};

const oc__algo oc__algo_allreduce_rdg = {
    .info = {"rdg", OC_ALLREDUCE, "fabric",
             "recursive doubling in unequal groups: classes of at least 1/r of their merge, the "
             "whole vector (or, with group=g, a g-th of it between a reduce-scatter and an "
             "all-gather in groups) to the other classes a round",
             "N <= 4096; radix 2 only at powers of two; group divides N",
             "the split tree's levels (+2 with groups), each a reconfiguration",
             "radix=searched: 2 .. MZI degree + 1; group=searched: 1 or a divisor of N up to "
             "N / 2 (e.g. radix 4, group 1 at N = 100, 1 KiB; group 4 at 1 MiB)"},
    .param_names = names,
    .plan = rdg_plan,
    .generate = rdg_generate,
    .release = rdg_release,
    .search = rdg_search,
    .formula = rdg_formula,
};
