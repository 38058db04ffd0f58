/*
 * ringtree.h — one level of the ring's tree-length programme (ringtree.c): from D_{k-1} to D_k,
 * the least cost of a gap's interior with one more level left (src/bounds/bounds_common.c's
 * essay derives it). Below both of its users: the physical bound's exact tree length E(N, h)
 * (bounds_common.c) and the circulant algorithms' shortest tree (src/algo/circulant.c), which
 * keeps the argmins to walk its tree from them.
 */
#ifndef OC_CORE_RINGTREE_H
#define OC_CORE_RINGTREE_H

#include <stddef.h>
#include <stdint.h>

/* The sequences of one level, n = N + 1 terms each: D the level below (read), Lp, Mp and next
 * written (next = D_k). The argmins, each may be NULL when not wanted: ly[x] the y of Lp(x)'s
 * minimum, ma[s] the a of Mp(s) = Lp(a) + Lp(s - a), split[g] the s of next(g) = Mp(s) + D(g - s).
 * work holds 2n entries (the slopes' deque). */
typedef struct oc__ringtree_level {
    const uint64_t *D;
    uint64_t *Lp, *Mp, *next;
    uint32_t *ly, *ma, *split;
    size_t n;
    size_t *work;
} oc__ringtree_level;

/* The level by the slopes, O(n log n), where D and then Lp are convex (checked): 1 when it was
 * done so, 0 when a sequence is not convex (then Lp may be written, next is not). */
int oc__ringtree_level_slopes(const oc__ringtree_level *l);
/* The level by scanning every candidate, O(n^2), the first minimiser kept. */
void oc__ringtree_level_quadratic(const oc__ringtree_level *l);

#endif
