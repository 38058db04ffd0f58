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

/* The same rounds as gather_tcp1.c's, run the other way. */
static int scatter_generate(const oc__plan *plan, oc__emit *e) {
    return oc__tcp1_rounds(plan, e, OC__TCP1_DOWN, OC__TCP1_SUBTREE);
}

static const char *const names[] = {"k", "m", NULL};

const oc__algo oc__algo_scatter_tcp1 = {
    .info = {"tcp1", OC_SCATTER, "star",
             "TCP1 tree: each reached processor sends k children their subtrees' blocks", "",
             "h steps; (P-1)/k messages; (P-1) D tuning",
             "k=searched 1..network's k: TCP1 fan-out; m=SIZE/L: the workload, messages per block (L bytes, L tau each; not a parameter)"},
    .param_names = names,
    .plan = oc__tcp1_subtree_plan,
    .generate = scatter_generate,
    .release = oc__tcp_release,
    .search = oc__tcp_search,
    .formula = oc__tcp1_subtree_formula,
};
