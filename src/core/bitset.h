/*
 * bitset.h — a two-level bitset over positions 0..n-1 with fast "next set position at or after i"
 * and "last set position at or before i": a summary word marks which words are non-empty, so a
 * search skips 4096 empty positions per summary bit. Used by the ring model's wavelength
 * assignment and, separately, by its resource check.
 */
#ifndef OC_BITSET_H
#define OC_BITSET_H

#include <stdint.h>

typedef struct oc__bitset {
    uint64_t *word, *summary;
    uint32_t n;
    uint32_t words, summaries;
} oc__bitset;

int oc__bitset_init(oc__bitset *b, uint32_t n);
void oc__bitset_free(oc__bitset *b);
void oc__bitset_clear_all(oc__bitset *b);

static inline void oc__bitset_set(oc__bitset *b, uint32_t i) {
    b->word[i >> 6] |= UINT64_C(1) << (i & 63);
    b->summary[i >> 12] |= UINT64_C(1) << ((i >> 6) & 63);
}

static inline void oc__bitset_clear(oc__bitset *b, uint32_t i) {
    uint64_t *w = &b->word[i >> 6];
    *w &= ~(UINT64_C(1) << (i & 63));
    if (!*w) b->summary[i >> 12] &= ~(UINT64_C(1) << ((i >> 6) & 63));
}

static inline int oc__bitset_test(const oc__bitset *b, uint32_t i) {
    return (int)((b->word[i >> 6] >> (i & 63)) & 1);
}

/* First set position >= i, or UINT32_MAX. */
uint32_t oc__bitset_next(const oc__bitset *b, uint32_t i);
/* Last set position <= i, or UINT32_MAX. */
uint32_t oc__bitset_prev(const oc__bitset *b, uint32_t i);

#endif
