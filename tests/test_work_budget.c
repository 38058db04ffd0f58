/*
 * test_work_budget.c — the work budget beside the memory budget (issue 27, item 4: "every
 * algorithm counts its transfers and work before it generates"; core/budget.c, run/shard.c).
 *
 * A reduction's verifier merges a contribution set for every chunk a transfer carries, in
 * whatever shards, so a plan that counts its chunk-transfers (oc__spec.units) is held to the work
 * budget before anything is generated. What is checked here, each a thing a wrong implementation
 * gets wrong:
 *  - SiPCO's count is its schedule's: the plan's units equal the chunk-transfers the run emits, at
 *    N = 1, 2, 3, 5, 7 (SiPAC(N, 1)), 4, 8, 9, 16, 25, 27, 64 and 100 (r = 10) over its radices;
 *  - the budget's edge: at exactly the count a run goes, one below it is refused with OC_ETOOBIG
 *    and a line naming the count, the budget and OPTICOLL_WORK_BUDGET, before any round (no
 *    progress call of its rounds); SiPCO r=2 on 65536 nodes (1.4e11, hours) is refused at the
 *    default budget before a round (today's code ran it: the first progress call stops it here);
 *  - the search refuses a candidate past the budget as the run would (logged as refused, with
 *    the reason) and picks among the others;
 *  - a sharded verification reports its work as it goes: "verifier chunk-transfers", done never
 *    back, the last call done == total == the plan's count (the shards' windows add up), with
 *    shards of a few chunks and of one;
 *  - an export reports its rounds to the request's progress callback as a run does (it reported
 *    nothing, so a large export showed no progress line on a terminal);
 *  - OPTICOLL_WORK_BUDGET's text: a whole number from 1 to OC_MAX_TRANSFERS, "" unset.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/progress.h"
#include "core/result.h"
#include "opticoll.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a progress recorder: every call, under a lock (shards report from the pool's threads) ---- */

typedef struct calls {
    char what[8][32];
    uint64_t last_done[8], last_total[8], count[8];
    int back[8]; /* done went back in this unit */
    int stop;    /* the answer: 1 asks the work to stop */
} calls;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int record(void *ctx, const char *what, uint64_t done, uint64_t total) {
    calls *k = ctx;
    pthread_mutex_lock(&lock);
    int u = 0;
    while (u < 7 && k->what[u][0] && strcmp(k->what[u], what)) u++;
    if (!k->what[u][0]) snprintf(k->what[u], sizeof k->what[u], "%s", what);
    if (k->count[u] && done < k->last_done[u] && k->last_done[u] != k->last_total[u])
        k->back[u] = 1;
    k->last_done[u] = done;
    k->last_total[u] = total;
    k->count[u]++;
    const int stop = k->stop;
    pthread_mutex_unlock(&lock);
    return stop;
}

/* The slot of unit `what`, or -1. */
static int unit(const calls *k, const char *what) {
    for (int u = 0; u < 8; u++)
        if (!strcmp(k->what[u], what)) return u;
    return -1;
}

static oc_request sipco_request(uint32_t nodes, const char *r, oc_kv *params) {
    if (r) oc_kv_set(params, "r", r);
    return (oc_request){.collective = OC_ALLREDUCE,
                        .algorithm = "sipco",
                        .network = "switch",
                        .nodes = nodes,
                        .bytes = UINT64_C(1) << 30,
                        .params = params,
                        .skip_data_check = 1};
}

/* SiPCO's plan counts 2 l N (N - 1) chunk-transfers, and its run emits as many. */
static void counted_as_run(void) {
    static const struct {
        uint32_t nodes, r;
    } cases[] = {{1, 2}, {2, 2}, {3, 3},  {5, 5},  {7, 7},   {4, 2},   {8, 2},
                 {9, 3}, {16, 4}, {16, 2}, {25, 5}, {27, 3}, {64, 4}, {100, 10}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint32_t n = cases[i].nodes, r = cases[i].r;
        char rb[16];
        snprintf(rb, sizeof rb, "%u", r);
        oc_kv *params = oc_kv_new();
        oc_request req = sipco_request(n, rb, params);
        oc__plan plan;
        char why[512] = "";
        int rc = oc__algo_allreduce_sipco.plan(&plan, OC_ALLREDUCE, n, 0, req.bytes, params, why,
                                              sizeof why);
        CHECK(rc == 0, "sipco N=%u r=%u plan: %s", n, r, why);
        uint64_t l = 0, p = 1;
        while (p < n) p *= r, l++;
        const uint64_t want = 2 * l * n * (uint64_t)(n - 1);
        CHECK(!rc && plan.spec.units == want, "sipco N=%u r=%u: the plan counts %llu, not %llu", n,
              r, (unsigned long long)plan.spec.units, (unsigned long long)want);
        const uint64_t counted = rc ? 0 : plan.spec.units;
        oc__plan_free(&oc__algo_allreduce_sipco, &plan);
        oc_report *rep = NULL;
        rc = oc_run(&req, &rep, why, sizeof why);
        CHECK(rc == 0 && rep->units == counted,
              "sipco N=%u r=%u: ran %llu chunk-transfers, the plan counted %llu (%s)", n, r,
              rep ? (unsigned long long)rep->units : 0ull, (unsigned long long)counted, why);
        oc_report_free(rep);
        oc_kv_free(params);
    }
}

/* At exactly the count the run goes; one below, it is refused before its first round. */
static void the_edge(void) {
    oc_kv *params = oc_kv_new();
    oc_request req = sipco_request(512, "2", params); /* 2 x 9 x 512 x 511 = 4709376 */
    const uint64_t units = UINT64_C(4709376);
    calls *k = calloc(1, sizeof *k);
    req.progress = record;
    req.progress_ctx = k;
    char why[512] = "";
    oc_report *rep = NULL;
    oc_settings settings = {.work_budget = units};
    req.settings = &settings;
    int rc = oc_run(&req, &rep, why, sizeof why);
    CHECK(rc == 0 && rep->units == units, "sipco N=512 r=2 at a budget of its count: %d %s", rc,
          why);
    oc_report_free(rep);
    rep = NULL;
    memset(k, 0, sizeof *k);
    settings.work_budget = units - 1;
    rc = oc_run(&req, &rep, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "4709376 chunk-transfers") &&
              strstr(why, "work budget of 4709375") && strstr(why, "OPTICOLL_WORK_BUDGET"),
          "one below the count: %d %s", rc, why);
    const int u = unit(k, "rounds");
    CHECK(u < 0 || k->last_done[u] == 0, "refused after %llu rounds",
          u < 0 ? 0ull : (unsigned long long)k->last_done[u]);
    oc_report_free(rep);
    /* a budget outside its range is the settings' error, named, before any work */
    settings.work_budget = OC_MAX_TRANSFERS + 1;
    rep = NULL;
    rc = oc_run(&req, &rep, why, sizeof why);
    CHECK(rc == OC_EINVAL && strstr(why, "work budget of 1099511627777"),
          "a budget above OC_MAX_TRANSFERS: %d %s", rc, why);
    oc_report_free(rep);
    CHECK(oc_settings_work_budget(NULL) == OC_DEFAULT_WORK_BUDGET &&
              oc_settings_work_budget(&(oc_settings){0}) == OC_DEFAULT_WORK_BUDGET,
          "zero and NULL mean the default");

    /* 65536 nodes, r = 2: refused at the default budget before a round. Today's code ran it
     * for hours; the recorder asks it to stop at its first report, so that it fails here fast. */
    oc_request big = sipco_request(65536, "2", params);
    memset(k, 0, sizeof *k);
    k->stop = 1;
    big.progress = record;
    big.progress_ctx = k;
    rep = NULL;
    rc = oc_run(&big, &rep, why, sizeof why);
    CHECK(rc == OC_ETOOBIG && strstr(why, "137436856320 chunk-transfers") &&
              strstr(why, "in 1024 shards") && strstr(why, "OPTICOLL_WORK_BUDGET"),
          "sipco N=65536 r=2: %d %s", rc, why);
    oc_report_free(rep);
    free(k);
    oc_kv_free(params);
}

/* The search refuses r = 2 past the budget, with the reason, and picks another radix. */
static void searched(void) {
    oc_kv *params = oc_kv_new();
    oc_request req = sipco_request(1024, NULL, params);
    /* r = 2: 2 x 10 x 1024 x 1023 = 20951040; r = 4, 32, 1024: half, a fifth, a tenth of it */
    const oc_settings settings = {.work_budget = UINT64_C(20951039)};
    req.settings = &settings;
    req.explain = 1;
    char why[512] = "";
    oc_report *rep = NULL;
    int rc = oc_run(&req, &rep, why, sizeof why);
    const char *r = rc ? NULL : oc_report_param(rep, "r");
    CHECK(rc == 0 && r && strcmp(r, "2"), "sipco N=1024 searched: %d %s, r=%s", rc, why,
          r ? r : "-");
    char log[16384] = "";
    FILE *f = tmpfile();
    if (f && rep) {
        oc_report_write_search(rep, f);
        rewind(f);
        log[fread(log, 1, sizeof log - 1, f)] = 0;
    }
    if (f) fclose(f);
    CHECK(strstr(log, "r=2") && strstr(log, "20951040 chunk-transfers, more than the work "
                                             "budget of 20951039"),
          "the search log names r=2's refusal:\n%s", log);
    oc_report_free(rep);
    oc_kv_free(params);
}

/* A sharded run's progress is its chunk-transfers, and the shards' windows add up to the count. */
static void progress_in_units(void) {
    static const uint32_t shards[] = {1, 7, 64};
    oc__progress_every_step(1);
    for (size_t i = 0; i < sizeof shards / sizeof shards[0]; i++) {
        const oc_settings settings = {.verify_shard = shards[i], .verify_threads = 2};
        oc_kv *params = oc_kv_new();
        oc_request req = sipco_request(27, "3", params); /* 2 x 3 x 27 x 26 = 4212 */
        req.settings = &settings;
        calls *k = calloc(1, sizeof *k);
        req.progress = record;
        req.progress_ctx = k;
        char why[512] = "";
        oc_report *rep = NULL;
        int rc = oc_run(&req, &rep, why, sizeof why);
        const int u = unit(k, "verifier chunk-transfers");
        CHECK(rc == 0 && u >= 0 && k->last_done[u] == 4212 && k->last_total[u] == 4212 &&
                  !k->back[u] && k->count[u] > 2,
              "shards of %u chunks: %d %s; last %llu / %llu in %llu calls, back %d", shards[i],
              rc, why, u < 0 ? 0ull : (unsigned long long)k->last_done[u],
              u < 0 ? 0ull : (unsigned long long)k->last_total[u],
              u < 0 ? 0ull : (unsigned long long)k->count[u], u < 0 ? -1 : k->back[u]);
        oc_report_free(rep);
        free(k);
        oc_kv_free(params);
    }
    oc__progress_every_step(0);
}

/* An export reports its rounds as a run of the same request does. */
static void export_reports(void) {
    oc__progress_every_step(1);
    oc_request req = {.collective = OC_ALLGATHER,
                      .algorithm = "ring",
                      .network = "switch",
                      .nodes = 12,
                      .bytes = 1 << 20};
    calls *k = calloc(1, sizeof *k);
    req.progress = record;
    req.progress_ctx = k;
    char why[512] = "";
    FILE *f = fopen("/dev/null", "w");
    int rc = f ? oc_export_json(&req, f, why, sizeof why) : OC_EIO;
    if (f) fclose(f);
    const int u = unit(k, "rounds");
    CHECK(rc == 0 && u >= 0 && k->last_done[u] == 11 && k->last_total[u] == 11 && !k->back[u],
          "export json of ring all-gather on 12 nodes: %d %s; rounds %llu / %llu", rc, why,
          u < 0 ? 0ull : (unsigned long long)k->last_done[u],
          u < 0 ? 0ull : (unsigned long long)k->last_total[u]);
    free(k);
    oc__progress_every_step(0);
}

static void from_env(void) {
    char why[256] = "";
    uint64_t units = 7;
    CHECK(oc_work_budget_from_env(NULL, &units, why, sizeof why) == 0 && units == 0, "unset");
    units = 7;
    CHECK(oc_work_budget_from_env("", &units, why, sizeof why) == 0 && units == 0,
          "set to nothing is unset");
    CHECK(oc_work_budget_from_env("1048576", &units, why, sizeof why) == 0 &&
              units == (UINT64_C(1) << 20),
          "2^20: %s", why);
    CHECK(oc_work_budget_from_env("1", &units, why, sizeof why) == 0 && units == 1, "1: %s", why);
    CHECK(oc_work_budget_from_env("1099511627776", &units, why, sizeof why) == 0 &&
              units == OC_MAX_TRANSFERS,
          "2^40: %s", why);
    static const char *const bad[] = {"0", "1099511627777", "x", "-5", "1e12", " 5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        CHECK(oc_work_budget_from_env(bad[i], &units, why, sizeof why) == OC_EINVAL &&
                  strstr(why, "OPTICOLL_WORK_BUDGET=") && units == OC_MAX_TRANSFERS,
              "'%s' refused, the value kept: %s", bad[i], why);
    }
}

int main(void) {
    counted_as_run();
    the_edge();
    searched();
    progress_in_units();
    export_reports();
    from_env();
    return CHECK_SUMMARY();
}
