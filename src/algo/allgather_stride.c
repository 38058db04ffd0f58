/*
 * allgather_stride.c — two-level stride all-gather on the WDM ring (issue 26: multi-wavelength
 * schedules that approach the receive bound ceil((N-1)/(2Fw))). The construction, its labels,
 * counts and bounds are stride.c's; this file is the algorithm's entry.
 *
 * Level 1: the bidirectional ring on every orbit of stride L (nodes j, j+L, j+2L, ...), each
 * block on lightpaths of L links, stopped once ceil(N/L) nodes of the orbit are in: every link
 * carries L lightpaths a round, one step when L <= F w, ceil((ceil(N/L)-1)/2) rounds. Level 2: a
 * neighbour pipeline in both directions on all F w slots, ceil((L-1)/2) rounds, each node passing
 * the orbit windows of its L-1 neighbours, up to ceil(N/L) blocks a transfer. Any N and L in
 * 1..floor((N-1)/2); the windows overlap by n1 L - N offsets, which the last rounds drop.
 *   steps = ceil((n1-1)/2) ceil(L/(Fw)) + sum_r ceil(len_r/(Fw)),  n1 = ceil(N/L)
 * (len_r = n1, or n1 - 1 once a round drops its edge; exact when L divides N or L = 1, a proven
 * lower bound otherwise). About N/(2 min(L, Fw)) + N/(2 Fw): with L near Fw, twice the receive
 * bound; at N = 1024, w = 8 (L = 8): 64 + 64 = 128 steps.
 * Search: every L in 1..floor((N-1)/2) with that bound (stride.c). Without a network: L =
 * round(sqrt N).
 */
#include "algo/stride.h"

static const char *const stride_params[] = {"stride", NULL};

const oc__algo oc__algo_allgather_stride = {
    .info = {"stride", OC_ALLGATHER, "ring",
             "stride-L orbit rings on L-link lightpaths, then a w-wavelength neighbour pipeline",
             "", "about N/(2 min(L,Fw)) + N/(2Fw) steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = oc__stride_plan_param,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__stride_search,
    .formula = oc__stride_formula,
};
