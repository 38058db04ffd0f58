/*
 * allgather_comb.c — the comb allgather on the WDM ring (issue 26: the F w = 3 gap of
 * docs/bounds-gap.md). The construction, its proof, counts and bound are comb.c's; this file is
 * the algorithm's entry. No parameter.
 */
#include "algo/stride.h"

static const char *const no_params[] = {NULL};

const oc__algo oc__algo_allgather_comb = {
    .info = {"comb", OC_ALLGATHER, "ring",
             "stride-2 backbone with unit teeth both ways: 3 arcs a link a round, the Fw = 3 "
             "all-gather",
             "", "ceil(ceil((N-1)/2)/2) steps at Fw >= 3", ""},
    .param_names = no_params,
    .plan = oc__comb_plan,
    .generate = oc__comb_generate,
    .release = oc__comb_release,
    .formula = oc__comb_formula,
};
