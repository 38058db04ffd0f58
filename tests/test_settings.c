/*
 * test_settings.c — the library's settings are the caller's value, not the process's
 * (oc_settings, opticoll_core.h; src/core/settings.c).
 *
 * What a wrong implementation (a process-wide budget or thread count, the last value set wins;
 * or settings that do not reach the library's own pool threads) gets wrong:
 *   1. Four threads run at once, each with its own settings, the same refused request over and
 *      over: all-reduce rd on the switch at 65536 nodes, whose one-chunk verifier shard passes a
 *      small budget. The refusal names the budget and the verifier's threads of the settings the
 *      run was given (1 MiB and 3 threads; 2 MiB and 5; ...), and a fifth thread, with the
 *      defaults, runs a small verified run between them. Each checks every answer it got.
 *   2. Two sweeps at once through the library's pool (2 threads each): one under a 1 MiB budget,
 *      whose one-stage all-gather points at N = 200 are not run with the 1 MiB reason, the other
 *      with the defaults, whose same points run: the pool's workers read their caller's settings.
 *   3. The library's pool hands its caller's settings to every worker (core/pool.c): jobs on four
 *      threads inside a call with a 5 MiB budget all read 5 MiB, and the defaults outside it.
 *   4. Two threads inside two calls at the same moment (held together by a barrier, so that the
 *      check does not hang on the scheduler's luck): each reads its own budget.
 *   5. A zeroed oc_settings and NULL are the defaults: the same report as without settings.
 */
#include "check.h"
#include "core/core.h"
#include "core/pool.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { ROUNDS = 12 };

typedef struct refusal_case {
    oc_settings settings;
    const char *budget_text; /* "1 MiB" */
    int bad;                 /* answers that were not this thread's */
    char first_bad[600]; /* "rc N: " and a reason of up to 511 bytes */
} refusal_case;

static void *refuse_loop(void *arg) {
    refusal_case *c = arg;
    char want_threads[64], want_budget[64];
    snprintf(want_threads, sizeof want_threads, "on each of %u threads and the cost pass",
             oc_settings_verify_threads(&c->settings));
    snprintf(want_budget, sizeof want_budget, "more than the memory budget of %s ", c->budget_text);
    for (int i = 0; i < ROUNDS; i++) {
        oc_request req = {.collective = OC_ALLREDUCE,
                          .algorithm = "rd",
                          .network = "switch",
                          .nodes = 65536,
                          .bytes = UINT64_C(1) << 20,
                          .settings = &c->settings};
        oc_report *rep = NULL;
        char why[512] = "";
        int rc = oc_run(&req, &rep, why, sizeof why);
        oc_report_free(rep);
        if (rc != OC_ETOOBIG || !strstr(why, want_threads) || !strstr(why, want_budget)) {
            if (!c->bad++) snprintf(c->first_bad, sizeof c->first_bad, "rc %d: %s", rc, why);
        }
    }
    return NULL;
}

typedef struct small_case {
    int bad;
    char first_bad[600]; /* "rc N: " and a reason of up to 511 bytes */
} small_case;

static void *small_loop(void *arg) {
    small_case *c = arg;
    for (int i = 0; i < ROUNDS; i++) {
        oc_request req = {.collective = OC_ALLREDUCE,
                          .algorithm = "ring",
                          .network = "switch",
                          .nodes = 7,
                          .bytes = 4096};
        oc_report *rep = NULL;
        char why[512] = "";
        int rc = oc_run(&req, &rep, why, sizeof why);
        if ((rc || !oc_report_verified(rep)) && !c->bad++)
            snprintf(c->first_bad, sizeof c->first_bad, "rc %d: %s", rc, why);
        oc_report_free(rep);
    }
    return NULL;
}

static void test_runs_at_once(void) {
    refusal_case cases[] = {
        {.settings = {.memory_budget = UINT64_C(1) << 20, .verify_threads = 3},
         .budget_text = "1 MiB"},
        {.settings = {.memory_budget = UINT64_C(2) << 20, .verify_threads = 5},
         .budget_text = "2 MiB"},
        {.settings = {.memory_budget = UINT64_C(1) << 20}, .budget_text = "1 MiB"}, /* 2 threads */
        {.settings = {.memory_budget = UINT64_C(3) << 20, .verify_threads = 1},
         .budget_text = "3 MiB"},
    };
    enum { NC = sizeof cases / sizeof *cases };
    small_case small = {0};
    pthread_t t[NC + 1];
    int started[NC + 1] = {0};
    for (size_t i = 0; i < NC; i++)
        started[i] = pthread_create(&t[i], NULL, refuse_loop, &cases[i]) == 0;
    started[NC] = pthread_create(&t[NC], NULL, small_loop, &small) == 0;
    for (size_t i = 0; i <= NC; i++) {
        CHECK(started[i], "thread %zu not started", i);
        if (started[i]) pthread_join(t[i], NULL);
    }
    for (size_t i = 0; i < NC; i++)
        CHECK(!cases[i].bad,
              "budget %s, %u verifier threads: %d of %d answers not its own; first: %s",
              cases[i].budget_text, oc_settings_verify_threads(&cases[i].settings), cases[i].bad,
              ROUNDS, cases[i].first_bad);
    CHECK(!small.bad, "the run with the defaults: %d of %d failed; first: %s", small.bad, ROUNDS,
          small.first_bad);
}

typedef struct sweep_case {
    oc_settings settings;
    int rc;
    size_t ran, budget_refused, count;
    char why[512];
} sweep_case;

static void *sweep_main(void *arg) {
    sweep_case *c = arg;
    const uint64_t nodes[] = {200}, sizes[] = {UINT64_C(1) << 20};
    const char *const algos[] = {"onestage", "ring"};
    oc_sweep_spec spec = {.base = {.collective = OC_ALLGATHER,
                                   .network = "ring",
                                   .skip_data_check = 1,
                                   .settings = &c->settings},
                          .algorithms = algos,
                          .nalgorithms = 2,
                          .nodes = nodes,
                          .nnodes = 1,
                          .sizes = sizes,
                          .nsizes = 1};
    oc_sweep *s = NULL;
    c->rc = oc_sweep_new(&spec, &s, c->why, sizeof c->why);
    /* the caller's settings may go now: the sweep keeps a copy */
    memset(&c->settings, 0xff, sizeof c->settings);
    c->settings.part = NULL;
    if (!c->rc) c->rc = oc_sweep_run(s, 0, oc_sweep_count(s), 2, c->why, sizeof c->why);
    for (size_t i = 0; !c->rc && i < oc_sweep_count(s); i++) {
        const oc_sweep_point *p = oc_sweep_point_at(s, i);
        c->count++;
        c->ran += p->status == OC_POINT_RAN;
        c->budget_refused +=
            p->status == OC_POINT_NOT_RUN && strstr(p->why, "memory budget of 1 MiB") != NULL;
    }
    oc_sweep_free(s);
    return NULL;
}

static void test_sweeps_at_once(void) {
    sweep_case small = {.settings = {.memory_budget = UINT64_C(1) << 20}};
    sweep_case whole = {0};
    pthread_t a, b;
    int sa = pthread_create(&a, NULL, sweep_main, &small) == 0;
    int sb = pthread_create(&b, NULL, sweep_main, &whole) == 0;
    if (sa) pthread_join(a, NULL);
    if (sb) pthread_join(b, NULL);
    CHECK(sa && sb, "threads not started");
    CHECK(small.rc == 0 && whole.rc == 0, "sweeps: %d %s / %d %s", small.rc, small.why, whole.rc,
          whole.why);
    /* ring's all-gather fits 1 MiB, one-stage's round of 200 x 199 lightpaths does not */
    CHECK(small.count == 2 && small.ran == 1 && small.budget_refused == 1,
          "the 1 MiB sweep: %zu points, %zu ran, %zu refused by its budget", small.count, small.ran,
          small.budget_refused);
    CHECK(whole.count == 2 && whole.ran == 2 && whole.budget_refused == 0,
          "the default sweep: %zu points, %zu ran, %zu refused by a 1 MiB budget", whole.count,
          whole.ran, whole.budget_refused);
}

enum { POOL_JOBS = 64 };

typedef struct pool_seen {
    uint64_t budget[POOL_JOBS];
    pthread_t thread[POOL_JOBS];
} pool_seen;

static int read_budget(size_t i, void *ctx) {
    pool_seen *seen = ctx;
    seen->budget[i] = oc__memory_budget();
    seen->thread[i] = pthread_self();
    /* a sleep, so that the workers take jobs too however loaded the machine */
    nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
    return 0;
}

static size_t pool_threads_used(const pool_seen *seen) {
    size_t n = 0;
    for (size_t i = 0; i < POOL_JOBS; i++) {
        size_t j = 0;
        while (j < i && !pthread_equal(seen->thread[j], seen->thread[i]))
            j++;
        n += j == i;
    }
    return n;
}

static void test_pool_workers(void) {
    pool_seen seen;
    const oc_settings five = {.memory_budget = UINT64_C(5) << 20};
    const oc_settings *prev = oc__settings_enter(&five); /* as a public call does */
    int rc = oc__pool_run(POOL_JOBS, 4, read_budget, &seen, NULL);
    oc__settings_leave(prev);
    size_t wrong = 0;
    for (size_t i = 0; i < POOL_JOBS; i++)
        wrong += seen.budget[i] != five.memory_budget;
    CHECK(rc == 0 && wrong == 0, "%zu of %d jobs read another budget than their caller's", wrong,
          POOL_JOBS);
    CHECK(pool_threads_used(&seen) > 1, "the jobs ran on %zu thread", pool_threads_used(&seen));
    rc = oc__pool_run(POOL_JOBS, 4, read_budget, &seen, NULL);
    wrong = 0;
    for (size_t i = 0; i < POOL_JOBS; i++)
        wrong += seen.budget[i] != OC_DEFAULT_MEMORY_BUDGET;
    CHECK(rc == 0 && wrong == 0,
          "outside a call: %zu of %d jobs read another budget than the default", wrong, POOL_JOBS);
}

typedef struct side {
    pthread_barrier_t *both;
    oc_settings settings;
    uint64_t seen;
} side;

static void *one_side(void *arg) {
    side *s = arg;
    const oc_settings *prev = oc__settings_enter(&s->settings);
    pthread_barrier_wait(s->both); /* both threads are inside their calls now */
    s->seen = oc__memory_budget();
    pthread_barrier_wait(s->both);
    oc__settings_leave(prev);
    return NULL;
}

static void test_two_calls_at_once(void) {
    pthread_barrier_t both;
    CHECK(pthread_barrier_init(&both, NULL, 2) == 0, "barrier");
    side a = {.both = &both, .settings = {.memory_budget = UINT64_C(7) << 20}};
    side b = {.both = &both, .settings = {.memory_budget = UINT64_C(11) << 20}};
    pthread_t ta, tb;
    CHECK(pthread_create(&ta, NULL, one_side, &a) == 0 &&
              pthread_create(&tb, NULL, one_side, &b) == 0,
          "threads");
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&both);
    CHECK(a.seen == a.settings.memory_budget && b.seen == b.settings.memory_budget,
          "the 7 MiB call read %llu bytes, the 11 MiB call %llu", (unsigned long long)a.seen,
          (unsigned long long)b.seen);
}

static void test_zero_is_default(void) {
    const oc_settings zero = {0};
    const oc_settings *given[] = {NULL, &zero};
    double times[2] = {0, 0};
    uint64_t steps[2] = {0, 0};
    for (size_t i = 0; i < 2; i++) {
        oc_request req = {.collective = OC_ALLREDUCE,
                          .algorithm = "rd",
                          .network = "switch",
                          .nodes = 12,
                          .bytes = 3000,
                          .settings = given[i]};
        oc_report *rep = NULL;
        char why[512] = "";
        int rc = oc_run(&req, &rep, why, sizeof why);
        CHECK(rc == 0 && oc_report_data_checked(rep), "%s settings: %d %s (data checked: %d)",
              i ? "zeroed" : "no", rc, why, rep ? oc_report_data_checked(rep) : -1);
        if (rep) times[i] = oc_report_time(rep), steps[i] = oc_report_steps(rep);
        oc_report_free(rep);
    }
    CHECK(times[0] == times[1] && steps[0] == steps[1] && steps[0] > 0,
          "NULL and zeroed settings differ: %g / %g s, %llu / %llu steps", times[0], times[1],
          (unsigned long long)steps[0], (unsigned long long)steps[1]);
    CHECK(oc_settings_memory_budget(&zero) == OC_DEFAULT_MEMORY_BUDGET &&
              oc_settings_verify_threads(&zero) == 2,
          "zero's budget %llu, threads %u", (unsigned long long)oc_settings_memory_budget(&zero),
          oc_settings_verify_threads(&zero));
}

int main(void) {
    test_runs_at_once();
    test_sweeps_at_once();
    test_pool_workers();
    test_two_calls_at_once();
    test_zero_is_default();
    return CHECK_SUMMARY();
}
