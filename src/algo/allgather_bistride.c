/*
 * allgather_bistride.c — the two-level stride all-gather with its middle level-2 window split
 * both ways round the ring (issue 26: the w = 2 gap, where every other algorithm takes N/2 steps).
 * The construction, the split's proof, labels, counts and bounds are stride.c's; this file is the
 * algorithm's entry.
 *
 * Level 1 as `stride` (bidirectional rings on the orbits of stride L); level 2 the neighbour
 * pipeline both ways, except that at even L the window of offset L/2, which `stride` sends
 * clockwise alone, goes half clockwise and half counter-clockwise in the same round:
 *   steps = ceil((n1-1)/2) ceil(L/(Fw)) + sum_r ceil(len_r/(Fw)),  n1 = ceil(N/L)
 * with len_(L/2) = ceil(K/2) (K = n1, or n1 - 1 past the drop) at even L; exact when L divides N,
 * a proven lower bound otherwise. At L = 2, F w = 2: ceil((n1-1)/2) + ceil(n1/4), about 3N/8
 * (384 at N = 1024 against 512 for bidir, stride and ne). At odd L it is `stride`.
 * Search: every L in 1..floor((N-1)/2) with that bound. Without a network: the even L nearest
 * sqrt(N).
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_allgather_bistride = {
    .info =
        {"bistride", OC_ALLGATHER, "ring",
         "stride-L orbit rings, then a both-way neighbour pipeline with its middle window split",
         "", "about N/(2 min(L,Fw)) + N/(2Fw) - N/(4Fw) at even L; 3N/8 at L = Fw = 2",
         "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__bistride_plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__bistride_search,
    .formula = oc__stride_formula,
};
