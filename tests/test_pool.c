/*
 * test_pool.c — the library's one thread pool (src/core/pool.c): every job runs exactly once, on
 * any number of threads; the error returned is the one of the first failing job in list order,
 * whatever the threads did first; every job before it ran, and none is started twice.
 *
 * The timing case is the regression: job 3 fails slowly and job 5 fails at once. The cluster
 * tool's own pool (tools/scaleout.c before the pool) kept the first failure in time, which here
 * is job 5's; the pool must answer job 3's on every run and every thread count.
 */
#include "check.h"
#include "core/pool.h"
#include "opticoll.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_JOBS = 200 };

typedef struct jobs {
    atomic_int runs[MAX_JOBS];
    int fail[MAX_JOBS]; /* the error job i returns (0: succeeds) */
    int slow[MAX_JOBS]; /* milliseconds job i sleeps first */
} jobs;

static int job(size_t i, void *ctx) {
    jobs *j = ctx;
    atomic_fetch_add(&j->runs[i], 1);
    if (j->slow[i]) {
        struct timespec ts = {0, (long)j->slow[i] * 1000000L};
        nanosleep(&ts, NULL);
    }
    return j->fail[i];
}

static jobs *fresh(void) {
    jobs *j = calloc(1, sizeof *j);
    if (!j) abort();
    return j;
}

int main(void) {
    /* no failure: every job exactly once, for n and threads over small and odd values */
    const unsigned threads[] = {0, 1, 2, 3, 5, 8, 64};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
        for (size_t n = 0; n <= 37; n += n < 8 ? 1 : 7) {
            jobs *j = fresh();
            size_t at = 99;
            int rc = oc__pool_run(n, threads[t], job, j, &at);
            int once = 1;
            for (size_t i = 0; i < n; i++)
                once &= atomic_load(&j->runs[i]) == 1;
            CHECK(rc == 0 && at == n && once, "n=%zu threads=%u: each job once", n, threads[t]);
            free(j);
        }
    /* failures: the first in list order, every job before it run, none twice */
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
        for (int rep = 0; rep < 5; rep++) {
            jobs *j = fresh();
            size_t n = 100;
            j->fail[61] = OC_EIO;
            j->fail[17] = OC_EPARSE;
            j->fail[90] = OC_ENOMEM;
            size_t at = 0;
            int rc = oc__pool_run(n, threads[t], job, j, &at);
            int before = 1, twice = 0;
            for (size_t i = 0; i < n; i++) {
                if (i <= 17) before &= atomic_load(&j->runs[i]) == 1;
                twice |= atomic_load(&j->runs[i]) > 1;
            }
            CHECK(rc == OC_EPARSE && at == 17 && before && !twice,
                  "threads=%u: job 17's error (%d at %zu), jobs 0..17 ran once", threads[t], rc,
                  at);
            free(j);
        }
    /* the regression: a later job that fails first in time does not win */
    for (unsigned t = 2; t <= 6; t++) {
        jobs *j = fresh();
        j->fail[3] = OC_EVERIFY;
        j->slow[3] = 30;
        j->fail[5] = OC_ERESOURCE;
        size_t at = 0;
        int rc = oc__pool_run(8, t, job, j, &at);
        CHECK(rc == OC_EVERIFY && at == 3,
              "threads=%u: the slow job 3 fails first in order, "
              "not job 5 that failed first in time (%d at %zu)",
              t, rc, at);
        free(j);
    }
    /* a NULL `failed` is allowed */
    jobs *j = fresh();
    j->fail[0] = OC_EINVAL;
    CHECK(oc__pool_run(3, 2, job, j, NULL) == OC_EINVAL, "failed may be NULL");
    free(j);
    return CHECK_SUMMARY();
}
