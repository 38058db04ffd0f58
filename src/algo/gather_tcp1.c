/*
 * gather_tcp1.c — gathering on the passive optical star: the scatter of section 3.1 run backwards
 * ("exactly the inverse of the gathering strategy ... using unidirectional communications in the
 * other way"). In step l = h..1 every TCP1 child sends its parent the blocks of its subtree.
 *   T_com = (P-1)/k messages;  T_tune = (P-1) D;  h steps.  Lower bound: (P-1)/k.
 */
#include "algo/star_tcp.h"

static int gather_generate(const oc__plan *plan, oc__emit *e) {
    return oc__tcp1_rounds(plan, e, OC__TCP1_UP, OC__TCP1_SUBTREE);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_gather_tcp1 = {
    .info = {"tcp1", OC_GATHER, "star",
             "TCP1 tree backwards: each child sends its parent its subtree's blocks", "",
             "h steps; (P-1)/k messages; (P-1) D tuning",
             "k=searched 1..network's k: TCP1 fan-out; m=SIZE/L: the workload, messages per block (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = oc__tcp1_subtree_plan,
    .generate = gather_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = oc__tcp1_subtree_formula,
};
