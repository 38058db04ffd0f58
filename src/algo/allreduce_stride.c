/*
 * allreduce_stride.c — two-level stride all-reduce: the stride reduce-scatter then the stride
 * all-gather on N chunks, one a node (stride.c). Each half has the all-gather's steps on chunks
 * of d/N, so
 *   steps = 2 (ceil((n1-1)/2) ceil(L/(Fw)) + sum_r ceil(len_r/(Fw))),  n1 = ceil(N/L)
 * and the search (stride.c) offers every L in 1..floor((N-1)/2) with twice the all-gather's bound.
 */
#include "algo/stride.h"

#include <stdio.h>

static const char *const stride_params[] = {"stride", NULL};

/* The stride pinned or searched; without either (no network to search on), the integer nearest
 * sqrt(N), which balances the two levels' rounds. */
static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, stride_params, "stride", why, len);
    if (rc) return rc;
    uint64_t dflt = 1;
    while ((dflt + 1) * (dflt + 1) <= nodes)
        dflt++;
    if ((dflt + 1) * (dflt + 1) - nodes < nodes - dflt * dflt) dflt++;
    if (dflt > (nodes - 1) / 2) dflt = nodes > 2 ? (nodes - 1) / 2 : 1;
    if (dflt < 1) dflt = 1;
    uint64_t L = dflt;
    if ((rc = oc__kv_u64(params, "stride", dflt, 1, UINT32_MAX, &L, why, len))) return rc;
    if ((rc = oc__stride_plan(p, "stride", coll, nodes, root, bytes, (uint32_t)L, why, len)))
        return rc;
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)L);
    return oc_kv_set(p->used, "stride", v) ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

const oc__algo oc__algo_allreduce_stride = {
    .info = {"stride", OC_ALLREDUCE, "ring",
             "stride reduce-scatter then stride all-gather on N chunks", "",
             "about 2 (N/(2 min(L,Fw)) + N/(2Fw)) steps",
             "stride=searched: L, the level-1 lightpath length (1..floor((N-1)/2))"},
    .param_names = stride_params,
    .plan = plan,
    .generate = oc__stride_generate,
    .release = oc__stride_release,
    .search = oc__stride_search,
    .formula = oc__stride_formula,
};
