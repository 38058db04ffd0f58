/*
 * bitset.c — the two-level bitset of bitset.h.
 */
#include "core/bitset.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

int oc__bitset_init(oc__bitset *b, uint32_t n) {
    memset(b, 0, sizeof *b);
    b->n = n;
    b->words = (uint32_t)(((uint64_t)n + 63) / 64);
    b->summaries = (b->words + 63) / 64;
    b->word = oc__calloc(b->words ? b->words : 1, sizeof(uint64_t));
    b->summary = oc__calloc(b->summaries ? b->summaries : 1, sizeof(uint64_t));
    if (!b->word || !b->summary) {
        oc__bitset_free(b);
        return OC_ENOMEM;
    }
    return 0;
}

void oc__bitset_free(oc__bitset *b) {
    free(b->word);
    free(b->summary);
    memset(b, 0, sizeof *b);
}

void oc__bitset_clear_all(oc__bitset *b) {
    memset(b->word, 0, (size_t)b->words * sizeof(uint64_t));
    memset(b->summary, 0, (size_t)b->summaries * sizeof(uint64_t));
}

uint32_t oc__bitset_next(const oc__bitset *b, uint32_t i) {
    if (i >= b->n) return UINT32_MAX;
    uint32_t wi = i >> 6;
    uint64_t w = b->word[wi] & (~UINT64_C(0) << (i & 63));
    if (w) return wi * 64 + (uint32_t)__builtin_ctzll(w);
    /* next non-empty word after wi, through the summary */
    uint32_t next = wi + 1;
    if (next >= b->words) return UINT32_MAX;
    uint32_t si = next >> 6;
    uint64_t s = b->summary[si] & (~UINT64_C(0) << (next & 63));
    while (!s) {
        if (++si >= b->summaries) return UINT32_MAX;
        s = b->summary[si];
    }
    wi = si * 64 + (uint32_t)__builtin_ctzll(s);
    return wi * 64 + (uint32_t)__builtin_ctzll(b->word[wi]);
}

uint32_t oc__bitset_prev(const oc__bitset *b, uint32_t i) {
    if (b->n == 0) return UINT32_MAX;
    if (i >= b->n) i = b->n - 1;
    uint32_t wi = i >> 6;
    uint32_t top = i & 63;
    uint64_t w = b->word[wi] & (top == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (top + 1)) - 1);
    if (w) return wi * 64 + 63 - (uint32_t)__builtin_clzll(w);
    if (wi == 0) return UINT32_MAX;
    uint32_t prev = wi - 1;
    uint32_t si = prev >> 6;
    uint32_t stop = prev & 63;
    uint64_t s = b->summary[si] & (stop == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (stop + 1)) - 1);
    while (!s) {
        if (si == 0) return UINT32_MAX;
        s = b->summary[--si];
    }
    wi = si * 64 + 63 - (uint32_t)__builtin_clzll(s);
    return wi * 64 + 63 - (uint32_t)__builtin_clzll(b->word[wi]);
}
