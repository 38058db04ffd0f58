/*
 * gossip_kautz.c — gossip (the multiple all-to-all of passive-optical-star 3.3) on one fixed
 * digraph: tuned once, then store and forward (issue 26, item 2; ours, the routes in
 * star_fixed.c).
 *
 * Why. TCP2 (gossip_tcp2.c) meets new clique partners every step, so it pays D a step: h D +
 * ceil((P - 1) m / k) message times. The star's bound is D + ceil((P - 1) m / k') (a processor
 * takes in P - 1 blocks on k' = min(k, P - 1) filters a step; src/bounds/bounds_star.c), so at
 * D = 100, one message a block, TCP2 is 3.26 times it at P = 100, k = 3 (4 D + 33 against D + 33).
 *
 * The schedule. The processors form a generalised Kautz (Imase-Itoh) or de Bruijn (Reddy-Pradhan-
 * Kuhl) digraph of degree d <= k (star_fixed.c): every block goes from its source to every other
 * processor along a shortest path, one arc a round, balanced greedily over each round's arcs,
 * every arc busy every round so that no filter retunes after the first step. Runs of consecutive
 * blocks on one arc are one transfer.
 *   rounds = the digraph's diameter (at least the Moore depth, the least S with 1 + d + ... +
 *            d^S >= P; Kautz and de Bruijn: at most ceil(log_d P));
 *   time   = D + sum over rounds of the busiest arc's blocks x m L tau: at least D + ceil((P - 1)
 *            / d) m L tau, which is the bound's at d = k' (exact figures: the model's, docs/
 *            bounds-gap.md's star table).
 *
 * The search (algos.h's contract). Space: degree d = 1 .. min(k, P - 1) (d = 1: the directed
 * ring) in both families; pins degree= (1..64; above k the model splits rounds and retunes) and
 * family=kautz|debruijn. Proven bound of a candidate: its rounds are at least the Moore depth of
 * degree d (steps), each at least a block's messages long, and a processor takes in P - 1 blocks
 * on at most d streams a step, the first step tuning: time >= D + max(S, ceil((P - 1) / d))
 * block times.
 */
#include "algo/star_fixed.h"

static const char *const names[] = {"degree", "family", NULL};

const oc__algo oc__algo_gossip_kautz = {
    .info = {"kautz", OC_GOSSIP, "star",
             "gossip on one fixed digraph of degree d (generalised Kautz or de Bruijn): tuned "
             "once, every block along shortest paths, a hop a round",
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
