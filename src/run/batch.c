/*
 * batch.c — runs made for tables: one request (oc__sim_req, parameters as text) through the
 * public pipeline (oc_run: generated, verified, mapped, checked, costed), reduced to the figures a
 * table cell needs, and a batch of independent runs on two threads.
 *
 * The library has no mutable global state (the progress callback below is per thread), so two
 * oc_run calls on two threads share nothing; each
 * job writes only its own slot, and the batch runs on the library's pool (core/pool.h), which
 * reports the error of the first failing job in list order, so neither the output nor a failure
 * depends on timing. Two threads because the
 * reproductions' large reductions are bound by the verifier's memory traffic (an all-reduce on
 * 4096 nodes holds ~3 GB of contribution sets), not by the cores; more threads would multiply the
 * memory and gain little. Used by the reproductions (src/reproduce) and the rack study.
 */
#include "run/batch.h"
#include "core/pool.h"
#include "core/progress.h"
#include "core/quote.h"

#include <inttypes.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCH_THREADS = 2 };

/* ---- runs ------------------------------------------------------------------------------------ */

/* Adds every "k=v" word of a space-separated list to kv. */
static int kv_add_words(oc_kv *kv, const char *text) {
    char word[128];
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n) break;
        if (n >= sizeof word) return OC_EINVAL;
        memcpy(word, p, n);
        word[n] = 0;
        int rc = oc_kv_set_pair(kv, word);
        if (rc) return rc;
        p += n;
    }
    return 0;
}

/* The progress callback of the reproduction running on this thread (oc__batch_progress): one
 * per thread, so that concurrent reproductions (reproduce -j) report to their own callers. */
static _Thread_local oc_progress_fn batch_fn;
static _Thread_local void *batch_ctx;

/* A run polls the reproduction's callback while it runs (a Ctrl-C stops it inside a long run,
 * not only between runs): a batch's job through the batch (batch_job), a run on the
 * reproduction's own thread as a piece of work of one job. */
int oc__simulate(const oc__sim_req *q, oc__sim *s, oc_report **keep, char *why, size_t whylen) {
    memset(s, 0, sizeof *s);
    if (keep) *keep = NULL;
    oc_kv *params = oc_kv_new(), *net = oc_kv_new();
    oc_report *rep = NULL;
    int rc;
    if (!params || !net) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = kv_add_words(params, q->params)) || (rc = kv_add_words(net, q->net))) {
        rc = oc__fail(why, whylen, rc, "reproduce: bad parameter list '%s' / '%s'", OC_Q(q->params),
                      OC_Q(q->net));
        goto out;
    }
    oc_request req = {.collective = q->coll,
                      .algorithm = q->algo,
                      .network = q->network,
                      .nodes = q->nodes,
                      .bytes = q->bytes,
                      .params = params,
                      .net_params = net,
                      .skip_data_check = !q->data_check,
                      .progress = q->progress,
                      .progress_ctx = q->progress_ctx};
    /* a run on the reproduction's thread outside a batch is a piece of work of one job, and its
     * run polls it (its rounds are not the reproduction's to report) */
    oc__progress direct;
    const int own = !q->progress && batch_fn;
    if (own) {
        oc__progress_begin(&direct, batch_fn, batch_ctx, "jobs", 1);
        req.progress = oc__progress_relay;
        req.progress_ctx = &direct;
    }
    char inner[384] = "";
    rc = oc_run(&req, &rep, inner, sizeof inner);
    if (own) oc__progress_end(&direct);
    if (rc == OC_ETOOBIG) {
        /* the reason, cut to the note's size (a long one is still read from its start) */
        const char *reason = inner[0] ? inner : oc_strerror(rc);
        size_t n = strnlen(reason, sizeof s->note - 1);
        memcpy(s->note, reason, n);
        s->note[n] = 0;
        rc = 0;
        goto out;
    }
    if (rc) {
        rc = oc__fail(why, whylen, rc, "reproduce: %s %s on %s, %" PRIu32 " nodes%s%s: %s",
                      oc_collective_name(q->coll), q->algo, q->network ? q->network : "no network",
                      q->nodes, q->params[0] ? ", " : "", q->params,
                      inner[0] ? inner : oc_strerror(rc));
        goto out;
    }
    s->ok = 1;
    s->steps = oc_report_steps(rep);
    s->rounds = oc_report_rounds(rep);
    s->has_lb = oc_report_steps_lower_bound(rep, &s->lb);
    s->has_lib_formula = oc_report_steps_formula(rep, &s->lib_formula);
    s->time_s = oc_report_time(rep);
    s->data_checked = oc_report_data_checked(rep);
    if (keep) {
        *keep = rep;
        rep = NULL;
    }
out:
    oc_report_free(rep);
    oc_kv_free(params);
    oc_kv_free(net);
    return rc;
}

void oc__batch_progress(oc_progress_fn fn, void *ctx) {
    batch_fn = fn;
    batch_ctx = ctx;
}

typedef struct batch {
    oc__sim_job *jobs;
    oc__progress progress;
} batch;

static int batch_job(size_t i, void *ctx) {
    batch *b = ctx;
    oc__sim_job *j = &b->jobs[i];
    j->why[0] = 0;
    if (b->progress.stopped) return j->rc = OC_ECANCELED; /* the caller asked to stop */
    /* the job's run polls the batch's callback (oc__progress_relay): a Ctrl-C stops a long job
     * within a report, not only once it is over */
    oc__sim_req q = j->req;
    if (b->progress.fn) q.progress = oc__progress_relay, q.progress_ctx = &b->progress;
    j->rc = oc__simulate(&q, &j->sim, j->keep ? &j->report : NULL, j->why, sizeof j->why);
    if (oc__progress_add(&b->progress) && !j->rc) {
        snprintf(j->why, sizeof j->why, "cancelled");
        j->rc = OC_ECANCELED;
    }
    return j->rc;
}

int oc__sim_batch(oc__sim_job *jobs, size_t n, char *why, size_t whylen) {
    for (size_t i = 0; i < n; i++) {
        jobs[i].report = NULL;
        jobs[i].rc = 0;
    }
    size_t bad;
    batch b = {.jobs = jobs};
    oc__progress_begin(&b.progress, batch_fn, batch_ctx, "jobs", n);
    int rc = oc__pool_run(n, BATCH_THREADS, batch_job, &b, &bad);
    oc__progress_end(&b.progress);
    if (!rc) return 0;
    oc__fail(why, whylen, rc, "%s",
             bad < n && jobs[bad].why[0] ? jobs[bad].why
             : rc == OC_ENOMEM           ? "reproduce: cannot start the threads"
                                         : oc_strerror(rc));
    for (size_t k = 0; k < n; k++) {
        oc_report_free(jobs[k].report);
        jobs[k].report = NULL;
    }
    return rc;
}

void oc__kv_text(char *buf, size_t len, const oc_kv *kv) {
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; kv && i < oc_kv_count(kv) && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, i ? " %s=%s" : "%s=%s", oc_kv_key(kv, i),
                               oc_kv_value(kv, i));
}

double oc__report_figure(const oc_report *rep, const char *key) {
    double v;
    return rep && oc_report_number(rep, key, &v) ? v : NAN;
}

const char *oc__net_param(const oc_report *rep, const char *key) {
    const char *v = oc_kv_get(oc_report_network_params(rep), key);
    return v ? v : "?";
}
