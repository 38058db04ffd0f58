/*
 * rangeset.h — a set of uint32 values kept as sorted, disjoint, non-adjacent half-open intervals.
 *
 * The verifier keeps what each node holds (chunk labels) as range sets; for reductions, which
 * nodes' contributions each chunk carries is kept in a compact cell of up to two inline intervals
 * that falls back to a range set when it needs more (verify.c). The algorithms of the seeds move
 * contiguous label ranges and accumulate contiguous groups of contributions, so these sets mostly
 * stay a handful of intervals. An all-to-all node's is not: it holds one label of every other
 * node's row besides its own, N intervals. So a union costs O(m log n) for m ranges into n
 * intervals plus the intervals whose index it changes (none when every range extends or joins held
 * ones), never O(n) by itself; the worst case is still exact, only slower.
 */
#ifndef OC_RANGESET_H
#define OC_RANGESET_H

#include <stddef.h>
#include <stdint.h>

typedef struct oc__range {
    uint32_t lo, hi; /* [lo, hi), lo < hi */
} oc__range;

typedef struct oc__rangeset {
    oc__range *iv;
    uint32_t n, cap;
    uint64_t size; /* number of values in the set */
} oc__rangeset;

void oc__rangeset_free(oc__rangeset *s);
int oc__rangeset_copy(oc__rangeset *dst, const oc__rangeset *src);
/* 1 if every value of [lo, hi) is in s. */
int oc__rangeset_contains(const oc__rangeset *s, uint32_t lo, uint32_t hi);
/* The smallest value of [lo, hi) that is not in s, or hi if there is none. */
uint32_t oc__rangeset_first_missing(const oc__rangeset *s, uint32_t lo, uint32_t hi);
/* s := s ∪ add, where add is n ranges sorted by lo (they may overlap each other and s).
 * *overlap receives how many values of add were already present (counted with multiplicity). */
int oc__rangeset_union(oc__rangeset *s, const oc__range *add, size_t n, uint64_t *overlap);

#endif
