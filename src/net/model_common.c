/*
 * model_common.c — the lifecycle every network model shares: allocating a run and its buffers
 * (within the memory budget), freeing them, the totals of rounds and steps, the model-table
 * entries that read only those totals, and the figures and parameters every finish() writes.
 * What the pieces are and in which order a model calls them: model_common.h.
 *
 * A run's buffers are listed once, at creation, by the field that holds them: the list is what
 * oc__netrun_free() frees, so a model's destroy never repeats it, and a buffer a round grows
 * later (oc__grow reallocates the field in place) is freed whatever its size became.
 */
#include "net/model_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The base of a model's run: its first member (C11 6.7.2.1: a pointer to a structure, suitably
 * converted, points to its first member). */
static oc__netbase *base_of(oc__netrun *run) {
    return (oc__netbase *)(void *)run;
}

static const oc__netbase *cbase_of(const oc__netrun *run) {
    return (const oc__netbase *)(const void *)run;
}

void *oc__netrun_new(size_t size, const oc__spec *spec, int check,
                     int (*round)(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                                  size_t whylen)) {
    if (size < sizeof(oc__netbase)) return NULL;
    oc__netbase *b = calloc(1, size);
    if (!b) return NULL;
    b->sink.round = round;
    b->spec = spec;
    b->check = check;
    return b;
}

int oc__netrun_buffers(oc__netrun *run, const oc__netbuf *bufs, size_t n, const char *what,
                       char *why, size_t whylen) {
    oc__netbase *b = base_of(run);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        /* a list longer than the base holds is the model's mistake, not the user's */
        if (b->nowned == OC_NETRUN_MAX_BUFFERS)
            return oc__fail(why, whylen, OC_EINVAL, "%s: more than %d buffers", what,
                            OC_NETRUN_MAX_BUFFERS);
        b->owned[b->nowned++] = bufs[i].field;
        const uint64_t bytes = (uint64_t)bufs[i].count * bufs[i].size;
        if (bufs[i].size && bytes / bufs[i].size != bufs[i].count) total = UINT64_MAX;
        total = total > UINT64_MAX - bytes ? UINT64_MAX : total + bytes;
    }
    int rc = oc__budget_check(total, what, why, whylen);
    if (rc) return rc;
    for (size_t i = 0; i < n; i++)
        if (bufs[i].count && !(*bufs[i].field = oc__calloc(bufs[i].count, bufs[i].size)))
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    return 0;
}

int oc__netrun_reserve(const oc__netbuf *bufs, size_t n, size_t need, size_t extra, size_t *cap) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    for (size_t i = 0; i < n; i++) {
        if (c + extra > SIZE_MAX / bufs[i].size) return OC_ENOMEM;
        void *q = realloc(*bufs[i].field, (c + extra) * bufs[i].size);
        if (!q) return OC_ENOMEM;
        *bufs[i].field = q;
    }
    *cap = c;
    return 0;
}

int oc__netrun_done(oc__netrun *run, int rc, void (*destroy)(oc__netrun *run), oc__netrun **out) {
    if (rc) {
        destroy(run);
        return rc;
    }
    *out = run;
    return 0;
}

void oc__netrun_free(oc__netrun *run) {
    if (!run) return;
    oc__netbase *b = base_of(run);
    for (size_t i = 0; i < b->nowned; i++)
        free(*b->owned[i]);
    free(b);
}

void oc__netrun_mapped(oc__netrun *run, uint64_t steps) {
    oc__netbase *b = base_of(run);
    b->rounds++;
    b->steps += steps;
}

int oc__netrun_observe_step(oc__netrun *run, uint64_t round, uint64_t first, uint64_t nsteps,
                            double start_s, double dur_s, char *why, size_t whylen) {
    oc__netbase *b = base_of(run);
    return b->obs->step(b->obs, round, b->steps + first, nsteps, start_s, dur_s, why, whylen);
}

int oc__netrun_observe_use(oc__netrun *run, const oc__use *u, char *why, size_t whylen) {
    oc__netbase *b = base_of(run);
    return b->obs->use(b->obs, u, why, whylen);
}

int oc__netrun_endpoints(const oc__netrun *run, uint64_t round, const oc__transfer *x,
                         const char *refusal, char *why, size_t whylen) {
    const uint32_t N = cbase_of(run)->spec->nodes;
    if (x->src < N && x->dst < N && x->src != x->dst) return 0;
    return oc__fail(why, whylen, OC_EINVAL, "round %llu: transfer %u -> %u %s",
                    (unsigned long long)round, x->src, x->dst, refusal);
}

int oc__netrun_bytes(const oc__netrun *run, uint64_t round, const oc__transfer *x,
                     uint64_t headroom, uint64_t *bytes, char *why, size_t whylen) {
    const uint64_t cb = cbase_of(run)->spec->chunk_bytes;
    if (cb && x->count > UINT64_MAX / headroom / cb)
        return oc__fail(why, whylen, OC_ETOOBIG, "round %llu: transfer %u -> %u is too large",
                        (unsigned long long)round, x->src, x->dst);
    *bytes = (uint64_t)x->count * cb;
    return 0;
}

oc__sink *oc__netrun_sink(oc__netrun *run) {
    return &base_of(run)->sink;
}

uint64_t oc__netrun_steps(const oc__netrun *run) {
    return cbase_of(run)->steps;
}

uint64_t oc__netrun_one_channel(const oc__netrun *run) {
    (void)run;
    return 1;
}

void oc__netrun_figures(oc_report *rep, uint64_t steps, uint64_t steps_lb, double time_s) {
    rep->steps = steps;
    rep->has_lb = 1;
    rep->steps_lb = steps_lb;
    rep->time_s = time_s;
}

int oc__netrun_param(oc_report *rep, const char *key, const char *fmt, ...) {
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    /* the values are numbers and short words: 160 bytes hold any of them */
    (void)vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return oc_kv_set(rep->net_params, key, buf);
}

int oc__netrun_finished(int rc, char *why, size_t whylen) {
    return rc ? oc__fail(why, whylen, OC_ENOMEM, "out of memory writing the report") : 0;
}
