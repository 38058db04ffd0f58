/*
 * allgather_circulant.c — the circulant all-gather on the WDM ring: every block follows the same
 * spanning tree, rotated to its source, the tree being the shortest one of its depth (issue 26,
 * item 2: a schedule for where few steps suffice, Fw large next to N).
 *
 * Why. The ring's tree-length bound (src/bounds/bounds_ring.c) says that N blocks' first-arrival
 * trees of depth S need N E(N, S) link slots of the 2 N Fw a step offers, E(N, S) the least total
 * arc length of a depth-S spanning tree of the ring (src/bounds/bounds_common.c computes it).
 * Take one tree T of that length and use it for every block, rotated: block j's source j sends it
 * in round 1 to j + p for the offsets p of depth 1, and in round t the node at j + parent(p) sends
 * it to j + p for every p of depth t. By the rotation every clockwise link carries, in round t,
 * the sum of the clockwise lengths of T's depth-t arcs, and likewise counter-clockwise: when T's
 * rounds are balanced (each at most Fw a direction) and the model colours the arcs, the schedule
 * takes S steps and meets the bound. A hand construction of this kind takes 2 steps at N = 16 and
 * 17, w = 8, where OpTree and one-stage take 3 and 4 (tests/test_bounds.c).
 *
 * The balanced trees (variant 2 and `first`). A shortest tree may put more of its length on one
 * direction, or in one round, than the other: at N = 16 and 17, w = 8 every shortest tree of
 * depth 2 that the programme finds takes 3 steps where 2 are possible. The mirrored programme
 * (circulant.c) finds the shortest tree symmetric under p -> -p, whose rounds load both
 * directions alike; with a budget B it finds the shortest such tree whose first round puts at
 * most B arc units on a direction (its later rounds at their shortest). The search tries, at
 * N <= 256 and depths 2..8, B = F w and 2 F w (the first round in one or two steps): at N = 16
 * and 17, w = 8 that is the hand-made tree of scripts/circulant_two_step.py, +-1, +-2, +-5, and
 * 2 steps.
 *
 * The tree (circulant.c): a shortest labelling of the offsets by depth, each offset's parent the
 * nearer end of its gap. It is optimal in total length; its rounds need not be balanced, so the
 * steps are sum over rounds of ceil(busiest direction's load / Fw) (the search's proven bound,
 * which the colouring can exceed), and the search tries every depth 1..min(floor(N/2), 48) and
 * both variants of its shortest tree (`variant`: 0 the quadratic programme's first minimisers,
 * 1 the slope merges'), whose rounds split the same length differently: at N = 1024, w = 128 the
 * second's bound is 13 steps against 16, at N = 16, w = 4 4 against 5.
 *
 * Costs. N (N - 1) one-block transfers (every block reaches every node on its own arc), like
 * bidir and comb. Up to 1024 nodes (OC__CIRC_QUADRATIC_NODES) both variants of every depth are
 * offered and the search maps them best bound first, as its contract says. Above, the
 * programme's O(depth N^2) is too slow and only the slope merges' trees are built (variant 1,
 * milliseconds at 4096 nodes), and a candidate's mapping is N (N - 1) transfers through the
 * model's colouring (about 2.5 s CPU at N = 4096): the 96 candidates made the search take
 * minutes (219 s at N = 4096, w = 128). So above 1024 nodes only the trees of least load bound
 * are mapped, as many as 2^24 transfers allow (one at 4096 nodes, four at 2048, ten at 1031);
 * the others are recorded in the search log as not mapped, under their least bound.
 * That is a choice by the bound, not a proof: the bound is exact on the links' load (every
 * directed link carries the same by the rotation) but the colouring may take more (52 steps
 * against a bound of 45 at N = 4096, w = 128), so a tree of a slightly larger bound could have
 * coloured better. Up to 4096 nodes (max_nodes): a run there is 16.7 M transfers through the
 * verifier, the model and the real-data run, about 3 s CPU: above 2896 nodes the search maps
 * its one tree and prunes the rest, so nothing is compared with it and its mapping is left to
 * the final run (search.c, "The lone candidate"), and every round is a rotation round, each
 * block's arcs the block before's moved by one node, which the verifier checks by one orbit
 * (verify.c, "rotation rounds"). The ring model still colours and checks every arc: taking a
 * round whole there would need rounds of several families in the IR and the ring model.
 * The all-reduce on the same trees, backwards then forwards, is allreduce_circulant.c; the
 * reduce-scatter, these rounds backwards, reducescatter_circulant.c. The plan, the rounds and the
 * search are circulant_rotated.c's, shared with the reduce-scatter.
 */
#include "algo/circulant.h"

const oc__algo oc__algo_allgather_circulant = {
    .info = {"circulant", OC_ALLGATHER, "ring",
             "every block on the same shortest spanning tree of a given depth, rotated to its "
             "source: the few-step all-gather where Fw is large next to N",
             "", "sum over the tree's rounds of ceil(busiest direction's load / (F w)) steps",
             OC__CIRC_ROT_PARAMS_DOC},
    .param_names = oc__circ_rot_params,
    .max_nodes = OC__CIRC_MAX_NODES,
    .plan = oc__circ_rot_plan,
    .generate = oc__circ_rot_generate,
    .release = oc__circ_rot_release,
    .search = oc__circ_rot_search,
    .formula = oc__circ_rot_formula,
};
