/*
 * groups.h — the split tree of recursive doubling in unequal groups (groups.c), shared by the
 * fabric's `rdg` all-reduce, all-gather and reduce-scatter (allreduce_rdg.c, allgather_rdg.c,
 * reducescatter_rdg.c). Its essay is in groups.c.
 */
#ifndef OC_ALGO_GROUPS_H
#define OC_ALGO_GROUPS_H

#include "algo/algos.h"
#include "core/core.h"

#include <stddef.h>
#include <stdint.h>

/* The most nodes the tree is built for: its table of feasible sizes is quadratic in N. */
enum { OC_GROUPS_MAX_NODES = 4096, OC_GROUPS_MAX_RADIX = 64 };

typedef struct oc__groups {
    uint32_t nodes, radix;
    uint32_t levels;  /* K: level K is the one class of all N nodes, level 0 the N single nodes */
    uint32_t rounds;  /* the rounds with a transfer (level t's merges are round t; an empty one
                         is skipped) */
    uint32_t *count;  /* count[t]: classes at level t, t = 0..K */
    uint32_t **size;  /* size[t][i]: the i-th class of level t (classes are node intervals, in
                         node order) */
    uint32_t **kids;  /* kids[t][i], t >= 1: how many level t-1 classes make it */
    uint32_t *degree; /* degree[t], t >= 1: the busiest node's circuits in round t (0: empty) */
    /* The schedule's transfers, (g - 1) n for every merge of g parts of n nodes, and its
     * chunk-transfers at one chunk a block, n^2 - the sum of the parts' squares for every merge
     * (part A hands its |A| blocks to each of the n - |A| others): the plan's work (core.h). */
    uint64_t transfers;
    uint64_t units;
} oc__groups;

/* Builds the tree of the fewest levels for N nodes and radix r (2 .. 64): every merge of g <= r
 * classes has each class at least 1/r of the merged one. OC_EINVAL (with the reason) where no
 * such tree exists (r = 2 at an N that is no power of two), OC_ETOOBIG past
 * OC_GROUPS_MAX_NODES, OC_ENOMEM. */
int oc__groups_build(uint32_t N, uint32_t r, oc__groups *g, char *why, size_t len);
void oc__groups_free(oc__groups *g);

/* The transfers of level t's merges (t = 1..K), in a fixed order: for each merged class, each of
 * its parts A in turn hands A to every node of the other parts, its own nodes taking the
 * receivers in turn. fn gets the sender, the receiver and A as a node interval [first, first +
 * count). Stops at fn's first non-zero return. */
int oc__groups_level(const oc__groups *g, uint32_t t,
                     int (*fn)(void *ctx, uint32_t src, uint32_t dst, uint32_t first,
                               uint32_t count),
                     void *ctx);

/* The all-gather's and reduce-scatter's entries (their essays: allgather_rdg.c,
 * reducescatter_rdg.c), told apart by the plan's collective. Parameter: radix. */
int oc__groups_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t whylen);
int oc__groups_generate(const oc__plan *plan, oc__emit *e);
void oc__groups_release(oc__plan *plan);
int oc__groups_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen);
int oc__groups_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);

#endif
