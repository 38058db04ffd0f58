/*
 * allreduce_rdg.c — recursive doubling in unequal groups, the whole vector each round: the
 * all-reduce for small vectors on the circuit-switched fabric (issue 26, item 2; the split tree,
 * and why it beats `rdk`'s fold, in groups.c's essay).
 *
 * The schedule. Round t merges the classes of level t - 1 into those of level t (groups.c):
 * every node of a part A receives the vector of every other part B of its class, reduced, from
 * one of B's nodes (which holds B's sum, by induction), so after round t a node holds its level-t
 * class's sum, and after the last the sum of all N. One chunk: the vector is never cut. Rounds:
 * the tree's levels (N = 100 on the seed's 1x3 switch: 4, where rdk takes 5 and the relay depth
 * allows 4); circuits a tile: at most r - 1 a direction. No pair of nodes is in two rounds (a
 * pair of round t is in one level-t class, one of a later round in two), so every round's
 * circuit set is new and pays a reconfiguration: time = sum over rounds of (alpha + reconfig +
 * the vector over floor(W / d_t) wavelengths), d_t the round's busiest tile's circuits.
 *
 * The search (algos.h's contract). Space: radix r = 2 .. min(N, 64), and at most the MZI degree
 * + 1 where the network refuses a round above it (and at most W + 1: a circuit needs a
 * wavelength); an r whose tree does not exist (r = 2 off the powers of two) is not offered.
 * Bound of a candidate: the time above with the tree's own d_t, exactly the model's cost where
 * the fibres are ample (scarce fibres add passes). Steps bound: the rounds. Pins: radix=r.
 * N above 4096 (the tree's quadratic table) is refused.
 */
#include "algo/groups.h"

static const char *const names[] = {"radix", NULL};

const oc__algo oc__algo_allreduce_rdg = {
    .info = {"rdg", OC_ALLREDUCE, "fabric",
             "recursive doubling in unequal groups: classes of at least 1/r of their merge, the "
             "whole vector to the other classes a round (no fold where N is no product of radices)",
             "N <= 4096; radix 2 only at powers of two",
             "the split tree's levels (ceil(log_r N) or one more), each a reconfiguration",
             "radix=searched: 2 .. MZI degree + 1 (e.g. 4 at N = 100)"},
    .param_names = names,
    .plan = oc__groups_plan,
    .generate = oc__groups_generate,
    .release = oc__groups_release,
    .search = oc__groups_search,
    .formula = oc__groups_formula,
};
