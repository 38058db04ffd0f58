/*
 * allgather_onestage.c — one-stage all-to-all broadcast (optree III.B, Lemma 1; III.C).
 *
 * One logical round: every node sends its block straight to every other node on its own
 * lightpath. On a ring with shortest-path routing the heaviest directed link carries about N^2/8
 * lightpaths (Lemma 1: ceil(N^2/8) wavelengths), so with w wavelengths the round takes about
 * ceil(N^2 / 8w) steps (Table I). The network model splits the round into steps.
 *
 * The personalized all-to-all (`alltoall onestage`) is the same traffic: one round in
 * which node s sends node d its own packet, label (d N + s), on its own lightpath. Only the labels
 * differ, so it shares the plan, the ring's colouring path and Lemma 1's closed form (the load of
 * the heaviest link is the same N^2/8, or (N^2-1)/8 for odd N, packets of one destination each).
 */
#include "algo/algos.h"

#include <math.h>

static const char *const no_params[] = {NULL};

static int onestage_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                         uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    /* Counted first, so that a refusal by the node cap can say how many (oc__algo_node_cap). */
    const uint64_t work = nodes ? (uint64_t)nodes * (nodes - 1) : 0;
    int rc = oc__plan_work("onestage", nodes, work, why, len);
    if (rc) return rc;
    if (work > (UINT64_C(1) << 28))
        return oc__fail(why, len, OC_ETOOBIG,
                        "onestage on %u nodes is %llu lightpaths in one round (at most 2^28)",
                        nodes, (unsigned long long)work);
    rc = oc__plan_plain(plan, "onestage", coll, nodes, root, bytes, 1, params, why, len);
    plan->spec.max_round = work; /* all of it in one round */
    plan->spec.units = plan->spec.transfers = work; /* one chunk a lightpath */
    return rc;
}

/* A verifier shard of labels [lo, hi) (allgather: the blocks of nodes lo .. hi-1) needs only
 * those senders' transfers: the others are skipped in their places (oc__emit_skip). */
static int onestage_generate(const oc__plan *plan, oc__emit *e) {
    const uint32_t N = plan->spec.nodes;
    uint32_t from = 0, to = N;
    if (e->windowed) {
        from = e->win_lo < N ? e->win_lo : N;
        to = e->win_hi < N ? e->win_hi : N;
        oc__emit_skip(e, (uint64_t)from * (N - 1));
    }
    for (uint32_t s = from; s < to; s++)
        for (uint32_t d = 0; d < N; d++) {
            if (d == s) continue;
            int rc = oc__emit_transfer(e, s, d, OC_OP_COPY, s, 1);
            if (rc) return rc;
        }
    oc__emit_skip(e, (uint64_t)(N - to) * (N - 1));
    return oc__emit_round(e);
}

static int onestage_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const double N = plan->spec.nodes;
    /* Table I: ceil(N^2 / 8w), with the w wavelengths of every fibre of a direction. */
    oc__formula_steps(rep, in,
                      plan->spec.nodes > 1 ? ceil(N * N / (8.0 * (double)in->channels)) : 0);
    if (rep->has_lb && rep->steps != (uint64_t)rep->steps_formula)
        oc__report_note(rep,
                        "steps differ from ceil(N^2/8w): the exact heaviest-link load with "
                        "shortest paths is %s, and the colouring reached %.3f x the load bound",
                        plan->spec.nodes % 2 ? "(N^2-1)/8 for odd N" : "N^2/8 for even N",
                        rep->steps_lb ? (double)rep->steps / (double)rep->steps_lb : 1.0);
    return 0;
}

/* All-to-all: the same lightpaths, each carrying the sender's packet for its receiver. Sources in
 * the outer loop, so every receiver gets its ranges in label order (the verifier sorts a
 * receiver's ranges by insertion). */
static int onestage_a2a_generate(const oc__plan *plan, oc__emit *e) {
    const uint32_t N = plan->spec.nodes, q = plan->spec.q;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++) {
            if (d == s) continue;
            int rc =
                oc__emit_transfer(e, s, d, OC_OP_COPY, (uint32_t)(((uint64_t)d * N + s) * q), q);
            if (rc) return rc;
        }
    return oc__emit_round(e);
}

const oc__algo oc__algo_allgather_onestage = {
    .info = {"onestage", OC_ALLGATHER, "ring",
             "one-stage all-to-all broadcast: a lightpath from every node to every other node",
             "N(N-1) <= 2^28", "ceil(N^2/8w) steps (Lemma 1)", ""},
    .param_names = no_params,
    .plan = onestage_plan,
    .generate = onestage_generate,
    .formula = onestage_formula,
};

const oc__algo oc__algo_alltoall_onestage = {
    .info = {"onestage", OC_ALLTOALL, "ring",
             "one-stage personalized all-to-all: a lightpath from every node to every other node",
             "N(N-1) <= 2^28", "ceil(N^2/8w) steps (Lemma 1)", ""},
    .param_names = no_params,
    .plan = onestage_plan,
    .generate = onestage_a2a_generate,
    .formula = onestage_formula,
};
