/*
 * test_shard_rhd.c — the windowed generation of recursive halving / doubling (src/algo/rhd.c:
 * allreduce rhd, reducescatter rh, allgather rd) for chunk-sharded verification (run/shard.c).
 *
 * A verifier shard regenerates the schedule through an emitter told its chunk window; rhd's
 * levels and folds then make only the senders whose parts touch the window and skip the rest in
 * their places (oc__emit_skip). Checked at N in {1, 2, 3, 5, 7, 12, 100, 1000}, radices pinned
 * (factorisations in several orders, folds onto powers of 2, 3 and 7, radix > N) and searched
 * (the switch's search picks them):
 *  1. for windows of 1, 2, 3 chunks, a third of them and all of them at spread places, the
 *     windowed rounds are exactly the whole rounds' transfers that touch the window, in their
 *     places, and the generator made no transfer outside the window (emit.dropped = 0: before
 *     the windowed levels every shard made the whole schedule and the emitter filtered it);
 *  2. the heap the plan states its contribution sets fragment to (oc__spec.chunk_heap, which
 *     sizes the shards) bounds what the verifier counts: windows of 1 and 3 chunks verify
 *     within width x (their cells + chunk_heap) bytes, never refused for growing past it (before,
 *     shards sized by the cells alone outgrew their share and were halved and run again);
 *  3. the run verified in shards of 1 (N <= 100) or 37 chunks on 2 threads gives the same
 *     return code, reason, rounds, transfers, chunk-transfers, redundant deliveries, steps and
 *     time as one pass.
 */
#include "algo/algos.h"
#include "check.h"
#include "run_outcome.h"
#include "keep_rounds.h"
#include "core/result.h"
#include "run/pipeline.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100, 1000};

static const struct {
    oc_collective coll;
    const char *algo;
} algos[] = {{OC_ALLREDUCE, "rhd"}, {OC_REDUCESCATTER, "rh"}, {OC_ALLGATHER, "rd"}};

/* The parameter sets tried at N: NULL = searched; pinned radices only where they multiply to N. */
static size_t params_for(uint32_t n, const char **out) {
    static const struct {
        uint32_t n;
        const char *radices;
    } pinned[] = {{12, "radices=3x2x2"},  {12, "radices=2x6"},         {12, "radices=12"},
                  {100, "radices=4x25"},  {100, "radices=5x2x5x2"},    {100, "radices=10x10"},
                  {1000, "radices=10x10x10"}, {1000, "radices=2x500"}, {1000, "radices=5x8x25"},
                  {7, "radices=7"},       {5, "radices=5"},            {3, "radices=3"}};
    size_t k = 0;
    out[k++] = NULL;
    out[k++] = "radix=2";
    out[k++] = "radix=3";
    out[k++] = "radix=7";
    out[k++] = "radix=1024"; /* above N: every node folds onto node 0 */
    for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++)
        if (pinned[i].n == n) out[k++] = pinned[i].radices;
    return k;
}

/* The request for algorithm a at N with `param` (KEY=VALUE or NULL) set in the fresh kv. */
static oc_request request(size_t a, uint32_t n, oc_kv *kv, const char *param) {
    if (param && oc_kv_set_pair(kv, param)) fprintf(stderr, "cannot set %s\n", param);
    oc_request req = {.collective = algos[a].coll,
                      .algorithm = algos[a].algo,
                      .network = "switch",
                      .nodes = n,
                      .bytes = 1u << 20,
                      .params = kv};
    return req;
}

/* ---- 1. windowed rounds == the whole rounds' transfers touching the window ---- */

/* Compares the window [lo, hi) generated alone with the whole schedule. */
static void one_window(const char *what, const oc__algo *algo, const oc__plan *plan,
                       const keep *whole, uint32_t lo, uint32_t hi) {
    char why[256] = "";
    keep part;
    keep_init(&part);
    oc__emit e;
    oc__emit_init(&e, &plan->spec, &part.sink, why, sizeof why);
    oc__emit_window(&e, lo, hi);
    CHECK(algo->generate(plan, &e) == 0, "%s: %s", what, why);
    CHECK(e.rounds == whole->st.count, "%s window [%u,%u): %llu rounds, not %zu", what, lo, hi,
          (unsigned long long)e.rounds, whole->st.count);
    CHECK(e.dropped == 0, "%s window [%u,%u): %llu transfers made outside the window", what, lo,
          hi, (unsigned long long)e.dropped);
    size_t j = 0, k = 0, bad = 0;
    for (size_t r = 0; r < whole->st.count; r++)
        for (size_t i = 0; i < whole->st.rounds[r].count; i++, k++) {
            const oc__transfer *t = &whole->st.rounds[r].xfers[i];
            if (t->first >= hi || t->first + t->count <= lo) continue;
            if (j >= part.npos || part.pos[j] != whole->pos[k]) bad++;
            j++;
        }
    CHECK(!bad && j == part.npos, "%s window [%u,%u): %zu transfers misplaced, %zu of %zu kept",
          what, lo, hi, bad, j, part.npos);
    oc__emit_free(&e);
    keep_free(&part);
}

/* Verifies the window [lo, hi) within the bytes the plan states for it. */
static void within_stated_heap(const char *what, const oc__algo *algo, const oc__plan *plan,
                               uint32_t lo, uint32_t hi) {
    char why[512] = "";
    const uint64_t budget =
        (hi - lo) * (oc__verifier_state_bytes(&plan->spec, 1) + plan->spec.chunk_heap);
    oc__verifier *v = NULL;
    int rc = oc__verifier_new_window(&plan->spec, lo, hi, budget, &v, why, sizeof why);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan->spec, oc__verifier_sink(v), why, sizeof why);
        oc__emit_window(&e, lo, hi);
        rc = algo->generate(plan, &e);
        if (!rc) rc = oc__verifier_finish(v, why, sizeof why);
        oc__emit_free(&e);
    }
    CHECK(rc == 0, "%s window [%u,%u) within %llu bytes (chunk_heap %llu): %s", what, lo, hi,
          (unsigned long long)budget, (unsigned long long)plan->spec.chunk_heap, why);
    oc__verifier_free(v);
}

static void windows(size_t a, uint32_t n, oc_kv *kv, const char *param) {
    const oc_request req = request(a, n, kv, param);
    const oc__algo *algo = NULL;
    const oc__model *model = NULL;
    oc__plan plan;
    char why[512] = "", what[160];
    snprintf(what, sizeof what, "%s N=%u %s", algos[a].algo, n, param ? param : "(searched)");
    oc_report *rep = oc__report_new();
    int rc = rep ? oc__plan_request(&req, &algo, &model, &plan, rep, why, sizeof why) : OC_ENOMEM;
    oc_report_free(rep);
    CHECK(rc == 0, "%s: %s", what, why);
    if (rc) {
        oc__plan_free(algo, &plan);
        return;
    }
    keep whole;
    keep_init(&whole);
    CHECK(oc__generate(algo, &plan, &whole.sink, why, sizeof why) == 0, "%s: %s", what, why);
    const uint32_t C = plan.spec.chunks;
    const uint32_t widths[] = {1, 2, 3, C / 3 + 1, C};
    for (uint32_t lo = 0; lo < C; lo += 1 + C / 7)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            if (lo + widths[w] <= C && (w == 0 || widths[w] != widths[w - 1]))
                one_window(what, algo, &plan, &whole, lo, lo + widths[w]);
    if (oc_collective_reduces(plan.spec.coll))
        for (uint32_t lo = 0; lo < C; lo += 1 + C / 5)
            for (uint32_t w = 1; w <= 3 && lo + w <= C; w += 2)
                within_stated_heap(what, algo, &plan, lo, lo + w);
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

/* ---- 2. sharded == one pass ---- */

static outcome run_one(const oc_request *req) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc_report *rep = NULL;
    o.rc = oc_run(req, &rep, o.why, sizeof o.why);
    outcome_take(&o, rep);
    return o;
}

static void sharded(size_t a, uint32_t n, oc_kv *kv, const char *param) {
    const oc_request req = request(a, n, kv, param);
    test_settings.verify_shard = 0;
    test_settings.verify_threads = 0;
    const outcome one = run_one(&req);
    CHECK(one.rc == 0, "%s N=%u %s: %s", algos[a].algo, n, param ? param : "", one.why);
    const uint32_t width = n <= 100 ? 1 : 37;
    test_settings.verify_shard = width;
    test_settings.verify_threads = 2;
    const outcome sh = run_one(&req);
    CHECK(outcome_same(&sh, &one),
          "%s N=%u %s, shards of %u: one pass rc %d '%s' %llu rounds %llu transfers; sharded "
          "rc %d '%s' %llu rounds %llu transfers",
          algos[a].algo, n, param ? param : "(searched)", width, one.rc, one.why,
          (unsigned long long)one.rounds, (unsigned long long)one.transfers, sh.rc, sh.why,
          (unsigned long long)sh.rounds, (unsigned long long)sh.transfers);
    test_settings.verify_shard = 0;
    test_settings.verify_threads = 0;
}

int main(void) {
    test_settings_enter();
    for (size_t a = 0; a < sizeof algos / sizeof *algos; a++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            const char *params[16];
            const size_t np = params_for(sizes[s], params);
            for (size_t p = 0; p < np; p++) {
                oc_kv *kv = oc_kv_new();
                if (!kv) return 1;
                windows(a, sizes[s], kv, params[p]);
                sharded(a, sizes[s], kv, params[p]);
                oc_kv_free(kv);
            }
        }
    return CHECK_SUMMARY();
}
