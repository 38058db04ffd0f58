/*
 * keep_rounds.h — a sink for the tests of windowed generation (test_shard.c, test_shard_rhd.c,
 * test_shard_hring.c): it keeps every round (an oc__store) and each transfer's position in the
 * whole schedule, round << 32 | its place in the whole round (the windowed emitter's
 * oc__round.index, else its index), so that a window's rounds can be compared with the whole
 * schedule's transfers that touch it, place by place (keep_window).
 */
#ifndef OC_TEST_KEEP_ROUNDS_H
#define OC_TEST_KEEP_ROUNDS_H

#include "algo/algos.h"
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

/* What generating the window [lo, hi) alone made, against the whole schedule's rounds: the
 * generator's return, the rounds it counted, the transfers it made outside the window (a generator
 * that skips makes none), and how many of the whole schedule's transfers touching the window it
 * kept in their places (`matched`) of `expected`, and of the `kept` it handed on. */
typedef struct keep_diff {
    int rc;
    uint64_t rounds, dropped;
    size_t matched, expected, kept;
} keep_diff;

static inline keep_diff keep_window(const oc__algo *algo, const oc__plan *plan, const keep *whole,
                                    uint32_t lo, uint32_t hi, char *why, size_t len) {
    keep_diff d;
    memset(&d, 0, sizeof d);
    keep part;
    keep_init(&part);
    oc__emit e;
    oc__emit_init(&e, &plan->spec, &part.sink, why, len);
    oc__emit_window(&e, lo, hi);
    d.rc = algo->generate(plan, &e);
    d.rounds = e.rounds;
    d.dropped = e.dropped;
    d.kept = part.npos;
    for (size_t r = 0, k = 0; r < whole->st.count; r++)
        for (size_t i = 0; i < whole->st.rounds[r].count; i++, k++) {
            const oc__transfer *t = &whole->st.rounds[r].xfers[i];
            if (t->first >= hi || t->first + t->count <= lo) continue;
            if (d.expected < part.npos && part.pos[d.expected] == whole->pos[k]) d.matched++;
            d.expected++;
        }
    oc__emit_free(&e);
    keep_free(&part);
    return d;
}

#endif
