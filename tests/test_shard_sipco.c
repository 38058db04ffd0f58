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
    char why[512] = "", param[32], what[64];
    snprintf(param, sizeof param, "r=%u", r);
    snprintf(what, sizeof what, "sipco N=%u r=%u", n, r);
    if (keep_plan(OC_ALLREDUCE, "sipco", n, param, &algo, &plan, why, sizeof why)) {
        CHECK(0, "%s: %s", what, why);
        return;
    }
    windows_checked += keep_check_windows(what, algo, &plan);
    oc__plan_free(algo, &plan);
}

static void sharded(uint32_t n, uint32_t r) {
    char param[32], what[64];
    snprintf(param, sizeof param, "r=%u", r);
    snprintf(what, sizeof what, "sipco N=%u r=%u", n, r);
    outcome_check_sharded(what, "sipco", "ring", n, param);
}

int main(void) {
    test_settings_enter();
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
