/*
 * allreduce_circulant.c — the circulant all-reduce on the WDM ring: the vector in q pieces, the
 * pieces at evenly spread roots (piece j at node floor(j N / q)); every piece is reduced up one
 * spanning tree rotated to its root (the tree's arcs backwards, deepest first, each relay adding
 * its own contribution to what its children sent), then broadcast down the same tree (issue 26,
 * item 2: the all-reduce where few steps of large chunks are cheapest).
 *
 * Why. On the ring a step costs its reconfiguration (25 us) plus its chunk's O/E/O and
 * transmission, so a 4 MiB vector over 1024 nodes cut into N pieces (the reduce-scatter plus
 * all-gather of ring, bidir, stride, ...) pays hundreds of reconfigurations for chunks of 4 KiB.
 * The physical bound's reduction spread (src/bounds/bounds_ring.c) says what every schedule of q
 * chunks needs: q (T(N, S) + N - 1) link slots against 2 N F w a step, T the least length of a
 * depth-S tree. Reducing each piece up one shortest tree of depth h and broadcasting it down the
 * same tree uses 2 E(N, h) slots a piece in 2h rounds, within a factor 2E / (E + N - 1) < 2 of that
 * argument at the same q, and q and h are free to go where the time S g(d / q) is least.
 *
 * The trees (circulant.c). `depth` h: a shortest tree of that depth; `variant` 0 is the one the
 * quadratic programme finds (up to 1024 nodes), 1 the slope merges' (any N): equally short, but
 * their rounds load the links differently. `arity` k instead: the split tree, each holder cutting
 * its segment of the ring into 2k + 1 parts and sending to the middle of the others, depth about
 * log_{2k+1} N; longer than the shortest tree of its depth, but one holder's arcs of a round
 * stay in its own segment, so with few roots they pile up less on one link. The odd roots (by
 * label) run their tree mirrored, so that both directions share each round's arc lengths.
 *
 * Rounds (2h, each root's pieces one label range): reduce rounds t = h .. 1, every offset p of
 * depth t sends to its parent, op reduce, for every root r: (r + p) -> (r + parent(p)); then
 * broadcast rounds t = 1 .. h, the same arcs forwards, op copy. A depth-t node has heard from all
 * its children (depth t + 1, the round before) when it sends, so the root ends the reduction with
 * every contribution once; the broadcast then reaches every node once.
 *
 * Costs and bounds. 2 min(q, N) (N - 1) transfers. A round takes at least ceil(load / (F w))
 * steps, load its busiest directed link's lightpaths. The average-load bound: the q pieces'
 * copies put (plain cw + mirrored ccw) link slots on the N clockwise links (likewise the other
 * way; an arc of exactly half the ring either way, so the mean of both directions bounds too),
 * and a round with a transfer takes a step. The exact-load bound: every directed link's load
 * from difference arrays over the roots' copies, O(min(q, N) N). The search orders every tree
 * (depths 1..min(floor(N/2), 48) of each variant, arities 1..min(64, floor((N-1)/2))) and every q
 * in 1..min(max(4N, 256), 4096, d) by the average-load bound times the step cost of a chunk of
 * d / q, stops where that cannot win, asks the exact-load bound before mapping a candidate, and
 * maps only those it cannot rule out (the ring's colouring met the exact load in every case
 * measured, so the mapping is exact there). N <= 4096.
 */
#include "algo/circulant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CIRC_MAX_PIECES = 4096 };

typedef struct circ_ar {
    oc__circ_tree tree;
    uint32_t q;
    uint32_t *order; /* the offsets 1..N-1 by depth: those of depth t at [first[t], first[t+1]) */
    uint32_t *first; /* depth + 2 entries */
} circ_ar;

static const char *const circ_params[] = {"depth", "variant", "arity", "pieces", NULL};

/* The split trees' arities the algorithm takes: 1..min(64, max(1, floor((N-1)/2))). */
static uint32_t arity_cap(uint32_t N) {
    const uint32_t half = N > 2 ? (N - 1) / 2 : 1;
    return half < 64 ? half : 64;
}

/* One tree: the shortest of a depth (arity 0; variant 0: the quadratic programme's, 1: the slope
 * merges', circulant.c) or the split tree of an arity. */
static int build_tree(uint32_t N, uint32_t depth, uint32_t variant, uint32_t arity,
                      oc__circ_tree *t) {
    if (arity) return oc__circ_tree_split(N, arity, t);
    oc__circ_dp dp;
    int rc = oc__circ_dp_build(&dp, N, depth - 1, (int)variant);
    if (!rc) rc = oc__circ_tree_of(&dp, depth, t);
    oc__circ_dp_free(&dp);
    return rc;
}

/* Every q up to this many pieces is searched; above it, steps of q / 32 (search below). */
#define CIRC_EVERY_PIECES 256u

/* The largest q the algorithm takes at N nodes and `bytes` (a piece is at least one byte). */
static uint64_t pieces_cap(uint32_t N, uint64_t bytes) {
    uint64_t cap = 4 * (uint64_t)N < 256 ? 256 : 4 * (uint64_t)N;
    if (cap > CIRC_MAX_PIECES) cap = CIRC_MAX_PIECES;
    return bytes && bytes < cap ? bytes : cap;
}

/* The pieces rooted at node r: [ceil(r q / N), ceil((r + 1) q / N)). */
static uint32_t root_first(uint32_t r, uint32_t q, uint32_t N) {
    return (uint32_t)oc__ceil_div((uint64_t)r * q, N);
}

/* The roots with pieces, in label order, are numbered 0, 1, ...; the odd ones run the tree
 * mirrored (offset p becomes -p), so that a round's clockwise and counter-clockwise arc lengths
 * share both directions' links. Root r's index is r when q >= N, else its pieces' first label. */
static int mirrored(uint32_t root, uint32_t q, uint32_t N) {
    return (int)((q >= N ? root : root_first(root, q, N)) & 1);
}

/* The pieces on unmirrored and on mirrored roots: below N pieces one a root, the odd labels
 * mirrored; from N on, root by root. */
static void pieces_by_side(uint32_t q, uint32_t N, uint64_t *plain, uint64_t *mirror) {
    *plain = *mirror = 0;
    if (q < N) {
        *mirror = q / 2;
        *plain = q - q / 2;
        return;
    }
    for (uint32_t r = 0; r < N; r++) {
        const uint32_t m = root_first(r + 1, q, N) - root_first(r, q, N);
        if (mirrored(r, q, N))
            *mirror += m;
        else
            *plain += m;
    }
}

/* Round r's proven least steps from the average load of each direction: the clockwise links
 * carry plain cw + mirror ccw link slots in all, the counter-clockwise ones the other way round,
 * an either-way arc on one of them (the mean of both bounds too); at least one step when the
 * round has a transfer. */
static uint64_t round_steps(uint64_t cw, uint64_t ccw, uint64_t either, uint64_t peak,
                            uint32_t arcs, uint64_t plain, uint64_t mirror, uint32_t N,
                            uint64_t channels) {
    if (!arcs) return 0;
    /* one root's copy alone puts `peak` on some link, times its pieces (at least
     * floor(q / N), at least one) */
    const uint64_t q = plain + mirror, least = q / N ? q / N : 1;
    uint64_t load = oc__ceil_div(plain * cw + mirror * ccw, N);
    if (peak * least > load) load = peak * least;
    const uint64_t other = oc__ceil_div(plain * ccw + mirror * cw, N),
                   mean = oc__ceil_div((plain + mirror) * (cw + ccw + either), 2 * (uint64_t)N);
    if (other > load) load = other;
    if (mean > load) load = mean;
    const uint64_t s = oc__ceil_div(load, channels ? channels : 1);
    return s ? s : 1;
}

/* The arcs of each round of one tree, for the bound. */
typedef struct circ_arcs {
    uint64_t cw[OC__CIRC_MAX_DEPTH + 1], ccw[OC__CIRC_MAX_DEPTH + 1],
        either[OC__CIRC_MAX_DEPTH + 1];
    uint64_t peak[OC__CIRC_MAX_DEPTH + 1]; /* one copy's busiest link (half-ring arcs aside) */
    uint32_t count[OC__CIRC_MAX_DEPTH + 1], depth;
} circ_arcs;

/* 0 or OC_ENOMEM. */
static int arcs_of(const oc__circ_tree *t, circ_arcs *a) {
    const uint32_t N = t->N;
    int64_t *diff = calloc(2 * ((size_t)N + 1), sizeof *diff);
    if (!diff) return OC_ENOMEM;
    a->depth = t->depth;
    for (uint32_t r = 1; r <= t->depth; r++) {
        oc__circ_round_arcs(t, r, &a->cw[r], &a->ccw[r], &a->either[r]);
        a->count[r] = t->count[r];
        memset(diff, 0, 2 * ((size_t)N + 1) * sizeof *diff);
        for (uint32_t p = 1; p < N; p++) {
            if (t->label[p] != r) continue;
            uint32_t d = (p + N - t->parent[p]) % N;
            if (2 * d == N) continue;
            const int cw = 2 * d < N;
            if (!cw) d = N - d;
            int64_t *x = diff + (cw ? 0 : N + 1);
            const uint32_t lo = cw ? t->parent[p] : p; /* links lo .. lo + d - 1 */
            x[lo]++;
            if (lo + d <= N)
                x[lo + d]--;
            else {
                x[N]--;
                x[0]++;
                x[lo + d - N]--;
            }
        }
        int64_t run_cw = 0, run_ccw = 0, most = 0;
        for (uint32_t i = 0; i < N; i++) {
            run_cw += diff[i];
            run_ccw += diff[N + 1 + i];
            if (run_cw > most) most = run_cw;
            if (run_ccw > most) most = run_ccw;
        }
        a->peak[r] = (uint64_t)most;
    }
    free(diff);
    return 0;
}

/* Both phases: every round twice; plain and mirror from pieces_by_side. */
static uint64_t bound_steps(const circ_arcs *a, uint64_t plain, uint64_t mirror, uint32_t N,
                            uint64_t channels) {
    uint64_t s = 0;
    for (uint32_t r = 1; r <= a->depth; r++)
        s += round_steps(a->cw[r], a->ccw[r], a->either[r], a->peak[r], a->count[r], plain, mirror,
                         N, channels);
    return 2 * s;
}

/* Both phases' least steps from every directed link's exact load, round by round (difference
 * arrays over the links, every root's copy of the round's arcs added): the busiest link of each
 * direction, at least the mean of both (either-way arcs), over the channels. `work` holds 2N + 2
 * counters. O(roots x N) for the whole tree. */
static uint64_t exact_steps(const oc__circ_tree *t, const uint32_t *order, const uint32_t *first,
                            uint32_t q, uint64_t channels, int64_t *work) {
    const uint32_t N = t->N;
    int64_t *cwd = work, *ccwd = work + N + 1;
    uint64_t s = 0;
    for (uint32_t r = 1; r <= t->depth; r++) {
        if (!t->count[r]) continue;
        for (uint32_t i = 0; i < 2 * N + 2; i++)
            work[i] = 0;
        uint64_t either = 0;
        for (uint32_t root = 0; root < N; root++) {
            const uint32_t m = root_first(root + 1, q, N) - root_first(root, q, N);
            if (!m) continue;
            const int mir = mirrored(root, q, N);
            for (uint32_t i = first[r]; i < first[r + 1]; i++) {
                const uint32_t p = order[i], a = t->parent[p];
                uint32_t d = (p + N - a) % N; /* clockwise length from parent to child */
                if (2 * d == N) {
                    either += (uint64_t)m * d;
                    continue;
                }
                /* the arc's start and its direction after the mirror */
                const uint32_t from = mir ? (root + N - a) % N : (root + a) % N;
                int cw = 2 * d < N;
                if (!cw) d = N - d;
                if (mir) cw = !cw;
                int64_t *diff = cw ? cwd : ccwd;
                /* clockwise links from..from+d-1; counter-clockwise links from-d..from-1 (link
                 * i joins i and i+1), each range maybe wrapping */
                const uint32_t lo = cw ? from : (from + N - d) % N;
                diff[lo] += m;
                if (lo + d <= N)
                    diff[lo + d] -= m;
                else {
                    diff[N] -= m;
                    diff[0] += m;
                    diff[lo + d - N] -= m;
                }
            }
        }
        int64_t run_cw = 0, run_ccw = 0, most = 0, total = 0;
        for (uint32_t i = 0; i < N; i++) {
            run_cw += cwd[i];
            run_ccw += ccwd[i];
            total += run_cw + run_ccw;
            if (run_cw > most) most = run_cw;
            if (run_ccw > most) most = run_ccw;
        }
        const uint64_t mean = oc__ceil_div((uint64_t)total + either, 2 * (uint64_t)N);
        const uint64_t load = (uint64_t)most > mean ? (uint64_t)most : mean;
        const uint64_t steps = oc__ceil_div(load, channels ? channels : 1);
        s += steps ? steps : 1;
    }
    return 2 * s;
}

/* The offsets by depth (c->order, c->first) of c->tree: 0 or OC_ENOMEM. */
static int order_offsets(circ_ar *c) {
    const oc__circ_tree *t = &c->tree;
    const uint32_t depth = t->depth;
    c->order = malloc(t->N * sizeof *c->order);
    c->first = calloc((size_t)depth + 2, sizeof *c->first);
    uint32_t *fill = calloc((size_t)depth + 2, sizeof *fill);
    if (!c->order || !c->first || !fill) {
        free(fill);
        return OC_ENOMEM;
    }
    for (uint32_t r = 1; r <= depth; r++)
        c->first[r + 1] = c->first[r] + t->count[r];
    for (uint32_t p = 1; p < t->N; p++)
        c->order[c->first[t->label[p]] + fill[t->label[p]]++] = p;
    free(fill);
    return 0;
}

static void circ_free(circ_ar *c) {
    oc__circ_tree_free(&c->tree);
    free(c->order);
    free(c->first);
}

static void release(oc__plan *plan) {
    circ_ar *c = plan->state;
    if (c) circ_free(c);
    free(c);
    plan->state = NULL;
}

static int plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t whylen) {
    int rc = oc__kv_only(params, circ_params, "circulant", why, whylen);
    if (rc) return rc;
    if (nodes > OC__CIRC_MAX_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circulant: at most %u nodes (its tree is an O(depth N^2) programme)",
                        (unsigned)OC__CIRC_MAX_NODES);
    const uint32_t cap = oc__circ_depth_cap(nodes);
    if ((oc_kv_get(params, "depth") || oc_kv_get(params, "variant")) && oc_kv_get(params, "arity"))
        return oc__fail(why, whylen, OC_EINVAL,
                        "circulant: depth and variant (a shortest tree) and arity (a split tree) "
                        "exclude each other");
    /* without a network to search on: the shortest tree of depth about log3 N, as many pieces
     * as levels */
    uint64_t depth = 0, arity = 0, q;
    if ((rc = oc__kv_u64(params, "arity", 0, 1, arity_cap(nodes), &arity, why, whylen))) return rc;
    if (!arity && (rc = oc__kv_u64(params, "depth", oc__circ_default_depth(nodes, cap), 1, cap,
                                   &depth, why, whylen)))
        return rc;
    /* the quadratic programme's tree up to OC__CIRC_QUADRATIC_NODES, the slope merges' above */
    uint64_t variant = 1;
    if (!arity && (rc = oc__kv_u64(params, "variant", nodes > OC__CIRC_QUADRATIC_NODES, 0, 1,
                                   &variant, why, whylen)))
        return rc;
    if (!variant && nodes > OC__CIRC_QUADRATIC_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circulant: variant=0 (the quadratic programme's tree) takes at most %u "
                        "nodes",
                        (unsigned)OC__CIRC_QUADRATIC_NODES);
    const uint64_t qcap = pieces_cap(nodes, bytes);
    const uint64_t qdflt = depth ? depth : 2 * arity;
    if ((rc = oc__kv_u64(params, "pieces", qdflt < qcap ? qdflt : qcap, 1, qcap, &q, why, whylen)))
        return rc;
    const uint64_t roots = q < nodes ? q : nodes;
    if ((rc = oc__plan_work("circulant", nodes, 2 * roots * (nodes ? nodes - 1 : 0), why, whylen)))
        return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)q, why, whylen))) return rc;
    /* the work (core.h): every piece up and down a spanning tree, the pieces of one root on an
     * arc together */
    plan->spec.units = 2 * q * (nodes ? nodes - 1 : 0);
    plan->spec.transfers = 2 * roots * (nodes ? nodes - 1 : 0);
    circ_ar *c = calloc(1, sizeof *c);
    if (!c) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    plan->state = c;
    c->q = (uint32_t)q;
    if (nodes >= 2) {
        if (build_tree(nodes, (uint32_t)depth, (uint32_t)variant, (uint32_t)arity, &c->tree) ||
            order_offsets(c))
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        const oc__circ_tree *t = &c->tree;
        uint64_t most = 0;
        for (uint32_t r = 1; r <= t->depth; r++)
            if (t->count[r] > most) most = t->count[r];
        plan->rounds = 2 * (uint64_t)t->depth;
        plan->spec.max_round = most * roots;
    }
    plan->spec.window_skips = 1; /* a round's transfers root by root, in label order */
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)(arity ? arity : depth));
    if (oc_kv_set(plan->used, arity ? "arity" : "depth", v) ||
        (!arity && oc_kv_set(plan->used, "variant", variant ? "1" : "0")))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    snprintf(v, sizeof v, "%llu", (unsigned long long)q);
    return oc_kv_set(plan->used, "pieces", v) ? oc__fail(why, whylen, OC_ENOMEM, "out of memory")
                                              : 0;
}

/* Round r of one phase: every root's pieces over the depth-r arcs, up (reduce) or down (copy),
 * roots in label order; on a windowed emitter a root whose pieces miss the window is skipped. */
static int emit_phase_round(const circ_ar *c, oc__emit *e, uint32_t r, int up) {
    const oc__circ_tree *t = &c->tree;
    const uint32_t N = t->N, k = t->count[r], *offs = c->order + c->first[r];
    if (!k) return 0;
    for (uint32_t root = 0; root < N; root++) {
        const uint32_t lo = root_first(root, c->q, N), hi = root_first(root + 1, c->q, N);
        if (hi <= lo) continue;
        if (e->windowed && (lo >= e->win_hi || hi <= e->win_lo)) {
            oc__emit_skip(e, k);
            continue;
        }
        oc__transfer *out;
        int rc = oc__emit_many(e, k, &out);
        if (rc) return rc;
        const int mir = mirrored(root, c->q, N);
        for (uint32_t i = 0; i < k; i++) {
            const uint32_t p = offs[i], a = t->parent[p];
            const uint32_t child = mir ? (root + N - p) % N : (root + p) % N,
                           parent = mir ? (root + N - a) % N : (root + a) % N;
            *out++ = up ? (oc__transfer){child, parent, lo, hi - lo, (uint32_t)OC_OP_REDUCE}
                        : (oc__transfer){parent, child, lo, hi - lo, (uint32_t)OC_OP_COPY};
        }
    }
    return 0;
}

static int generate(const oc__plan *plan, oc__emit *e) {
    const circ_ar *c = plan->state;
    int rc = 0;
    if (c->tree.N < 2) return 0;
    for (uint32_t r = c->tree.depth; r >= 1 && !rc; r--)
        if (!(rc = emit_phase_round(c, e, r, 1))) rc = oc__emit_round(e);
    for (uint32_t r = 1; r <= c->tree.depth && !rc; r++)
        if (!(rc = emit_phase_round(c, e, r, 0))) rc = oc__emit_round(e);
    return rc;
}

/* The search's trees, grid and scratch, for the walk's callbacks. */
typedef struct circ_search {
    circ_ar *trees;
    circ_arcs *arcs;
    const oc__circ_pieces *g;
    uint64_t channels, nd, nv, d_lo, v_lo, a_lo;
    const uint64_t *side; /* pieces_by_side of each q of the grid */
    int64_t *work;
    uint32_t N;
} circ_search;

/* The average-load bound (bound_steps) of tree i at the grid's j-th q. */
static uint64_t average_bound(void *ctx, uint64_t i, uint64_t j) {
    const circ_search *x = ctx;
    return bound_steps(&x->arcs[i], x->side[2 * j], x->side[2 * j + 1], x->N, x->channels);
}

static int take_tree(void *ctx, uint64_t i, oc__circ_tree *t) {
    ((circ_search *)ctx)->trees[i].tree = *t;
    return 0;
}

/* The exact-load bound (exact_steps, which the mapping equals when the colouring meets the
 * load). */
static int exact_bound(void *ctx, oc__search *s, const oc__circ_cand *c, oc__bound *b, char *why,
                       size_t whylen) {
    (void)s, (void)why, (void)whylen;
    const circ_search *x = ctx;
    const circ_ar *t = &x->trees[c->tree];
    b->steps = exact_steps(&t->tree, t->order, t->first, x->g->q[c->qi], x->channels, x->work);
    b->time_s = (double)b->steps * x->g->step_time[c->qi];
    b->name = "each round's busiest directed link (its exact load) over F w, 2 rounds a level";
    return 0;
}

static size_t offer_params(void *ctx, const oc__circ_cand *c, char (*buf)[24], const char **kv) {
    const circ_search *x = ctx;
    const uint32_t ti = c->tree;
    const int split = ti >= x->nd * x->nv;
    snprintf(buf[0], sizeof buf[0], "%llu",
             (unsigned long long)(split ? x->a_lo + (ti - x->nd * x->nv) : x->d_lo + ti % x->nd));
    snprintf(buf[1], sizeof buf[1], "%llu", (unsigned long long)(split ? 0 : x->v_lo + ti / x->nd));
    snprintf(buf[2], sizeof buf[2], "%u", x->g->q[c->qi]);
    kv[0] = split ? "arity" : "depth", kv[1] = buf[0];
    kv[2] = "pieces", kv[3] = buf[2];
    kv[4] = "variant", kv[5] = buf[1];
    return split ? 2 : 3;
}

/* Every tree (the shortest of each depth, then the split tree of each arity) and every q the user
 * could pin (a tree or q pinned: the rest alone), in order of the average-load bound
 * (bound_steps); before a candidate is offered its exact-load bound (exact_bound) is asked too,
 * and a candidate it rules out is skipped without being mapped (circulant_search.c's walk). */
static int search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    const uint32_t N = in->nodes;
    const int pin_d = oc_kv_get(in->params, "depth") != NULL,
              pin_v = oc_kv_get(in->params, "variant") != NULL,
              pin_a = oc_kv_get(in->params, "arity") != NULL,
              pin_q = oc_kv_get(in->params, "pieces") != NULL;
    if (((pin_d && pin_v) || pin_a) && pin_q) return 0;
    if (((pin_d || pin_v) && pin_a) || N < 2 || N > OC__CIRC_MAX_NODES) return 0;
    const uint32_t acap = arity_cap(N);
    const uint64_t qcap = pieces_cap(N, in->bytes);
    oc__circ_span sp;
    uint64_t a_lo = 1, a_hi = acap, q_lo = 1, q_hi = qcap;
    int rc = oc__circ_pin_trees(in->params, N, &sp, why, whylen);
    if (rc) return rc < 0 ? rc : 0;
    if (pin_a && (rc = oc__kv_u64(in->params, "arity", 1, 1, acap, &a_lo, why, whylen))) return rc;
    if (pin_q && (rc = oc__kv_u64(in->params, "pieces", 1, 1, qcap, &q_lo, why, whylen))) return rc;
    if (pin_d || pin_v) a_lo = 1, a_hi = 0; /* no split trees */
    if (pin_a) {
        a_hi = a_lo;
        sp.d_lo = 1, sp.d_hi = 0; /* no shortest trees */
    }
    if (pin_q) q_hi = q_lo;
    /* The q searched: every one up to CIRC_EVERY_PIECES, then a grid of about 3% steps (each
     * next q is q + ceil(q / 32)) to the cap, the cap included; a pin takes any q. Above a few
     * hundred pieces a piece's share of the step time moves by about 3% from one q of the grid
     * to the next, while mapping every q made large vectors search for minutes (1326 candidates
     * mapped, 160 s, for 528 MiB on 1024 nodes: 42 mapped and 5 s on the grid, a time 0.8%
     * above every q's; 64 MiB 0.9% above); docs/search-speed.md. */
    oc__circ_pieces g;
    oc__formula_in f = {0};
    if ((rc = oc__circ_pieces_grid(in, q_lo, q_hi, CIRC_EVERY_PIECES, 32, &g, &f, why, whylen)))
        return rc;
    /* the trees: variant v_lo's depths d_lo..d_hi, then v_lo + 1's, ..., then the arities */
    const uint64_t nq = g.n, nd = sp.d_hi + 1 - sp.d_lo, nv = nd ? sp.v_hi + 1 - sp.v_lo : 0,
                   na = a_hi + 1 - a_lo, nt = nd * nv + na;
    uint64_t *side = malloc(2 * nq * sizeof *side); /* pieces_by_side of each q */
    circ_search x = {.arcs = malloc(nt * sizeof *x.arcs),
                     .trees = calloc(nt, sizeof *x.trees),
                     .g = &g,
                     .nd = nd,
                     .nv = nv,
                     .d_lo = sp.d_lo,
                     .v_lo = sp.v_lo,
                     .a_lo = a_lo,
                     .N = N,
                     .work = malloc((2 * (size_t)N + 2) * sizeof *x.work)};
    if (!side || !x.arcs || !x.trees || !x.work) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    x.channels = f.channels;
    for (uint64_t j = 0; j < nq; j++)
        pieces_by_side(g.q[j], N, &side[2 * j], &side[2 * j + 1]);
    rc = oc__circ_shortest_trees(N, &sp, &x, take_tree);
    for (uint64_t i = 0; i < na && !rc; i++)
        rc = oc__circ_tree_split(N, (uint32_t)(a_lo + i), &x.trees[nd * nv + i].tree);
    for (uint64_t i = 0; i < nt && !rc; i++)
        if (!(rc = order_offsets(&x.trees[i]))) rc = arcs_of(&x.trees[i].tree, &x.arcs[i]);
    if (rc) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    x.side = side;
    const oc__circ_walk walk = {
        .first = average_bound,
        .first_name = "each round's directed links' average load: ceil(q x arc length / N) "
                      "lightpaths over F w, 2 rounds a level",
        .first_family = "trees and pieces whose average-load bound cannot win",
        .second_family = "a tree and pieces whose exact-load bound cannot win",
        .second = exact_bound,
        .params = offer_params,
        .ctx = &x,
        .by_second = 1};
    rc = oc__circ_search_walk(s, N, nt, &g, &walk, why, whylen);
out:
    for (uint64_t i = 0; x.trees && i < nt; i++)
        circ_free(&x.trees[i]);
    free(x.trees);
    free(x.arcs);
    free(x.work);
    free(side);
    oc__circ_pieces_free(&g);
    return rc;
}

static int formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const circ_ar *c = plan->state;
    if (c->tree.N < 2) {
        oc__formula_steps(rep, in, 0);
        return 0;
    }
    circ_arcs a;
    if (arcs_of(&c->tree, &a)) return OC_ENOMEM;
    uint64_t plain, mirror;
    pieces_by_side(c->q, c->tree.N, &plain, &mirror);
    const uint64_t steps = bound_steps(&a, plain, mirror, c->tree.N, in->channels);
    oc__formula_steps(rep, in, (double)steps);
    if (rep->steps == steps) return 0;
    return oc__report_note(rep,
                           "the trees' rounds bound it at %llu steps (each round's busiest link "
                           "over %llu channels, at least the average of its direction); the "
                           "colouring of their arcs took %llu",
                           (unsigned long long)steps,
                           (unsigned long long)(in->channels ? in->channels : 1),
                           (unsigned long long)rep->steps);
}

const oc__algo oc__algo_allreduce_circulant = {
    .info = {"circulant", OC_ALLREDUCE, "ring",
             "q pieces at spread roots, each reduced up then broadcast down a short tree rotated "
             "to its root: few steps of large chunks",
             "", "2 x sum over the tree's rounds of ceil(ceil(q x arc length / N) / (F w)) steps",
             "depth=searched: a shortest tree's depth, 1..min(floor(N/2), 48); arity=searched "
             "(instead of depth): a split tree's arcs a side a round, 1..min(64, floor((N-1)/2)); "
             "pieces=searched: q, 1..min(max(4N, 256), 4096, bytes) (every q to 256, then steps of "
             "1/32)"},
    .param_names = circ_params,
    .max_nodes = OC__CIRC_MAX_NODES,
    .plan = plan,
    .generate = generate,
    .release = release,
    .search = search,
    .formula = formula,
};
