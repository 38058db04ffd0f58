/*
 * groups.c — recursive doubling in unequal groups: the split tree behind the fabric's `rdg`
 * all-reduce, all-gather and reduce-scatter (issue 26, item 2: counterparts on the fabric where
 * its bound shows a gap; ours, after MPICH's recursive doubling and the lumorph seed's radix-4
 * rounds, section 4: "splitting a GPU's total egress bandwidth across multiple wavelength-switched
 * circuits").
 *
 * Why. Recursive doubling in radix r exchanges whole classes: after round t every node holds
 * what its class of r^t nodes holds. Where N is not a product of radices up to the MZI degree + 1
 * (N = 100 = 4 x 25 on the seed's 1x3 switch), `rdk` folds the extra nodes in before and out
 * after: two rounds more, each a reconfiguration on the fabric (3.7 us against a 0.7 us alpha).
 * Classes need not be equal, only large enough to serve the others.
 *
 * The tree. Level 0 is the N single nodes, level K the one class of all of them; a class of
 * level t is an interval of nodes made of g <= r consecutive classes of level t - 1 (g = 1: it
 * passes through). Round t merges them: every node of part A receives, from some node of each
 * other part B, what B's nodes hold (B's sum in the all-reduce, B's blocks in the all-gather), and
 * the nodes of A take the receivers outside A in turn. A node then receives on g - 1 <= r - 1
 * circuits and sends on at most ceil((n - |A|) / |A|) for a class of n nodes; the rule that
 * keeps that within r - 1 is |A| >= n / r for every part A. With it, the sizes a tree of t levels
 * can have are F_0 = {1} and F_t = F_(t-1) + {n : n is a sum of at most r members of F_(t-1),
 * each at least n / r}. N = 100, r = 4: F_1 = 1..4, F_2 = 1..12 and 16, F_3 holds 36 = 12 + 12 +
 * 12 and 64 = 16 x 4, and 100 = 64 + 36: four rounds, where rdk takes five (4 x 4 x 4 and a fold
 * on each side) and the relay depth allows four. The parts of a class are found by the fewest
 * members of F_(t-1) at least n / r that sum to n (an unbounded knapsack).
 *
 * Computing F. Taking n in decreasing order of ceil(n / r), the parts allowed only grow, so one
 * knapsack table of the fewest parts per sum serves every n of a level, each allowed size added
 * once (O(N) each): O(N |F_(t-1)|) a level, at most a few hundred million additions at 4096
 * nodes (the cap), a few milliseconds at N = 100. K is the first level that holds N; a level that
 * adds no size ends the search (r = 2: only powers of two are ever reached).
 */
#include "algo/groups.h"
#include "algo/algos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oc__groups_free(oc__groups *g) {
    if (!g) return;
    if (g->size)
        for (uint32_t t = 0; t <= g->levels; t++)
            free(g->size[t]);
    if (g->kids)
        for (uint32_t t = 0; t <= g->levels; t++)
            free(g->kids[t]);
    free(g->size);
    free(g->kids);
    free(g->count);
    free(g->degree);
    memset(g, 0, sizeof *g);
}

/* Adds a part of size p to the fewest-parts table (unbounded: any number of copies). */
static void knap_add(uint32_t *fewest, uint32_t *last, uint32_t N, uint32_t p) {
    for (uint32_t s = p; s <= N; s++)
        if (fewest[s - p] != UINT32_MAX && fewest[s - p] + 1 < fewest[s]) {
            fewest[s] = fewest[s - p] + 1;
            if (last) last[s] = p;
        }
}

/* F_t from F_(t-1) (prev) into cur; returns 1 when cur holds a size prev does not. */
static int next_level(const uint8_t *prev, uint8_t *cur, uint32_t N, uint32_t r, uint32_t *fewest) {
    memcpy(cur, prev, (size_t)N + 1);
    for (uint32_t s = 0; s <= N; s++)
        fewest[s] = s ? UINT32_MAX : 0;
    const uint32_t top = (N + r - 1) / r;
    for (uint32_t p = N; p > top; p--)
        if (prev[p]) knap_add(fewest, NULL, N, p);
    int grew = 0;
    for (uint32_t lo = top; lo >= 1; lo--) {
        if (prev[lo]) knap_add(fewest, NULL, N, lo);
        const uint64_t hi = (uint64_t)lo * r < N ? (uint64_t)lo * r : N;
        for (uint64_t n = (uint64_t)(lo - 1) * r + 1; n <= hi; n++)
            if (n >= 2 && !cur[n] && fewest[n] <= r) cur[n] = 1, grew = 1;
    }
    return grew;
}

/* The parts of a class of n nodes at level t (n not in F_(t-1)): the fewest members of F_(t-1)
 * at least ceil(n / r), largest first, into parts[]; returns how many. */
static uint32_t split(const uint8_t *prev, uint32_t n, uint32_t r, uint32_t *fewest, uint32_t *last,
                      uint32_t *parts) {
    for (uint32_t s = 0; s <= n; s++)
        fewest[s] = s ? UINT32_MAX : 0;
    for (uint32_t p = n - 1; p >= (n + r - 1) / r && p >= 1; p--)
        if (prev[p]) knap_add(fewest, last, n, p);
    uint32_t k = 0;
    for (uint32_t s = n; s > 0; s -= last[s])
        parts[k++] = last[s];
    return k;
}

int oc__groups_build(uint32_t N, uint32_t r, oc__groups *g, char *why, size_t len) {
    memset(g, 0, sizeof *g);
    if (N > OC_GROUPS_MAX_NODES)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%u nodes: the split tree is built for at most %d (its table of sizes is "
                        "quadratic in N)",
                        N, OC_GROUPS_MAX_NODES);
    if (r < 2 || r > OC_GROUPS_MAX_RADIX)
        return oc__fail(why, len, OC_EINVAL, "radix=%u: from 2 to %d", r, OC_GROUPS_MAX_RADIX);
    const size_t row = (size_t)N + 1;
    uint8_t *F = NULL;
    uint32_t *fewest = malloc(row * sizeof *fewest), *last = malloc(row * sizeof *last);
    uint32_t *parts = malloc(row * sizeof *parts);
    size_t cap = 8;
    int rc = 0;
    F = calloc(cap, row);
    if (!F || !fewest || !last || !parts) goto nomem;
    F[1] = 1;
    uint32_t K = 0;
    while (N > 1 && !F[K * row + N]) {
        if ((size_t)K + 2 > cap) {
            uint8_t *more = realloc(F, 2 * cap * row);
            if (!more) goto nomem;
            F = more;
            cap *= 2;
        }
        if (!next_level(F + K * row, F + (K + 1) * row, N, r, fewest)) {
            rc = oc__fail(why, len, OC_EINVAL,
                          "radix=%u cannot reach N = %u: no tree of classes of at least 1/%u of "
                          "their merge does (radix 2 takes powers of two only)",
                          r, N, r);
            goto out;
        }
        K++;
    }
    g->nodes = N;
    g->radix = r;
    g->levels = K;
    g->count = calloc((size_t)K + 1, sizeof *g->count);
    g->size = calloc((size_t)K + 1, sizeof *g->size);
    g->kids = calloc((size_t)K + 1, sizeof *g->kids);
    g->degree = calloc((size_t)K + 1, sizeof *g->degree);
    if (!g->count || !g->size || !g->kids || !g->degree) goto nomem;
    for (uint32_t t = 0; t <= K; t++) {
        g->size[t] = malloc(row * sizeof **g->size);
        g->kids[t] = calloc(row, sizeof **g->kids);
        if (!g->size[t] || !g->kids[t]) goto nomem;
    }
    g->size[K][0] = N;
    g->count[K] = 1;
    for (uint32_t t = K; t >= 1; t--) {
        const uint8_t *prev = F + (size_t)(t - 1) * row;
        uint32_t at = 0, cached = 0, nparts = 0, deg = 0;
        for (uint32_t i = 0; i < g->count[t]; i++) {
            const uint32_t n = g->size[t][i];
            if (prev[n]) {
                g->kids[t][i] = 1;
                g->size[t - 1][at++] = n;
                continue;
            }
            if (n != cached) { /* the classes of a level have few sizes: keep the last split */
                nparts = split(prev, n, r, fewest, last, parts);
                cached = n;
            }
            g->kids[t][i] = nparts;
            uint32_t smallest = n;
            uint64_t squares = 0;
            for (uint32_t j = 0; j < nparts; j++) {
                g->size[t - 1][at++] = parts[j];
                if (parts[j] < smallest) smallest = parts[j];
                squares += (uint64_t)parts[j] * parts[j];
            }
            uint32_t d = nparts - 1, out = (n - smallest + smallest - 1) / smallest;
            if (out > d) d = out;
            if (d > deg) deg = d;
            /* oc__groups_level's transfers: each part A to the n - |A| other nodes, |A| blocks */
            g->transfers += (uint64_t)(nparts - 1) * n;
            g->units += (uint64_t)n * n - squares;
        }
        g->count[t - 1] = at;
        g->degree[t] = deg;
        if (deg) g->rounds++;
    }
    goto out;
nomem:
    rc = oc__fail(why, len, OC_ENOMEM, "out of memory building the split tree");
out:
    if (rc) oc__groups_free(g);
    free(F);
    free(fewest);
    free(last);
    free(parts);
    return rc;
}

int oc__groups_level(const oc__groups *g, uint32_t t,
                     int (*fn)(void *ctx, uint32_t src, uint32_t dst, uint32_t first,
                               uint32_t count),
                     void *ctx) {
    uint32_t node = 0, child = 0;
    int rc = 0;
    for (uint32_t i = 0; i < g->count[t] && !rc; i++) {
        const uint32_t k = g->kids[t][i], n = g->size[t][i];
        const uint32_t *part = g->size[t - 1] + child;
        /* part j covers nodes [start_j, start_j + part[j]) */
        uint32_t sa = node;
        for (uint32_t a = 0; a < k && !rc && k > 1; a++) {
            uint32_t turn = 0, sb = node;
            for (uint32_t b = 0; b < k && !rc; b++) {
                if (b != a)
                    for (uint32_t v = sb; v < sb + part[b] && !rc; v++)
                        rc = fn(ctx, sa + turn++ % part[a], v, sa, part[a]);
                sb += part[b];
            }
            sa += part[a];
        }
        node += n;
        child += k;
    }
    return rc;
}

/* ---- the all-gather's and reduce-scatter's plan, rounds, search and closed form (the
 * all-reduce has its own, with its groups: allreduce_rdg.c) ----
 *
 * All-gather: every transfer copies part A's blocks, the label range [first, first + count) of A's
 * nodes (one chunk a block, identity labels: a class's blocks are one range). Reduce-scatter: the
 * all-gather run backwards, each transfer turned round and reducing (round K first): where the
 * all-gather's block b reaches every node along one tree, the reduce-scatter's contributions to
 * block b reach its owner along the same tree reversed, each counted once. */

static const char *const rdg_params[] = {"radix", NULL};

/* The tree of a pinned radix, or with nothing searched (no network) of radix 4 or the least
 * above it whose tree exists. */
static int rdg_tree(uint32_t N, const char *text, oc__groups *g, char *why, size_t len) {
    if (text) {
        char *end;
        const unsigned long r = strtoul(text, &end, 10);
        if (!*text || *end || r < 2 || r > OC_GROUPS_MAX_RADIX)
            return oc__fail(why, len, OC_EINVAL, "rdg: radix=%s: a number from 2 to %d", text,
                            OC_GROUPS_MAX_RADIX);
        const int rc = oc__groups_build(N, (uint32_t)r, g, why, len);
        if (rc && rc != OC_ENOMEM) {
            char inner[256];
            snprintf(inner, sizeof inner, "%s", why);
            return oc__fail(why, len, rc, "rdg: %s", inner);
        }
        return rc;
    }
    for (uint32_t r = N < 4 ? 2 : 4;; r++) {
        const int rc = oc__groups_build(N, r, g, why, len);
        if (rc != OC_EINVAL) return rc;
    }
}

int oc__groups_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    int rc = oc__kv_only(params, rdg_params, "rdg", why, len);
    if (rc) return rc;
    const char *text = oc_kv_get(params, "radix");
    if (nodes < 2 && text)
        return oc__fail(why, len, OC_EINVAL, "rdg: radix= for %u node%s: nothing to do", nodes,
                        nodes == 1 ? "" : "s");
    if (nodes > OC_GROUPS_MAX_NODES)
        return oc__fail(why, len, OC_ETOOBIG,
                        "rdg: %u nodes, at most %d (the split tree's table is quadratic in N)",
                        nodes, OC_GROUPS_MAX_NODES);
    oc__groups *g = calloc(1, sizeof *g);
    if (!g) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (nodes >= 2) rc = rdg_tree(nodes, text, g, why, len);
    if (!rc) rc = oc__plan_work("rdg", nodes, g->transfers, why, len);
    if (!rc) rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
    if (!rc && nodes >= 2) {
        char v[16];
        snprintf(v, sizeof v, "%u", g->radix);
        if (oc_kv_set(plan->used, "radix", v)) rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    if (rc) {
        oc__groups_free(g);
        free(g);
        return rc;
    }
    plan->state = g;
    plan->rounds = g->rounds;
    /* the work (core.h), counted with the tree: one chunk a block, a reduce-scatter transfer for
     * each all-gather one */
    plan->spec.transfers = g->transfers;
    plan->spec.units = g->units;
    return 0;
}

void oc__groups_release(oc__plan *plan) {
    oc__groups_free(plan->state);
    free(plan->state);
    plan->state = NULL;
}

typedef struct emit_as {
    oc__emit *e;
    oc_collective coll;
} emit_as;

static int emit_one(void *ctx, uint32_t src, uint32_t dst, uint32_t first, uint32_t count) {
    const emit_as *a = ctx;
    return a->coll == OC_REDUCESCATTER
               ? oc__emit_transfer(a->e, dst, src, OC_OP_REDUCE, first, count)
               : oc__emit_transfer(a->e, src, dst, OC_OP_COPY, first, count);
}

int oc__groups_generate(const oc__plan *plan, oc__emit *e) {
    const oc__groups *g = plan->state;
    emit_as a = {e, plan->spec.coll};
    const int back = plan->spec.coll == OC_REDUCESCATTER;
    int rc = 0;
    for (uint32_t i = 1; i <= g->levels && !rc; i++) {
        const uint32_t t = back ? g->levels + 1 - i : i;
        if (g->degree[t] && !(rc = oc__groups_level(g, t, emit_one, &a))) rc = oc__emit_round(e);
    }
    return rc;
}

/* The chunks the slowest circuit of round t carries, in units of one chunk at a tile's whole
 * rate: the largest part's blocks over floor(W / (g - 1)) lanes (a circuit carrying part A ends,
 * or for the reduce-scatter starts, at a node on exactly g - 1 circuits, g the parts of its
 * merge). 0 when a tile has too few lanes. */
static double round_load(const oc__groups *g, uint32_t t, const oc__formula_in *f) {
    double worst = 0;
    uint32_t child = 0;
    for (uint32_t i = 0; i < g->count[t]; i++) {
        const uint32_t k = g->kids[t][i];
        if (k > 1) {
            uint32_t big = 0;
            for (uint32_t j = 0; j < k; j++)
                if (g->size[t - 1][child + j] > big) big = g->size[t - 1][child + j];
            const double split = oc__formula_split(f, k - 1);
            if (!(split > 0)) return 0;
            if (big * split > worst) worst = big * split;
        }
        child += k;
    }
    return worst;
}

/* The proven least time of the tree's rounds: each alpha + the reconfiguration + its slowest
 * circuit (round_load); < 0 when a round cannot be mapped (too few lanes for its circuits). */
static double tree_bound(const oc__groups *g, const oc__formula_in *f) {
    double t = 0;
    for (uint32_t k = 1; k <= g->levels; k++) {
        if (!g->degree[k]) continue;
        const double load = round_load(g, k, f);
        if (!(load > 0) || !(oc__formula_split(f, g->degree[k]) > 0)) return -1;
        t += f->step_fixed + f->reconfig_s + (f->step_time - f->step_fixed) * load;
    }
    return t;
}

int oc__groups_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "radix") || in->nodes < 2 || in->nodes > OC_GROUPS_MAX_NODES)
        return 0;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, len);
    if (rc) return rc;
    uint64_t rmax = OC_GROUPS_MAX_RADIX < in->nodes ? OC_GROUPS_MAX_RADIX : in->nodes;
    if (f.max_degree && f.max_degree + 1 < rmax) rmax = f.max_degree + 1;
    if (f.lanes && f.lanes + 1 < rmax) rmax = f.lanes + 1;
    for (uint64_t r = 2; r <= rmax && !rc; r++) {
        oc__groups g;
        char inner[256];
        const int built = oc__groups_build(in->nodes, (uint32_t)r, &g, inner, sizeof inner);
        if (built == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        if (built) continue; /* no tree at this radix */
        const double t = tree_bound(&g, &f);
        if (t >= 0) {
            char v[16];
            snprintf(v, sizeof v, "%llu", (unsigned long long)r);
            const oc__bound b = {.time_s = t,
                                 .steps = g.rounds,
                                 .name = "each round: alpha + reconfiguration + its largest part "
                                         "over its share of wavelengths",
                                 .transfers = g.transfers};
            const char *kv[] = {"radix", v};
            rc = oc__search_offer(s, &b, 1, kv);
        }
        oc__groups_free(&g);
    }
    return rc;
}

int oc__groups_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__groups *g = plan->state;
    if (plan->spec.nodes < 2 || !in->lanes) return 0;
    const double payload = in->step_time - in->step_fixed;
    double bw = 0;
    for (uint32_t t = 1; t <= g->levels; t++)
        if (g->degree[t]) bw += payload * round_load(g, t, in);
    return oc__formula_circuits(rep, in, g->rounds, g->rounds, bw);
}
