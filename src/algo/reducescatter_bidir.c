/*
 * reducescatter_bidir.c — bidirectional ring reduce-scatter: the bidirectional ring all-gather
 * (allgather_bidir.c) run backwards (stride.c at stride 1).
 *
 * The all-gather's round k transfer x -> y of a block becomes, in round R-1-k, the reduction
 * y -> x of the same block: each block is summed along the two halves of the ring towards its
 * node, one hop a round from the far side, and its node adds the last two partial sums. One block
 * on one link a transfer:
 *   steps = ceil((N-1)/2);   time = ceil((N-1)/2) (a + d/B)
 */
#include "algo/stride.h"

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "bidir", why, len);
    return rc ? rc : oc__stride_plan(p, "bidir", coll, nodes, root, bytes, 1, why, len);
}

const oc__algo oc__algo_reducescatter_bidir = {
    .info = {"bidir", OC_REDUCESCATTER, "ring,fattree,switch,fabric",
             "bidirectional ring reduce-scatter: partial sums flow both ways, ceil((N-1)/2) rounds",
             "", "ceil((N-1)/2) steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .formula = oc__stride_formula,
};
