/*
 * circulant_search.c — the search scaffolding the circulant all-reduces share (the lockstep
 * `circulant`, allreduce_circulant.c, and the pipelined `circpipe`, allreduce_circpipe.c; the
 * default depth also the rotated all-gather and reduce-scatter's, circulant_rotated.c): the
 * user's pins of a shortest tree folded into the depths and variants searched, the grid of piece
 * counts q with each one's step time, the shortest trees of every depth and variant from one
 * programme a variant, the candidates sorted by their bound, and the walk that asks a candidate's
 * first bound, then its second, before it offers it (the search contract, algos.h).
 *
 * What stays in each algorithm is what differs: its bounds (the all-reduce's average and exact
 * link loads; circpipe's latency-and-slots bound and its greedy's rounds), its own parameters
 * (arity, lanes) and its grid's constants. Before this file each of the two kept its own copy of
 * all of the above (duplicates' D1, eight runs); the two searches offer the same candidates, in
 * the same order, with the same bounds and prune records as before (the run output of both was
 * compared byte for byte on a grid of N, w and sizes; docs/bounds-gap.md). Since then the
 * all-reduce offers least second bound first (the pool below, walk.by_second): its log lists
 * the candidates in that order, the same answers (docs/search-speed.md, "Slow corners, second
 * survey"); circpipe keeps the walk and its log.
 */
#include "algo/circulant.h"

#include <stdio.h>
#include <stdlib.h>

uint32_t oc__circ_default_depth(uint32_t N, uint32_t cap) {
    uint32_t d = 1;
    for (uint64_t reach = 3; reach < N && d < cap; reach *= 3)
        d++;
    return d;
}

int oc__circ_pin_trees(const oc_kv *params, uint32_t N, oc__circ_span *sp, char *why,
                       size_t whylen) {
    const uint32_t cap = oc__circ_depth_cap(N);
    *sp = (oc__circ_span){.d_lo = 1, .d_hi = cap, .v_lo = N > OC__CIRC_QUADRATIC_NODES, .v_hi = 1};
    int rc;
    if (oc_kv_get(params, "depth")) {
        if ((rc = oc__kv_u64(params, "depth", 1, 1, cap, &sp->d_lo, why, whylen))) return rc;
        sp->d_hi = sp->d_lo;
    }
    if (oc_kv_get(params, "variant")) {
        uint64_t v = 0;
        if ((rc = oc__kv_u64(params, "variant", 1, 0, 1, &v, why, whylen))) return rc;
        if (v < sp->v_lo) return 1; /* the plan refuses it, saying why */
        sp->v_lo = sp->v_hi = v;
    }
    return 0;
}

/* The q after q on a search's grid up to hi (hi + 1 past the end): every q below `every`, then
 * steps of ceil(q / step), hi itself last. */
static uint64_t next_pieces(uint64_t q, uint64_t hi, uint64_t every, uint64_t step) {
    if (q >= hi) return hi + 1;
    const uint64_t next = q < every ? q + 1 : q + (q + step - 1) / step;
    return next < hi ? next : hi;
}

void oc__circ_pieces_free(oc__circ_pieces *g) {
    free(g->q);
    free(g->step_time);
    g->q = NULL;
    g->step_time = NULL;
    g->n = 0;
}

int oc__circ_pieces_grid(const oc__search_in *in, uint64_t lo, uint64_t hi, uint64_t every,
                         uint64_t step, oc__circ_pieces *g, oc__formula_in *f, char *why,
                         size_t whylen) {
    *g = (oc__circ_pieces){0};
    uint64_t n = 0;
    for (uint64_t q = lo; q <= hi; q = next_pieces(q, hi, every, step))
        n++;
    g->q = malloc((n ? n : 1) * sizeof *g->q);
    g->step_time = malloc((n ? n : 1) * sizeof *g->step_time);
    if (!g->q || !g->step_time) {
        oc__circ_pieces_free(g);
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    }
    for (uint64_t q = lo; q <= hi; q = next_pieces(q, hi, every, step))
        g->q[g->n++] = (uint32_t)q;
    int rc = 0;
    for (uint64_t j = 0; j < g->n && !rc; j++) {
        rc = in->figures(in, in->coll, g->q[j], f, why, whylen);
        g->step_time[j] = f->step_time;
    }
    if (rc) oc__circ_pieces_free(g);
    return rc;
}

int oc__circ_shortest_trees(uint32_t N, const oc__circ_span *sp, void *ctx,
                            int (*take)(void *ctx, uint64_t i, oc__circ_tree *t)) {
    if (sp->d_hi < sp->d_lo) return 0;
    const uint64_t nd = sp->d_hi + 1 - sp->d_lo;
    int rc = 0;
    for (uint64_t v = sp->v_lo; v <= sp->v_hi && !rc; v++) {
        oc__circ_dp dp;
        if ((rc = oc__circ_dp_build(&dp, N, (uint32_t)sp->d_hi - 1, (int)v))) break;
        for (uint64_t i = 0; i < nd && !rc; i++) {
            oc__circ_tree t;
            if (!(rc = oc__circ_tree_of(&dp, (uint32_t)(sp->d_lo + i), &t)))
                rc = take(ctx, (v - sp->v_lo) * nd + i, &t);
        }
        oc__circ_dp_free(&dp);
    }
    return rc;
}

static int by_bound(const void *a, const void *b) {
    const oc__circ_cand *x = a, *y = b;
    if (x->time_s != y->time_s) return x->time_s < y->time_s ? -1 : 1;
    if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
    if (x->tree != y->tree) return x->tree < y->tree ? -1 : 1;
    return x->qi < y->qi ? -1 : x->qi > y->qi;
}

/* ---- the pool: least second bound first ----
 *
 * The walk above offers a candidate as soon as its second bound can win, in the order of the
 * first bound; the search maps it before the next bound is asked (can_win), so a candidate of a
 * low average load and a high exact load is mapped before one whose exact load is lower (the
 * ring at N = 4096, 256 MiB: 18 mapped, the winner found late, after candidates of 7.3 ms).
 * The pool keeps the candidates whose second bound was asked and that are not offered yet, in a
 * heap by that bound (time, then steps, then the order of the first bound). The next candidate by
 * first bound has its second asked while its first bound is below the pool's least second bound
 * (or the pool is empty); else the pool's least is offered, or pruned alone when it can no longer
 * win. Every candidate left unasked has a first bound, and so a second, at least the one offered:
 * the candidates are offered in the order of their second bounds, each asked only when it could
 * come next. A candidate's first bound that cannot win prunes it and every later one by first
 * bound as one family (as in the walk); the pool's own are then pruned alone by their second
 * bound. The search's choice is the same over the same candidates (the contract: every candidate
 * mapped or pruned by a proven bound); the log lists them in the new order, and a full tie of
 * mapped costs goes to the one offered first, now the one of lower second bound. */

typedef struct pooled {
    oc__bound b;
    oc__circ_cand c;
    size_t order; /* its place in the order of the first bound */
} pooled;

static int pooled_before(const pooled *x, const pooled *y) {
    if (x->b.time_s != y->b.time_s) return x->b.time_s < y->b.time_s;
    if (x->b.steps != y->b.steps) return x->b.steps < y->b.steps;
    return x->order < y->order;
}

static void pool_push(pooled *h, size_t *n, const pooled *x) {
    size_t at = (*n)++;
    while (at) {
        const size_t up = (at - 1) / 2;
        if (!pooled_before(x, &h[up])) break;
        h[at] = h[up];
        at = up;
    }
    h[at] = *x;
}

static pooled pool_pop(pooled *h, size_t *n) {
    const pooled top = h[0], last = h[--*n];
    size_t at = 0;
    for (;;) {
        size_t kid = 2 * at + 1;
        if (kid >= *n) break;
        if (kid + 1 < *n && pooled_before(&h[kid + 1], &h[kid])) kid++;
        if (!pooled_before(&h[kid], &last)) break;
        h[at] = h[kid];
        at = kid;
    }
    if (*n) h[at] = last;
    return top;
}

/* Whether first bound f comes before the pooled candidate p in the order of offers. */
static int first_before(const oc__circ_cand *f, const pooled *p) {
    if (f->time_s != p->b.time_s) return f->time_s < p->b.time_s;
    return f->steps < p->b.steps;
}

static int pool_walk(oc__search *s, uint32_t N, const oc__circ_pieces *g, const oc__circ_walk *w,
                     oc__circ_cand *c, size_t n, char *why, size_t whylen) {
    pooled *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    size_t nh = 0, i = 0;
    int rc = 0;
    while (!rc && (i < n || nh)) {
        if (i < n && (!nh || first_before(&c[i], &h[0]))) {
            const uint64_t q = g->q[c[i].qi], roots = q < N ? q : N;
            pooled x = {.b = {.time_s = c[i].time_s,
                              .steps = c[i].steps,
                              .name = w->first_name,
                              .transfers = 2 * roots * (N - 1)},
                        .c = c[i],
                        .order = i};
            int yes = oc__search_can_win(s, &x.b);
            if (yes < 0) {
                rc = yes;
            } else if (!yes) {
                rc = oc__search_prune(s, w->first_family, &x.b, n - i);
                i = n;
            } else if (!(rc = w->second(w->ctx, s, &c[i], &x.b, why, whylen))) {
                pool_push(h, &nh, &x);
                i++;
            }
            continue;
        }
        const pooled x = pool_pop(h, &nh);
        int yes = oc__search_can_win(s, &x.b);
        if (yes < 0) {
            rc = yes;
        } else if (!yes) {
            rc = oc__search_prune(s, w->second_family, &x.b, 1);
        } else {
            char buf[4][24];
            const char *kv[8];
            const size_t pairs = w->params(w->ctx, &x.c, buf, kv);
            rc = oc__search_offer(s, &x.b, pairs, kv);
        }
    }
    free(h);
    return rc;
}

int oc__circ_search_walk(oc__search *s, uint32_t N, uint64_t trees, const oc__circ_pieces *g,
                         const oc__circ_walk *w, char *why, size_t whylen) {
    const uint64_t cands = trees * g->n;
    oc__circ_cand *c = malloc((cands ? cands : 1) * sizeof *c);
    if (!c) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    size_t n = 0;
    for (uint64_t i = 0; i < trees; i++)
        for (uint64_t j = 0; j < g->n; j++) {
            const uint64_t steps = w->first(w->ctx, i, j);
            c[n++] =
                (oc__circ_cand){(double)steps * g->step_time[j], steps, (uint32_t)i, (uint32_t)j};
        }
    qsort(c, n, sizeof *c, by_bound);
    if (w->by_second) {
        const int rc = pool_walk(s, N, g, w, c, n, why, whylen);
        free(c);
        return rc;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const uint64_t q = g->q[c[i].qi], roots = q < N ? q : N;
        oc__bound b = {.time_s = c[i].time_s,
                       .steps = c[i].steps,
                       .name = w->first_name,
                       .transfers = 2 * roots * (N - 1)};
        int yes = oc__search_can_win(s, &b);
        if (yes < 0) {
            rc = yes;
            break;
        }
        if (!yes) {
            rc = oc__search_prune(s, w->first_family, &b, n - i);
            break;
        }
        if ((rc = w->second(w->ctx, s, &c[i], &b, why, whylen))) break;
        if ((yes = oc__search_can_win(s, &b)) < 0) {
            rc = yes;
            break;
        }
        if (!yes) {
            rc = oc__search_prune(s, w->second_family, &b, 1);
            continue;
        }
        char buf[4][24];
        const char *kv[8];
        const size_t pairs = w->params(w->ctx, &c[i], buf, kv);
        rc = oc__search_offer(s, &b, pairs, kv);
    }
    free(c);
    return rc;
}
