/*
 * allgather_circulant.c — the circulant all-gather on the WDM ring: every block follows the same
 * spanning tree, rotated to its source, the tree being the shortest one of its depth (issue 26,
 * item 2: a schedule for where few steps suffice, Fw large next to N).
 *
 * Why. The ring's tree-length bound (src/bounds/bounds_ring.c) says that N blocks' first-arrival
 * trees of depth S need N E(N, S) link slots of the 2 N Fw a step offers, E(N, S) the least total
 * arc length of a depth-S spanning tree of the ring (src/bounds/bounds_common.c computes it).
 * Take one tree T of that length and use it for every block, rotated: block j's source j sends it
 * in round 1 to j + p for the offsets p of depth 1, and in round t the node at j + parent(p) sends
 * it to j + p for every p of depth t. By the rotation every clockwise link carries, in round t,
 * the sum of the clockwise lengths of T's depth-t arcs, and likewise counter-clockwise: when T's
 * rounds are balanced (each at most Fw a direction) and the model colours the arcs, the schedule
 * takes S steps and meets the bound. A hand construction of this kind takes 2 steps at N = 16 and
 * 17, w = 8, where OpTree and one-stage take 3 and 4 (tests/test_bounds.c).
 *
 * The tree. A labelling of the offsets 1..N-1 by depth 1..S, each offset's parent the nearer end
 * of its gap (bounds_common.c's essay): the quadratic programme D_k over gap lengths, here with
 * its argmins kept, then walked from the whole ring (a gap of N links whose two ends are the
 * source) down: in a gap with k + 1 levels left, the straddling split (a, b), the depth-t nodes
 * of the left part each at a distance from the left end (Lp's argmins), the right part the same
 * from the right end, and the sub-gaps one level down. The tree is optimal in total length; its
 * rounds need not be balanced, so the steps are sum over rounds of ceil(busiest direction's load /
 * Fw) (the search's proven bound, which the colouring can exceed), and the search tries every
 * depth 1..min(floor(N/2), 48).
 *
 * Costs. N (N - 1) one-block transfers (every block reaches every node on its own arc), like
 * bidir and comb; the programme is O(depth N^2) with 12 bytes a node and level of argmins, so the
 * algorithm takes N <= 1024 (max_nodes): beyond, the few-step regime it is for needs w in the
 * hundreds. All-gather only (its reduce-scatter would be the same tree backwards; not built).
 */
#include "algo/algos.h"

#include <stdio.h>
#include <stdlib.h>

enum { CIRC_MAX_NODES = 1024, CIRC_MAX_DEPTH = 48 };

typedef struct circ_tree {
    uint32_t N, depth;
    uint32_t *label;  /* label[p], p = 1..N-1: the round in which offset p first gets a block */
    uint32_t *parent; /* parent[p]: the offset it gets it from (0: the source) */
    uint32_t *count;  /* count[t], t = 1..depth: the offsets of round t */
} circ_tree;

/* The programme's argmins for levels 1..kmax (level k: k + 1 labels left). */
typedef struct circ_dp {
    uint32_t N, kmax;
    uint32_t *ly, *ma, *split; /* [k * (N + 1) + x] */
} circ_dp;

static void dp_free(circ_dp *dp) {
    free(dp->ly);
    free(dp->ma);
    free(dp->split);
}

static int dp_build(circ_dp *dp, uint32_t N, uint32_t kmax) {
    const size_t n = (size_t)N + 1, cells = n * ((size_t)kmax + 1);
    *dp = (circ_dp){.N = N, .kmax = kmax};
    dp->ly = calloc(cells, sizeof *dp->ly);
    dp->ma = calloc(cells, sizeof *dp->ma);
    dp->split = calloc(cells, sizeof *dp->split);
    uint64_t *D = malloc(n * sizeof *D), *Lp = malloc(n * sizeof *Lp), *Mp = malloc(n * sizeof *Mp),
             *next = malloc(n * sizeof *next);
    int rc = 0;
    if (!dp->ly || !dp->ma || !dp->split || !D || !Lp || !Mp || !next) {
        rc = OC_ENOMEM;
        goto out;
    }
    for (size_t g = 0; g < n; g++)
        D[g] = (uint64_t)g * g / 4;
    for (uint32_t k = 1; k <= kmax; k++) {
        uint32_t *ly = dp->ly + k * n, *ma = dp->ma + k * n, *split = dp->split + k * n;
        Lp[0] = 0;
        for (size_t x = 1; x < n; x++) {
            uint64_t best = UINT64_MAX;
            for (size_t y = 0; y < x; y++)
                if (Lp[y] + D[x - y] < best) {
                    best = Lp[y] + D[x - y];
                    ly[x] = (uint32_t)y;
                }
            Lp[x] = best + x;
        }
        for (size_t s = 0; s < n; s++) {
            uint64_t best = UINT64_MAX;
            for (size_t a = 0; 2 * a <= s; a++)
                if (Lp[a] + Lp[s - a] < best) {
                    best = Lp[a] + Lp[s - a];
                    ma[s] = (uint32_t)a;
                }
            Mp[s] = best;
        }
        next[0] = 0;
        for (size_t g = 1; g < n; g++) {
            uint64_t best = UINT64_MAX;
            for (size_t s = 0; s < g; s++)
                if (Mp[s] + D[g - s] < best) {
                    best = Mp[s] + D[g - s];
                    split[g] = (uint32_t)s;
                }
            next[g] = best;
        }
        uint64_t *swap = D;
        D = next;
        next = swap;
    }
out:
    free(D);
    free(Lp);
    free(Mp);
    free(next);
    if (rc) dp_free(dp);
    return rc;
}

static void set_node(circ_tree *t, uint32_t pos, uint32_t label, uint32_t par) {
    const uint32_t p = pos % t->N;
    t->label[p] = label;
    t->parent[p] = par % t->N;
}

/* The gap [lo, lo + g] (positions on the ring cut at the source, 0..N), its interior labelled
 * `first` and deeper, k levels below `first` left. Iterative over the left and right parts,
 * recursive over the sub-gaps (depth at most CIRC_MAX_DEPTH). */
static void walk(const circ_dp *dp, circ_tree *t, uint32_t lo, uint32_t g, uint32_t k,
                 uint32_t first) {
    if (g < 2) return;
    if (k == 0) { /* every interior node at the last depth, from its nearer end */
        for (uint32_t x = 1; x < g; x++)
            set_node(t, lo + x, first, x <= g - x ? lo : lo + g);
        return;
    }
    const size_t n = (size_t)dp->N + 1;
    const uint32_t s = dp->split[k * n + g], a = dp->ma[k * n + s], b = s - a;
    walk(dp, t, lo + a, g - s, k - 1, first + 1);
    for (int side = 0; side < 2; side++) {
        for (uint32_t x = side ? b : a; x > 0;) {
            const uint32_t y = dp->ly[k * n + x];
            if (!side) {
                set_node(t, lo + x, first, lo);
                walk(dp, t, lo + y, x - y, k - 1, first + 1);
            } else {
                set_node(t, lo + g - x, first, lo + g);
                walk(dp, t, lo + g - x, x - y, k - 1, first + 1);
            }
            x = y;
        }
    }
}

static void tree_free(circ_tree *t) {
    free(t->label);
    free(t->parent);
    free(t->count);
}

static int tree_of(const circ_dp *dp, uint32_t depth, circ_tree *t) {
    const uint32_t N = dp->N;
    *t = (circ_tree){.N = N, .depth = depth};
    t->label = calloc(N, sizeof *t->label);
    t->parent = calloc(N, sizeof *t->parent);
    t->count = calloc((size_t)depth + 1, sizeof *t->count);
    if (!t->label || !t->parent || !t->count) {
        tree_free(t);
        return OC_ENOMEM;
    }
    walk(dp, t, 0, N, depth - 1, 1);
    for (uint32_t p = 1; p < N; p++)
        t->count[t->label[p]]++;
    return 0;
}

/* Round t's busiest direction, in lightpaths a link: by the rotation, the sum of the round's
 * clockwise arc lengths on every clockwise link, and likewise the other way. An arc of exactly
 * half the ring may be routed either way, so it is counted on neither side and the two sides'
 * mean bounds too. */
static uint64_t round_load(const circ_tree *t, uint32_t r) {
    uint64_t cw = 0, ccw = 0, either = 0;
    for (uint32_t p = 1; p < t->N; p++) {
        if (t->label[p] != r) continue;
        const uint32_t d = (p + t->N - t->parent[p]) % t->N;
        if (2 * d == t->N) either += d;
        else if (2 * d < t->N) cw += d;
        else ccw += t->N - d;
    }
    const uint64_t mean = (cw + ccw + either + 1) / 2, most = cw > ccw ? cw : ccw;
    return most > mean ? most : mean;
}

static uint64_t tree_steps(const circ_tree *t, uint64_t channels) {
    uint64_t steps = 0;
    for (uint32_t r = 1; r <= t->depth; r++)
        steps += oc__ceil_div(round_load(t, r), channels ? channels : 1);
    return steps;
}

static uint32_t depth_cap(uint32_t N) {
    const uint32_t half = N / 2;
    return half < CIRC_MAX_DEPTH ? (half ? half : 1) : CIRC_MAX_DEPTH;
}

static int plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t whylen) {
    static const char *const names[] = {"depth", NULL};
    int rc = oc__kv_only(params, names, "circulant", why, whylen);
    if (rc) return rc;
    if (nodes > CIRC_MAX_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circulant: at most %u nodes (its tree is an O(depth N^2) programme)",
                        (unsigned)CIRC_MAX_NODES);
    const uint32_t cap = depth_cap(nodes);
    /* without a network to search on: the depth whose tree the ring's link slots could carry
     * at one wavelength pair a node, about log3 N */
    uint64_t dflt = 1;
    for (uint64_t reach = 3; reach < nodes && dflt < cap; reach *= 3)
        dflt++;
    uint64_t depth = dflt;
    if ((rc = oc__kv_u64(params, "depth", dflt, 1, cap, &depth, why, whylen))) return rc;
    if ((rc = oc__plan_work("circulant", nodes, (uint64_t)nodes * (nodes ? nodes - 1 : 0), why,
                            whylen)))
        return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, whylen))) return rc;
    circ_tree *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    plan->state = t;
    if (nodes >= 2) {
        circ_dp dp;
        if ((rc = dp_build(&dp, nodes, (uint32_t)depth - 1)))
            return oc__fail(why, whylen, rc, "out of memory");
        rc = tree_of(&dp, (uint32_t)depth, t);
        dp_free(&dp);
        if (rc) return oc__fail(why, whylen, rc, "out of memory");
        uint64_t most = 0;
        for (uint32_t r = 1; r <= depth; r++)
            if (t->count[r] > most) most = t->count[r];
        plan->rounds = depth;
        plan->spec.max_round = most * nodes;
    }
    plan->spec.window_skips = 1; /* a round's transfers in label order (emit_round) */
    char v[16];
    snprintf(v, sizeof v, "%llu", (unsigned long long)depth);
    return oc_kv_set(plan->used, "depth", v) ? oc__fail(why, whylen, OC_ENOMEM, "out of memory")
                                             : 0;
}

/* Round r: for every block j in label order, its arcs parent(p) -> p of depth r, rotated by j. */
static int emit_round(const circ_tree *t, oc__emit *e, uint32_t r) {
    const uint32_t N = t->N, k = t->count[r];
    if (!k) return 0;
    const uint32_t lo = e->windowed ? (e->win_lo < N ? e->win_lo : N) : 0;
    const uint32_t hi = e->windowed ? (e->win_hi < N ? e->win_hi : N) : N;
    oc__emit_skip(e, (uint64_t)lo * k);
    if (hi > lo) {
        oc__transfer *out;
        int rc = oc__emit_many(e, (uint64_t)(hi - lo) * k, &out);
        if (rc) return rc;
        for (uint32_t j = lo; j < hi; j++)
            for (uint32_t p = 1; p < N; p++)
                if (t->label[p] == r)
                    *out++ = (oc__transfer){(j + t->parent[p]) % N, (j + p) % N, j, 1,
                                            (uint32_t)OC_OP_COPY};
    }
    oc__emit_skip(e, (uint64_t)(N - hi) * k);
    return 0;
}

static int generate(const oc__plan *plan, oc__emit *e) {
    const circ_tree *t = plan->state;
    int rc = 0;
    if (t->N < 2) return 0;
    for (uint32_t r = 1; r <= t->depth && !rc; r++)
        if (!(rc = emit_round(t, e, r))) rc = oc__emit_round(e);
    return rc;
}

static void release(oc__plan *plan) {
    circ_tree *t = plan->state;
    if (t) tree_free(t);
    free(t);
    plan->state = NULL;
}

typedef struct circ_cand {
    uint64_t steps;
    uint32_t depth;
} circ_cand;

static int by_steps(const void *a, const void *b) {
    const circ_cand *x = a, *y = b;
    if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
    return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Every depth 1..min(floor(N/2), 48), each bounded by its tree's rounds' loads (tree_steps), in
 * order of that bound. */
static int search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "depth") || N < 3 || N > CIRC_MAX_NODES) return 0;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, whylen);
    if (rc) return rc;
    const uint32_t cap = depth_cap(N);
    circ_cand c[CIRC_MAX_DEPTH];
    circ_dp dp;
    if ((rc = dp_build(&dp, N, cap - 1))) return oc__fail(why, whylen, rc, "out of memory");
    for (uint32_t d = 1; d <= cap && !rc; d++) {
        circ_tree t;
        if ((rc = tree_of(&dp, d, &t))) break;
        c[d - 1] = (circ_cand){tree_steps(&t, f.channels), d};
        tree_free(&t);
    }
    dp_free(&dp);
    if (rc) return oc__fail(why, whylen, rc, "out of memory");
    qsort(c, cap, sizeof *c, by_steps);
    static const char *const name = "each round's busiest directed link: ceil(load / (F w)) steps";
    for (uint32_t i = 0; i < cap && !rc; i++) {
        oc__bound b = {.time_s = (double)c[i].steps * f.step_time,
                       .steps = c[i].steps,
                       .name = name,
                       .transfers = (uint64_t)N * (N - 1)};
        const int yes = oc__search_can_win(s, &b);
        if (yes < 0) return yes;
        if (!yes) return oc__search_prune(s, "depths whose bound cannot win", &b, cap - i);
        char v[16];
        snprintf(v, sizeof v, "%u", c[i].depth);
        const char *kv[] = {"depth", v};
        rc = oc__search_offer(s, &b, 1, kv);
    }
    return rc;
}

static int formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const circ_tree *t = plan->state;
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

static const char *const circ_params[] = {"depth", NULL};

const oc__algo oc__algo_allgather_circulant = {
    .info = {"circulant", OC_ALLGATHER, "ring",
             "every block on the same shortest spanning tree of a given depth, rotated to its "
             "source: the few-step all-gather where Fw is large next to N",
             "", "sum over the tree's rounds of ceil(busiest direction's load / (F w)) steps",
             "depth=searched: the tree's depth, 1..min(floor(N/2), 48)"},
    .param_names = circ_params,
    .max_nodes = CIRC_MAX_NODES,
    .plan = plan,
    .generate = generate,
    .release = release,
    .search = search,
    .formula = formula,
};
