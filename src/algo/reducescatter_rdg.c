/*
 * reducescatter_rdg.c — recursive doubling in unequal groups for the reduce-scatter on the
 * circuit-switched fabric (issue 26, item 2; the split tree in groups.c's essay): the
 * all-gather `rdg` (allgather_rdg.c) run backwards, where `rh` needs a power of its radix or a
 * fold.
 *
 * The schedule. The rounds of the all-gather in reverse order, each transfer u -> v of part A's
 * blocks turned into v -> u reducing v's partial sums of A's blocks into u's. In the all-gather,
 * block b reaches every node along one tree (every node receives each block once); reversed,
 * every node's contribution to block b reaches b's owner along that tree, each counted once.
 * Circuits a tile: those of the all-gather with the directions exchanged; every round's set is
 * new, each a reconfiguration. One chunk a block.
 *
 * The search: radix r as for the all-gather, with the same bound (a circuit carrying part A
 * starts at a node on g - 1 circuits). Pins: radix=r. N <= 4096.
 */
#include "algo/groups.h"

static const char *const names[] = {"radix", NULL};

const oc__algo oc__algo_reducescatter_rdg = {
    .info = {"rdg", OC_REDUCESCATTER, "fabric",
             "recursive halving in unequal groups: the all-gather rdg backwards, each class's "
             "partial sums (one range) to the class that owns them",
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
