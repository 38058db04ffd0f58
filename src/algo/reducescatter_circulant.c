/*
 * reducescatter_circulant.c — the circulant reduce-scatter on the WDM ring: the dual of the
 * circulant all-gather (allgather_circulant.c), every one of its transfers reversed in time and
 * in direction and made a reduction, so that each node ends with its own block summed over every
 * node (issue 26, item 2: "their reduce-scatter duals").
 *
 * The schedule. The all-gather sends block j down one tree T rotated to j: in round t, for every
 * offset p of label t, node j + parent(p) copies block j to node j + p. Here the rounds run
 * backwards: round i = 1..h is the all-gather's round t = h + 1 - i, and its transfer of block j
 * for offset p goes from node j + p to node j + parent(p), op reduce: the node adds its partial
 * sum of block j (its own vector's block j and what its children sent) into its parent's. SIZE
 * is the whole vector, so a block (one chunk) is d / N bytes. N (N - 1) one-chunk transfers.
 *
 * Every contribution once (the verifier checks it with real data; this is why it holds). In T
 * every offset p != 0 has one parent, of a smaller label (the source 0 has none). Claim: when
 * node j + p sends block j, in round h + 1 - label(p), it holds exactly the contributions of p's
 * subtree. Its children c have labels larger than p's, so they sent in strictly earlier rounds
 * (h + 1 - label(c) < h + 1 - label(p)), each (by induction from the deepest label, whose nodes
 * are leaves holding their own contribution alone) the contributions of its own subtree; the
 * subtrees of distinct children are disjoint and a round's reductions all take effect at its end,
 * so nothing arrives twice, and p sends once. The source j never sends block j and hears from
 * each of its children once: it ends with every node's contribution to block j, once each.
 *
 * The bound (the search's, proven; the same as the all-gather's at the same parameters). Reversing
 * an arc keeps the links it spans and swaps their direction: a clockwise arc a -> b over the
 * clockwise links a .. b - 1 becomes b -> a over the counter-clockwise links of the same span,
 * and an arc of exactly half the ring stays routable either way. By the rotation over the N
 * blocks, round i's clockwise links each carry the counter-clockwise arc length of T's round
 * h + 1 - i and its counter-clockwise links the clockwise length (circulant.c,
 * oc__circ_round_load), the half-ring arcs lying on either side. The ring maps each round into
 * steps of its own, and a step carries at most F w lightpaths on a directed link (one a wavelength
 * of each fibre), so round i takes at least ceil(max(cw, ccw, the mean of both with the half-ring
 * arcs) / (F w)) steps: the all-gather's round bound, term by term, and its sum over the rounds
 * the same. The physical bound of the reduce-scatter on the ring is the all-gather's read
 * backwards in time (src/bounds/bounds_ring.c), so the two algorithms stand at the same distance
 * from it. That the ring's colouring then gives the same mapped steps too (the conflict graph of
 * each direction's arcs is the other direction's of the all-gather, arc for arc) is measured, not
 * assumed: tests/test_circrs.c compares the two at every depth and variant on a grid of N and w.
 *
 * The space and the search: the all-gather's (depth, variant, first; circulant_rotated.c), every
 * candidate bounded as above and mapped best bound first; the default is the optimum of the
 * mapped time over every pin (checked against every pin at small N by tests/test_circrs.c). The
 * plan, the rounds and the search are circulant_rotated.c's, shared with the all-gather: only the
 * direction of time differs.
 */
#include "algo/circulant.h"

const oc__algo oc__algo_reducescatter_circulant = {
    .info = {"circulant", OC_REDUCESCATTER, "ring",
             "the circulant all-gather backwards: every block summed up the same shortest tree of "
             "a given depth, rotated to its node, each relay adding its own share",
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
