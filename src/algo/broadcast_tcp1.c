/*
 * broadcast_tcp1.c — the naive multiple broadcast on the passive optical star (passive-optical-star
 * 3.2.1): in step l = 1..h every processor reached so far sends all m messages to each of its k
 * TCP1 children. Transfers to dummy nodes are dropped.
 *   T_com = h m;  T_tune = (P-1) D;  h steps.  Lower bound (Table 1): m / k.
 * The seed prints this as "T_tune^bcast = (P-1)D + hm", the sum of both costs under a tuning name.
 */
#include "algo/star_tcp.h"

static int bcast_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__tcp_plan(plan, "tcp1", coll, nodes, root, bytes, params, why, len);
    /* the work (core.h): each processor but the root gets the whole message once */
    if (!rc) plan->spec.transfers = nodes - 1;
    if (!rc) plan->spec.units = ((uint64_t)nodes - 1) * plan->spec.q;
    return rc;
}

static int bcast_generate(const oc__plan *plan, oc__emit *e) {
    return oc__tcp1_rounds(plan, e, OC__TCP1_DOWN, OC__TCP1_WHOLE);
}

static int bcast_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double m = plan->spec.q;
    return oc__tcp_report(plan, in, rep, t->h * m, (double)t->Pv - 1, m / t->k);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_broadcast_tcp1 = {
    .info = {"tcp1", OC_BROADCAST, "star",
             "naive TCP1 broadcast: every reached processor sends all m messages to k children", "",
             "h steps; h m messages; (P-1) D tuning",
             "k=searched 1..network's k: TCP1 fan-out; m=SIZE/L: the workload, messages in the broadcast (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = bcast_plan,
    .generate = bcast_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = bcast_formula,
};
