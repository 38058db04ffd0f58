/*
 * levels.c — the multi-level stride all-gather on the WDM ring, its time-reversed reduce-scatter
 * and the all-reduce made of both (issue 26, item 2: the multi-level generalisation of the
 * two-level stride construction of stride.c, for rings where w is large next to N and the two
 * levels' rounds, about sqrt(N), are more than their loads, about N/(2Fw) each).
 *
 * N = n_1 n_2 ... n_k exactly (each n_j >= 2, and n_1 >= 3 when k >= 2 so that every lightpath is
 * shorter than half the ring). Strides s_0 = N, s_j = s_(j-1) / n_j (s_k = 1); a node's digits
 * x = sum_j d_j s_j, 0 <= d_j < n_j. Level j, ceil((n_j - 1)/2) rounds: the bidirectional ring on
 * stride s_j, node i sending to i + s_j (and i - s_j) what it received the round before (its own
 * set in the first): before level j node i holds the blocks of its class mod s_(j-1) (N/s_(j-1)
 * blocks; at j = 1 its own), and the n_j consecutive classes i - a s_j (a in a window of n_j)
 * are the n_j classes mod s_(j-1) that make up its class mod s_j, so after level k it holds all.
 * Level 1 is the bidirectional ring on every orbit of stride s_1; at k = 1 the bidirectional
 * ring itself; at k = 2 with n = (N/L, L) the stride construction with L | N (stride.c).
 * Labels are the digits reversed (label = sum_j d_j n_1 ... n_(j-1)): a class mod s_j fixes the
 * most significant digits, so every transfer is one contiguous range.
 *
 * Steps: every directed link carries s_j arcs of level j a round, each of N/s_(j-1) blocks:
 * load N/n_j; the arcs starting at i mod s_j = c take colours c b .. c b + b - 1 (b their blocks)
 * and those of one class tile the ring, so the load is met:
 *   steps = sum_j ceil((n_j - 1)/2) ceil(N / (n_j F w))
 * exact (the tests map it), and the search's proven bound. Rounds sum_j ceil((n_j-1)/2), about
 * k N^(1/k) / 2, against k loads of about N/(2 F w) each: more levels when F w is large.
 *
 * Reduce-scatter: the all-gather backwards (the argument of stride.c: each block's tree reaches
 * every node once, so reversed it is an in-tree); all-reduce: both, on N chunks, twice the steps.
 *
 * The search (the search contract, algos.h): the space is every ordered factorisation of N as
 * above (radices= pins one). A few balanced ones are offered first; then a depth-first walk over
 * prefixes, each prefix's levels' steps plus one step for any remaining factor being a proven
 * bound on every list it starts (oc__search_can_win prunes the family), and each complete list
 * offered with its exact steps when they can win. A prime N has one list, N itself.
 */
#include "algo/levels.h"
#include "core/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t level_steps(uint32_t n, uint32_t N, uint64_t C) {
    return (uint64_t)(n / 2) * oc__ceil_div(N / n, C); /* n | N */
}

/* The all-gather's steps at radices r on N nodes and `channels` slots a link (levels.c's essay):
 * sum over levels of ceil((n_j - 1)/2) ceil(N / (n_j channels)). */
static uint64_t levels_steps(const oc__radices *r, uint32_t N, uint64_t channels) {
    const uint64_t C = channels ? channels : 1;
    uint64_t steps = 0;
    if (N < 2) return 0;
    for (uint32_t j = 0; j < r->k; j++)
        steps += level_steps(r->m[j], N, C);
    return steps;
}

/* 0 when r is a list this construction takes on N nodes, else OC_EINVAL with one line. */
static int levels_check(const oc__radices *r, uint32_t N, char *why, size_t whylen) {
    char text[256];
    oc__radices_format(r, text, sizeof text);
    if (oc__radices_product(r) != N)
        return oc__fail(why, whylen, OC_EINVAL,
                        "multilevel radices=%s: their product must be N = %u exactly", text, N);
    if (r->k >= 2 && r->m[0] < 3)
        return oc__fail(
            why, whylen, OC_EINVAL,
            "multilevel radices=%s: the first radix must be at least 3 (a first level of "
            "2 would send across half the ring)",
            text);
    return 0;
}

typedef struct levels_state {
    oc__radices r;
    oc_collective coll;
    uint32_t N;
    uint64_t s[OC_RADIX_MAX_STAGES + 1];
    uint32_t *label, *node; /* a node's label, a label's node */
} levels_state;

static uint64_t levels_rounds(const levels_state *st) {
    uint64_t R = 0;
    for (uint32_t j = 0; j < st->r.k; j++)
        R += st->r.m[j] / 2;
    return R;
}

/* A level's transfers: n - 1 sends a node (u + l = n - 1). */
static uint64_t levels_transfers(const oc__radices *r, uint32_t N) {
    uint64_t t = 0;
    for (uint32_t j = 0; N > 1 && j < r->k; j++)
        t += (uint64_t)N * (r->m[j] - 1);
    return t;
}

static const char *const level_params[] = {"radices", NULL};

int oc__levels_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t whylen) {
    int rc = oc__kv_only(params, level_params, "multilevel", why, whylen);
    if (rc) return rc;
    oc__radices r = {.k = 1, .m = {nodes}};
    const char *text = oc_kv_get(params, "radices");
    if (text && (rc = oc__radices_parse(text, &r, why, whylen))) return rc;
    if (!text && nodes >= 2) {
        /* no network to search on: the exact balanced factorisation of the most levels whose
         * first radix is at least 3, else N itself */
        for (uint32_t k = oc__radices_max_depth(nodes); k >= 2; k--) {
            oc__radices t;
            if (oc__radices_exact(nodes, k, &t) && t.m[0] >= 3 && k <= 3) {
                r = t;
                break;
            }
        }
    }
    if (nodes < 2)
        r = (oc__radices){.k = 0};
    else if ((rc = levels_check(&r, nodes, why, whylen)))
        return rc;
    const int ar = coll == OC_ALLREDUCE;
    if ((rc = oc__plan_work("multilevel", nodes, (ar ? 2 : 1) * levels_transfers(&r, nodes), why,
                            whylen)))
        return rc;
    if ((rc = oc__budget_check(12ull * nodes, "the multilevel labels", why, whylen))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, ar ? nodes : 1, why, whylen)))
        return rc;
    levels_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    plan->state = st;
    st->r = r;
    st->coll = coll;
    st->N = nodes;
    st->s[0] = nodes;
    for (uint32_t j = 0; j < r.k; j++)
        st->s[j + 1] = st->s[j] / r.m[j];
    st->label = oc__malloc_array(nodes ? nodes : 1, sizeof(uint32_t));
    st->node = oc__malloc_array(nodes ? nodes : 1, sizeof(uint32_t));
    if (!ar && nodes > 1) plan->spec.block_node = oc__malloc_array(nodes, sizeof(uint32_t));
    if (!st->label || !st->node || (!ar && nodes > 1 && !plan->spec.block_node))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    for (uint32_t x = 0; x < nodes; x++) {
        uint64_t lab = 0, t = 1;
        for (uint32_t j = 0; j < r.k; j++) {
            lab += (x / st->s[j + 1]) % r.m[j] * t;
            t *= r.m[j];
        }
        st->label[x] = (uint32_t)lab;
        st->node[lab] = x;
        if (plan->spec.block_node) plan->spec.block_node[lab] = x;
    }
    plan->rounds = (ar ? 2 : 1) * levels_rounds(st);
    /* the work (core.h): each label reaches the other N-1 nodes once (twice for all-reduce) */
    plan->spec.units = (ar ? 2 : 1) * (uint64_t)(nodes - 1) * plan->spec.chunks;
    plan->spec.transfers = (ar ? 2 : 1) * levels_transfers(&r, nodes);
    plan->spec.max_round = 2ull * nodes;
    plan->spec.window_skips = 1; /* levels_round: a window's owners are one span */
    if (nodes >= 2) {
        char buf[256];
        oc__radices_format(&r, buf, sizeof buf);
        if (oc_kv_set(plan->used, "radices", buf))
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    }
    return 0;
}

/* All-gather round `k` (counting over the levels), as copies or, reversed, as reductions. A
 * direction's N transfers go out in the order of their owner's label, so the ones touching a
 * windowed emitter's labels [win_lo, win_hi) (a verifier shard) are one span, the owners of the
 * classes the window meets, and the rest are skipped by count (oc__emit_skip). */
static int levels_round(const levels_state *st, oc__emit *e, uint64_t k, int reduce) {
    const uint32_t N = st->N;
    uint32_t j = 0;
    while (k >= st->r.m[j] / 2)
        k -= st->r.m[j++] / 2;
    const uint32_t n = st->r.m[j], r = (uint32_t)k + 1;
    const uint64_t s = st->s[j + 1], width = N / st->s[j], back = (uint64_t)(r - 1) * s % N;
    const uint32_t op = (uint32_t)(reduce ? OC_OP_REDUCE : OC_OP_COPY);
    uint64_t a = 0, b = N;
    if (e->windowed) {
        const uint64_t hi = e->win_hi < N ? e->win_hi : N;
        a = e->win_lo < hi ? e->win_lo / width * width : 0;
        b = e->win_lo < hi ? oc__ceil_div(hi, width) * width : 0;
    }
    for (int up = 1; up >= 0; up--) {
        if (!up && r > (n - 1) / 2) break;
        oc__emit_skip(e, a);
        oc__transfer *out;
        int rc = oc__emit_many(e, b - a, &out);
        if (rc) return rc;
        for (uint64_t lab = a; lab < b; lab++, out++) {
            const uint32_t owner = st->node[lab];
            const uint32_t x = (uint32_t)(up ? (owner + back) % N : (owner + N - back) % N);
            const uint32_t y = (uint32_t)(up ? (x + s) % N : (x + N - s) % N);
            const uint32_t first = (uint32_t)(lab / width * width);
            *out = reduce ? (oc__transfer){y, x, first, (uint32_t)width, op}
                          : (oc__transfer){x, y, first, (uint32_t)width, op};
        }
        oc__emit_skip(e, N - b);
    }
    return 0;
}

int oc__levels_generate(const oc__plan *plan, oc__emit *e) {
    const levels_state *st = plan->state;
    const uint64_t R = levels_rounds(st);
    int rc = 0;
    if (st->N < 2) return 0;
    if (st->coll != OC_ALLGATHER)
        for (uint64_t k = R; k-- > 0 && !rc;)
            if (!(rc = levels_round(st, e, k, 1))) rc = oc__emit_round(e);
    if (st->coll != OC_REDUCESCATTER)
        for (uint64_t k = 0; k < R && !rc; k++)
            if (!(rc = levels_round(st, e, k, 0))) rc = oc__emit_round(e);
    return rc;
}

void oc__levels_release(oc__plan *plan) {
    levels_state *st = plan->state;
    if (!st) return;
    free(st->label);
    free(st->node);
    free(st);
    plan->state = NULL;
}

int oc__levels_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const levels_state *st = plan->state;
    const uint64_t steps =
        (st->coll == OC_ALLREDUCE ? 2 : 1) * levels_steps(&st->r, st->N, in->channels);
    oc__formula_steps(rep, in, (double)steps);
    if (rep->steps == steps || st->N < 2) return 0;
    return oc__report_note(rep,
                           "the closed form counts %llu steps, each level's rounds at load N/n_j "
                           "over %llu channels; %llu were mapped",
                           (unsigned long long)steps, (unsigned long long)in->channels,
                           (unsigned long long)rep->steps);
}

/* ---- the search ---- */

typedef struct levels_walk {
    oc__search *s;
    oc__radices first; /* offered before the walk, not again */
    uint32_t N;
    uint64_t C, times;
    double step;
    oc__radices cur;
    uint64_t families, offered;
} levels_walk;

static const char *const BOUND = "each level's rounds at its exact load: ceil(N / (n_j F w)) steps";

static oc__bound bound_of(const levels_walk *w, uint64_t steps, const oc__radices *r) {
    oc__bound b = {.time_s = (double)(w->times * steps) * w->step,
                   .steps = w->times * steps,
                   .name = BOUND,
                   .transfers = r ? w->times * levels_transfers(r, w->N) : 0};
    return b;
}

static int offer(levels_walk *w, const oc__radices *r, uint64_t steps) {
    char buf[256];
    oc__radices_format(r, buf, sizeof buf);
    const char *kv[] = {"radices", buf};
    oc__bound b = bound_of(w, steps, r);
    w->offered++;
    return oc__search_offer(w->s, &b, 1, kv);
}

/* Extends w->cur (levels' steps so far `fixed`, product P so far) to every list of N. */
static int walk(levels_walk *w, uint64_t P, uint64_t fixed) {
    const uint64_t R = w->N / P;
    for (uint64_t n = 2; n <= R; n++) {
        /* a prefix's divisors are tried one by one (R of them): the search's progress is polled
         * here too, so that a long walk between two candidates offered is heard (and stopped) */
        int tick = oc__stop_tick();
        if (tick) return tick;
        if (R % n || (w->cur.k == 0 && n < 3 && n != R)) continue;
        if (w->cur.k >= OC_RADIX_MAX_STAGES) return 0;
        const uint64_t st = fixed + level_steps((uint32_t)n, w->N, w->C);
        const int last = n == R;
        oc__bound b = bound_of(w, st + (last ? 0 : 1), NULL);
        const int yes = oc__search_can_win(w->s, &b);
        if (yes < 0) return yes;
        w->cur.m[w->cur.k++] = (uint32_t)n;
        int rc = 0;
        if (!yes) {
            w->families++;
        } else if (last) {
            const int again = w->cur.k == w->first.k &&
                              !memcmp(w->cur.m, w->first.m, w->cur.k * sizeof(uint32_t));
            if (!again) rc = offer(w, &w->cur, st);
        } else {
            rc = walk(w, P * n, st);
        }
        w->cur.k--;
        if (rc) return rc;
    }
    return 0;
}

int oc__levels_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "radices") || N < 4) return 0;
    const int ar = in->coll == OC_ALLREDUCE;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, ar ? N : 1, &f, why, whylen);
    if (rc) return rc;
    levels_walk w = {
        .s = s, .N = N, .C = f.channels ? f.channels : 1, .times = ar ? 2 : 1, .step = f.step_time};
    /* the exact balanced lists of every depth first, the best of them as the incumbent */
    oc__radices best = {.k = 1, .m = {N}};
    uint64_t best_steps = levels_steps(&best, N, w.C);
    for (uint32_t k = 2; k <= oc__radices_max_depth(N); k++) {
        oc__radices t;
        if (!oc__radices_exact(N, k, &t) || t.m[0] < 3) continue;
        const uint64_t st = levels_steps(&t, N, w.C);
        if (st < best_steps) best = t, best_steps = st;
    }
    w.first = best;
    if ((rc = offer(&w, &best, best_steps))) return rc;
    if ((rc = walk(&w, 1, 0))) return rc;
    if (w.families) {
        oc__bound b = bound_of(&w, best_steps, NULL);
        rc = oc__search_prune(s, "radix-list prefixes whose levels' steps cannot win", &b,
                              w.families);
    }
    if (rc == OC_ENOMEM) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    return rc;
}
