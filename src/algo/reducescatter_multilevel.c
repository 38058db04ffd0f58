/*
 * reducescatter_multilevel.c — the multi-level stride reducescatter on the WDM ring (levels.c holds
 * the construction, its labels, its exact steps and its search; this file is the registry's entry).
 *   steps = sum_j ceil((n_j-1)/2) ceil(N/(n_j Fw)) steps
 * for radices n_1 x ... x n_k with product N (n_1 >= 3 when k >= 2), searched by default.
 */
#include "algo/levels.h"

static const char *const params[] = {"radices", NULL};

const oc__algo oc__algo_reducescatter_multilevel = {
    .info = {"multilevel", OC_REDUCESCATTER, "ring",
             "the multi-level stride all-gather backwards: class sums down the levels",
             "radices multiply to N", "sum_j ceil((n_j-1)/2) ceil(N/(n_j Fw)) steps",
             "radices=searched: n_1 x ... x n_k, product N (n_1 >= 3 when k >= 2)"},
    .param_names = params,
    .plan = oc__levels_plan,
    .generate = oc__levels_generate,
    .release = oc__levels_release,
    .search = oc__levels_search,
    .formula = oc__levels_formula,
};
