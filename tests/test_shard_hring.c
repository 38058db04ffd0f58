/*
 * test_shard_hring.c — hierarchical ring all-reduce generated per chunk window
 * (src/algo/allreduce_hring.c) and the verifier a pool thread keeps from one shard to the next
 * (src/run/shard.c, oc__verifier_reuse in src/verify/verify.c).
 *
 *  1. Windows: at N in {1, 2, 3, 5, 7, 12, 100, 1000} and every group size g (several at 1000),
 *     for windows of 1, 2, 3 chunks, a third of them and all of them at spread places, the
 *     windowed rounds are exactly the whole rounds' transfers touching the window, in their
 *     places, none made outside it; the plan says its generator skips (oc__spec.window_skips),
 *     which lets its shards be many and small.
 *  2. Sharded == one pass: the run in shards of 1 chunk (N <= 100) or 37 on 2 threads gives the
 *     same return code, reason, rounds, transfers, chunk-transfers, redundant deliveries, steps and
 *     time as one pass (each thread's verifier reused from shard to shard).
 *  3. Reuse: one verifier reused over a sequence of windows (the last one shorter, then narrower
 *     ones, then the first again) answers what a new verifier of each window answers (return
 *     code, reason, failure key, redundant deliveries) on hring and on rhd (whose strided
 *     contribution sets leave the inline cells for the heap), whole and broken three ways (a
 *     reduce repeated: counted twice; a transfer dropped: a contribution missing at the end; a
 *     sender that does not hold what it sends), so a shard after a failing one verifies as if
 *     it were first. A window wider than the verifier was made for, and a copy collective's
 *     verifier, are refused and left as they were.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "keep_rounds.h"
#include "run/pipeline.h"
#include "run_outcome.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100, 1000};

/* The group sizes tried at N: every divisor, or at 1000 a spread of them. */
static size_t groups_for(uint32_t n, uint32_t *out, size_t cap) {
    static const uint32_t at_1000[] = {1, 2, 8, 40, 125, 1000};
    size_t k = 0;
    if (n == 1000) {
        for (; k < sizeof at_1000 / sizeof *at_1000 && k < cap; k++)
            out[k] = at_1000[k];
        return k;
    }
    for (uint32_t g = 1; g <= n && k < cap; g++)
        if (n % g == 0) out[k++] = g;
    return k;
}

/* ---- 1. windowed rounds == the whole rounds' transfers touching the window ---- */

static void windows(uint32_t n, uint32_t g) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "", param[32], what[64];
    snprintf(param, sizeof param, "g=%u", g);
    snprintf(what, sizeof what, "hring N=%u %s", n, param);
    if (keep_plan(OC_ALLREDUCE, "hring", n, param, &algo, &plan, why, sizeof why)) {
        CHECK(0, "%s: %s", what, why);
        return;
    }
    keep_check_windows(what, algo, &plan);
    oc__plan_free(algo, &plan);
}

/* ---- 2. sharded == one pass ---- */

static void sharded(uint32_t n, uint32_t g) {
    char param[32], what[64];
    snprintf(param, sizeof param, "g=%u", g);
    snprintf(what, sizeof what, "hring N=%u %s", n, param);
    outcome_check_sharded(what, "hring", "switch", n, param);
}

/* ---- 3. a reused verifier == a new one ---- */

typedef struct verdict {
    int rc;
    char why[512];
    oc__verify_key start, key; /* before any round (a generator's failure leaves it), at the end */
    uint64_t redundant;
} verdict;

/* Runs the stored rounds through v (whole rounds: it keeps its window's part) and finishes. */
static verdict verify_with(oc__verifier *v, const oc__store *st) {
    verdict d;
    memset(&d, 0, sizeof d);
    oc__sink *sink = oc__verifier_sink(v);
    d.start = oc__verifier_key(v);
    for (size_t r = 0; r < st->count && !d.rc; r++)
        d.rc = sink->round(sink, r, &st->rounds[r], d.why, sizeof d.why);
    if (!d.rc) d.rc = oc__verifier_finish(v, d.why, sizeof d.why);
    if (d.rc) d.key = oc__verifier_key(v);
    d.redundant = oc__verifier_redundant(v);
    return d;
}

static int verdict_same(const verdict *a, const verdict *b) {
    return a->rc == b->rc && !strcmp(a->why, b->why) && a->redundant == b->redundant &&
           oc__verify_key_cmp(&a->start, &b->start) == 0 &&
           (!a->rc || oc__verify_key_cmp(&a->key, &b->key) == 0);
}

typedef enum { WHOLE, TWICE, DROP, SENDER, BREAKS } breakage;
static const char *const break_names[] = {"whole", "twice", "drop", "sender"};

/* Breaks transfer `at` of round `r` (both taken modulo what exists) the way b says. */
static void inject(oc__store *st, uint32_t nodes, breakage b, size_t r, size_t at) {
    oc__round *rd = &st->rounds[r % st->count];
    if (b == WHOLE || !rd->count) return;
    oc__transfer *t = &rd->xfers[at % rd->count];
    if (b == TWICE) {
        const oc__transfer copy = *t;
        CHECK(oc__round_push(rd, copy.src, copy.dst, (oc__op)copy.op, copy.first, copy.count) == 0,
              "out of memory");
    } else if (b == DROP) {
        *t = rd->xfers[rd->count - 1];
        rd->count--;
    } else {
        t->src = (t->src + 1) % nodes;
        if (t->src == t->dst) t->src = (t->src + 1) % nodes;
    }
}

/* The windows one reused verifier of width w goes through: [0, w), [w, 2w) ... (the last one
 * shorter), then [1, 2) and [C - 1, C), then [0, w) again. */
static size_t window_list(uint32_t C, uint32_t w, uint32_t (*out)[2], size_t cap) {
    size_t k = 0;
    for (uint32_t lo = 0; lo < C && k < cap; lo += w)
        out[k][0] = lo, out[k][1] = lo + w < C ? lo + w : C, k++;
    if (C > 1 && k + 3 <= cap) {
        out[k][0] = 1, out[k][1] = 2, k++;
        out[k][0] = C - 1, out[k][1] = C, k++;
        out[k][0] = 0, out[k][1] = w < C ? w : C, k++;
    }
    return k;
}

static void reuse_case(const char *algo_name, uint32_t n, const char *param, uint32_t w) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (keep_plan(OC_ALLREDUCE, algo_name, n, param, &algo, &plan, why, sizeof why)) {
        CHECK(0, "%s N=%u %s: %s", algo_name, n, param, why);
        return;
    }
    const uint32_t C = plan.spec.chunks;
    if (!strcmp(algo_name, "rhd"))
        CHECK(plan.spec.chunk_heap > 0, "rhd N=%u %s: no heap stated (the case is for heap cells)",
              n, param);
    uint32_t list[64][2];
    const size_t nw = window_list(C, w, list, 64);
    for (int b = 0; b < BREAKS; b++)
        for (size_t pick = 0; pick < (b == WHOLE ? 1u : 3u); pick++) {
            oc__store st;
            oc__store_init(&st);
            CHECK(oc__generate(algo, &plan, &st.sink, why, sizeof why) == 0, "%s", why);
            if (!st.count) {
                oc__store_free(&st);
                continue;
            }
            /* early, middle and late rounds */
            inject(&st, n, (breakage)b, pick * st.count / 3 + pick, 5 * pick + (size_t)b);
            oc__verifier *kept = NULL;
            const uint32_t width = list[0][1] - list[0][0];
            CHECK(oc__verifier_new_window(&plan.spec, 0, width, oc__memory_budget(), &kept, why,
                                          sizeof why) == 0,
                  "%s", why);
            for (size_t k = 0; kept && k < nw; k++) {
                const uint32_t lo = list[k][0], hi = list[k][1];
                oc__verifier *fresh = NULL;
                verdict want, got;
                memset(&want, 0, sizeof want);
                want.rc = oc__verifier_new_window(&plan.spec, lo, hi, oc__memory_budget(), &fresh,
                                                  want.why, sizeof want.why);
                if (!want.rc) want = verify_with(fresh, &st);
                oc__verifier_free(fresh);
                /* the first window is the verifier's own; every later one reuses it */
                const int reused = k ? oc__verifier_reuse(kept, lo, hi) : 0;
                CHECK(reused == 0, "%s N=%u %s: reuse for [%u,%u) refused", algo_name, n, param, lo,
                      hi);
                got = verify_with(kept, &st);
                CHECK(verdict_same(&want, &got),
                      "%s N=%u %s broken '%s' (pick %zu), window %zu [%u,%u): new verifier rc %d "
                      "'%s' key %llu/%u/%llu/%u redundant %llu; reused rc %d '%s' key "
                      "%llu/%u/%llu/%u redundant %llu",
                      algo_name, n, param, break_names[b], pick, k, lo, hi, want.rc, want.why,
                      (unsigned long long)want.key.round, want.key.phase,
                      (unsigned long long)want.key.pos, want.key.chunk,
                      (unsigned long long)want.redundant, got.rc, got.why,
                      (unsigned long long)got.key.round, got.key.phase,
                      (unsigned long long)got.key.pos, got.key.chunk,
                      (unsigned long long)got.redundant);
            }
            /* wider than it was made for: refused, and still the verifier it was */
            if (kept && width < C) {
                CHECK(oc__verifier_reuse(kept, 0, width + 1) == OC_EINVAL,
                      "%s N=%u: a window wider than the verifier's cells was taken", algo_name, n);
                CHECK(oc__verifier_reuse(kept, 0, width) == 0, "%s N=%u: reuse after a refusal",
                      algo_name, n);
                const verdict again = verify_with(kept, &st);
                oc__verifier *fresh = NULL;
                verdict want;
                memset(&want, 0, sizeof want);
                if (!oc__verifier_new_window(&plan.spec, 0, width, oc__memory_budget(), &fresh,
                                             want.why, sizeof want.why))
                    want = verify_with(fresh, &st);
                oc__verifier_free(fresh);
                CHECK(verdict_same(&want, &again), "%s N=%u: after a refused reuse: '%s' / '%s'",
                      algo_name, n, want.why, again.why);
            }
            oc__verifier_free(kept);
            oc__store_free(&st);
        }
    oc__plan_free(algo, &plan);
}

/* A copy collective's verifier holds range sets, not cells: it is never reused. */
static void reuse_refused_for_copies(void) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (keep_plan(OC_ALLGATHER, "ring", 5, NULL, &algo, &plan, why, sizeof why)) {
        CHECK(0, "ring all-gather N=5: %s", why);
        return;
    }
    oc__verifier *v = NULL;
    CHECK(oc__verifier_new_window(&plan.spec, 0, 2, oc__memory_budget(), &v, why, sizeof why) == 0,
          "%s", why);
    if (v) CHECK(oc__verifier_reuse(v, 0, 1) == OC_EINVAL, "a copy collective's verifier reused");
    oc__verifier_free(v);
    oc__plan_free(algo, &plan);
}

int main(void) {
    test_settings_enter();
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint32_t g[64];
        const size_t ng = groups_for(sizes[s], g, 64);
        for (size_t i = 0; i < ng; i++) {
            windows(sizes[s], g[i]);
            sharded(sizes[s], g[i]);
        }
    }
    reuse_case("hring", 12, "g=3", 5);
    reuse_case("hring", 100, "g=10", 7);
    reuse_case("hring", 7, "g=7", 2);
    reuse_case("rhd", 12, "radix=2", 5);
    reuse_case("rhd", 100, "radices=5x2x5x2", 9);
    reuse_case("rhd", 5, "radix=3", 1);
    reuse_refused_for_copies();
    return CHECK_SUMMARY();
}
