/*
 * broadcast_ktree.c — the pipelined broadcast down one fixed d-ary tree of the passive optical
 * star: each processor's filter tuned once, at its first reception (issue 26, item 2; ours; the
 * tree in star_fixed.c).
 *
 * Why. The star's bound for a broadcast is L D + ceil(m / k') message times (L the relay depth:
 * every first reception tunes a filter, and receivers grow at most k+1-fold a step; m = ceil(SIZE
 * / L) messages over k' = min(k, P - 1) filters; src/bounds/bounds_star.c). TCP1 sends the whole
 * message a level (h m), TCP1-split pays the third phase's tunings, and `chains` (broadcast_
 * chains.c) fills its P - 1 positions one a step, (P - 1) D: at D = 100, 1 KiB, L = 1, P = 9, k = 3
 * the best of them (TCP1-split) is 2.79 times the bound.
 *
 * The schedule. The complete d-ary tree rooted at the root (star_fixed.c), height S (the least
 * with 1 + d + ... + d^S >= P); the message in q pieces. The root sends piece i to all its
 * children in round i + 1, and a processor at depth j forwards the piece it got in round t to all
 * its children in round t + 1: piece i reaches depth j in round i + j, q + S - 1 rounds. A
 * processor sends to all its children or to none, on the same lasers every round, and hears its
 * parent alone: its filter tunes at its first reception (round = its depth) and never again.
 *   time = S D + (q + S - 1) ceil(ceil(SIZE / q) / L) L tau: S tunings (the relay depth's where
 *   1 + d + ... + d^S and (k+1)^S cross the same P) and about m + (S - 1) m / q message times.
 *   Each processor takes in the whole message on one filter, so the message term is m, not the
 *   bound's m / k': at most (S D + m) / (L D + m / k') of it, about k' where m dominates (where
 *   `chains` and TCP1-split come closer) and 1 where D does.
 *
 * The search (algos.h's contract). Space: degree d = 1 .. min(k, P - 1), pieces q from 1 to
 * min(m, 65536, 2^22 / (P - 1)) walked as q = ceil(m / p) for p = 1, 2, 4, ... messages a piece
 * (a piece is at least a message: more pieces only add rounds); pins degree= (1..64), pieces=
 * (up to 65536 and 2^25 transfers). Proven bound of a candidate: q + S - 1 rounds (steps), each
 * step's largest stream at least one piece, and rounds 1 .. S each hold a first reception, which
 * tunes a filter (filters start untuned): time >= S D + (q + S - 1) piece times.
 */
#include "algo/star_fixed.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KTREE_MAX_PIECES 65536u
#define KTREE_MAX_TRANSFERS (UINT64_C(1) << 25)

typedef struct bktree_state {
    uint32_t *parent, *depth, height, d;
    uint64_t q;
} bktree_state;

static const char *const names[] = {"degree", "pieces", NULL};

static void bk_release(oc__plan *plan) {
    bktree_state *st = plan->state;
    if (st) {
        free(st->parent);
        free(st->depth);
    }
    free(st);
    plan->state = NULL;
}

static int bk_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    uint64_t d, q;
    int rc = oc__kv_only(params, names, "ktree", why, len);
    if (rc || (rc = oc__kv_u64(params, "degree", 3, 1, 64, &d, why, len)) ||
        (rc = oc__kv_u64(params, "pieces", 1, 1, KTREE_MAX_PIECES, &q, why, len)))
        return rc;
    /* every piece reaches each of the P - 1 other processors once */
    const uint64_t transfers = q * (uint64_t)(nodes - 1);
    if (transfers > KTREE_MAX_TRANSFERS)
        return oc__fail(why, len, OC_ETOOBIG,
                        "ktree on %u nodes with %llu pieces is %llu transfers, more than its "
                        "budget of %llu: fewer pieces",
                        nodes, (unsigned long long)q, (unsigned long long)transfers,
                        (unsigned long long)KTREE_MAX_TRANSFERS);
    if ((rc = oc__plan_work("ktree", nodes, transfers, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)q, why, len))) return rc;
    bktree_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = st;
    st->d = (uint32_t)d;
    st->q = q;
    if ((rc = oc__sf_tree(nodes, st->d, &st->parent, &st->depth, &st->height, why, len))) return rc;
    plan->rounds = nodes > 1 ? q + st->height - 1 : 0;
    plan->spec.max_round = nodes;
    plan->spec.units = plan->spec.transfers = transfers; /* the work (core.h): a chunk a piece */
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)d);
    rc = oc_kv_set(plan->used, "degree", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)q);
    rc |= oc_kv_set(plan->used, "pieces", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

static int bk_generate(const oc__plan *plan, oc__emit *e) {
    const bktree_state *st = plan->state;
    const uint32_t P = plan->spec.nodes, root = plan->spec.root;
    if (P < 2) return 0;
    const uint64_t R = st->q + st->height - 1;
    for (uint64_t t = 1; t <= R; t++) {
        for (uint32_t x = 1; x < P; x++) {
            /* position x (depth j) receives piece t - j in round t */
            if (t < st->depth[x] || t - st->depth[x] >= st->q) continue;
            int rc = oc__emit_transfer(e, (root + st->parent[x]) % P, (root + x) % P, OC_OP_COPY,
                                       (uint32_t)(t - st->depth[x]), 1);
            if (rc) return rc;
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int bk_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const char *pd = oc_kv_get(in->params, "degree"), *pq = oc_kv_get(in->params, "pieces");
    if ((pd && pq) || in->nodes < 2) return 0;
    uint32_t dmax = 1;
    int rc = oc__sf_degrees(in, "ktree", &dmax, why, len);
    if (rc) return rc;
    uint64_t dpin = 0, qpin = 0;
    if ((pd && (rc = oc__kv_u64(in->params, "degree", 3, 1, 64, &dpin, why, len))) ||
        (pq && (rc = oc__kv_u64(in->params, "pieces", 1, 1, KTREE_MAX_PIECES, &qpin, why, len))))
        return rc;
    const oc__star_cfg *star = oc__netcfg_star(&in->net->cfg);
    const double m = star->L >= 1 && in->bytes ? ceil((double)in->bytes / star->L) : 1;
    const uint64_t n = in->nodes - 1;
    const double qcap = fmax(1, fmin(fmin(m, KTREE_MAX_PIECES), floor(4194304.0 / (double)n)));
    char db[32], qb[32];
    for (uint64_t d = dpin ? dpin : dmax; d >= 1; d--) {
        const uint64_t S = oc__sf_tree_height(in->nodes, d);
        uint64_t last = 0;
        for (double p = 1;; p *= 2) {
            uint64_t q = qpin ? qpin : (uint64_t)fmax(1, fmin(qcap, ceil(m / p)));
            if (q != last) {
                last = q;
                oc__formula_in f;
                if ((rc = in->figures(in, in->coll, (uint32_t)q, &f, why, len))) return rc;
                const uint64_t R = q + S - 1;
                const oc__bound b = {
                    .time_s = (double)S * f.step_fixed + (double)R * (f.step_time - f.step_fixed),
                    .steps = R,
                    .name = "q + S - 1 rounds of a piece each, a tuning in each of the first S",
                    .transfers = q * n};
                snprintf(db, sizeof db, "%llu", (unsigned long long)d);
                snprintf(qb, sizeof qb, "%llu", (unsigned long long)q);
                const char *kv[] = {"degree", db, "pieces", qb};
                if ((rc = oc__search_offer(s, &b, 2, kv))) return rc;
            }
            if (qpin || q <= 1) break;
        }
        if (dpin) break;
    }
    return 0;
}

const oc__algo oc__algo_broadcast_ktree = {
    .info = {"ktree", OC_BROADCAST, "star",
             "pipelined broadcast down one fixed d-ary tree: q pieces, a level a round, each "
             "filter tuned at its first reception",
             "", "q + S - 1 rounds of a piece; S tunings",
             "degree=searched 1..min(k, N-1): children a processor; pieces=searched: pieces of "
             "the message (a power-of-two messages each)"},
    .param_names = names,
    .plan = bk_plan,
    .generate = bk_generate,
    .release = bk_release,
    .search = bk_search,
};
