/*
 * pool.h — the library's one thread pool (pool.c): independent jobs 0 .. n-1 on a given number of
 * threads, with a result that does not depend on timing.
 *
 * Reproductions (run/batch.c), sweeps and tunings (studies/sweep.c), `reproduce -j` and the
 * cluster tool (tools/scaleout.c) all run their work through it. The library never reads the
 * environment: the caller says how many threads.
 */
#ifndef OC_POOL_H
#define OC_POOL_H

#include <stddef.h>

/* One job: 0, or a negative oc_errno. A job writes only its own slot of whatever ctx holds. */
typedef int (*oc__pool_job)(size_t i, void *ctx);

/* Runs job(i, ctx) for i = 0 .. n-1 on up to `threads` threads (0 counts as 1; the calling thread
 * is one of them, and a thread that cannot be started leaves the work to the others). Workers take
 * the indices in list order. Returns 0 when every job returned 0; otherwise the error of the
 * failing job with the smallest index, and its index in *failed (may be NULL). Once job i has
 * failed, jobs after i that have not started are skipped, but every job before i still runs, so
 * which error is returned never depends on the threads' timing. */
int oc__pool_run(size_t n, unsigned threads, oc__pool_job job, void *ctx, size_t *failed);

#endif
