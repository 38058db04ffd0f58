/*
 * ring_order.c — the intervals of one direction of a ring round in the order the colouring takes
 * them (ring.c, colour_cut: by start from the cut, longest first, then transfer order), found
 * without sorting the whole round at once.
 *
 * Two stable counting sorts over the whole round (by length, then by start) give that order for
 * any round, but each pass scatters its writes over N buckets of arrays as long as the round: on
 * the all-to-all of 4096 nodes (8.4 M intervals a direction) they were a tenth of the model's
 * time, most of it cache misses. The rounds the algorithms make list a node's transfers
 * together (all-to-all, recursive doubling and halving levels, SiPCO's levels: node by node), so
 * an interval's start, its source, is the same for a run of transfers, and each start's intervals
 * are one group: the order is then the groups by start, and within a group by key (N - length),
 * ties in transfer order. A group is sorted alone, in cache: its (key, id) pairs, packed in one
 * 64-bit word each, are distinct (the ids are), so a pair's order is the stable order, and the
 * group is cut into maximal runs ascending or strictly descending (reversed, which keeps them
 * distinct and puts them in order), merged two by two (a natural merge sort: O(g log runs) for a
 * group of g). A node's partners at increasing distance make one or two runs. Where the starts do
 * not come in groups, the caller keeps the counting sorts; the order is the same either way
 * (tests/test_ring_order.c checks it against a plain sort on rounds of every shape).
 */
#include "net/ring_order.h"

#include <string.h>

int oc__ring_groups(uint32_t N, size_t n, const uint32_t *start, uint32_t *first, uint32_t *len,
                    size_t *most) {
    memset(first, 0xff, N * sizeof *first);
    size_t big = 0;
    for (size_t i = 0; i < n;) {
        const uint32_t s = start[i];
        if (first[s] != UINT32_MAX) return 0; /* s's intervals met before, apart from these */
        size_t j = i + 1;
        while (j < n && start[j] == s)
            j++;
        first[s] = (uint32_t)i;
        len[s] = (uint32_t)(j - i);
        if (j - i > big) big = j - i;
        i = j;
    }
    *most = big;
    return 1;
}

/* Merges the ascending runs v[b[k] .. b[k+1]) two by two into t (a last odd run copied); the
 * run bounds of the result back into b. Returns the number of runs left. */
static uint32_t merge_pass(const uint64_t *v, uint64_t *t, uint32_t *b, uint32_t runs) {
    uint32_t out = 0;
    for (uint32_t k = 0; k < runs; k += 2) {
        const uint32_t lo = b[k], mid = b[k + 1];
        const uint32_t hi = k + 1 < runs ? b[k + 2] : mid;
        uint32_t i = lo, j = mid, o = lo;
        while (i < mid && j < hi)
            t[o++] = v[i] < v[j] ? v[i++] : v[j++];
        while (i < mid)
            t[o++] = v[i++];
        while (j < hi)
            t[o++] = v[j++];
        b[out++] = lo;
    }
    b[out] = b[runs];
    return out;
}

void oc__ring_order_groups(uint32_t N, const uint32_t *first, const uint32_t *len,
                           const uint32_t *key, const uint32_t *id, uint32_t *out, uint64_t *v,
                           uint64_t *t, uint32_t *b) {
    size_t o = 0;
    for (uint32_t s = 0; s < N; s++) {
        if (first[s] == UINT32_MAX) continue;
        const uint32_t at = first[s], g = len[s];
        for (uint32_t k = 0; k < g; k++)
            v[k] = (uint64_t)key[at + k] << 32 | id[at + k];
        /* the runs: ascending kept, strictly descending reversed */
        uint32_t runs = 0;
        for (uint32_t i = 0; i < g;) {
            uint32_t j = i + 1;
            if (j < g && v[j] < v[i]) {
                while (j < g && v[j] < v[j - 1])
                    j++;
                for (uint32_t lo = i, hi = j - 1; lo < hi; lo++, hi--) {
                    const uint64_t x = v[lo];
                    v[lo] = v[hi];
                    v[hi] = x;
                }
            } else {
                while (j < g && v[j] > v[j - 1])
                    j++;
            }
            b[runs++] = i;
            i = j;
        }
        b[runs] = g;
        uint64_t *src = v, *dst = t;
        while (runs > 1) {
            runs = merge_pass(src, dst, b, runs);
            uint64_t *x = src;
            src = dst;
            dst = x;
        }
        for (uint32_t k = 0; k < g; k++)
            out[o++] = (uint32_t)src[k];
    }
}
