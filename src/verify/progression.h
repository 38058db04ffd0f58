/*
 * progression.h — periodic sets of nodes for the reduction verifier (verify.c).
 *
 * Recursive halving leaves strided contribution sets: after a level of place value w a chunk
 * carries the nodes congruent to its holder mod w, ceil(N / w) intervals as a plain interval
 * list. Written as a period S and the pattern of one period, P = X ∩ [0, S), the same set is
 *     X = { z in [0, N) : z mod S in P }
 * and P is one point. Every operation the verifier needs is a question about X (is it empty,
 * the smallest value two sets share, the smallest value missing, the union), and each is answered
 * exactly on the patterns once both are written over a common period (lcm of the two, or N when
 * that is not below N: then both are plain lists over [0, N)); so the answers, and hence the
 * verifier's messages, are those of the plain lists, only cheaper. A plain list is the case
 * S = N. A pattern is an oc__range list over [0, S): sorted, disjoint, non-adjacent.
 */
#ifndef OC_PROGRESSION_H
#define OC_PROGRESSION_H

#include "core/rangeset.h"

#include <stdint.h>

/* A set as (period, pattern): X = {z < N : z mod S in iv[0..n)}, 1 <= S <= N. */
typedef struct oc__pset {
    uint32_t S;
    const oc__range *iv;
    uint32_t n;
} oc__pset;

/* The period both sets can be written over: lcm(a, b), or N when that is not below N. */
uint32_t oc__pset_common_period(uint32_t a, uint32_t b, uint32_t N);
/* The pattern of x over period L (L a multiple of x.S, or N): out gets at most
 * x.n * ceil(L / x.S) intervals; returns how many. */
uint32_t oc__pset_lift(const oc__pset *x, uint32_t L, oc__range *out);
/* The smallest value in both patterns (same period), or UINT32_MAX. */
uint32_t oc__pset_first_common(const oc__range *a, uint32_t an, const oc__range *b, uint32_t bn);
/* The union of two patterns (same period) into out (room for an + bn); returns its count. */
uint32_t oc__pset_union(const oc__range *a, uint32_t an, const oc__range *b, uint32_t bn,
                        oc__range *out);
/* The smallest value of [0, N) missing from the set, or N. */
uint32_t oc__pset_first_missing(const oc__pset *x, uint32_t N);
/* Shortens the period of (*S, iv[0..*n)) while the set is provably periodic with a shorter one
 * (a divisor of *S when *S < N; any when *S = N): checked exactly, so the set is unchanged. The
 * pattern is cut to the new period in place. Candidate periods are the distances between the
 * first intervals; a period not among them is simply not found (the set stays as it is). */
void oc__pset_reduce(uint32_t N, uint32_t *S, oc__range *iv, uint32_t *n);

/* A one-interval or arithmetic-progression pattern packed in three words (the verifier's inline
 * cell): m == 1: the circular interval [a, a + len) mod S (1 <= len < S); m >= 2: the points
 * a + i d mod S, i < m (d >= 2, m d <= S). */
typedef struct oc__prog {
    uint32_t m, S, a, x; /* x: len when m == 1, d when m >= 2 */
} oc__prog;

/* Whether the pattern (S < N, non-empty, not all of [0, S)) packs into a prog; *p if so. */
int oc__prog_pack(uint32_t S, const oc__range *iv, uint32_t n, oc__prog *p);
/* The pattern of p over [0, p.S): at most m + 1 intervals into out; returns the count. */
uint32_t oc__prog_unpack(const oc__prog *p, oc__range *out);

#endif
