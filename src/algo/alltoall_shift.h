/*
 * alltoall_shift.h — the shifted all-to-all's rounds, shared by pairwise (one shift a round,
 * alltoall_pairwise.c) and kshift (g shifts a round, alltoall_kshift.c): in the round of shifts
 * first .. first + g - 1, every node i sends its block for i + s to node i + s (mod N), for every
 * s of the round; the rounds cover s = 1 .. N - 1.
 */
#ifndef OC_ALGO_ALLTOALL_SHIFT_H
#define OC_ALGO_ALLTOALL_SHIFT_H

#include "algo/algos.h"

/* The rounds on N nodes, q chunks a block, g shifts a round (g >= 1). 0 or the emitter's error. */
int oc__alltoall_shift_rounds(oc__emit *e, uint64_t N, uint64_t q, uint64_t g);

#endif
