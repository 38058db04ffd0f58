/*
 * allreduce_rdk.c — recursive doubling in mixed radix with one fold, the whole vector each round:
 * the all-reduce for small vectors on the circuit-switched fabric (issue 26, item 2: a counterpart
 * where the fabric's bound shows a gap; ours, after MPICH's recursive doubling, allreduce_rd.c,
 * with radices as in the lumorph seed's Lumorph-4, section 4).
 *
 * Why. On the fabric (net/fabric.c) a round costs alpha (0.7 us) plus, when its circuits change,
 * a reconfiguration (3.7 us), plus its slowest circuit's bytes; at 1 KiB the bytes are nothing
 * (1 KiB over five wavelengths: 11 ns), so a schedule's time is its rounds x 4.4 us. `rhd`
 * halves then doubles (8 rounds at N = 100: a fold, 3 halvings, 3 doublings, an unfold), `rd`
 * (radix 2) does not run on the fabric and would take floor(log2 N) + 2. Sending the whole vector
 * in every round (doubling only) needs half of rhd's rounds, and a tile's MZI switch holds three
 * circuits (lumorph section 2: "1X3 degree"), so a round may exchange with three partners: radix 4.
 *
 * The schedule. Radices r_1 >= r_2 >= ... >= r_k >= 2 with product P <= N; node x < P is the core
 * node with digits x = sum d_i R_i (R_1 = 1, R_(i+1) = R_i r_i); the E = N - P others fold.
 *   fold (when E > 0): extra node P + j reduces its vector into core node j mod P (a core node
 *     takes f = ceil(E / P) of them at most);
 *   round i = 1..k: every core node reduces its whole partial vector into the r_i - 1 core nodes
 *     that differ from it in digit i only (each holds the sum over its digits 1..i-1 subcube, so
 *     the r_i sets are disjoint and together the subcube of digits 1..i);
 *   unfold (when E > 0): core node j mod P copies the sum to extra node P + j.
 * Rounds: k + 2 [E > 0]; circuits a tile: r_i - 1 in round i, f in the fold and the unfold. Every
 * round's circuit set differs from the last one's (round i's pairs differ in digit i alone, the
 * fold's and unfold's pairs have an extra node at one end), so every round pays a
 * reconfiguration: time = sum over rounds of (alpha + reconfig + bytes / (floor(W / d) x rate)),
 * d the round's busiest tile's circuits (the fibres between servers may add passes where they are
 * few). One chunk: the vector is never cut (a piece of it would only pay the same rounds again).
 *
 * The search (algos.h's contract). Space: every non-increasing radix vector (the order of rounds
 * does not change what a round costs on its own; the plan refuses an increasing one, so the
 * pinnable space is the multisets) with radices 2 .. 64, product P <= N and ceil(E / P) <= 64; a
 * radix whose r - 1 circuits, or a fold of f circuits, are more than the network refuses
 * (more than its wavelengths, or its MZI degree without mzi_split) is not offered: it cannot be
 * mapped. Proven bound of a candidate (figures for q = 1): every round at least step_fixed (alpha)
 * + the reconfiguration + the vector over floor(lanes / d) of the tile's lanes, d its busiest
 * tile's circuits (r_i - 1, or f): exactly the model's cost where the fibres are ample, so few
 * candidates are mapped. Steps bound: the rounds. Pins: radices=AxBx... (non-increasing).
 *
 * Where N is no product of radices up to the MZI degree + 1, `rdg` (groups.c) does without the
 * fold: classes of unequal sizes, each at least 1/r of their merge (N = 100: 4 rounds, not 5).
 */
#include "algo/algos.h"
#include "algo/radix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RDK_MAX_RADIX = 64, RDK_MAX_FOLD = 64 };

static const char *const rdk_params[] = {"radices", NULL};

/* The fold's busiest core node: ceil(E / P) extra nodes. */
static uint64_t fold_width(uint64_t N, uint64_t P) {
    return P >= N ? 0 : (N - P + P - 1) / P;
}

static int rdk_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    int rc = oc__kv_only(params, rdk_params, "rdk", why, len);
    if (rc) return rc;
    oc__radices *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    const char *text = oc_kv_get(params, "radices");
    if (nodes < 2) {
        if (text) {
            free(t);
            return oc__fail(why, len, OC_EINVAL, "rdk: radices= for %u node%s: nothing to do",
                            nodes, nodes == 1 ? "" : "s");
        }
    } else if (text) {
        if ((rc = oc__radices_parse(text, t, why, len))) {
            free(t);
            return rc;
        }
    } else {
        /* unsearched (no network): radix 2 up to the largest power of two */
        for (uint64_t P = 2; P <= nodes && t->k < OC_RADIX_MAX_STAGES; P *= 2)
            t->m[t->k++] = 2;
    }
    const uint64_t P = oc__radices_product(t);
    for (uint32_t i = 0; i < t->k && !rc; i++) {
        if (t->m[i] > RDK_MAX_RADIX)
            rc = oc__fail(why, len, OC_EINVAL, "rdk: radices=%s: a radix is at most %d", text,
                          RDK_MAX_RADIX);
        else if (i && t->m[i] > t->m[i - 1])
            rc = oc__fail(why, len, OC_EINVAL,
                          "rdk: radices=%s: not non-increasing (the order of rounds does not "
                          "change their cost; give them largest first)",
                          text);
    }
    if (!rc && nodes >= 2 && P > nodes)
        rc = oc__fail(why, len, OC_EINVAL, "rdk: radices=%s: their product %llu is above N = %u",
                      text, (unsigned long long)P, nodes);
    if (!rc && nodes >= 2 && fold_width(nodes, P) > RDK_MAX_FOLD)
        rc = oc__fail(why, len, OC_EINVAL,
                      "rdk: radices=%s: %llu core nodes would each fold %llu others (at most %d)",
                      text, (unsigned long long)P, (unsigned long long)fold_width(nodes, P),
                      RDK_MAX_FOLD);
    uint64_t work = 0;
    for (uint32_t i = 0; i < t->k; i++)
        work += P * (t->m[i] - 1);
    if (nodes >= 2) work += 2 * (nodes - P);
    if (!rc) rc = oc__plan_work("rdk", nodes, work, why, len);
    if (!rc) rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
    if (!rc) plan->spec.units = plan->spec.transfers = work; /* the work (core.h): one chunk */
    if (!rc && nodes >= 2) {
        char v[OC_RADIX_MAX_STAGES * 4];
        oc__radices_format(t, v, sizeof v);
        if (oc_kv_set(plan->used, "radices", v))
            rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    if (rc) {
        free(t);
        return rc;
    }
    plan->state = t;
    plan->rounds = nodes < 2 ? 0 : t->k + (P < nodes ? 2u : 0u);
    return 0;
}

static void rdk_release(oc__plan *plan) {
    free(plan->state);
    plan->state = NULL;
}

static int rdk_generate(const oc__plan *plan, oc__emit *e) {
    const oc__radices *t = plan->state;
    const uint64_t N = plan->spec.nodes;
    if (N < 2) return 0;
    const uint64_t P = oc__radices_product(t);
    int rc = 0;
    for (uint64_t x = P; x < N && !rc; x++) /* the fold */
        rc = oc__emit_transfer(e, (uint32_t)x, (uint32_t)((x - P) % P), OC_OP_REDUCE, 0, 1);
    if (!rc && P < N) rc = oc__emit_round(e);
    uint64_t R = 1; /* the weight of digit i */
    for (uint32_t i = 0; i < t->k && !rc; i++) {
        const uint64_t r = t->m[i];
        for (uint64_t x = 0; x < P && !rc; x++) {
            const uint64_t d = x / R % r, base = x - d * R;
            for (uint64_t j = 1; j < r && !rc; j++)
                rc = oc__emit_transfer(e, (uint32_t)x, (uint32_t)(base + (d + j) % r * R),
                                       OC_OP_REDUCE, 0, 1);
        }
        if (!rc) rc = oc__emit_round(e);
        R *= r;
    }
    for (uint64_t x = P; x < N && !rc; x++) /* the unfold */
        rc = oc__emit_transfer(e, (uint32_t)((x - P) % P), (uint32_t)x, OC_OP_COPY, 0, 1);
    if (!rc && P < N) rc = oc__emit_round(e);
    return rc;
}

/* One round's least time with its busiest tile on d circuits (figures for one chunk, the vector):
 * alpha, the reconfiguration, the vector over floor(lanes / d) lanes. < 0 when the tile has too
 * few lanes for d circuits (the model refuses it). */
static double round_bound(const oc__formula_in *f, uint64_t d) {
    const double split = oc__formula_split(f, d);
    if (!(split > 0)) return -1;
    return f->step_fixed + f->reconfig_s + (f->step_time - f->step_fixed) * split;
}

typedef struct rdk_walk {
    oc__search *s;
    const oc__formula_in *f;
    uint64_t N, rmax;
    oc__radices cur;
    double core_s; /* the rounds of cur so far */
} rdk_walk;

/* Offers cur (product P) with the fold it needs, then every extension by a radix <= its last. */
static int walk(rdk_walk *w, uint64_t P, uint64_t last) {
    int rc = 0;
    if (w->cur.k) {
        const uint64_t fw = fold_width(w->N, P);
        const double fold = fw ? round_bound(w->f, fw) : 0;
        if (fw <= RDK_MAX_FOLD && fold >= 0) {
            char v[OC_RADIX_MAX_STAGES * 4];
            oc__radices_format(&w->cur, v, sizeof v);
            const uint64_t rounds = w->cur.k + (fw ? 2u : 0u);
            uint64_t transfers = 2 * (w->N - P);
            for (uint32_t i = 0; i < w->cur.k; i++)
                transfers += P * (w->cur.m[i] - 1);
            const oc__bound b = {.time_s = w->core_s + 2 * fold,
                                 .steps = rounds,
                                 .name = "each round: alpha + reconfiguration + the vector over "
                                         "its busiest tile's share of wavelengths",
                                 .transfers = transfers};
            const char *kv[] = {"radices", v};
            if ((rc = oc__search_offer(w->s, &b, 1, kv))) return rc;
        }
    }
    if (w->cur.k >= OC_RADIX_MAX_STAGES) return 0;
    for (uint64_t r = last; r >= 2 && !rc; r--) {
        if (P * r > w->N) continue;
        const double one = round_bound(w->f, r - 1);
        if (one < 0) continue; /* r - 1 circuits: more than the tile has lanes for */
        w->cur.m[w->cur.k++] = (uint32_t)r;
        w->core_s += one;
        rc = walk(w, P * r, r);
        w->core_s -= one;
        w->cur.k--;
    }
    return rc;
}

static int rdk_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "radices") || in->nodes < 2) return 0;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, len);
    if (rc) return rc;
    uint64_t rmax = RDK_MAX_RADIX < in->nodes ? RDK_MAX_RADIX : in->nodes;
    /* a radix above the MZI degree + 1 is refused where rounds are not split */
    if (f.max_degree && f.max_degree + 1 < rmax) rmax = f.max_degree + 1;
    rdk_walk w = {.s = s, .f = &f, .N = in->nodes, .rmax = rmax};
    return walk(&w, 1, rmax);
}

static int rdk_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__radices *t = plan->state;
    const uint64_t N = plan->spec.nodes;
    if (N < 2 || !in->lanes) return 0;
    const uint64_t P = oc__radices_product(t), fw = fold_width(N, P);
    const double payload = in->step_time - in->step_fixed;
    double bw = 0;
    for (uint32_t i = 0; i < t->k; i++)
        bw += payload * oc__formula_split(in, t->m[i] - 1);
    if (fw) bw += 2 * payload * oc__formula_split(in, fw);
    const double rounds = t->k + (fw ? 2.0 : 0.0);
    return oc__formula_circuits(rep, in, rounds, rounds, bw);
}

static const char *const names[] = {"radices", NULL};

const oc__algo oc__algo_allreduce_rdk = {
    .info = {"rdk", OC_ALLREDUCE, "fabric",
             "recursive doubling in mixed radix (up to the MZI degree + 1) with one fold: the "
             "whole vector to r-1 partners a round, extra nodes folded in and out",
             "radices non-increasing, product <= N",
             "k rounds (+2 with a fold), each a reconfiguration",
             "radices=searched: non-increasing, product <= N (e.g. 4x4x4 at N = 100)"},
    .param_names = names,
    .plan = rdk_plan,
    .generate = rdk_generate,
    .release = rdk_release,
    .search = rdk_search,
    .formula = rdk_formula,
};
