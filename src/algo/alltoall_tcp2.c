/*
 * alltoall_tcp2.c — the personalized all-to-all (multi-scattering) on the passive optical star
 * with TCP2 (passive-optical-star 3.4). Processors are numbered in base k + 1; in step t = 0..h-1
 * the cliques are the processors that differ only in digit t, and a processor sends each partner
 * every message it holds whose destination has the partner's digit t: P / (k+1) messages. A
 * message (s, d) sits, before step t, on the processor with d's digits below t and s's digits
 * from t up, so for each destination the sources form one label range. Dummy nodes are folded
 * onto real ones (star_tcp_common.c).
 *   T_com = h P / (k+1) messages;  T_tune = h P k D;  h steps.  Lower bound (Table 1): (P-1)/k.
 */
#include "algo/star_tcp.h"

static int a2a_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    const uint64_t q = plan->spec.q, P = t->P;
    for (uint32_t s = 0; s < t->hc; s++) {
        const uint64_t w = t->wt[s], K = t->r[s];
        for (uint64_t x = 0; x < t->Rv; x++) {
            uint64_t slo = x - x % w, shi = slo + w;
            if (slo >= P) continue;
            if (shi > P) shi = P;
            uint64_t d = x / w % K, low = x % w;
            for (uint64_t v = 0; v < K; v++) {
                uint64_t y = x - d * w + v * w;
                if (v == d || oc__tcp2_host(t, x) == oc__tcp2_host(t, y)) continue;
                for (uint64_t top = 0; top < t->Rv / (w * K); top++) {
                    uint64_t dst = top * w * K + v * w + low;
                    if (dst >= P) break;
                    int rc = oc__emit_transfer(e, oc__tcp2_host(t, x), oc__tcp2_host(t, y),
                                               OC_OP_COPY, (uint32_t)((dst * P + slo) * q),
                                               (uint32_t)((shi - slo) * q));
                    if (rc) return rc;
                }
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int a2a_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double Pv = (double)t->Pv, k = t->k, q = plan->spec.q;
    return oc__tcp_report(plan, in, rep, t->h * q * Pv / (k + 1), t->h * Pv * k,
                          q * ((double)t->P - 1) / k);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_alltoall_tcp2 = {
    .info = {"tcp2", OC_ALLTOALL, "star",
             "TCP2 exchange: h steps in K_{k+1} cliques, P/(k+1) messages to each partner", "",
             "h steps; h P/(k+1) messages; h P k D tuning",
             "k=network's k: clique size - 1; m=1: messages per destination"},
    .param_names = names,
    .plan = oc__tcp2_plan,
    .generate = a2a_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = a2a_formula,
};
