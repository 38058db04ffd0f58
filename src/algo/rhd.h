/*
 * rhd.h — recursive halving and recursive doubling in any radix, shared by allreduce rhd,
 * reducescatter rh and allgather rd (rhd.c has the method and its costs).
 */
#ifndef OC_ALGO_RHD_H
#define OC_ALGO_RHD_H

#include "algo/algos.h"

typedef struct oc__rhd {
    uint32_t N, P, r, k; /* P = r^k, the largest power of r not above N */
    uint32_t m;          /* extra nodes folded onto one core node: ceil((N - P) / P) */
    uint32_t *B;         /* P + 1 label boundaries: core node x owns [B[x], B[x+1]) */
    uint32_t *label;     /* N entries: the label of node n's block (reduce-scatter, all-gather) */
} oc__rhd;

/* Reads `radix` (default 2), plans the spec: allreduce gets P labels, one per core node;
 * reduce-scatter and all-gather one label per block, ordered so that core node x's range holds its
 * own block and those of the extra nodes folded onto it (spec.block_node). */
int oc__rhd_plan(oc__plan *p, const char *name, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, char *why, size_t len);
void oc__rhd_release(oc__plan *p);
/* The k rounds of recursive halving (reduce-scatter) over the core nodes 0..P-1. */
int oc__rhd_halving(const oc__rhd *h, oc__emit *e);
/* The k rounds of recursive doubling (all-gather) over the core nodes 0..P-1. */
int oc__rhd_doubling(const oc__rhd *h, oc__emit *e);
/* Folds: every extra node n >= P and its core node (n - P) mod P. `in` = 1: n -> core, else
 * core -> n; labels [first, first + count), or, with count = 0, n's own block. */
int oc__rhd_fold(const oc__rhd *h, oc__emit *e, int in, oc__op op, uint32_t first, uint32_t count);

/* formula() of the one-way halves (rh reduce-scatter, rd all-gather): k(r-1) alpha + (P-1)(m+1)
 * chunk times, plus the fold's 2m transfers when N is not a power of r; a step count on networks
 * with wavelengths. */
int oc__rhd_one_way_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep);

#endif
