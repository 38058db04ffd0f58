/*
 * test_shard_sipco.c — Flex-SiPCO all-reduce generated per chunk window
 * (src/algo/allreduce_sipco.c) for chunk-sharded verification (src/run/shard.c).
 *
 * A verifier shard regenerates the schedule through an emitter told its chunk window; SiPCO's
 * levels then make only the transfers whose ranges touch the window and skip the rest in their
 * places (oc__emit_skip), where before every shard made the whole schedule and the emitter
 * filtered it (the plain path, which keep_window's whole schedule is).
 *  1. Windows: at N in {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 64, 81, 100, 125, 1000} with every r
 *     of which N is a power (r = N: one all-to-all level; 1000 = 10^3 and 1000^1) and windows of 1,
 * 2, 3 chunks, a third of them and all of them at spread places, the windowed rounds are exactly
 * the whole rounds' transfers that touch the window, in their places, and the generator made no
 * transfer outside the window (emit.dropped = 0); the plan says its generator skips
 * (oc__spec.window_skips).
 *  2. Sharded == one pass: the run in shards of 1 chunk (N <= 100) or 37 on 2 threads gives the
 *     same return code, reason, rounds, transfers, chunk-transfers, redundant deliveries, steps
 *     and time as one pass.
 * A wrong window (a digit range off by one at either end, a doubling transfer kept or skipped on
 * the wrong test) either drops a transfer that touches the window (matched < expected) or makes
 * one outside it (dropped > 0), and the checks of 1 fail.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "keep_rounds.h"
#include "run/pipeline.h"
#include "run_outcome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 64, 81, 100, 125, 1000};

/* Plans sipco on n nodes with r pinned, as oc_run would. */
static int plan_for(uint32_t n, uint32_t r, const oc__algo **algo, oc__plan *plan, char *why,
                    size_t len) {
    char param[32];
    snprintf(param, sizeof param, "r=%u", r);
    oc_kv *kv = oc_kv_new();
    if (!kv || oc_kv_set_pair(kv, param)) {
        oc_kv_free(kv);
        return OC_ENOMEM;
    }
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = "sipco",
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

/* 1 when n = r^l for some l >= 1. */
static int power_of(uint32_t n, uint32_t r) {
    uint64_t P = r;
    while (P < n)
        P *= r;
    return P == n;
}

static size_t windows_checked;

static void windows(uint32_t n, uint32_t r) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (plan_for(n, r, &algo, &plan, why, sizeof why)) {
        CHECK(0, "sipco N=%u r=%u: %s", n, r, why);
        return;
    }
    CHECK(plan.spec.window_skips, "sipco N=%u r=%u: the plan does not say its generator skips", n,
          r);
    keep whole;
    keep_init(&whole);
    CHECK(oc__generate(algo, &plan, &whole.sink, why, sizeof why) == 0, "sipco N=%u r=%u: %s", n, r,
          why);
    const uint32_t C = plan.spec.chunks;
    const uint32_t widths[] = {1, 2, 3, C / 3 + 1, C};
    for (uint32_t lo = 0; lo < C; lo += 1 + C / 7)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
            if (lo + widths[w] > C || (w && widths[w] == widths[w - 1])) continue;
            const uint32_t hi = lo + widths[w];
            const keep_diff d = keep_window(algo, &plan, &whole, lo, hi, why, sizeof why);
            windows_checked++;
            CHECK(d.rc == 0, "sipco N=%u r=%u window [%u,%u): %s", n, r, lo, hi, why);
            CHECK(d.rounds == whole.st.count,
                  "sipco N=%u r=%u window [%u,%u): %llu rounds, not %zu", n, r, lo, hi,
                  (unsigned long long)d.rounds, whole.st.count);
            CHECK(d.dropped == 0, "sipco N=%u r=%u window [%u,%u): %llu transfers made outside it",
                  n, r, lo, hi, (unsigned long long)d.dropped);
            CHECK(d.matched == d.expected && d.kept == d.expected,
                  "sipco N=%u r=%u window [%u,%u): %zu of %zu transfers in their places, %zu kept",
                  n, r, lo, hi, d.matched, d.expected, d.kept);
        }
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

static outcome run_one(uint32_t n, uint32_t r) {
    char param[32];
    snprintf(param, sizeof param, "r=%u", r);
    return outcome_run("sipco", "ring", n, param);
}

static void sharded(uint32_t n, uint32_t r) {
    oc_set_verify_shard(0);
    oc_set_verify_threads(0);
    const outcome one = run_one(n, r);
    CHECK(one.rc == 0, "sipco N=%u r=%u: %s", n, r, one.why);
    const uint32_t width = n <= 100 ? 1 : 37;
    oc_set_verify_shard(width);
    oc_set_verify_threads(2);
    const outcome sh = run_one(n, r);
    CHECK(outcome_same(&sh, &one),
          "sipco N=%u r=%u, shards of %u: one pass rc %d '%s' %llu rounds %llu transfers; sharded "
          "rc %d '%s' %llu rounds %llu transfers",
          n, r, width, one.rc, one.why, (unsigned long long)one.rounds,
          (unsigned long long)one.transfers, sh.rc, sh.why, (unsigned long long)sh.rounds,
          (unsigned long long)sh.transfers);
    oc_set_verify_shard(0);
    oc_set_verify_threads(0);
}

int main(void) {
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (uint32_t r = 2; r <= sizes[i]; r++) {
            if (!power_of(sizes[i], r)) continue;
            windows(sizes[i], r);
            sharded(sizes[i], r);
        }
    printf("%zu windows checked\n", windows_checked);
    CHECK(windows_checked > 500, "only %zu windows checked", windows_checked);
    return CHECK_SUMMARY();
}
