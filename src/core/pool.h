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

#include "opticoll.h"

/* The pool is public (opticoll.h: oc_pool_run, oc_pool_job), for the CLI's scale-out; inside the
 * library it keeps its internal names. */
#define oc__pool_job oc_pool_job
#define oc__pool_run oc_pool_run

#endif
