/*
 * allreduce_stride.c — two-level stride all-reduce: the stride reduce-scatter then the stride
 * all-gather on N chunks, one a node (stride.c). Each half has the all-gather's steps on chunks
 * of d/N, so
 *   steps = 2 (ceil((n1-1)/2) ceil(L/(Fw)) + sum_r ceil(len_r/(Fw))),  n1 = ceil(N/L)
 * and the search (stride.c) offers every L in 1..floor((N-1)/2) with twice the all-gather's bound.
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_allreduce_stride = {
    .info = {"stride", OC_ALLREDUCE, "ring",
             "stride reduce-scatter then stride all-gather on N chunks", "",
             "about 2 (N/(2 min(L,Fw)) + N/(2Fw)) steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__stride_plan_param,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__stride_search,
    .formula = oc__stride_formula,
};
