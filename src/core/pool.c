/*
 * pool.c — the thread pool (pool.h): N workers taking job indices in list order from one counter.
 *
 * The pool exists so that every place that runs independent work in parallel (the reproductions'
 * verified runs, the points of a sweep or a tuning, the papers of `reproduce -j`, the ranks'
 * shares in the cluster tool) gets the same two promises: jobs start in list order (so a caller
 * puts its longest jobs first), and the error returned is the one of the first failing job in list
 * order, whatever the threads did first. The second promise is kept by never skipping a job below
 * the lowest failure seen so far: a job is skipped only when a job before it has already failed,
 * and then the answer cannot change. Workers are created per call and joined before it returns:
 * the calls are coarse (whole runs of the pipeline), so a thread's start costs nothing next to
 * them, and no thread outlives the call that made it. Each worker takes the settings of the thread
 * that called (core/settings.c), so a call's work reads the caller's settings on every thread.
 */
#include "core/pool.h"

#include "core/core.h"

#include "opticoll.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct pool {
    size_t n, next;
    size_t failed; /* the smallest failing index so far (n: none) */
    int err;       /* its error */
    oc__pool_job job;
    void *ctx;
    const oc_settings *settings; /* the calling thread's, for every worker (core/settings.c) */
    pthread_mutex_t lock;
} pool;

static void *worker(void *arg) {
    pool *p = arg;
    /* The jobs are the calling thread's call's work: they read its settings on every thread. */
    const oc_settings *prev = oc__settings_enter(p->settings);
    for (;;) {
        pthread_mutex_lock(&p->lock);
        /* a job after a failure is not needed: the answer is already one at or before it */
        size_t i = p->next < p->n && p->next < p->failed ? p->next++ : SIZE_MAX;
        pthread_mutex_unlock(&p->lock);
        if (i == SIZE_MAX) break;
        int rc = p->job(i, p->ctx);
        if (!rc) continue;
        pthread_mutex_lock(&p->lock);
        if (i < p->failed) {
            p->failed = i;
            p->err = rc;
        }
        pthread_mutex_unlock(&p->lock);
    }
    oc__settings_leave(prev);
    return NULL;
}

int oc_pool_run(size_t n, unsigned threads, oc_pool_job job, void *ctx, size_t *failed) {
    pool p = {.n = n,
              .next = 0,
              .failed = n,
              .err = 0,
              .job = job,
              .ctx = ctx,
              .settings = oc__settings()};
    if (failed) *failed = n;
    if (!n) return 0;
    if (pthread_mutex_init(&p.lock, NULL)) return OC_ENOMEM;
    size_t extra = threads > 1 ? threads - 1 : 0;
    if (extra > n - 1) extra = n - 1; /* no thread without a job to take */
    pthread_t *t = extra ? calloc(extra, sizeof *t) : NULL;
    size_t started = 0;
    if (t)
        for (; started < extra; started++)
            if (pthread_create(&t[started], NULL, worker, &p)) break; /* run with fewer */
    worker(&p);
    for (size_t k = 0; k < started; k++)
        pthread_join(t[k], NULL);
    free(t);
    pthread_mutex_destroy(&p.lock);
    if (failed) *failed = p.failed;
    return p.err;
}
