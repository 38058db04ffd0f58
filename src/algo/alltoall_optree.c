/*
 * alltoall_optree.c — OpTree's multi-stage tree (optree III.D) turned into a personalized
 * all-to-all with combining: a generalised radix (Bruck / index) exchange whose
 * stages are OpTree's stages.
 *
 * The tree. N = m_1 m_2 ... m_k exactly (radices from radix.c; N prime leaves only k = 1, which is
 * the one-stage exchange). Node x has mixed-radix digits with stage 1's digit the least
 * significant: digit t of x is (x / w_t) mod m_t with weight w_t = m_1 ... m_(t-1). Stage t
 * exchanges among the m_t nodes that differ only in digit t: groups of nodes w_t apart, inside
 * segments of w_t m_t contiguous nodes. Stage 1 is OpTree's last stage (short lightpaths inside
 * groups of m_1 neighbours), stage k OpTree's first (m_k nodes spread evenly round the ring).
 *
 * The exchange. Before stage t the packet (s, d) sits on the node whose digits below t are d's
 * and from t up are s's. In stage t node x sends partner y (x with digit t set to v) every packet
 * it holds whose destination has digit t = v: w_t sources (those agreeing with x from digit t up,
 * one contiguous range [x - x mod w_t, + w_t)) times N / (w_t m_t) destinations, N / m_t packets in
 * all. After stage k every packet is on its destination (each digit was set once).
 *
 * Labels. The spec fixes the all-to-all labels: packet (s, d) is label d N + s. A combined message
 * to one partner is therefore one label range per destination it carries (the sources are
 * contiguous because stages run from the least significant digit up): N / (w_t m_t) transfers of
 * w_t packets. They leave in label order per receiver (destination group outermost), so the
 * verifier's per-receiver sort is linear.
 *
 * Closed form (derived here; the seed only treats all-gather). Every transfer of stage t is a
 * lightpath of the subset of m_t nodes spaced w_t apart carrying N/m_t packets (q chunks each).
 *  - Stages t < k: the subsets are line segments of w_t m_t <= N/2 nodes, so no lightpath wraps.
 *    Between subset points i and i+1 the lightpaths of one direction are the (i+1)(m-i-1) pairs
 *    that straddle it, at most floor(m^2/4); the w_t interleaved subsets all straddle the busiest
 *    physical link at that index, so its load is L_t = w_t floor(m_t^2/4) (N/m_t) q. A segment
 *    boundary link is passed by no lightpath, so the ring model's colouring is optimal there:
 *    exactly ceil(L_t / C) steps, C = wavelengths x fibres per direction.
 *  - Stage k: the m_k nodes of a subset are evenly spaced round the whole ring. With shortest
 *    paths a link of one direction carries the pairs at subset distance 1..(m-1)/2 that straddle
 *    it, (m^2-1)/8 for odd m; for even m the antipodal pairs split between the directions, m^2/8
 *    on average. The N/m_k interleaved subsets give L_k = (N/m_k)^2 (m_k^2 - [m_k odd]) q / 8, and
 *    the stage takes at least ceil(L_k / C) steps (at k = 1 this is Lemma 1's one-stage load).
 *  S = sum over t < k of ceil(L_t / C) + ceil(L_k / C). Stages t < k are exact; stage k is a lower
 *  bound that the ring's colouring meets or comes within a few per cent of.
 * What the closed form says about the ring: stage k alone moves as much as one-stage all-to-all
 * (about N^2 q / 8 per link), because on a ring a relayed packet travels at least its shortest
 * distance. Combining saves messages (N sum (m_t - 1) sender-partner pairs, against N (N-1);
 * the figure `messages`) but not wavelength-slots, so on this model the search keeps k = 1 unless
 * rounding favours a deeper tree; the report says so.
 */
#include "algo/algos.h"
#include "algo/radix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const a2a_params[] = {"radices", "k", NULL};

/* The radices in force: pinned, or the exact factorisation of depth k. */
static int a2a_choose(uint32_t N, const oc_kv *params, oc__radices *t, char *why, size_t len) {
    memset(t, 0, sizeof *t);
    const char *radices;
    int rc = oc__radices_args(params, N, &radices, why, len);
    if (rc || N == 1) return rc;
    if (radices) {
        rc = oc__radices_parse(radices, t, why, len);
        if (rc) return rc;
        if (oc__radices_product(t) != N)
            return oc__fail(why, len, OC_EINVAL,
                            "radices=%s: their product must be the number of nodes, %u", radices,
                            N);
        return 0;
    }
    uint64_t k;
    rc = oc__kv_u64(params, "k", 0, 1, oc__radices_max_depth(N), &k, why, len);
    if (rc) return rc;
    if (k == 0) return oc__fail(why, len, OC_EINVAL, "internal: optree plan without radices or k");
    if (!oc__radices_exact(N, (uint32_t)k, t))
        return oc__fail(why, len, OC_EINVAL,
                        "k=%llu: %u nodes have no factorisation into %llu radices of at least 2",
                        (unsigned long long)k, N, (unsigned long long)k);
    return 0;
}

/* Wavelength-slots on the busiest link of one direction in stage j (0-based), see above. */
static double stage_load(const oc__radices *t, uint32_t j, double N, double q) {
    double w = 1;
    for (uint32_t i = 0; i < j; i++)
        w *= t->m[i];
    const double m = t->m[j];
    if (j + 1 < t->k) return w * floor(m * m / 4) * (N / m) * q;
    return (N / m) * (N / m) * (m * m - (t->m[j] % 2 ? 1 : 0)) * q / 8;
}

static double steps_formula(const oc__radices *t, double N, double q, double C) {
    double S = 0;
    for (uint32_t j = 0; j < t->k; j++)
        S += ceil(stage_load(t, j, N, q) / C - 1e-9);
    return S;
}

static uint64_t transfers(const oc__radices *t, uint32_t N) {
    uint64_t n = 0, w = 1;
    for (uint32_t j = 0; j < t->k; j++) {
        n += (uint64_t)N * (t->m[j] - 1) * (N / (w * t->m[j]));
        w *= t->m[j];
    }
    return n;
}

/* ---- the search: every ordered factorisation of N, stage 1 first ----
 * The space: every list m_1 x ... x m_k (m_j >= 2) whose product is N (what plan() accepts);
 * with k= pinned, those of depth k. Every step costs the same (one chunk per packet), so steps
 * order the candidates as time does. A list's bound is the closed form above: stages t < k are
 * exact (a segment end is passed by no lightpath, so the ring model colours them at their load)
 * and stage k is its load bound. A prefix (m_1 .. m_j) is a family: its exact stages, plus at
 * least the last stage's bound for the least radix that can still end it (L_k grows with m_k)
 * and a step for every stage in between; it is expanded only when oc__search_can_win says that
 * can still win. Lists with the same last radix share the last round (the same transfers), so
 * of two such lists the one whose earlier stages sum to no more wins or ties; the later is
 * skipped (the earlier was offered first, or could not win either). */
typedef struct a2a_search_st {
    oc__search *s;
    uint32_t N, kpin;
    double C, step;
    oc__radices cur;
    uint64_t *best_rest; /* by m_k: the least earlier-stage sum offered (UINT64_MAX: none) */
    uint64_t families, skipped;
} a2a_search_st;

static double last_steps(const a2a_search_st *a, uint64_t m) {
    oc__radices one = {.k = 1, .m = {(uint32_t)m}};
    return ceil(stage_load(&one, 0, a->N, 1) / a->C - 1e-9);
}

static int a2a_expand(a2a_search_st *a, uint64_t w, double fixed) {
    const uint32_t N = a->N;
    const uint64_t P = N / w;
    for (uint64_t m = 2; m <= P; m++) {
        if (P % m) continue;
        a->cur.m[a->cur.k++] = (uint32_t)m;
        const int last = m == P;
        int rc = 0;
        if (last && (!a->kpin || a->cur.k == a->kpin)) {
            const double rest = last_steps(a, m), total = fixed + rest;
            if (a->best_rest[m] != UINT64_MAX && (double)a->best_rest[m] <= fixed) {
                a->skipped++;
            } else {
                oc__bound b = {.time_s = total * a->step,
                               .steps = (uint64_t)total,
                               .name = "closed form: exact stages t < k + the last stage's load"};
                int yes = oc__search_can_win(a->s, &b);
                if (yes < 0)
                    rc = yes;
                else if (!yes)
                    a->families++;
                else {
                    char text[256];
                    oc__radices_format(&a->cur, text, sizeof text);
                    const char *kv[] = {"radices", text};
                    rc = oc__search_offer(a->s, &b, 1, kv);
                    if (a->best_rest[m] == UINT64_MAX || fixed < (double)a->best_rest[m])
                        a->best_rest[m] = (uint64_t)fixed;
                }
            }
        } else if (!last && (!a->kpin || a->cur.k < a->kpin) && a->cur.k < OC_RADIX_MAX_STAGES) {
            /* this stage is exact (t < k); the rest needs a last stage of radix >= the least
             * divisor of what remains, and a step for anything before it */
            const double st =
                ceil((double)w * floor((double)(m * m) / 4) * (double)(N / m) / a->C - 1e-9);
            const uint64_t Q = P / m;
            uint64_t least = Q;
            for (uint64_t d = 2; d * d <= Q; d++)
                if (Q % d == 0) {
                    least = d;
                    break;
                }
            const double bound = fixed + st + last_steps(a, least) + (least < Q ? 1 : 0);
            oc__bound b = {.time_s = bound * a->step, .steps = (uint64_t)bound, .name = "prefix"};
            int yes = oc__search_can_win(a->s, &b);
            if (yes < 0)
                rc = yes;
            else if (!yes)
                a->families++;
            else
                rc = a2a_expand(a, w * m, fixed + st);
        }
        a->cur.k--;
        if (rc) return rc;
    }
    return 0;
}

static int a2a_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    const oc_kv *params = in->params;
    if (oc_kv_get(params, "radices") || N < 2) return 0; /* pinned: nothing to search */
    uint64_t kpin = 0;
    int rc = oc__kv_u64(params, "k", 0, 1, oc__radices_max_depth(N), &kpin, why, len);
    if (rc) return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, OC_ALLTOALL, 1, &f, why, len))) return rc;
    a2a_search_st a = {
        .s = s, .N = N, .kpin = (uint32_t)kpin, .C = (double)f.channels, .step = f.step_time};
    if (!(a.best_rest = oc__malloc_array((size_t)N + 1, sizeof *a.best_rest)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (size_t i = 0; i <= N; i++)
        a.best_rest[i] = UINT64_MAX;
    if (!kpin || kpin == 1) { /* the one-stage exchange first: the simplest */
        char text[32];
        snprintf(text, sizeof text, "%u", N);
        const double st = last_steps(&a, N);
        oc__bound b = {.time_s = st * a.step, .steps = (uint64_t)st, .name = "one stage: its load"};
        const char *kv[] = {"radices", text};
        rc = oc__search_offer(s, &b, 1, kv);
        a.best_rest[N] = 0;
    }
    if (!rc) rc = a2a_expand(&a, 1, 0);
    if (!rc && a.families)
        rc =
            oc__search_prune(s, "factorisations whose exact stages and last-stage bound cannot win",
                             NULL, a.families);
    if (!rc && a.skipped)
        rc = oc__search_prune(s,
                              "factorisations with the last radix of one offered before and no "
                              "fewer steps before it",
                              NULL, a.skipped);
    free(a.best_rest);
    if (rc == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return rc;
}

static void a2a_release(oc__plan *plan) {
    free(plan->state);
    plan->state = NULL;
}

static int a2a_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__radices_need(params, a2a_params, nodes, why, len);
    if (rc) return rc;
    oc__radices *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    rc = a2a_choose(nodes, params, t, why, len);
    if (!rc) rc = oc__plan_work("optree", nodes, transfers(t, nodes), why, len);
    if (rc) {
        free(t);
        return rc;
    }
    rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len);
    plan->state = t;
    if (rc) return rc;
    /* the work (core.h): stage j's transfers each carry w_j packets (w_j = m_1 ... m_(j-1)) */
    plan->spec.transfers = transfers(t, nodes);
    for (uint32_t j = 0, w = 1; j < t->k; w *= t->m[j++])
        plan->spec.units += (uint64_t)nodes * (t->m[j] - 1) * (nodes / (w * t->m[j])) * w;
    return oc__radices_record(plan->used, t, nodes, why, len);
}

static int a2a_generate(const oc__plan *plan, oc__emit *e) {
    const oc__radices *t = plan->state;
    const uint64_t N = plan->spec.nodes, q = plan->spec.q;
    uint64_t w = 1;
    for (uint32_t j = 0; j < t->k; j++) {
        const uint64_t m = t->m[j], span = w * m, tops = N / span;
        for (uint64_t top = 0; top < tops; top++)
            for (uint64_t x = 0; x < N; x++) {
                const uint64_t dx = x / w % m, low = x % w, slo = x - low;
                for (uint64_t v = 0; v < m; v++) {
                    if (v == dx) continue;
                    const uint64_t y = x - dx * w + v * w, d = low + v * w + top * span;
                    int rc = oc__emit_transfer(e, (uint32_t)x, (uint32_t)y, OC_OP_COPY,
                                               (uint32_t)((d * N + slo) * q), (uint32_t)(w * q));
                    if (rc) return rc;
                }
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
        w = span;
    }
    return 0;
}

static int a2a_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__radices *t = plan->state;
    const double N = plan->spec.nodes, q = plan->spec.q, C = (double)in->channels;
    int rc = 0;
    oc__formula_steps(rep, in, steps_formula(t, N, q, C));
    const double one =
        N > 1 ? ceil(N * N / 8 * q / C - (plan->spec.nodes % 2 ? q / 8 / C : 0) - 1e-9) : 0;
    rc |= oc__report_num(rep, "k", (double)t->k);
    rc |= oc__report_num(rep, "steps_onestage_formula", one);
    double msgs = 0;
    for (uint32_t j = 0; j < t->k; j++)
        msgs += N * (t->m[j] - 1);
    rc |= oc__report_num(rep, "messages", msgs);
    if (t->k > 1 && rep->steps_formula > one)
        rc |= oc__report_note(rep,
                              "on the ring relaying cannot save wavelength-slots: the last stage "
                              "alone loads a link about as much as one-stage all-to-all (%.0f "
                              "steps); the %u stages need %.0f",
                              one, t->k, rep->steps_formula);
    if (rep->steps != (uint64_t)rep->steps_formula)
        rc |= oc__report_note(rep,
                              "steps differ from the closed form: stages before the last are "
                              "exact; the last (nodes spread round the ring) is a load bound the "
                              "colouring reached within %.3f x (%llu steps, load bound %llu)",
                              rep->steps_lb ? (double)rep->steps / (double)rep->steps_lb : 1.0,
                              (unsigned long long)rep->steps, (unsigned long long)rep->steps_lb);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_optree = {
    .info = {"optree", OC_ALLTOALL, "ring",
             "OpTree's k-stage tree as a combining all-to-all: stage t sets digit t of every "
             "packet's position",
             "product of radices = N",
             "sum_t<k ceil(w_t floor(m_t^2/4) N/m_t / C) + ceil((N/m_k)^2 (m_k^2-[m_k odd]) / 8C)",
             "radices=AxBx...: stage radices, stage 1 (neighbours) first, product N; k=K: depth "
             "with an exact factorisation; unset: chosen by mapped time"},
    .param_names = a2a_params,
    .plan = a2a_plan,
    .generate = a2a_generate,
    .release = a2a_release,
    .search = a2a_search,
    .formula = a2a_formula,
};
