/*
 * progress.h — how far long work got, told to the caller's oc_progress_fn (progress.c).
 *
 * The library never prints progress: it calls the callback the caller gave (oc_request.progress,
 * oc_reproduce_settings.progress), about ten times a second at most. Work advances in steps far
 * shorter than that (a round of a ring all-gather is microseconds), so a step costs a decrement:
 * the clock is read only every `stride` steps, and the stride is doubled or halved so that the
 * reads come about every 20-200 ms whatever a step costs.
 *
 * The callback may ask the work to stop (a non-zero answer: the Python package's Ctrl-C). The
 * answer is kept in `stopped`; oc__progress_at and oc__progress_add return OC_ECANCELED from then
 * on, and the work returns that error at its next step, through its usual cleanup.
 */
#ifndef OC_PROGRESS_H
#define OC_PROGRESS_H

#include "opticoll.h"

#include <pthread.h>
#include <stdint.h>

typedef struct oc__progress {
    oc_progress_fn fn; /* NULL: nothing is reported and every call is a no-op */
    void *ctx;
    const char *what;   /* the unit: "rounds", "candidates", "points", "jobs" */
    uint64_t total;     /* as known so far (0: not known); raised to done if done passes it */
    uint64_t done;      /* the steps reported so far (oc__progress_add's count) */
    uint64_t reported;  /* the largest done told to the callback (a recount never goes back) */
    uint64_t countdown; /* steps left before the clock is read */
    uint64_t stride;    /* steps between two reads of the clock */
    double last_read, last_report; /* CLOCK_MONOTONIC seconds */
    pthread_mutex_t lock;          /* oc__progress_add's, for work spread over threads */
    int locked;                    /* the lock was initialised */
    _Atomic int stopped;           /* the callback asked to stop (read by every thread) */
} oc__progress;

/* Starts a piece of work of `total` steps (0: not known yet) reported to fn (may be NULL). */
void oc__progress_begin(oc__progress *p, oc_progress_fn fn, void *ctx, const char *what,
                        uint64_t total);
/* The slow path of oc__progress_at: reads the clock, adapts the stride, maybe reports. */
void oc__progress_check(oc__progress *p);
/* `done` steps are done (never less than before) and `total` are known (0: unchanged). Returns
 * OC_ECANCELED once the callback asked to stop, else 0. */
static inline int oc__progress_at(oc__progress *p, uint64_t done, uint64_t total) {
    if (!p->fn) return 0;
    p->done = done;
    if (total > p->total) p->total = total;
    if (--p->countdown == 0) oc__progress_check(p);
    return p->stopped ? OC_ECANCELED : 0;
}
/* One more step done, from any thread (the steps of a pool's jobs): under a lock. Returns
 * OC_ECANCELED once the callback asked to stop, else 0. */
int oc__progress_add(oc__progress *p);
/* Whether the work should stop, from any thread, without a step done: the callback is asked
 * (under the lock) if a report is due, so that a long piece of a step (one point of a sweep,
 * one job of a reproduction, a solver's call) still hears a request to stop within a report.
 * OC_ECANCELED once the callback asked to stop, else 0. */
int oc__progress_poll(oc__progress *p);
/* An oc_progress_fn for the runs inside a step of other work (a sweep's point, a reproduction's
 * job): ctx is that work's oc__progress; the inner run's reports (about ten a second) become
 * polls of it (oc__progress_poll), and its answer stops the inner run too. */
int oc__progress_relay(void *ctx, const char *what, uint64_t done, uint64_t total);
/* An oc_progress_fn for the runs inside a step of other work whose reports the caller wants
 * too (a sweep's points' rounds): ctx is that work's oc__progress; each report is passed on to its
 * callback under its lock, so that the caller's callback is never called from two threads at
 * once, and a stop asked there stops the inner run and the work around it. */
int oc__progress_forward(void *ctx, const char *what, uint64_t done, uint64_t total);
/* `n` more steps done at once (a shard's chunks), as oc__progress_add. */
int oc__progress_add_n(oc__progress *p, uint64_t n);
/* Tests only: with `on`, every step reports (no rate limit, in every thread's work), so that a
 * rule on the reports (done never goes back) is held at every step, not only at the steps the
 * clock happened to pick; 0 gives the rate limit back. */
void oc__progress_every_step(int on);
/* The end of the work: the last report, with done == total (both the larger of the two), then
 * the lock released. */
void oc__progress_end(oc__progress *p);

/* ---- a stop heard inside one step ------------------------------------------------------------
 *
 * One round can hold millions of transfers (OpTree's two-level rounds at 65536 nodes: 16.7 M
 * transfers each; a one-stage round), and generating, verifying and mapping it takes seconds, while
 * the rounds' own progress hears a stop only between rounds. So the work on each thread names the
 * progress it belongs to (oc__stop_watch: the run's rounds on the caller's thread, the verifier's
 * shards and the cost pass on the pool's), and the loops inside a round tick (oc__stop_tick): a
 * decrement of a thread-local countdown, and every OC__STOP_TICKS ticks a poll of that progress
 * (oc__progress_poll: the clock, and the caller's callback when a report is due). A tick that
 * returns OC_ECANCELED ends the loop through its usual error path. Without a watched progress (no
 * callback) a tick is one load and one branch. */
enum { OC__STOP_TICKS = 1 << 14 };
typedef struct oc__stop_now {
    oc__progress *progress; /* NULL: nothing to poll */
    uint32_t countdown;     /* ticks before the next poll */
} oc__stop_now;
extern _Thread_local oc__stop_now oc__stop_here;
/* This thread's loops poll p from now on (NULL, or a progress without a callback: none); returns
 * the progress they polled before, for the caller to put back when its work ends. */
oc__progress *oc__stop_watch(oc__progress *p);
/* The slow path of oc__stop_tick: the countdown restarted and the progress polled. */
int oc__stop_poll(void);
/* One unit of work inside a step: OC_ECANCELED once the watched progress was asked to stop. */
static inline int oc__stop_tick(void) {
    if (!oc__stop_here.progress || --oc__stop_here.countdown) return 0;
    return oc__stop_poll();
}

#endif
