/*
 * micro_sched.h — what the two micro-permutation all-to-alls share (all-to-all-scatter notes,
 * "Noncombining model with WH switching", "Meshes/tori": the direct exchange on a cycle and the
 * interleaving of horizontal and vertical micro-permutations on a 2-D mesh): packing one-packet
 * moves into rounds that are micro-permutations, i.e. sets of moves no two of which share a
 * sending node, a receiving node (1-port) or a directed link of their dimension-order routes
 * (full duplex), so a wormhole network runs each round as one contention-free step.
 *
 * The notes give these algorithms through figures we do not have (and a garbled Lemma), so the
 * packing is ours: list scheduling. Moves are taken in the caller's order; a round takes every
 * move, in order, whose resources are still free in it and whose prerequisite move (the hop
 * before it, for a packet relayed through an intermediate node) ran in an earlier round. Every
 * round is a micro-permutation by construction; the number of rounds is what the run reports.
 */
#ifndef OC_AAS_MICRO_SCHED_H
#define OC_AAS_MICRO_SCHED_H

#include "aas/aas.h"

/* One hop of one packet (d, s): node `from` to node `to`. after: 1 + the index of the move that
 * must run in an earlier round (0: none). */
typedef struct oc__move {
    uint32_t from, to, d, s;
    uint32_t after;
} oc__move;

/* The grid the routes run on: sides z[0] x z[1] (z[1] = 1: a cycle or a path), wrap: torus
 * sides (of 3 or more) go the shorter way round, the positive way on a tie; node = x + z0 y. */
typedef struct oc__micro_grid {
    uint32_t z[2];
    int wrap;
} oc__micro_grid;

/* Packs moves[0..n) into rounds: round_of[i] (allocated, the caller frees) and *rounds. 0 or
 * OC_ENOMEM (with the reason). */
int oc__micro_pack(const oc__micro_grid *g, const oc__move *moves, size_t n, uint32_t **round_of,
                   uint32_t *rounds, char *why, size_t len);


/* The plan state of both algorithms: the moves and their rounds. */
typedef struct oc__micro_plan {
    oc__micro_grid g;
    oc__move *moves;
    size_t n;
    uint32_t *round_of;
    uint32_t rounds;
} oc__micro_plan;

/* A plan with room for `moves` moves in p->state, checked against the memory budget first (the
 * moves and the packer's per-move arrays); 0, OC_ETOOBIG or OC_ENOMEM with a reason. */
int oc__micro_plan_new(oc__plan *p, const char *algo, uint64_t moves, char *why, size_t len);
void oc__micro_plan_free(oc__plan *p);
/* generate() of both: the packed moves, round by round (oc__micro_emit). */
int oc__micro_generate(const oc__plan *p, oc__emit *e);

#endif
