/*
 * progress.c — the rate limit of progress reports (progress.h): a countdown on the hot path, the
 * clock only when it runs out, the caller's callback at most every REPORT_EVERY seconds and once
 * at the end; and the thread-local progress that the loops inside one round poll for a stop
 * (oc__stop_tick).
 */
#include "core/progress.h"

#include <string.h>
#include <time.h>

#define REPORT_EVERY 0.1  /* seconds between two reports */
#define READ_AT_LEAST 0.02 /* a stride whose steps took less is doubled ... */
#define READ_AT_MOST 0.2   /* ... and one whose steps took more is halved */
#define MAX_STRIDE (UINT64_C(1) << 24)

/* oc__progress_every_step's switch: read at each clock read, which it makes every step. */
static _Atomic int every_step;

void oc__progress_every_step(int on) {
    every_step = on != 0;
}

static double now(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t)) return 0;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void oc__progress_begin(oc__progress *p, oc_progress_fn fn, void *ctx, const char *what,
                        uint64_t total) {
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->ctx = ctx;
    p->what = what;
    p->total = total;
    p->stride = p->countdown = 1;
    if (fn) p->last_read = p->last_report = now();
    p->locked = fn && !pthread_mutex_init(&p->lock, NULL);
}

/* The caller's callback with done as reported: never below a done reported before. A piece of
 * work may count its steps again from the start (a sharded run's cost pass generates the rounds
 * a second time after an attempt that outgrew its memory), and the polls inside a round report
 * between the counts; the caller is promised that done never goes back. Returns the answer. */
static int report(oc__progress *p) {
    if (p->done > p->reported) p->reported = p->done;
    const uint64_t done = p->reported;
    return p->fn(p->ctx, p->what, done, p->total && done > p->total ? done : p->total);
}

void oc__progress_check(oc__progress *p) {
    const double t = now(), dt = t - p->last_read;
    if (every_step) {
        p->stride = p->countdown = 1;
        p->last_read = p->last_report = t;
        if (p->fn(p->ctx, p->what, p->done, p->total && p->done > p->total ? p->done : p->total))
            p->stopped = 1;
        return;
    }
    if (dt < READ_AT_LEAST && p->stride < MAX_STRIDE)
        p->stride *= 2;
    else if (dt > READ_AT_MOST && p->stride > 1)
        p->stride /= 2;
    p->countdown = p->stride;
    p->last_read = t;
    if (t - p->last_report < REPORT_EVERY) return;
    p->last_report = t;
    if (report(p)) p->stopped = 1;
}

int oc__progress_add(oc__progress *p) {
    return oc__progress_add_n(p, 1);
}

int oc__progress_add_n(oc__progress *p, uint64_t n) {
    if (!p->fn) return 0;
    /* without a lock (pthread_mutex_init failed) the reports are skipped, never raced */
    if (!p->locked) return 0;
    pthread_mutex_lock(&p->lock);
    /* A pool's jobs (a sweep's points, a verifier's shards) differ in cost by orders of
     * magnitude, so the clock is read at each: a stride grown on quick jobs would hide a run of
     * slow ones for minutes. A job costs far more than the read. */
    p->done += n;
    p->countdown = 1;
    int rc = oc__progress_at(p, p->done, 0);
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int oc__progress_poll(oc__progress *p) {
    if (!p->fn || p->stopped || !p->locked) return p->stopped ? OC_ECANCELED : 0;
    pthread_mutex_lock(&p->lock);
    const double t = now();
    if (!p->stopped && t - p->last_report >= REPORT_EVERY) {
        p->last_report = t;
        if (report(p)) p->stopped = 1;
    }
    pthread_mutex_unlock(&p->lock);
    return p->stopped ? OC_ECANCELED : 0;
}

int oc__progress_relay(void *ctx, const char *what, uint64_t done, uint64_t total) {
    (void)what, (void)done, (void)total;
    return oc__progress_poll(ctx) != 0;
}

int oc__progress_forward(void *ctx, const char *what, uint64_t done, uint64_t total) {
    oc__progress *p = ctx;
    if (!p->fn || !p->locked) return p->stopped;
    pthread_mutex_lock(&p->lock);
    if (!p->stopped && p->fn(p->ctx, what, done, total)) p->stopped = 1;
    pthread_mutex_unlock(&p->lock);
    return p->stopped;
}

void oc__progress_end(oc__progress *p) {
    if (!p->fn) return;
    const uint64_t done = p->done > p->reported ? p->done : p->reported;
    const uint64_t n = done > p->total ? done : p->total;
    (void)p->fn(p->ctx, p->what, n, n); /* the last answer is not read: the work is over */
    if (p->locked) pthread_mutex_destroy(&p->lock);
    p->fn = NULL;
    p->locked = 0;
}

_Thread_local oc__stop_now oc__stop_here;

oc__progress *oc__stop_watch(oc__progress *p) {
    oc__progress *before = oc__stop_here.progress;
    oc__stop_here.progress = p && p->fn && p->locked ? p : NULL;
    oc__stop_here.countdown = OC__STOP_TICKS;
    return before;
}

int oc__stop_poll(void) {
    oc__stop_here.countdown = OC__STOP_TICKS;
    return oc__progress_poll(oc__stop_here.progress);
}
