/*
 * allreduce_bistride.c — the bistride reduce-scatter then the bistride all-gather on N
 * chunks, one a node (stride.c): twice the all-gather's steps on chunks of d/N bytes. The search
 * (stride.c) offers every L in 1..floor((N-1)/2) with twice the all-gather's bound.
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_allreduce_bistride = {
    .info = {"bistride", OC_ALLREDUCE, "ring",
             "bistride reduce-scatter then bistride all-gather on N chunks", "",
             "twice the bistride all-gather's steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__bistride_plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__bistride_search,
    .formula = oc__stride_formula,
};
