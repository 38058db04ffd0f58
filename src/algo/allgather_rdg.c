/*
 * allgather_rdg.c — recursive doubling in unequal groups for the all-gather on the
 * circuit-switched fabric (issue 26, item 2; the split tree in groups.c's essay): the all-gather
 * counterpart of `rdg`'s all-reduce, where `rd` needs a power of its radix or a fold.
 *
 * The schedule. Round t merges the classes of level t - 1 into those of level t: every node of
 * a part A receives the blocks of every other part B of its class from one of B's nodes, in one
 * transfer (a class is an interval of nodes, so its blocks are one label range; identity
 * labels, one chunk a block). After round t a node holds its level-t class's blocks, after the
 * last all N. Rounds: the tree's levels (4 at N = 100 on the 1x3 switch); every round's circuit
 * set is new (groups.c), so each pays a reconfiguration; a round's slowest circuit carries its
 * largest part's blocks over at most floor(W / (g - 1)) wavelengths (its receiver is on g - 1).
 *
 * The search: radix r as for the all-reduce (allreduce_rdg.c), each offered with the proven
 * bound sum over rounds of (alpha + reconfiguration + the largest part over floor(W / (g - 1))
 * wavelengths), g the parts of the merge holding it. Pins: radix=r. N <= 4096.
 */
#include "algo/groups.h"

static const char *const names[] = {"radix", NULL};

const oc__algo oc__algo_allgather_rdg = {
    .info = {"rdg", OC_ALLGATHER, "fabric",
             "recursive doubling in unequal groups: classes of at least 1/r of their merge, each "
             "class's blocks (one range) to the other classes a round",
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
