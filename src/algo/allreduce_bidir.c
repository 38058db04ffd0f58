/*
 * allreduce_bidir.c — bidirectional ring all-reduce: the bidirectional reduce-scatter then the
 * bidirectional all-gather (reducescatter_bidir.c, allgather_bidir.c; stride.c at stride 1) on
 * N chunks, one a node.
 *
 * Each half moves one chunk (d/N) each way on every link a round:
 *   steps = 2 ceil((N-1)/2);   time = 2 ceil((N-1)/2) (a + (d/N)/B)
 * against the one-way ring's 2(N-1): the same bytes a node, half the rounds, both directions.
 */
#include "algo/stride.h"

static const char *const no_params[] = {NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "bidir", why, len);
    return rc ? rc : oc__stride_plan(p, "bidir", coll, nodes, root, bytes, 1, why, len);
}

const oc__algo oc__algo_allreduce_bidir = {
    .info =
        {"bidir", OC_ALLREDUCE, "ring,fattree,switch,fabric",
         "bidirectional ring reduce-scatter then all-gather on N chunks, 2 ceil((N-1)/2) rounds",
         "", "2 ceil((N-1)/2) steps", ""},
    .param_names = no_params,
    .plan = plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .formula = oc__stride_formula,
};
