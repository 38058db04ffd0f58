/*
 * allgather_optree.h — what OpTree's all-gather (allgather_optree.c) shows outside its file: the
 * exact counts of one stage, as its radix search counts it, for the test that checks the search's
 * fast counts (per segment, per residue) against routing every transfer one by one
 * (tests/test_optree_pinned.c), and the rule by which the search maps one ring stage for many
 * lists (tests/test_optree_k.c). Nothing else calls them.
 */
#ifndef OC_ALGO_ALLGATHER_OPTREE_H
#define OC_ALGO_ALLGATHER_OPTREE_H

#include <stdint.h>

/* How oc__optree_stage_counts counts. */
typedef enum oc__optree_count {
    OC__OPTREE_COUNT_SEARCH, /* as the search does: per segment or per residue where it applies */
    OC__OPTREE_COUNT_ROUTED  /* every transfer stage_sends() gives, routed one by one */
} oc__optree_count;

/* The stage of radix m whose partners are W positions apart, of V positions on N nodes (V in
 * N..2N, W * m dividing V): the busiest directed link's load in blocks (or the volume bound,
 * when larger) in *load, the same in transfers (each weighing 1, as the ring colours them at
 * spread=0) in *units, the least number of blocks a transfer carries in *least, and *exact 0
 * when a transfer is at exactly N/2 nodes. 0 or OC_ENOMEM. */
int oc__optree_stage_counts(uint32_t N, uint64_t V, uint64_t W, uint32_t m, oc__optree_count how,
                            uint64_t *load, uint64_t *units, uint64_t *least, int *exact);

/* 1 when the ring stage (stage 1) of every list m_1 x ... of depth 2 or more on N nodes is the
 * same round whatever its V (the same ends and counts in the same order; the labels aside): the
 * search then maps it alone once for all of them (allgather_optree.c, "The ring stage when m_1
 * divides N"). tests/test_optree_k.c checks the claim against the generated rounds. */
int oc__optree_ring_stage_shared(uint32_t N, uint32_t m1);

/* The colours the ring model gives the ring stage (stage 1) of V positions and radix m1 on N
 * nodes (V a multiple of m1, V / m1 >= 2, V in N..2N), counted in allgather_optree.c by the
 * model's rule instead of mapped: colours[0] clockwise, colours[1] counterclockwise (the round
 * takes ceil(max / C) steps), maxload[] each direction's busiest link, *whole 1. With `enough`
 * (0: none) the count may stop once a direction has reached that many colours: *whole is then 0
 * and colours[] are lower bounds on the model's, one of them >= enough. The search's ring-stage
 * costs come from it; tests/test_optree_pinned.c checks it against the ring model's own mapping.
 * 0, OC_EINVAL, OC_ETOOBIG (N (m1 - 1) arcs past 2^32) or OC_ENOMEM. */
int oc__optree_ring_stage_colours(uint32_t N, uint64_t V, uint32_t m1, uint64_t enough,
                                  uint64_t colours[2], uint64_t maxload[2], int *whole);

#endif
