/*
 * star_tcp_common.c — what the tcp algorithms share (passive-optical-star sections 2 and 3): the
 * virtual machine of (k+1)^h processors, the parameters k and m, and the report of section 3's
 * closed forms next to section 4's lower bounds.
 *
 * Dummy nodes (section 4: "one can just assume that dummy nodes exist until the next power of
 * (k+1)"). Trees (TCP1) drop every transfer to a dummy: a TCP1 child always has a larger number
 * than its parent, so a dummy's subtree holds dummies only. Cliques (TCP2) fold dummy x onto the
 * real processor x mod P, which then plays both; the network model splits a step in which a
 * processor has more than k streams, and that is the dummies' extra cost.
 *
 * Fewer dummies for TCP2 (our method, not the seed's). The cliques need not all have k + 1
 * processors: numbering the processors in mixed radix r_0, r_1, ... (each r_s <= k + 1), step s
 * groups those that differ only in digit s. With at most h steps we take the radices whose
 * product is the least one >= P: P itself when P factors into at most h numbers <= k + 1 (12 = 3
 * x 4 for k = 3: no dummy at all), else the fewest dummies. Radices go in ascending order, which
 * makes the gossip's sum of prefix products (its communication) least. For P = (k+1)^h the only
 * choice is the seed's h cliques of k + 1, so section 3's formulas are unchanged.
 */
#include "algo/star_tcp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oc__tcp_init(oc__tcp *t, uint32_t P, uint32_t k, char *why, size_t len) {
    memset(t, 0, sizeof *t);
    t->P = P;
    t->k = k;
    uint64_t v = 1;
    while (v < P) {
        v *= (uint64_t)k + 1;
        t->h++;
    }
    t->Pv = v;
    t->pw = oc__calloc((size_t)t->h + 1, sizeof(uint64_t));
    if (!t->pw) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    t->pw[0] = 1;
    for (uint32_t i = 1; i <= t->h; i++)
        t->pw[i] = t->pw[i - 1] * ((uint64_t)k + 1);
    return 0;
}

void oc__tcp_free(oc__tcp *t) {
    free(t->r);
    free(t->wt);
    t->r = NULL;
    t->wt = NULL;
    free(t->pos);
    free(t->size);
    t->pos = t->size = NULL;
    free(t->pw);
    t->pw = NULL;
}

static const char *const tcp_params[] = {"k", "m", NULL};

int oc__tcp_plan(oc__plan *plan, const char *algo, oc_collective coll, uint32_t nodes,
                 uint32_t root, uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    uint64_t k, m;
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    int rc = oc__kv_only(params, tcp_params, algo, why, len);
    if (rc || (rc = oc__kv_u64(params, "k", 3, 1, 64, &k, why, len))) return rc;
    /* A broadcast's m defaults to (k+1)^h, as tcp1-split's does, so the two compare. */
    uint64_t dm = 1;
    if (coll == OC_BROADCAST)
        while (dm < nodes && dm <= (1u << 16) / (k + 1))
            dm *= k + 1;
    if ((rc = oc__kv_u64(params, "m", dm, 1, 1u << 16, &m, why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)m, why, len))) return rc;
    oc__tcp *t = calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = t;
    if ((rc = oc__tcp_init(t, nodes, (uint32_t)k, why, len))) return rc;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)k);
    rc |= oc_kv_set(plan->used, "k", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)m);
    rc |= oc_kv_set(plan->used, "m", buf);
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

void oc__tcp_release(oc__plan *plan) {
    oc__tcp *t = plan->state;
    if (t) oc__tcp_free(t);
    free(t);
    plan->state = NULL;
}

int oc__tcp_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    (void)why;
    (void)len;
    const oc_kv *params = in->params;
    const oc__formula_in *net = in->net;
    char kb[32];
    const char *k = oc_kv_get(params, "k");
    snprintf(kb, sizeof kb, "%llu", (unsigned long long)net->channels);
    const char *m = oc_kv_get(params, "m");
    const char *kv[] = {"k", k ? k : kb, "m", m};
    const oc__bound none = {0};
    return oc__search_offer(s, &none, m ? 2 : 1, kv);
}

int oc__tcp_report(const oc__plan *plan, const oc__formula_in *in, oc_report *rep, double comm,
                   double retunings, double lower_bound) {
    const oc__tcp *t = plan->state;
    rep->has_formula = 1;
    rep->steps_formula = t->h;
    int rc = oc__report_num(rep, "h", t->h);
    rc |= oc__report_num(rep, "formula_communication_messages", comm);
    rc |= oc__report_num(rep, "formula_retunings", retunings);
    rc |= oc__report_num(rep, "lower_bound_communication_messages", lower_bound);
    const double D = in->step_fixed, Ltau = in->step_time - in->step_fixed;
    rep->has_time_formula = 1;
    rep->time_formula_s = comm * Ltau + rep->steps_formula * D;
    rc |= oc__report_num(rep, "formula_communication_cost", comm * Ltau);
    rc |= oc__report_num(rep, "formula_tuning_cost", retunings * D);
    rc |= oc__report_num(rep, "formula_seed_total_cost", comm * Ltau + retunings * D);
    if (t->Pv != t->P) {
        /* The model's figures are in the report already (finish() runs before formula()). */
        double sim = NAN;
        oc_report_number(rep, "communication_messages", &sim);
        rc |= oc__report_note(rep,
                              "P = %u is not a power of k + 1 = %u: %llu dummy nodes complete "
                              "(k+1)^h = %llu; the formulas are those of P = %llu",
                              t->P, t->k + 1, (unsigned long long)(t->Pv - t->P),
                              (unsigned long long)t->Pv, (unsigned long long)t->Pv);
        rc |= oc__report_note(rep,
                              "extra cost of the dummy nodes: %g messages and %llu steps "
                              "simulated against the section 4 lower bound of %g messages at "
                              "P = %u and the formula's %g messages in h = %u steps at P = %llu",
                              sim, (unsigned long long)rep->steps, lower_bound, t->P, comm, t->h,
                              (unsigned long long)t->Pv);
        rc |= oc__report_num(rep, "dummy_nodes", (double)(t->Pv - t->P));
    }
    if (t->r && t->Rv != t->Pv) {
        char list[256] = "";
        for (uint32_t i = 0; i < t->hc; i++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%u", i ? " x " : "", t->r[i]);
        }
        rc |= oc__report_note(rep,
                              "TCP2 cliques of %s processors (mixed radix): %llu virtual "
                              "processors instead of (k+1)^h = %llu, %llu dummies",
                              *list ? list : "no", (unsigned long long)t->Rv,
                              (unsigned long long)t->Pv, (unsigned long long)(t->Rv - t->P));
    }
    return rc;
}

/* Preorder from virtual v, reached at step lv; returns the real processors of its subtree. */
static uint32_t visit(oc__tcp *t, oc__spec *spec, uint64_t v, uint32_t lv, uint32_t *next) {
    if (v >= t->P) return 0;
    uint32_t here = (*next)++;
    t->pos[v] = here;
    spec->block_node[here] = (uint32_t)((v + spec->root) % t->P);
    uint32_t n = 1;
    for (uint32_t l = t->h; l > lv; l--)
        for (uint32_t j = 0; j < t->k; j++)
            n += visit(t, spec, oc__tcp1_child(t, l, v, j), l, next);
    t->size[v] = n;
    return n;
}

int oc__tcp1_label(oc__tcp *t, oc__spec *spec, char *why, size_t len) {
    t->pos = oc__calloc(t->P, sizeof(uint32_t));
    t->size = oc__calloc(t->P, sizeof(uint32_t));
    spec->block_node = oc__calloc(t->P, sizeof(uint32_t));
    if (!t->pos || !t->size || !spec->block_node)
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    uint32_t next = 0;
    visit(t, spec, 0, 0, &next);
    return 0;
}

/* Non-decreasing radices cur[d..h) from lo up; keeps the least product >= P (then the least
 * sum of prefix products). Radix 1 is a step left out. */
static void radices(const oc__tcp *t, uint32_t *cur, uint32_t d, uint32_t lo, uint64_t prod,
                    uint32_t *best, uint64_t *best_prod, uint64_t *best_sum, uint64_t *budget) {
    if (*budget == 0) return;
    (*budget)--;
    if (prod >= t->P || d == t->h) {
        if (prod < t->P) return;
        uint64_t sum = 0, w = 1;
        for (uint32_t i = 0; i < d; i++) {
            sum += w;
            w *= cur[i];
        }
        if (prod < *best_prod || (prod == *best_prod && sum < *best_sum)) {
            *best_prod = prod;
            *best_sum = sum;
            for (uint32_t i = 0; i < t->h; i++)
                best[i] = i < d ? cur[i] : 1;
        }
        return;
    }
    for (uint32_t r = lo; r <= t->k + 1; r++) {
        cur[d] = r;
        radices(t, cur, d + 1, r, prod * r, best, best_prod, best_sum, budget);
    }
}

int oc__tcp_cliques(oc__tcp *t, char *why, size_t len) {
    t->r = oc__calloc((size_t)t->h + 1, sizeof(uint32_t));
    t->wt = oc__calloc((size_t)t->h + 1, sizeof(uint64_t));
    uint32_t *cur = oc__calloc((size_t)t->h + 1, sizeof(uint32_t));
    if (!t->r || !t->wt || !cur) {
        free(cur);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    /* the seed's choice first, so that an exhausted budget still leaves a valid one */
    for (uint32_t i = 0; i < t->h; i++)
        t->r[i] = t->k + 1;
    uint64_t best_prod = t->Pv, best_sum = UINT64_MAX, budget = 200000;
    radices(t, cur, 0, 2, 1, t->r, &best_prod, &best_sum, &budget);
    free(cur);
    t->hc = 0;
    uint64_t w = 1;
    for (uint32_t i = 0; i < t->h; i++)
        if (t->r[i] > 1) {
            t->r[t->hc] = t->r[i];
            t->wt[t->hc++] = w;
            w *= t->r[i];
        }
    t->Rv = w;
    return 0;
}

int oc__tcp2_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_work("tcp2", nodes, (uint64_t)nodes * nodes * 8, why, len);
    if (!rc) rc = oc__tcp_plan(plan, "tcp2", coll, nodes, root, bytes, params, why, len);
    return rc ? rc : oc__tcp_cliques(plan->state, why, len);
}
