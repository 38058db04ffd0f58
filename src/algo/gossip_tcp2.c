/*
 * gossip_tcp2.c — the multiple all-to-all (gossiping) on the passive optical star with TCP2
 * (passive-optical-star 3.3). Processors are numbered in base k + 1; in step s = 0..h-1 the
 * K_{k+1} cliques are the processors that differ only in digit s, and every processor sends the
 * (k+1)^s blocks it holds (those of the processors agreeing with it above digit s - 1, one label
 * range) to its k clique partners. Dummy nodes are folded onto real ones (star_tcp_common.c).
 *   T_com = sum_{i=0..h-1} (k+1)^i m = (P-1) m / k;  T_tune = h P k D;  h steps.
 *   Lower bound (Table 1): (P-1) m / k.
 */
#include "algo/star_tcp.h"

static int gossip_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    const uint64_t q = plan->spec.q;
    for (uint32_t s = 0; s < t->hc; s++) {
        const uint64_t w = t->wt[s], K = t->r[s];
        for (uint64_t x = 0; x < t->Rv; x++) {
            uint64_t lo = x - x % w, hi = lo + w;
            if (lo >= t->P) continue;
            if (hi > t->P) hi = t->P;
            uint64_t d = x / w % K;
            for (uint64_t v = 0; v < K; v++) {
                uint64_t y = x - d * w + v * w;
                if (v == d || oc__tcp2_host(t, x) == oc__tcp2_host(t, y)) continue;
                int rc = oc__emit_transfer(e, oc__tcp2_host(t, x), oc__tcp2_host(t, y), OC_OP_COPY,
                                           (uint32_t)(lo * q), (uint32_t)((hi - lo) * q));
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int gossip_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double Pv = (double)t->Pv, k = t->k, m = plan->spec.q;
    return oc__tcp_report(plan, in, rep, (Pv - 1) * m / k, t->h * Pv * k,
                          ((double)t->P - 1) * m / k);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_gossip_tcp2 = {
    .info = {"tcp2", OC_GOSSIP, "star",
             "TCP2 exchange-group: h steps of all-to-all in K_{k+1} cliques, one digit each", "",
             "h steps; (P-1) m / k messages; h P k D tuning",
             "k=network's k: clique size - 1; m=1: messages per processor"},
    .param_names = names,
    .plan = oc__tcp2_plan,
    .generate = gossip_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = gossip_formula,
};
