/*
 * gather_tcp1.c — gathering on the passive optical star: the scatter of section 3.1 run backwards
 * ("exactly the inverse of the gathering strategy ... using unidirectional communications in the
 * other way"). In step l = h..1 every TCP1 child sends its parent the blocks of its subtree.
 *   T_com = (P-1)/k messages;  T_tune = (P-1) D;  h steps.  Lower bound: (P-1)/k.
 */
#include "algo/star_tcp.h"

static int gather_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                       uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__tcp_plan(plan, "tcp1", coll, nodes, root, bytes, params, why, len);
    return rc ? rc : oc__tcp1_label(plan->state, &plan->spec, why, len);
}

static int gather_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    const uint32_t q = plan->spec.q, root = plan->spec.root;
    for (uint32_t l = t->h; l >= 1; l--) {
        for (uint64_t i = 0; i < t->pw[l - 1] && i < t->P; i++)
            for (uint32_t j = 0; j < t->k; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                if (c >= t->P) continue;
                int rc = oc__emit_transfer(e, (uint32_t)((c + root) % t->P),
                                           (uint32_t)((i + root) % t->P), OC_OP_COPY, t->pos[c] * q,
                                           t->size[c] * q);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int gather_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double Pv = (double)t->Pv, k = t->k, q = plan->spec.q;
    return oc__tcp_report(plan, in, rep, q * (Pv - 1) / k, Pv - 1, q * ((double)t->P - 1) / k);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_gather_tcp1 = {
    .info = {"tcp1", OC_GATHER, "star",
             "TCP1 tree backwards: each child sends its parent its subtree's blocks", "",
             "h steps; (P-1)/k messages; (P-1) D tuning",
             "k=searched 1..network's k: TCP1 fan-out; m=SIZE/L: the workload, messages per block (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = gather_plan,
    .generate = gather_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = gather_formula,
};
