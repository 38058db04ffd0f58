/*
 * run_outcome.h — what the sharding tests (test_shard_part.c, test_shard_rhd.c, test_shard_hring.c,
 * test_shard_sipco.c) compare between
 * a run made one way and the same run made another (one pass or sharded, whole or in parts): the
 * return code, the reason, and the report's figures a different cut of the work must not change.
 */
#ifndef OC_TEST_RUN_OUTCOME_H
#define OC_TEST_RUN_OUTCOME_H

#include "check.h"
#include "core/result.h"
#include "settings_now.h"

#include <string.h>

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, steps, transfers, units, redundant;
    double time;
} outcome;

/* Fills o's figures from rep when the run (o->rc) succeeded; then frees rep. */
static inline void outcome_take(outcome *o, oc_report *rep) {
    if (!o->rc) {
        o->rounds = rep->rounds;
        o->steps = rep->steps;
        o->time = oc_report_time(rep);
        o->transfers = rep->transfers;
        o->units = rep->units;
        o->redundant = rep->redundant;
    }
    oc_report_free(rep);
}

/* One all-reduce (1 MiB, real-data check on) of `algorithm` on `network` at n nodes with the one
 * parameter `param` ("key=value"), as the sharding tests run it one way and then another. */
static inline outcome outcome_run(const char *algorithm, const char *network, uint32_t n,
                                  const char *param) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc_kv *kv = oc_kv_new();
    if (!kv || oc_kv_set_pair(kv, param)) {
        oc_kv_free(kv);
        o.rc = OC_ENOMEM;
        return o;
    }
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = algorithm,
                      .network = network,
                      .nodes = n,
                      .bytes = 1u << 20,
                      .params = kv};
    oc_report *rep = NULL;
    o.rc = oc_run(&req, &rep, o.why, sizeof o.why);
    outcome_take(&o, rep);
    oc_kv_free(kv);
    return o;
}

static inline int outcome_same(const outcome *x, const outcome *y) {
    return x->rc == y->rc && !strcmp(x->why, y->why) && x->rounds == y->rounds &&
           x->steps == y->steps && x->time == y->time && x->transfers == y->transfers &&
           x->units == y->units && x->redundant == y->redundant;
}

/* outcome_run in one pass, then in shards of 1 chunk (N <= 100) or 37 on 2 threads: CHECKs that
 * the one pass ran and that the sharded run is the same (test_settings' verifier knobs are put
 * back; the test has entered them).
 * `what` names the case in failures. */
static inline void outcome_check_sharded(const char *what, const char *algorithm,
                                         const char *network, uint32_t n, const char *param) {
    test_settings.verify_shard = 0;
    test_settings.verify_threads = 0;
    const outcome one = outcome_run(algorithm, network, n, param);
    CHECK(one.rc == 0, "%s: %s", what, one.why);
    const uint32_t width = n <= 100 ? 1 : 37;
    test_settings.verify_shard = width;
    test_settings.verify_threads = 2;
    const outcome sh = outcome_run(algorithm, network, n, param);
    CHECK(outcome_same(&sh, &one),
          "%s, shards of %u: one pass rc %d '%s' %llu rounds %llu transfers; sharded rc %d '%s' "
          "%llu rounds %llu transfers",
          what, width, one.rc, one.why, (unsigned long long)one.rounds,
          (unsigned long long)one.transfers, sh.rc, sh.why, (unsigned long long)sh.rounds,
          (unsigned long long)sh.transfers);
    test_settings.verify_shard = 0;
    test_settings.verify_threads = 0;
}

#endif
