/*
 * broadcast_tcp1split.c — the three-phase multiple broadcast on the passive optical star
 * (passive-optical-star 3.2.2), parameter h' (0 <= h' <= h; parameter hp).
 *
 * The m messages are cut into (k+1)^h' pieces of w = m/(k+1)^h' messages; a piece's index has h'
 * base-(k+1) digits, digit 0 the most significant.
 *  1. Broadcast-split, TCP1 steps 1..h': the holder i sends its child c = (k+1)^(l-1) + i k + j
 *     the (k+1)^(h'-l) pieces whose digits 0..l-1 are c's pattern: i's pattern, zeros up to digit
 *     l-2, and j + 1 at digit l-1 (one label range, m/(k+1)^l messages). Padded with zeros, the
 *     patterns give every processor below (k+1)^h' a distinct piece pi(v).
 *  2. Broadcast, TCP1 steps h'+1..h: every reached processor sends its children its piece pi
 *     (w messages), which they take as theirs; a processor reached at relative step r with index j
 *     gets position pos(parent) + (j+1)(k+1)^(r-1) inside its phase-1 ancestor's subtree.
 *  3. Exchange, h' TCP2 steps: the cliques are the processors of one position whose pieces differ
 *     in one digit, digit h'-1 first; each processor sends the (k+1)^s pieces it holds at step s.
 *   T_com = (2/k ((k+1)^h' - 1) + h - h') m/(k+1)^h';  T_tune = ((P-1) + h' P k) D;  h + h' steps.
 * Dummy nodes are folded onto processor x mod P (star_tcp_common.c). The seed's phase-3 cost is
 * printed as a sum "from i = h' to 1"; we read it as the reverse of phase 1.
 */
#include "algo/star_tcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct split {
    oc__tcp t;
    uint32_t hp;
    uint64_t w;     /* messages per piece */
    uint64_t *pi;   /* per virtual processor: its piece (after phase 2) */
    uint64_t *pos;  /* per virtual processor: its position in its ancestor's subtree */
    uint64_t *who;  /* (position, piece) -> the virtual processor */
    uint32_t *step; /* per virtual processor: the TCP1 step it is reached in (0 for 0) */
} split;

static void split_release(oc__plan *plan) {
    split *s = plan->state;
    if (!s) return;
    oc__tcp_free(&s->t);
    free(s->pi);
    free(s->pos);
    free(s->who);
    free(s->step);
    free(s);
    plan->state = NULL;
}

static const char *const names[] = {"k", "m", "hp", NULL};

static int split_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    uint64_t k, m, hp;
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    int rc = oc__kv_only(params, names, "tcp1-split", why, len);
    if (rc || (rc = oc__kv_u64(params, "k", 3, 1, 64, &k, why, len))) return rc;
    oc__tcp probe;
    if ((rc = oc__tcp_init(&probe, nodes, (uint32_t)k, why, len))) return rc;
    const uint32_t h = probe.h;
    const uint64_t Pv = probe.Pv;
    oc__tcp_free(&probe);
    if (Pv > (UINT64_C(1) << 22))
        return oc__fail(why, len, OC_ETOOBIG, "tcp1-split: (k+1)^h = %llu is too large",
                        (unsigned long long)Pv);
    if ((rc = oc__kv_u64(params, "hp", h, 0, h, &hp, why, len))) return rc;
    uint64_t parts = 1;
    for (uint64_t i = 0; i < hp; i++)
        parts *= k + 1;
    if ((rc = oc__kv_u64(params, "m", Pv, 1, 1u << 22, &m, why, len))) return rc;
    if (m % parts)
        return oc__fail(why, len, OC_ENOTSUP,
                        "tcp1-split: m = %llu messages cannot be cut into (k+1)^h' = %llu equal "
                        "pieces",
                        (unsigned long long)m, (unsigned long long)parts);
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)m, why, len))) return rc;
    split *s = calloc(1, sizeof *s);
    if (!s) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = s;
    if ((rc = oc__tcp_init(&s->t, nodes, (uint32_t)k, why, len))) return rc;
    s->hp = (uint32_t)hp;
    s->w = m / parts;
    s->pi = oc__calloc(Pv, sizeof(uint64_t));
    s->pos = oc__calloc(Pv, sizeof(uint64_t));
    s->who = oc__calloc(Pv, sizeof(uint64_t));
    s->step = oc__calloc(Pv, sizeof(uint32_t));
    if (!s->pi || !s->pos || !s->who || !s->step)
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    const oc__tcp *t = &s->t;
    /* pieces: digit d of the piece index has weight K^(hp-1-d) */
    for (uint32_t l = 1; l <= t->h; l++)
        for (uint64_t i = 0; i < t->pw[l - 1]; i++)
            for (uint32_t j = 0; j < k; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                s->step[c] = l;
                if (l <= hp) {
                    s->pi[c] = s->pi[i] + (j + 1) * t->pw[hp - l];
                    s->pos[c] = 0;
                } else {
                    s->pi[c] = s->pi[i];
                    s->pos[c] = s->pos[i] + (j + 1) * t->pw[l - hp - 1];
                }
            }
    for (uint64_t v = 0; v < Pv; v++)
        s->who[s->pos[v] * parts + s->pi[v]] = v;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)k);
    rc |= oc_kv_set(plan->used, "k", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)m);
    rc |= oc_kv_set(plan->used, "m", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)hp);
    rc |= oc_kv_set(plan->used, "hp", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

static uint32_t host(const split *s, uint64_t x) {
    return (uint32_t)((x % s->t.P + s->t.P) % s->t.P);
}

static int send(const oc__plan *plan, oc__emit *e, uint64_t x, uint64_t y, uint64_t first,
                uint64_t count) {
    const split *s = plan->state;
    const uint32_t root = plan->spec.root, P = s->t.P;
    uint32_t a = (host(s, x) + root) % P, b = (host(s, y) + root) % P;
    if (a == b) return 0;
    return oc__emit_transfer(e, a, b, OC_OP_COPY, (uint32_t)first, (uint32_t)count);
}

static int split_generate(const oc__plan *plan, oc__emit *e) {
    const split *s = plan->state;
    const oc__tcp *t = &s->t;
    const uint64_t K = (uint64_t)t->k + 1, w = s->w;
    int rc = 0;
    /* phases 1 and 2 */
    for (uint32_t l = 1; l <= t->h && !rc; l++) {
        for (uint64_t i = 0; i < t->pw[l - 1] && !rc; i++)
            for (uint32_t j = 0; j < t->k && !rc; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                if (l <= s->hp) /* the pieces with c's first l digits */
                    rc = send(plan, e, i, c, s->pi[c] * w, t->pw[s->hp - l] * w);
                else
                    rc = send(plan, e, i, c, s->pi[c] * w, w);
            }
        if (!rc) rc = oc__emit_round(e);
    }
    /* phase 3: digit hp-1 (weight 1) first */
    for (uint32_t st = 0; st < s->hp && !rc; st++) {
        const uint64_t wt = t->pw[st];
        for (uint64_t x = 0; x < t->Pv && !rc; x++) {
            uint64_t lo = s->pi[x] - s->pi[x] % wt, d = s->pi[x] / wt % K;
            for (uint64_t v = 0; v < K && !rc; v++) {
                if (v == d) continue;
                /* the partner: same position, piece with digit v */
                uint64_t target = s->pi[x] - d * wt + v * wt;
                uint64_t y = s->who[s->pos[x] * t->pw[s->hp] + target];
                rc = send(plan, e, x, y, lo * w, wt * w);
            }
        }
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

/* Section 3.2.2's total at h' (messages x L tau + tunings x D). */
static double seed_total(const split *s, double m, uint32_t hp, double D, double Ltau) {
    const double Pv = (double)s->t.Pv, k = s->t.k, h = s->t.h, Khp = (double)s->t.pw[hp];
    return (2 / k * (Khp - 1) + h - hp) * m / Khp * Ltau + ((Pv - 1) + hp * Pv * k) * D;
}

static int split_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const split *s = plan->state;
    const double Pv = (double)s->t.Pv, k = s->t.k, m = plan->spec.q, h = s->t.h, hp = s->hp;
    const double Khp = (double)s->t.pw[s->hp];
    double comm = (2 / k * (Khp - 1) + h - hp) * m / Khp;
    int rc = oc__tcp_report(plan, in, rep, comm, (Pv - 1) + hp * Pv * k, m / k);
    const double D = in->step_fixed, Ltau = in->step_time - in->step_fixed, K = k + 1;
    rep->steps_formula = h + hp;
    rep->time_formula_s = comm * Ltau + rep->steps_formula * D;
    /* h'_opt: the seed's Lambert-W expression (D in units of L tau) and the exhaustive search
     * over h' = 0..h of the seed's own total, with the chunks as m. */
    double ratio = Ltau > 0 ? D / Ltau : 0;
    double lw = h - 1 + 1 / log(K) -
                oc__lambert_w0(Pv * Pv * exp(1) * k * k * ratio / (2 * m * K)) / log(K);
    uint32_t best = 0;
    for (uint32_t i = 1; i <= s->t.h; i++) /* over the h' that cut m into equal pieces */
        if (plan->spec.q % s->t.pw[i] == 0 &&
            seed_total(s, m, i, D, Ltau) < seed_total(s, m, best, D, Ltau))
            best = i;
    rc |= oc__report_num(rep, "hp_opt_lambert_w", lw);
    rc |= oc__report_num(rep, "hp_opt_exhaustive", best);
    long lr = lround(lw < 0 ? 0 : (lw > h ? h : lw));
    if (lr != (long)best)
        rc |= oc__report_note(rep,
                              "h'_opt: the seed's Lambert-W expression gives %.3f (%ld in 0..h), "
                              "the exhaustive search over h' of the seed's total gives %u: they "
                              "disagree",
                              lw, lr, best);
    else
        rc |= oc__report_note(rep,
                              "h'_opt: the seed's Lambert-W expression gives %.3f, the "
                              "exhaustive search gives %u",
                              lw, best);
    if (best != s->hp)
        rc |= oc__report_note(rep, "this run uses h' = %u (parameter hp), not the optimum %u",
                              s->hp, best);
    return rc;
}

/* One candidate: the network's k unless pinned; the user's m and h' kept, h' otherwise the
 * exhaustive optimum of the seed's total (`opticoll reproduce star` also searches it on the
 * simulated cost). */
static int split_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t nodes = in->nodes;
    const oc_kv *params = in->params;
    const oc__formula_in *net = in->net;
    char kb[32];
    snprintf(kb, sizeof kb, "%llu", (unsigned long long)net->channels);
    /* Refuse here, with the reason, what plan() would refuse for every candidate. */
    {
        oc_kv *probe = oc_kv_new();
        oc__plan plan;
        int rc = probe ? 0 : OC_ENOMEM;
        for (size_t i = 0; !rc && i < oc_kv_count(params); i++)
            rc = oc_kv_set(probe, oc_kv_key(params, i), oc_kv_value(params, i));
        if (!rc && !oc_kv_get(params, "k")) rc = oc_kv_set(probe, "k", kb);
        if (!rc && !oc_kv_get(params, "hp")) rc = oc_kv_set(probe, "hp", "0");
        if (rc) {
            oc_kv_free(probe);
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
        }
        rc = split_plan(&plan, OC_BROADCAST, nodes, 0, 1, probe, why, len);
        split_release(&plan);
        oc__spec_free(&plan.spec);
        oc_kv_free(plan.used);
        oc_kv_free(probe);
        if (rc) return rc;
    }
    const char *kv[8] = {"k", oc_kv_get(params, "k") ? oc_kv_get(params, "k") : kb};
    size_t pairs = 1;
    /* h' unpinned: the exhaustive optimum of section 3.2.2's total at the network's D and L tau
     * (the pipeline ranks candidates by steps alone, which would always pick h' = 0). */
    char hb[32] = "";
    if (!oc_kv_get(params, "hp")) {
        oc__plan plan;
        oc_kv *probe = oc_kv_new();
        int rc = probe ? 0 : OC_ENOMEM;
        for (size_t i = 0; !rc && i < oc_kv_count(params); i++)
            rc = oc_kv_set(probe, oc_kv_key(params, i), oc_kv_value(params, i));
        if (!rc && !oc_kv_get(params, "k")) rc = oc_kv_set(probe, "k", kb);
        if (!rc) rc = oc_kv_set(probe, "hp", "0");
        if (!rc) rc = split_plan(&plan, OC_BROADCAST, nodes, 0, 1, probe, why, len);
        if (!rc) {
            const split *sp = plan.state;
            const double D = net->step_fixed, Ltau = net->step_time - net->step_fixed;
            uint32_t best = 0;
            for (uint32_t i = 1; i <= sp->t.h; i++)
                if (plan.spec.q % sp->t.pw[i] == 0 &&
                    seed_total(sp, plan.spec.q, i, D, Ltau) <
                        seed_total(sp, plan.spec.q, best, D, Ltau))
                    best = i;
            snprintf(hb, sizeof hb, "%u", best);
        }
        split_release(&plan);
        oc__spec_free(&plan.spec);
        oc_kv_free(plan.used);
        oc_kv_free(probe);
        if (rc) return rc;
        kv[2 * pairs] = "hp";
        kv[2 * pairs + 1] = hb;
        pairs++;
    }
    static const char *const pins[] = {"m", "hp"};
    for (size_t i = 0; i < 2; i++)
        if (oc_kv_get(params, pins[i])) {
            kv[2 * pairs] = pins[i];
            kv[2 * pairs + 1] = oc_kv_get(params, pins[i]);
            pairs++;
        }
    const oc__bound none = {0};
    return oc__search_offer(s, &none, pairs, kv);
}

const oc__algo oc__algo_broadcast_tcp1split = {
    .info = {"tcp1-split", OC_BROADCAST, "star",
             "three-phase broadcast: h' TCP1 broadcast-split steps, TCP1 broadcast, h' TCP2 "
             "exchanges",
             "m a multiple of (k+1)^h'",
             "h + h' steps; (2/k((k+1)^h'-1) + h - h') m/(k+1)^h' messages; ((P-1) + h'Pk) D",
             "k=network's k; m=(k+1)^h: messages; hp=the optimum of the seed's total at the "
             "network's D: the split steps h'"},
    .param_names = names,
    .plan = split_plan,
    .generate = split_generate,
    .release = split_release,
    .search = split_search,
    .formula = split_formula,
};
