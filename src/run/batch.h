/*
 * batch.h — verified runs for tables (batch.c): one request with its parameters as text, reduced
 * to the figures a table needs, and a batch of independent runs on two threads.
 */
#ifndef OC_BATCH_H
#define OC_BATCH_H

#include "core/core.h"

/* ---- runs ------------------------------------------------------------------------------------ */

/* One run to make: the fields of an oc_request, with the parameters as text. */
typedef struct oc__sim_req {
    oc_collective coll;
    const char *algo, *network;
    uint32_t nodes;
    uint64_t bytes;
    char params[96]; /* algorithm parameters "k=v k=v" ("" = none: the algorithm's defaults) */
    char net[96];    /* network parameters "k=v k=v" ("" = the model's defaults) */
    int data_check;  /* also execute with real data (oc_request's skip_data_check inverted) */
    oc_progress_fn progress; /* NULL: the reproduction's (oc__batch_progress) on its own thread */
    void *progress_ctx;
} oc__sim_req;

/* What one verified run gave, or why it was not simulated. */
typedef struct oc__sim {
    int ok; /* 1: simulated; 0: refused as too big, reason in `note` */
    uint64_t steps, rounds, lb;
    int has_lb, has_lib_formula, data_checked;
    double time_s, lib_formula;
    char note[256];
} oc__sim;

/* Runs req through oc_run. OC_ETOOBIG leaves s->ok = 0 and returns 0; every other error is
 * returned with the reason in `why`. With `keep`, the report is handed to the caller (NULL when
 * not simulated) instead of freed. */
int oc__simulate(const oc__sim_req *req, oc__sim *s, oc_report **keep, char *why, size_t whylen);

/* One job of a batch: the request, whether to keep the report, and what came back. */
typedef struct oc__sim_job {
    oc__sim_req req;
    int keep;          /* hand the report back in `report` */
    oc__sim sim;       /* the result */
    oc_report *report; /* with keep: the report (the caller frees it), NULL if not simulated */
    int rc;            /* the job's own return code */
    char why[384];     /* and reason */
} oc__sim_job;

/* Runs jobs[0 .. n) on up to two threads (jobs are taken in list order, so put the longest
 * first). Returns 0, or the error of the first failing job in list order with its reason in
 * `why`; on failure no report is kept. */
int oc__sim_batch(oc__sim_job *jobs, size_t n, char *why, size_t whylen);

/* Sets the callback the batches run on this thread report their jobs to (NULL: none); a
 * reproduction sets it for its own duration from oc_reproduce_settings.progress. */
void oc__batch_progress(oc_progress_fn fn, void *ctx);

/* "m=48 alltoall=21" for a kv list (the parameters a run used: oc_report_params). */
void oc__kv_text(char *buf, size_t len, const oc_kv *kv);

/* A named number of the report (oc_report_number), or NAN when absent or rep is NULL. */
double oc__report_figure(const oc_report *rep, const char *key);

/* A network parameter the run used ("wavelengths", "reconfig_us", ...), or "?". */
const char *oc__net_param(const oc_report *rep, const char *key);

#endif
