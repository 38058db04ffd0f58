/*
 * keep_rounds.h — a sink for the tests of windowed generation (test_shard.c, test_shard_rhd.c):
 * it keeps every round (an oc__store) and each transfer's position in the whole schedule,
 * round << 32 | its place in the whole round (the windowed emitter's oc__round.index, else its
 * index), so that a window's rounds can be compared with the whole schedule's transfers that
 * touch it, place by place.
 */
#ifndef OC_TEST_KEEP_ROUNDS_H
#define OC_TEST_KEEP_ROUNDS_H

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

typedef struct keep {
    oc__sink sink;
    oc__store st;
    uint64_t *pos;
    size_t npos, cap;
} keep;

static inline int keep_round(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                             size_t len) {
    keep *k = (keep *)self;
    for (size_t i = 0; i < r->count; i++) {
        if (oc__grow((void **)&k->pos, &k->cap, k->npos + 1, sizeof(uint64_t))) return OC_ENOMEM;
        k->pos[k->npos++] = (index << 32) | (r->index ? r->index[i] : i);
    }
    return k->st.sink.round(&k->st.sink, index, r, why, len);
}

static inline void keep_init(keep *k) {
    memset(k, 0, sizeof *k);
    k->sink.round = keep_round;
    oc__store_init(&k->st);
}

static inline void keep_free(keep *k) {
    oc__store_free(&k->st);
    free(k->pos);
}

#endif
