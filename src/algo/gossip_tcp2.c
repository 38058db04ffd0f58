/*
 * gossip_tcp2.c — the multiple all-to-all (gossiping) on the passive optical star with TCP2
 * (passive-optical-star 3.3). Processors are numbered in base k + 1; in step s = 0..h-1 the
 * K_{k+1} cliques are the processors that differ only in digit s, and every processor sends the
 * (k+1)^s blocks it holds (those of the processors agreeing with it above digit s - 1, one label
 * range) to its k clique partners.
 *   T_com = sum_{i=0..h-1} (k+1)^i m = (P-1) m / k;  T_tune = h P k D;  h steps.
 *   Lower bound (Table 1): (P-1) m / k.
 *
 * P not a power of k + 1 (our construction; the seed pads with dummy nodes, which here would have
 * to relay data and so cannot simply be dropped). Shifts mod P replace the cliques, in the same h
 * steps: before step s processor x holds the W = (k+1)^s blocks x, x+1, ..., x+W-1 (mod P); in
 * steps s < h-1 it receives from x + jW, j = 1..k, that processor's W blocks, and in the last step
 * the remaining R = P - W blocks arrive in k streams of at most ceil(R/k) <= W blocks, stream j
 * from the processor where its blocks begin (which holds W blocks from there on). Every
 * processor sends and receives at most k streams a step, from senders it never heard before.
 * Messages: m ((W-1)/k + ceil((P-W)/k)) = m ceil((P-1)/k), the section 4 lower bound to the
 * block, and at most the padding bound (Pv-1) m / k; h = ceil(log_{k+1} P) steps, the least
 * possible. k = 1, P = 1000: 999 messages in 10 steps, where padding gives 1023 in 10.
 */
#include "algo/star_tcp.h"

/* The seed's cliques, P = (k+1)^h. */
static int gossip_cliques(const oc__tcp *t, uint64_t q, oc__emit *e) {
    const uint64_t K = (uint64_t)t->k + 1;
    for (uint32_t s = 0; s < t->h; s++) {
        const uint64_t w = t->pw[s];
        for (uint64_t x = 0; x < t->P; x++) {
            uint64_t lo = x - x % w, d = x / w % K;
            for (uint64_t v = 0; v < K; v++) {
                if (v == d) continue;
                int rc = oc__emit_transfer(e, (uint32_t)x, (uint32_t)(x - d * w + v * w),
                                           OC_OP_COPY, (uint32_t)(lo * q), (uint32_t)(w * q));
                if (rc) return rc;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

/* Shifts mod P, any P (see above). */
static int gossip_shifts(const oc__tcp *t, uint64_t q, oc__emit *e) {
    const uint64_t P = t->P;
    for (uint32_t s = 0; s < t->h; s++) {
        const uint64_t W = t->pw[s], last = s + 1 == t->h;
        /* stream j starts at offset first(j) = W + j c and carries cnt(j) blocks */
        const uint64_t R = last ? P - W : t->k * W, c = last ? oc__ceil_div(R, t->k) : W;
        for (uint64_t y = 0; y < P; y++)
            for (uint64_t first = W; first < W + R; first += c) {
                uint64_t cnt = W + R - first < c ? W + R - first : c;
                int rc = oc__tcp_send_wrapped(e, (uint32_t)((y + first) % P), (uint32_t)y, 0,
                                              y + first, cnt, P, q);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int gossip_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    return t->Pv == t->P ? gossip_cliques(t, plan->spec.q, e) : gossip_shifts(t, plan->spec.q, e);
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
             "k=searched 1..network's k: clique size - 1; m=SIZE/L: the workload, messages per processor (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = oc__tcp2_plan,
    .generate = gossip_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = gossip_formula,
};
