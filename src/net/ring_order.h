/*
 * ring_order.h — the order in which the ring model's colouring takes a direction's intervals
 * (ring.c, colour_cut): by start, longest first, then in transfer order; found group by group
 * where every start's intervals come one after another (ring_order.c).
 */
#ifndef OC_NET_RING_ORDER_H
#define OC_NET_RING_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* Whether the n intervals' starts (start[i] < N) come in groups: the intervals of each start one
 * after another, every start in one group. Then first[s] is where start s's group begins
 * (UINT32_MAX: no interval starts at s), len[s] its size, and *most the largest group. first[]
 * and len[] hold N entries. 0 when some start's intervals are not together (first[] and len[]
 * then hold nothing of use). */
int oc__ring_groups(uint32_t N, size_t n, const uint32_t *start, uint32_t *first, uint32_t *len,
                    size_t *most);

/* The n intervals of oc__ring_groups' groups in order of (start, key[i], id[i]): id[] (any
 * values, increasing with i, so that the last key is the intervals' own order: the sort is
 * stable) written in that order to out[] (n entries, apart from id[]). v and t: scratch of
 * `most` 64-bit words each, b: most + 1 words. A group is cut into its runs, each ascending or
 * strictly descending in (key, id) (the latter reversed), which are merged pairwise: one pass
 * over a group whose keys are already in order, and a few over the rounds the algorithms make
 * (a node's partners in one or two ascending runs of distance). */
void oc__ring_order_groups(uint32_t N, const uint32_t *first, const uint32_t *len,
                           const uint32_t *key, const uint32_t *id, uint32_t *out, uint64_t *v,
                           uint64_t *t, uint32_t *b);

#endif
