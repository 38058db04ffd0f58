/*
 * levels.h — the multi-level stride construction on the WDM ring (levels.c), shared by the
 * `multilevel` all-gather, reduce-scatter and all-reduce.
 */
#ifndef OC_ALGO_LEVELS_H
#define OC_ALGO_LEVELS_H

#include "algo/algos.h"
#include "algo/radix.h"

/* The multi-level plan: coll, the radices n_1 x ... x n_k (product N; n_1 >= 3 when k >= 2). */
int oc__levels_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                    uint64_t bytes, const oc_kv *params, char *why, size_t whylen);
int oc__levels_generate(const oc__plan *plan, oc__emit *e);
void oc__levels_release(oc__plan *plan);
int oc__levels_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);
int oc__levels_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen);

#endif
