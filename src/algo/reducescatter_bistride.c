/*
 * reducescatter_bistride.c — the bistride all-gather (allgather_bistride.c) run
 * backwards (stride.c): the neighbour pipeline's partial window sums first, the middle window's
 * halves reduced from both sides at once, then each orbit's bidirectional ring of single blocks,
 * every transfer a reduction along the reversed arc. Same arcs and loads as the all-gather, so
 * the same steps and the same search over L in 1..floor((N-1)/2) with the same bound.
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_reducescatter_bistride = {
    .info = {"bistride", OC_REDUCESCATTER, "ring",
             "the bistride all-gather backwards: split pipeline sums, then stride-L orbit rings",
             "", "the bistride all-gather's steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__bistride_plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__bistride_search,
    .formula = oc__stride_formula,
};
