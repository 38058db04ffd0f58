/*
 * reducescatter_stride.c — two-level stride reduce-scatter: the stride all-gather
 * (allgather_stride.c) run backwards (stride.c): the neighbour pipeline's partial window sums
 * first, then each orbit's bidirectional ring of single blocks, every transfer a reduction along
 * the reversed arc. Same arcs and loads as the all-gather, so the same steps and the same search
 * over L in 1..floor((N-1)/2) with the same bound.
 *   steps = ceil((n1-1)/2) ceil(L/(Fw)) + sum_r ceil(len_r/(Fw)),  n1 = ceil(N/L)
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_reducescatter_stride = {
    .info = {"stride", OC_REDUCESCATTER, "ring",
             "the stride all-gather backwards: neighbour-pipeline sums, then stride-L orbit rings",
             "", "about N/(2 min(L,Fw)) + N/(2Fw) steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__stride_plan_param,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__stride_search,
    .formula = oc__stride_formula,
};
