/*
 * alltoall_kautz.c — the all-to-all (personalized, passive-optical-star 3.4) on one fixed
 * digraph: tuned once, then every packet stored and forwarded along a shortest path (issue 26,
 * item 2; ours, the routes in star_fixed.c).
 *
 * Why. TCP2 (alltoall_tcp2.c) retunes every step (h D), `pairwise` and `kshift` send straight
 * to new partners every round ((P - 1) / g tunings). Where D is large next to the messages
 * (D = 100, one message a packet, P = 100, k = 3) TCP2 is 3.89 times the star's bound of D +
 * ceil((P - 1) m / k) (src/bounds/bounds_star.c) and kshift 25 times.
 *
 * The schedule. The processors form a generalised Kautz (Imase-Itoh) or de Bruijn (Reddy-Pradhan-
 * Kuhl) digraph of degree d <= k (star_fixed.c); packet s -> v takes the path of s's BFS tree
 * (parents chosen to balance each round's arcs) to v, hop h in round h; every arc is busy every
 * round, so no filter retunes after the first step. Relaying costs volume: a processor takes in
 * on average the mean distance times P - 1 packets instead of P - 1, so this wins where tunings
 * dominate (large D, small messages) and kshift where messages do.
 *   rounds = the digraph's diameter; time = D + sum over rounds of the busiest arc's packets x m
 *   L tau, at least D + ceil(Moore distance sum / d) packet times.
 *
 * The search (algos.h's contract). Space: degree d = 1 .. min(k, P - 1) in both families; pins
 * degree= (1..64) and family=kautz|debruijn. Proven bound of a candidate: its rounds are at least
 * the Moore depth S of degree d (steps), and every packet crosses at least its distance in arcs,
 * each crossing a reception, so some processor takes in at least the Moore distance sum (at most
 * d^t processors at distance t from one) on at most d streams a step after one tuning: time >=
 * D + max(S, ceil(that / d)) packet times.
 */
#include "algo/star_fixed.h"

static const char *const names[] = {"degree", "family", NULL};

const oc__algo oc__algo_alltoall_kautz = {
    .info = {"kautz", OC_ALLTOALL, "star",
             "all-to-all on one fixed digraph of degree d (generalised Kautz or de Bruijn): "
             "tuned once, every packet along a shortest path, a hop a round",
             "", "diameter rounds; one tuning",
             "degree=searched 1..min(k, N-1): the digraph's degree; family=searched kautz|"
             "debruijn: Imase-Itoh or Reddy-Pradhan-Kuhl"},
    .param_names = names,
    .max_nodes = OC_SF_MAX_NODES,
    .plan = oc__sf_kautz_plan,
    .generate = oc__sf_kautz_generate,
    .release = oc__sf_kautz_release,
    .search = oc__sf_kautz_search,
};
