/*
 * keep_verify.h — an algorithm's whole schedule kept (keep_rounds.h), its chunk windows compared
 * with it, and it replayed through a fresh verifier, whole or with one transfer changed, for the
 * tests of windows and of deliberate breaks (test_circpipe.c, test_circrs.c): a generator whose
 * windows differ from its whole schedule, or a verifier that accepts a broken schedule, fails
 * them. Include check.h first.
 */
#ifndef OC_TEST_KEEP_VERIFY_H
#define OC_TEST_KEEP_VERIFY_H

#include "keep_rounds.h"
#include "model_map.h"
#include "verify/verify.h"

/* Plans `algo` for `coll` on N nodes (64 KiB) with the parameters "key=value ...", and keeps its
 * whole schedule in *whole (keep_init'ed here; the caller frees it and the plan). 0 or the error,
 * each checked. */
static inline int plan_kept(const oc__algo *algo, oc_collective coll, uint32_t N, const char *words,
                            oc__plan *plan, keep *whole) {
    oc_kv *kv = oc_kv_new();
    kv_add_words(kv, words, " ");
    char why[512] = "";
    int rc = algo->plan(plan, coll, N, 0, 1u << 16, kv, why, sizeof why);
    CHECK(rc == 0 && plan->spec.window_skips, "N=%u %s: %s", N, words, rc ? why : "no skips");
    keep_init(whole);
    if (!rc) rc = oc__generate(algo, plan, &whole->sink, why, sizeof why);
    CHECK(rc == 0, "N=%u %s: %s", N, words, why);
    oc_kv_free(kv);
    return rc;
}

/* Every chunk window's transfers (windows of 1 to 3 labels, about seven starts) are the whole
 * schedule's that touch it, in place, and nothing else. */
static inline void windows_match(oc_collective coll, const char *name, uint32_t N,
                                 const char *words) {
    const oc__algo *algo = oc__algo_find(coll, name);
    CHECK(algo != NULL, "no %s %s", oc_collective_name(coll), name);
    if (!algo) return;
    oc__plan plan = {0};
    keep whole;
    char why[512] = "";
    int rc = plan_kept(algo, coll, N, words, &plan, &whole);
    const uint32_t C = plan.spec.chunks;
    for (uint32_t lo = 0; !rc && lo < C; lo += 1 + C / 7)
        for (uint32_t w = 1; w <= 3 && lo + w <= C; w++) {
            const keep_diff d = keep_window(algo, &plan, &whole, lo, lo + w, why, sizeof why);
            CHECK(d.rc == 0 && d.rounds == whole.st.count && d.matched == d.expected &&
                      d.kept == d.expected && d.dropped == 0,
                  "N=%u %s window [%u,%u): rc %d, %llu rounds of %zu, %zu of %zu in place, %zu "
                  "kept, %llu dropped",
                  N, words, lo, lo + w, d.rc, (unsigned long long)d.rounds, whole.st.count,
                  d.matched, d.expected, d.kept, (unsigned long long)d.dropped);
        }
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

/* The kept rounds through a fresh verifier, changed: change 0 none, 1 round `from`'s transfer `at`
 * sent twice (in its own round), 2 that transfer moved to round `to`. 0 when the verifier
 * accepts the result. */
static inline int verify_changed(const oc__plan *plan, const keep *whole, int change, size_t from,
                                 size_t at, size_t to, char *why, size_t whylen) {
    oc__verifier *v = NULL;
    int rc = oc__verifier_new(&plan->spec, &v, why, whylen);
    if (rc) return rc;
    oc__sink *sink = oc__verifier_sink(v);
    const oc__transfer moved = change ? whole->st.rounds[from].xfers[at] : (oc__transfer){0};
    if (change == 1) to = from;
    for (size_t r = 0; r < whole->st.count && !rc; r++) {
        oc__round out = {0};
        const oc__round *in = &whole->st.rounds[r];
        for (size_t i = 0; i < in->count && !rc; i++)
            if (!(change == 2 && r == from && i == at))
                rc =
                    oc__round_push(&out, in->xfers[i].src, in->xfers[i].dst,
                                   (oc__op)in->xfers[i].op, in->xfers[i].first, in->xfers[i].count);
        if (!rc && change && r == to)
            rc = oc__round_push(&out, moved.src, moved.dst, (oc__op)moved.op, moved.first,
                                moved.count);
        if (!rc && out.count) rc = sink->round(sink, r, &out, why, whylen);
        oc__round_free(&out);
    }
    if (!rc) rc = oc__verifier_finish(v, why, whylen);
    oc__verifier_free(v);
    return rc;
}

#endif
