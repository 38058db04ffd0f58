/*
 * allreduce_splitstride.c — the splitstride reduce-scatter then the splitstride all-gather on N
 * chunks, one a node (stride.c): twice the all-gather's steps on chunks of d/N bytes. The search
 * (stride.c) offers every L in 1..floor((N-1)/2) with twice the all-gather's bound.
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_allreduce_splitstride = {
    .info = {"splitstride", OC_ALLREDUCE, "ring",
             "splitstride reduce-scatter then splitstride all-gather on N chunks", "",
             "twice the splitstride all-gather's steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__splitstride_plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__splitstride_search,
    .formula = oc__stride_formula,
};
