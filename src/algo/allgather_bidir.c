/*
 * allgather_bidir.c — bidirectional ring all-gather (issue 26: a schedule that meets the ring's
 * receive bound at one wavelength). The construction, its labels and its counts are stride.c's
 * at stride 1.
 *
 * In round r (1 <= r <= ceil((N-1)/2)) node i sends the block of node i-(r-1) to i+1 and, while
 * r <= floor((N-1)/2), the block of node i+(r-1) to i-1: every block travels both ways round the
 * ring at once, one hop a round, and meets itself at the far side. For even N the last round goes
 * one way only (the block of the node opposite arrives once). Every transfer is one block on one
 * link, so a round is one step on any ring (one wavelength each way):
 *   steps = ceil((N-1)/2);   time = ceil((N-1)/2) (a + d/B)
 * On the ring with F = w = 1 that is the receive bound ceil((N-1)/(2Fw)) itself (a node takes in
 * two blocks a step, one a link); the one-way ring takes N-1 and neighbour exchange 2 steps a
 * round (its pairs need two slots). On a switch or fat-tree every node sends two blocks a round.
 */
#include "algo/stride.h"

static const char *const no_params[] = {NULL};

static int bidir_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, no_params, "bidir", why, len);
    return rc ? rc : oc__stride_plan(plan, "bidir", coll, nodes, root, bytes, 1, why, len);
}

const oc__algo oc__algo_allgather_bidir = {
    .info = {"bidir", OC_ALLGATHER, "ring,fattree,switch,fabric",
             "bidirectional ring: every node forwards one block each way, ceil((N-1)/2) rounds", "",
             "ceil((N-1)/2) steps; ceil((N-1)/2)(a + d/B)", ""},
    .param_names = no_params,
    .plan = bidir_plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .formula = oc__stride_formula,
};
