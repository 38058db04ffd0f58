/*
 * broadcast_ktrees.c — the pipelined broadcast down c fixed d-ary trees of the passive optical
 * star, each processor forwarding in one of them (issue 26, item 2: a counterpart where the
 * star's bound shows a gap; ours, after the multi-tree broadcasts that split a stream over trees
 * whose inner nodes are disjoint, so that every node's sending and receiving are both used).
 *
 * Why. The star's bound for a broadcast is L D + ceil(m / k') message times (relay depth L:
 * every first reception tunes a filter, receivers grow at most k+1-fold a step; m = ceil(SIZE /
 * L) messages over k' = min(k, P - 1) filters; src/bounds/bounds_star.c). `ktree` (one tree,
 * broadcast_ktree.c) tunes S times but takes the whole message in on one filter (S D + m);
 * `chains` takes it in on c filters but tunes in P - 1 rounds ((P - 1) D + m / c). At 1 KiB,
 * L = 1 byte, k = 3, D = 100 both stay 1.9 to 2.1 times the bound from P = 7 to 100.
 *
 * The schedule. The n = P - 1 processors other than the root are positions x = 0 .. n - 1
 * (processor root + 1 + x mod P). Every tree has the shape of the d-ary heap on n places: place
 * 0 (the top) is the root's child, place y > 0 hangs under place (y - 1) / d, and the places with
 * children are the first cnt = floor((n - 2) / d) + 1 (n >= 2; none at n = 1). Tree j puts
 * position (j cnt + y) mod n at place y: its forwarding processors are positions j cnt .. j cnt +
 * cnt - 1, disjoint from the other trees' when c cnt <= n (the plan refuses other pins). The
 * message is cut into q pieces, q a multiple of c (the plan refuses other pins), tree j taking
 * pieces j q / c .. (j + 1) q / c - 1; the root sends tree j's piece i to its top in round i + 1 and a processor at depth h (the top:
 * 1) forwards the piece it got in round t to its children in round t + 1, so piece i of a tree
 * reaches depth h in round i + h: q / c + H - 1 rounds, H the heap's depth. Equal shares keep the
 * root's streams the same every round until all end: the star (net/star.c) hands a sender's
 * lasers out in the order of its receivers, so a tree that stopped a round early would move a
 * later top's stream to another laser, and that top would retune (one more D).
 *  - Streams. A processor forwards in one tree only, to at most d children (d lasers); the root
 *    sends one stream a tree (c lasers); a processor receives one stream a tree (c filters), from
 *    c distinct senders (each forwards in its own tree; the root only to the tops, one a tree).
 *    So with c, d <= k every round is one step.
 *  - Tunings. A processor hears the same c senders from its first reception on, so each filter
 *    tunes once, at the processor's depth in that tree: rounds 1 .. H each tune, H D.
 *  - Time. H D + (q / c + H - 1) ceil(ceil(SIZE / q) / L) L tau, about H D + m / c: at
 *    c = d = k the message term is the bound's m / k' and the tunings H against its L (H = L + 1
 *    where the heap of n places is one level deeper than the (k+1)-fold growth).
 *
 * The search (algos.h's contract). Space: trees c and degree d = 1 .. min(k, P - 1) with c cnt <=
 * n, pieces q from 1 to min(m, 65536, 2^22 / n) walked as q = ceil(m / p) for p = 1, 2, 4, ...
 * messages a piece (a piece is at least a message: more pieces only add rounds); pins trees=
 * (1..64), degree= (1..64), pieces= (a multiple of trees, up to 65536 and 2^25 transfers); the
 * walk rounds q up to a multiple of c. Proven bound of a candidate: q / c + H - 1 rounds (steps), each step's largest stream at least one piece,
 * and rounds 1 .. H each hold a first reception in the tree with the most pieces (every tree has
 * the heap's depth), which tunes a filter: time >= H D + (q / c + H - 1) piece times.
 */
#include "algo/star_fixed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KTREES_MAX_PIECES 65536u
#define KTREES_MAX_TRANSFERS (UINT64_C(1) << 25)

typedef struct ktrees_state {
    uint32_t *depth; /* per heap place: its depth (the top: 1) */
    uint32_t c, d, cnt, height;
    uint64_t q;
} ktrees_state;

static const char *const names[] = {"trees", "degree", "pieces", NULL};

/* The places of the d-ary heap on n places that have children. */
static uint64_t inner_places(uint64_t n, uint64_t d) {
    return n >= 2 ? (n - 2) / d + 1 : 0;
}

/* The depth of the d-ary heap on n places (the top at depth 1). */
static uint64_t heap_depth(uint64_t n, uint64_t d) {
    uint64_t depth = 0, filled = 0, level = 1;
    while (filled < n) {
        filled += level;
        level = level > n / d ? n : level * d;
        depth++;
    }
    return depth;
}

static void kt_release(oc__plan *plan) {
    ktrees_state *st = plan->state;
    if (st) free(st->depth);
    free(st);
    plan->state = NULL;
}

static int kt_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    uint64_t c, d, q;
    int rc = oc__kv_only(params, names, "ktrees", why, len);
    if (rc || (rc = oc__kv_u64(params, "trees", 3, 1, 64, &c, why, len)) ||
        (rc = oc__kv_u64(params, "degree", 3, 1, 64, &d, why, len)) ||
        (rc = oc__kv_u64(params, "pieces", 3, 1, KTREES_MAX_PIECES, &q, why, len)))
        return rc;
    const uint64_t n = nodes ? nodes - 1 : 0, cnt = inner_places(n, d);
    if (c * cnt > n)
        return oc__fail(why, len, OC_EINVAL,
                        "ktrees: trees=%llu x %llu forwarding processors a tree (degree=%llu) "
                        "pass the P - 1 = %llu (each forwards in one tree): fewer trees or a "
                        "larger degree",
                        (unsigned long long)c, (unsigned long long)cnt, (unsigned long long)d,
                        (unsigned long long)n);
    if (q % c)
        return oc__fail(why, len, OC_EINVAL,
                        "ktrees: pieces=%llu: a multiple of trees=%llu (every tree the same "
                        "share, so the root's streams never change lasers)",
                        (unsigned long long)q, (unsigned long long)c);
    const uint64_t transfers = q * n; /* every piece reaches each of the n others once */
    if (transfers > KTREES_MAX_TRANSFERS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "ktrees on %u nodes with %llu pieces is %llu transfers, more than its "
                        "budget of %llu: fewer pieces",
                        nodes, (unsigned long long)q, (unsigned long long)transfers,
                        (unsigned long long)KTREES_MAX_TRANSFERS);
    if ((rc = oc__plan_work("ktrees", nodes, transfers, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)q, why, len))) return rc;
    ktrees_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = st;
    st->c = (uint32_t)c;
    st->d = (uint32_t)d;
    st->q = q;
    st->cnt = (uint32_t)cnt;
    st->depth = oc__malloc_array(n ? n : 1, sizeof *st->depth);
    if (!st->depth) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (uint64_t y = 0; y < n; y++) {
        st->depth[y] = y ? st->depth[(y - 1) / d] + 1 : 1;
        if (st->depth[y] > st->height) st->height = st->depth[y];
    }
    plan->rounds = n ? oc__ceil_div(q, c) + st->height - 1 : 0;
    plan->spec.max_round = n * c;
    plan->spec.units = plan->spec.transfers = transfers; /* a chunk a piece (core.h) */
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)c);
    rc = oc_kv_set(plan->used, "trees", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)d);
    rc |= oc_kv_set(plan->used, "degree", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)q);
    rc |= oc_kv_set(plan->used, "pieces", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

static int kt_generate(const oc__plan *plan, oc__emit *e) {
    const ktrees_state *st = plan->state;
    const uint64_t P = plan->spec.nodes, root = plan->spec.root, n = P - 1, c = st->c;
    if (P < 2) return 0;
    const uint64_t R = oc__ceil_div(st->q, c) + st->height - 1;
    for (uint64_t t = 1; t <= R; t++) {
        for (uint64_t j = 0; j < c; j++) {
            const uint64_t first = j * st->q / c, pieces = (j + 1) * st->q / c - first;
            for (uint64_t y = 0; y < n; y++) {
                /* place y (depth h) receives the tree's piece t - h in round t */
                const uint64_t h = st->depth[y];
                if (t < h || t - h >= pieces) continue;
                const uint64_t x = (j * st->cnt + y) % n;
                const uint64_t from = y ? (j * st->cnt + (y - 1) / st->d) % n : 0;
                const uint64_t src = y ? (root + 1 + from) % P : root;
                int rc = oc__emit_transfer(e, (uint32_t)src, (uint32_t)((root + 1 + x) % P),
                                           OC_OP_COPY, (uint32_t)(first + t - h), 1);
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int kt_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const char *pc = oc_kv_get(in->params, "trees"), *pd = oc_kv_get(in->params, "degree"),
               *pq = oc_kv_get(in->params, "pieces");
    if ((pc && pd && pq) || in->nodes < 2) return 0;
    uint32_t dmax = 1;
    int rc = oc__sf_degrees(in, "ktrees", &dmax, why, len);
    if (rc) return rc;
    uint64_t cpin = 0, dpin = 0, qpin = 0;
    if ((pc && (rc = oc__kv_u64(in->params, "trees", 3, 1, 64, &cpin, why, len))) ||
        (pd && (rc = oc__kv_u64(in->params, "degree", 3, 1, 64, &dpin, why, len))) ||
        (pq && (rc = oc__kv_u64(in->params, "pieces", 3, 1, KTREES_MAX_PIECES, &qpin, why, len))))
        return rc;
    const oc__star_cfg *star = oc__netcfg_star(&in->net->cfg);
    const double m = star->L >= 1 && in->bytes ? ceil((double)in->bytes / star->L) : 1;
    const uint64_t n = in->nodes - 1;
    const double qcap = fmax(1, fmin(fmin(m, KTREES_MAX_PIECES), floor(4194304.0 / (double)n)));
    char cb[32], db[32], qb[32];
    for (uint64_t c = cpin ? cpin : dmax; c >= 1; c--) {
        for (uint64_t d = dpin ? dpin : dmax; d >= 1; d--) {
            if (c * inner_places(n, d) <= n && (!qpin || qpin % c == 0)) {
                const uint64_t H = heap_depth(n, d);
                uint64_t last = 0;
                for (double p = 1;; p *= 2) {
                    const uint64_t q0 = qpin ? qpin : (uint64_t)fmax(1, fmin(qcap, ceil(m / p)));
                    const uint64_t q = qpin ? qpin : oc__ceil_div(q0, c) * c;
                    if (q != last) {
                        last = q;
                        oc__formula_in f;
                        if ((rc = in->figures(in, in->coll, (uint32_t)q, &f, why, len))) return rc;
                        const uint64_t R = oc__ceil_div(q, c) + H - 1;
                        const oc__bound b = {
                            .time_s = (double)H * f.step_fixed +
                                      (double)R * (f.step_time - f.step_fixed),
                            .steps = R,
                            .name = "q / c + H - 1 rounds of a piece each, a tuning in "
                                    "each of the first H",
                            .transfers = q * n};
                        snprintf(cb, sizeof cb, "%llu", (unsigned long long)c);
                        snprintf(db, sizeof db, "%llu", (unsigned long long)d);
                        snprintf(qb, sizeof qb, "%llu", (unsigned long long)q);
                        const char *kv[] = {"trees", cb, "degree", db, "pieces", qb};
                        if ((rc = oc__search_offer(s, &b, 3, kv))) return rc;
                    }
                    if (qpin || q0 <= 1) break;
                }
            }
            if (dpin) break;
        }
        if (cpin) break;
    }
    return 0;
}

const oc__algo oc__algo_broadcast_ktrees = {
    .info = {"ktrees", OC_BROADCAST, "star",
             "pipelined broadcast down c fixed d-ary trees, a processor forwarding in one of them: "
             "each takes the message in on c filters, each filter tuned once",
             "", "q/c + H - 1 rounds of a piece; H tunings",
             "trees=searched 1..min(k, N-1): trees (filters a processor); degree=searched "
             "1..min(k, N-1): children a processor; pieces=searched: pieces of the message"},
    .param_names = names,
    .plan = kt_plan,
    .generate = kt_generate,
    .release = kt_release,
    .search = kt_search,
};
