/*
 * alltoall_tcp2.c — the personalized all-to-all (multi-scattering) on the passive optical star
 * with TCP2 (passive-optical-star 3.4). Processors are numbered in base k + 1; in step t = 0..h-1
 * the cliques are the processors that differ only in digit t, and a processor sends each partner
 * every message it holds whose destination has the partner's digit t: P / (k+1) messages. A
 * message (s, d) sits, before step t, on the processor with d's digits below t and s's digits
 * from t up, so for each destination the sources form one label range.
 *   T_com = h P / (k+1) messages;  T_tune = h P k D;  h steps.  Lower bound (Table 1): (P-1)/k.
 *
 * P not a power of k + 1 (our construction; dummy nodes would have to relay messages). Shifts mod
 * P replace the cliques, digit by digit as in Bruck's index algorithm with radix k + 1: message
 * (s, d) has offset o = d - s mod P, written in base k + 1; in step t it moves forward by o_t
 * (k+1)^t, so before step t it sits at s + (o mod (k+1)^t) and ends at s + o = d. In step t
 * processor x sends x + j (k+1)^t (j = 1..k, j (k+1)^t < P) the messages whose digit t is j: for
 * each destination the sources form one range mod P. A stream carries #{o < P : o_t = j} <=
 * (k+1)^h / (k+1) messages, so the h = ceil(log_{k+1} P) steps cost at most the padding bound h
 * (k+1)^h / (k+1) m (k = 1, P = 1000: 4988 messages where padding gives 5120). Every processor
 * sends and receives at most k streams a step, from senders it never heard before. Both
 * constructions' messages are a2a_messages() m exactly (star_tcp_common.c) (the search's bound).
 */
#include "algo/star_tcp.h"

/* The seed's cliques, P = (k+1)^h. */
static int a2a_cliques(const oc__tcp *t, uint64_t q, oc__emit *e) {
    const uint64_t P = t->P, K = (uint64_t)t->k + 1;
    for (uint32_t s = 0; s < t->h; s++) {
        const uint64_t w = t->pw[s];
        for (uint64_t x = 0; x < P; x++) {
            uint64_t slo = x - x % w, d = x / w % K, low = x % w;
            for (uint64_t v = 0; v < K; v++) {
                if (v == d) continue;
                uint64_t y = x - d * w + v * w;
                for (uint64_t top = 0; top < P / (w * K); top++) {
                    uint64_t dst = top * w * K + v * w + low;
                    int rc = oc__emit_transfer(e, (uint32_t)x, (uint32_t)y, OC_OP_COPY,
                                               (uint32_t)((dst * P + slo) * q), (uint32_t)(w * q));
                    if (rc) return rc;
                }
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

/* Shifts mod P, any P (see above). */
static int a2a_shifts(const oc__tcp *t, uint64_t q, oc__emit *e) {
    const uint64_t P = t->P;
    for (uint32_t s = 0; s < t->h; s++) {
        const uint64_t W = t->pw[s], W1 = t->pw[s + 1];
        for (uint64_t x = 0; x < P; x++)
            for (uint64_t j = 1; j <= t->k && j * W < P; j++)
                /* offsets o = l + j W + H W1 < P, l < W: destination x + jW + H W1, sources
                 * x - l */
                for (uint64_t base = j * W; base < P; base += W1) {
                    uint64_t L = P - base < W ? P - base : W, d = (x + base) % P;
                    int rc = oc__tcp_send_wrapped(e, (uint32_t)x, (uint32_t)((x + j * W) % P),
                                                  d * P * q, x + P - (L - 1), L, P, q);
                    if (rc) return rc;
                }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int a2a_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    return t->Pv == t->P ? a2a_cliques(t, plan->spec.q, e) : a2a_shifts(t, plan->spec.q, e);
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
             "k=searched 1..network's k: clique size - 1; m=SIZE/L: the workload, messages per destination (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = oc__tcp2_plan,
    .generate = a2a_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = a2a_formula,
};
