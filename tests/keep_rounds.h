/*
 * keep_rounds.h — a sink for the tests of windowed generation (test_shard.c, test_shard_rhd.c,
 * test_shard_hring.c, test_shard_sipco.c, ...): it keeps every round (an oc__store) and each
 * transfer's position in the whole schedule, round << 32 | its place in the whole round (the
 * windowed emitter's oc__round.index, else its index), so that a window's rounds can be compared
 * with the whole schedule's transfers that touch it, place by place (keep_window); keep_plan and
 * keep_check_windows are the plan and the spread of windows those tests share.
 */
#ifndef OC_TEST_KEEP_ROUNDS_H
#define OC_TEST_KEEP_ROUNDS_H

#include "algo/algos.h"
#include "check.h"
#include "core/core.h"
#include "core/result.h"
#include "run/pipeline.h"

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

/* Plans `algorithm` of `coll` on n nodes of the switch (1 MiB, `param` KEY=VALUE or NULL) as
 * oc_run would. 0, or the error with why set (nothing left to free then). */
static inline int keep_plan(oc_collective coll, const char *algorithm, uint32_t n,
                            const char *param, const oc__algo **algo, oc__plan *plan, char *why,
                            size_t len) {
    oc_kv *kv = oc_kv_new();
    if (!kv || (param && oc_kv_set_pair(kv, param))) {
        oc_kv_free(kv);
        return OC_ENOMEM;
    }
    oc_request req = {.collective = coll,
                      .algorithm = algorithm,
                      .network = "switch",
                      .nodes = n,
                      .bytes = 1u << 20,
                      .params = kv,
                      .skip_data_check = 1};
    const oc__model *model = NULL;
    oc_report *rep = oc__report_new();
    int rc = rep ? oc__plan_request(&req, algo, &model, plan, rep, why, len) : OC_ENOMEM;
    oc_report_free(rep);
    oc_kv_free(kv);
    if (rc) oc__plan_free(*algo, plan);
    return rc;
}

/* The plan generated whole, then windows of 1, 2, 3 chunks, a third of them and all of them at
 * spread places, each alone (keep_window): CHECKs that the plan says its generator skips, and
 * that every window counts the whole schedule's rounds, makes no transfer outside itself and
 * keeps every transfer that touches it in its place. `what` names the case in failures. Returns
 * the windows checked. */
static inline size_t keep_check_windows(const char *what, const oc__algo *algo,
                                        const oc__plan *plan) {
    char why[512] = "";
    size_t checked = 0;
    CHECK(plan->spec.window_skips, "%s: the plan does not say its generator skips", what);
    keep whole;
    keep_init(&whole);
    CHECK(oc__generate(algo, plan, &whole.sink, why, sizeof why) == 0, "%s: %s", what, why);
    const uint32_t C = plan->spec.chunks;
    const uint32_t widths[] = {1, 2, 3, C / 3 + 1, C};
    for (uint32_t lo = 0; lo < C; lo += 1 + C / 7)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            if (lo + widths[w] > C || (w && widths[w] == widths[w - 1])) continue;
            const uint32_t hi = lo + widths[w];
            const keep_diff d = keep_window(algo, plan, &whole, lo, hi, why, sizeof why);
            checked++;
            CHECK(d.rc == 0, "%s window [%u,%u): %s", what, lo, hi, why);
            CHECK(d.rounds == whole.st.count, "%s window [%u,%u): %llu rounds, not %zu", what, lo,
                  hi, (unsigned long long)d.rounds, whole.st.count);
            CHECK(d.dropped == 0, "%s window [%u,%u): %llu transfers made outside it", what, lo,
                  hi, (unsigned long long)d.dropped);
            CHECK(d.matched == d.expected && d.kept == d.expected,
                  "%s window [%u,%u): %zu of %zu transfers in their places, %zu kept", what, lo,
                  hi, d.matched, d.expected, d.kept);
        }
    keep_free(&whole);
    return checked;
}

#endif
