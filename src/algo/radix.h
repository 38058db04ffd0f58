/*
 * radix.h — mixed-radix trees shared by the multi-stage algorithms on the ring: OpTree's all-gather
 * (allgather_optree.c, optree III.D) and its all-to-all counterpart (alltoall_optree.c). Both lay
 * N nodes on the leaves of a tree whose stage j has radix m_j; they share how radices are written
 * (`radices=4x4x4`), how balanced and exact radix vectors of a given depth are found, and the
 * candidate vectors the parameter search maps.
 */
#ifndef OC_ALGO_RADIX_H
#define OC_ALGO_RADIX_H

#include "core/core.h"

#include <stddef.h>
#include <stdint.h>

enum { OC_RADIX_MAX_STAGES = 40 };

typedef struct oc__radices {
    uint32_t k;                      /* stages */
    uint32_t m[OC_RADIX_MAX_STAGES]; /* m[0] is stage 1's radix */
} oc__radices;

/* Parses "AxBx...": radices of at least 2 (and at most 2^20), at most 40 of them. */
int oc__radices_parse(const char *text, oc__radices *t, char *why, size_t len);
/* Writes "AxBx..." into buf. */
void oc__radices_format(const oc__radices *t, char *buf, size_t len);
/* The product of the radices (saturates a little above 2^40). */
uint64_t oc__radices_product(const oc__radices *t);
/* Balanced radices for depth k whose product just covers N (bigger radices first); 0 if none. */
int oc__radices_balanced(uint32_t N, uint32_t k, oc__radices *t);
/* An exact factorisation of N into k radices >= 2, as balanced as a greedy split makes it, in
 * descending order; 0 if N has fewer than k prime factors. */
int oc__radices_exact(uint32_t N, uint32_t k, oc__radices *t);
/* The largest radix (0 for no stages). */
uint32_t oc__radices_max(const oc__radices *t);
/* The radix vectors of depth k a search offers: the exact factorisation of N and its reverse,
 * and (when `cover`) the balanced vector that covers N and its reverse. Writes up to 4 into
 * out[] and returns how many (duplicates removed). */
size_t oc__radices_options(uint32_t N, uint32_t k, int cover, oc__radices out[4]);
/* The deepest tree worth trying: ceil(log2 N). */
uint32_t oc__radices_max_depth(uint32_t N);
/* sum over i in [0, n) of floor((a i + b) / m), exactly, in O(log m) (m >= 1). */
uint64_t oc__floor_sum(uint64_t n, uint64_t m, uint64_t a, uint64_t b);

/* The parameter checks both OpTree plans start with: only the names in `known`, and radices= or
 * k= given for more than one node (the pipeline chooses them when unset). */
int oc__radices_need(const oc_kv *params, const char *const *known, uint32_t N, char *why,
                     size_t len);
/* Reads radices= into *radices (NULL: unset) and refuses what neither tree accepts: both
 * radices= and k=, or stages for one node (N = 1 has zero stages). */
int oc__radices_args(const oc_kv *params, uint32_t N, const char **radices, char *why, size_t len);
/* Records the radices a plan for N nodes uses (for more than one node) and its depth k in used. */
int oc__radices_record(oc_kv *used, const oc__radices *t, uint32_t N, char *why, size_t len);

#endif
