/*
 * scatter_tcp1.c — scattering on the passive optical star with TCP1 (passive-optical-star 3.1).
 *
 * In step l = 1..h every processor reached so far keeps one (k+1)-th of the blocks it holds and
 * sends each of its k TCP1 children (section 2.1) the blocks of that child's subtree. Blocks are
 * labelled in TCP1 preorder (star_tcp_common.c) so every transfer is one label range. Transfers
 * to dummy nodes (P not a power of k + 1) are dropped.
 *   T_com = sum_{i=1..h} P/(k+1)^i = (P-1)/k messages;  T_tune = (P-1) D;  h steps.
 *   Lower bound (section 4, Table 1): (P-1)/k.
 */
#include "algo/star_tcp.h"

static int scatter_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                        uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__tcp_plan(plan, "tcp1", coll, nodes, root, bytes, params, why, len);
    return rc ? rc : oc__tcp1_label(plan->state, &plan->spec, why, len);
}

/* Shared with gather_tcp1.c through the same rounds, reversed there. */
static int scatter_generate(const oc__plan *plan, oc__emit *e) {
    const oc__tcp *t = plan->state;
    const uint32_t q = plan->spec.q, root = plan->spec.root;
    for (uint32_t l = 1; l <= t->h; l++) {
        for (uint64_t i = 0; i < t->pw[l - 1] && i < t->P; i++)
            for (uint32_t j = 0; j < t->k; j++) {
                uint64_t c = oc__tcp1_child(t, l, i, j);
                if (c >= t->P) continue;
                int rc = oc__emit_transfer(e, (uint32_t)((i + root) % t->P),
                                           (uint32_t)((c + root) % t->P), OC_OP_COPY, t->pos[c] * q,
                                           t->size[c] * q);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int scatter_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const oc__tcp *t = plan->state;
    const double Pv = (double)t->Pv, k = t->k, q = plan->spec.q;
    return oc__tcp_report(plan, in, rep, q * (Pv - 1) / k, Pv - 1, q * ((double)t->P - 1) / k);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_scatter_tcp1 = {
    .info = {"tcp1", OC_SCATTER, "star",
             "TCP1 tree: each reached processor sends k children their subtrees' blocks", "",
             "h steps; (P-1)/k messages; (P-1) D tuning",
             "k=searched 1..network's k: TCP1 fan-out; m=SIZE/L: the workload, messages per block (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = scatter_plan,
    .generate = scatter_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = scatter_formula,
};
