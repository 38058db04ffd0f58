/*
 * stride.h — the bidirectional ring and the two-level stride construction on the WDM ring,
 * shared by the `bidir` and `stride` all-gather, reduce-scatter and all-reduce (stride.c holds
 * the construction, its labels, its exact counts and its bounds; each algorithm file its essay).
 */
#ifndef OC_ALGO_STRIDE_H
#define OC_ALGO_STRIDE_H

#include "algo/algos.h"

/* The geometry of one stride L on N nodes (stride.c's essay has the construction). */
typedef struct oc__stride {
    uint32_t N, L;
    uint32_t g, P;   /* gcd(L, N) orbits of stride L, each of P = N / g nodes */
    uint32_t n1;     /* level-1 window: ceil(N / L) nodes of an orbit */
    uint32_t u1, l1; /* level-1 rounds clockwise / counter-clockwise (u1 >= l1) */
    uint32_t u2, l2; /* level-2 rounds clockwise / counter-clockwise (u2 >= l2) */
    uint32_t e_up,
        e_down;     /* level-2 rounds, counted from the last, that drop an edge of the window */
    uint32_t split; /* 1: the middle level-2 window (offset L/2, L even) half each way */
    uint32_t d2;    /* level-2 rounds counter-clockwise: l2, or u2 when split */
    int32_t mid;    /* when split: a-indices -l1..mid of the middle window come counter-clockwise */
    uint32_t *label; /* N: the label of node j's block (orbit-major); NULL while only counting */
    uint32_t *node;  /* N: the node of each label */
} oc__stride;




/* The plan shared by the six algorithms: coll (all-gather, reduce-scatter, all-reduce), stride L
 * (1 for bidir), q chunks a block; the state is the oc__stride. `name` for messages. */
int oc__stride_plan(oc__plan *plan, const char *name, oc_collective coll, uint32_t nodes,
                    uint32_t root, uint64_t bytes, uint32_t L, char *why, size_t whylen);
/* The plan of `stride` (all three collectives): its parameter `stride` pinned, searched, or
 * without a network the integer nearest sqrt(N). */
int oc__stride_plan_param(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t whylen);
/* The plan of `bistride` (all three collectives): its parameter `stride` pinned, searched, or
 * without a network the even integer nearest sqrt(N) (where the split saves a round's half). */
int oc__bistride_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen);
int oc__stride_generate(const oc__plan *plan, oc__emit *e);
void oc__stride_release(oc__plan *plan);
/* The closed form of the mapped steps at the plan's stride (x2 for all-reduce), and a note when
 * the mapped count differs. */
int oc__stride_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);
/* The stride search (stride.c): every L in 1..floor((N-1)/2) with its bound, best bound first. */
int oc__stride_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen);
/* The same space for bistride, with its (split) bound. */
int oc__bistride_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen);

/* The comb all-gather (comb.c): a stride-2 backbone with unit teeth both ways, the F w = 3
 * all-gather. No parameter. */
int oc__comb_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t whylen);
int oc__comb_generate(const oc__plan *plan, oc__emit *e);
void oc__comb_release(oc__plan *plan);
int oc__comb_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);

#endif
