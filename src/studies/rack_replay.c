/*
 * rack_replay.c — a trace replayed on each architecture (rack.c places and releases the tenants):
 * every placed tenant's all-reduce run as a verified oc_run on its network (the fabric for
 * lumorph, with its reserved fibres; the switch for tpu and sipac), rhd raced against the ring
 * where both apply, the runs cached per (network, size, layout) so that a long trace costs a
 * handful of runs; the invariants re-checked as rack.c's essay says.
 *
 * A replay of a long trace on a large rack takes seconds to minutes (100 000 tenants on 128 x 32
 * GPUs), so it hears a request to stop (the shape's progress callback: the Python package's
 * Ctrl-C) at every event, each of the three passes counting its events, and inside each tenant's
 * all-reduce run, whose own progress polls the replay's (oc__progress_relay): a run of seconds
 * on thousands of GPUs stops within a report too. A stopped replay returns OC_ECANCELED and no
 * result.
 */
#include "core/quote.h"
#include "studies/rack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- all-reduce runs, cached ---------------------------------------------------------------- */

typedef struct oc__rack_ar_entry {
    int fabric;
    uint32_t g, tps, fib;
    int rhd_allowed;
    oc__rack_ar ar;
} oc__rack_ar_entry;

/* One verified run: its time. */
/* One verified all-reduce; *degraded (when not NULL) says whether the fabric had to share its
 * fibres' wavelengths or add steps (fabric.c: scarce fibres degrade a run rather than fail it). */
static int ar_run_fib(const oc__rack_ar_cache *c, int fabric, uint32_t g, uint32_t tps,
                      uint32_t fib, const char *algo, uint32_t radix, double *time, int *degraded,
                      char *why, size_t whylen) {
    oc__sim_req q;
    memset(&q, 0, sizeof q);
    q.coll = OC_ALLREDUCE;
    q.algo = algo;
    q.network = fabric ? "fabric" : "switch";
    q.nodes = g;
    q.bytes = c->bytes;
    q.data_check = 0;
    if (radix) snprintf(q.params, sizeof q.params, "radix=%u", radix);
    /* the run polls the replay's callback (without one, q.progress stays NULL: a run inside
     * `reproduce lumorph` polls the reproduction's, oc__simulate's batch callback) */
    if (c->progress && c->progress->fn)
        q.progress = oc__progress_relay, q.progress_ctx = c->progress;
    if (fabric)
        snprintf(q.net, sizeof q.net, "tiles_per_server=%u fibres_between_servers=%u", tps, fib);
    oc__sim s;
    oc_report *rep = NULL;
    int rc = oc__simulate(&q, &s, degraded ? &rep : NULL, why, whylen);
    if (rc) return rc;
    if (!s.ok)
        return oc__fail(why, whylen, OC_ETOOBIG, "rack: all-reduce %s on %u GPUs not simulated: %s",
                        algo, g, s.note);
    *time = s.time_s;
    if (degraded) {
        double shared = 0;
        *degraded =
            rep && oc_report_number(rep, "fibre_shared_circuits", &shared) == 0 && shared > 0;
        oc_report_free(rep);
    }
    return 0;
}

static int ar_run(const oc__rack_ar_cache *c, int fabric, uint32_t g, uint32_t tps, uint32_t fib,
                  const char *algo, uint32_t radix, double *time, char *why, size_t whylen) {
    return ar_run_fib(c, fabric, g, tps, fib, algo, radix, time, NULL, why, whylen);
}

static int best_ar(oc__rack_ar_cache *c, int fabric, uint32_t g, uint32_t tps, uint32_t fib,
                   int rhd_allowed, oc__rack_ar *out, uint64_t *runs, char *why, size_t whylen) {
    if (!oc__rack_is_pow(g, 2)) rhd_allowed = 0;
    if (!fabric) tps = fib = 0;
    for (size_t i = 0; i < c->n; i++) {
        const oc__rack_ar_entry *e = &c->e[i];
        if (e->fabric == fabric && e->g == g && e->tps == tps && e->fib == fib &&
            e->rhd_allowed == rhd_allowed) {
            *out = e->ar;
            return 0;
        }
    }
    oc__rack_ar ar = {"ring", 0, 0, 1};
    int rc;
    if (!rhd_allowed) {
        rc = ar_run(c, fabric, g, tps, fib, "ring", 0, &ar.time_s, why, whylen);
        ++*runs;
    } else {
        snprintf(ar.algo, sizeof ar.algo, "rhd");
        ar.radix = 2;
        int degraded = 0;
        rc = ar_run_fib(c, fabric, g, tps, fib, "rhd", 2, &ar.time_s, &degraded, why, whylen);
        ++*runs;
        if (!rc && degraded) {
            /* the reservation's fibres are too few for rhd's circuits, which share them: the
             * ring, one circuit per server pair, may be faster */
            double tr;
            rc = ar_run(c, fabric, g, tps, fib, "ring", 0, &tr, why, whylen);
            ++*runs;
            if (!rc && tr < ar.time_s) ar = (oc__rack_ar){"ring", 0, tr, 1};
        }
        if (rc == OC_ERESOURCE) {
            /* the fabric's check says the tenant's smallest reservation cannot carry rhd: run
             * the ring, whose one fibre per server pair that reservation covers */
            ar = (oc__rack_ar){"ring", 0, 0, 1};
            rc = ar_run(c, fabric, g, tps, 1, "ring", 0, &ar.time_s, why, whylen);
            ++*runs;
        } else if (!rc && oc__rack_is_pow(g, 4) && g >= 4) {
            double t4;
            rc = ar_run(c, fabric, g, tps, fib, "rhd", 4, &t4, why, whylen);
            ++*runs;
            if (rc == OC_ERESOURCE)
                rc = 0; /* radix 4 needs more than the reservation: keep radix 2 */
            else if (!rc && t4 < ar.time_s)
                ar = (oc__rack_ar){"rhd", 4, t4, 1};
        }
    }
    if (rc) return rc;
    if (c->n == c->cap && oc__grow((void **)&c->e, &c->cap, c->n + 1, sizeof *c->e))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    c->e[c->n++] = (oc__rack_ar_entry){fabric, g, tps, fib, rhd_allowed, ar};
    *out = ar;
    return 0;
}

/* The all-reduce of a placed tenant (see the top of the file for the layout passed). */
int oc__rack_tenant_ar(oc__rack_ar_cache *c, oc__rack_arch arch, uint32_t g,
                       const oc__rack_place *p, oc__rack_ar *out, uint64_t *runs, char *why,
                       size_t whylen) {
    if (arch != OC__RACK_LUMORPH) return best_ar(c, 0, g, 0, 0, 1, out, runs, why, whylen);
    /* fibres_between_servers = the tenant's smallest reservation on any of its server pairs
     * (min(c_a, c_b) is smallest where c_a is the smallest share), so the fabric's resource check
     * proves the reservation suffices on every pair; rhd that needs more falls back to the ring
     * (in best_ar), whose one fibre per pair every rhd reservation covers */
    const uint32_t tps = p->max_per_server;
    const uint32_t fib = p->servers > 1 && p->rhd_circuits ? p->min_per_server : 1;
    return best_ar(c, 1, g, tps, fib, p->rhd_circuits, out, runs, why, whylen);
}

/* ---- the replay -------------------------------------------------------------------------------
 */

void oc__rack_result_free(oc__rack_result *r) {
    if (!r) return;
    for (int a = 0; a < OC__RACK_ARCHS; a++)
        free(r->tenant[a]);
    memset(r, 0, sizeof *r);
}

/* The GPU visits the invariants' checks of one replay may take (about 0.1 s). */
#define RACK_CHECK_WORK (UINT64_C(1) << 26)

/* One architecture's pass over the trace; events_before: the events of the passes before it
 * (the progress counts all three passes' events). */
static int replay_one(const oc__rack_shape *s, const oc__rack_trace *t, oc__rack_arch arch,
                      oc__rack_ar_cache *cache, uint64_t events_before, oc__rack_arch_result *res,
                      oc__rack_tenant_result *tr, char *why, size_t whylen) {
    oc__rack *r;
    int rc = oc__rack_new(s, arch, (uint32_t)t->ntenants, &r, why, whylen);
    if (rc) return rc;
    const double N = (double)s->servers * s->tiles;
    double in_use = 0, given = 0; /* GPUs asked for / given, now */
    double i_use = 0, i_given = 0, i_stranded = 0, sum_ar = 0;
    const uint32_t placeable = oc__rack_largest(r); /* the largest request the empty rack places */
    /* The largest slice of the architecture: lumorph's is the whole rack ("arbitrary sized ...
     * allocations given enough fibers", section 3), so a request its fibres cannot join is not
     * "too large": the free GPUs it could not have are stranded, and the rejection is counted as
     * for want of fibres (before, --fibres 0 showed such racks as unfragmented). */
    const uint32_t cap = arch == OC__RACK_LUMORPH ? (uint32_t)N : placeable;
    /* The invariants' check walks the whole rack: after every event while that stays within
     * RACK_CHECK_WORK GPU visits, else after every `every`-th event and the last (a broken
     * invariant stays broken in the owner array, so it is still caught, some events later). */
    const uint64_t walk = (uint64_t)t->nevents * ((uint64_t)s->servers * s->tiles + s->servers);
    const size_t every = (size_t)(1 + walk / RACK_CHECK_WORK);
    for (size_t i = 0; i < t->nevents; i++) {
        const oc__rack_event *e = &t->events[i];
        const oc__rack_tenant *x = &t->tenants[e->tenant];
        oc__rack_tenant_result *y = &tr[e->tenant];
        if (cache->progress && oc__progress_at(cache->progress, events_before + i, 0)) {
            rc = oc__fail(why, whylen, OC_ECANCELED, "rack: cancelled at event %zu of %zu (%s)", i,
                          t->nevents, oc__rack_arch_name(arch));
            goto out;
        }
        if (!e->leave) {
            res->arrivals++;
            const uint32_t free_before = oc__rack_free_gpus(r);
            char reason[sizeof y->reason] = "";
            rc = oc__rack_place_tenant(r, e->tenant, x->gpus, &y->where, reason, sizeof reason);
            if (rc < 0) {
                oc__fail(why, whylen, rc, "%s", reason);
                goto out;
            }
            if (rc == 1) {
                y->placed = 1;
                res->placed++;
                in_use += x->gpus;
                given += y->where.allocated;
                if ((rc = oc__rack_tenant_ar(cache, arch, x->gpus, &y->where, &y->ar, &res->runs,
                                             why, whylen)))
                    goto out;
                sum_ar += y->ar.time_s;
            } else {
                res->rejected++;
                /* fragmented only if the empty rack could have placed it: a request above cap
                 * is too large for this architecture, not a victim of fragmentation */
                if (x->gpus > cap)
                    res->rejected_too_large++;
                else if (free_before >= x->gpus && x->gpus > placeable)
                    res->rejected_no_fibres++;
                else if (free_before >= x->gpus)
                    res->rejected_fragmented++;
                snprintf(y->reason, sizeof y->reason, "%s", reason);
            }
            rc = 0;
        } else if (y->placed) {
            if ((rc = oc__rack_release(r, e->tenant))) {
                oc__fail(why, whylen, rc, "rack: cannot release tenant %s", x->id);
                goto out;
            }
            in_use -= x->gpus;
            given -= y->where.allocated;
        }
        if ((i % every == 0 || i + 1 == t->nevents) && (rc = oc__rack_check(r, why, whylen)))
            goto out;
        const double dt = i + 1 < t->nevents ? t->events[i + 1].time - e->time : 0;
        if (dt > 0) {
            i_use += dt * in_use;
            i_given += dt * given;
            const uint32_t nfree = oc__rack_free_gpus(r), want = nfree < cap ? nfree : cap;
            const uint32_t largest = oc__rack_largest(r);
            i_stranded += dt * (double)(want > largest ? want - largest : 0);
        }
    }
    const double span = t->nevents ? t->events[t->nevents - 1].time - t->events[0].time : 0;
    if (span > 0) {
        res->utilisation = i_use / (span * N);
        res->rounding = (i_given - i_use) / (span * N);
        res->idle = 1 - i_given / (span * N);
        res->stranded = i_stranded / (span * N);
    }
    res->mean_allreduce_s = res->placed ? sum_ar / (double)res->placed : 0;
out:
    oc__rack_free(r);
    return rc;
}

int oc__rack_replay(const oc__rack_shape *s, const oc__rack_trace *t, oc__rack_result *out,
                    char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    out->shape = *s;
    if (s->settings) {
        out->settings = *s->settings;
        out->shape.settings = &out->settings;
    }
    out->trace = t;
    int rc = oc__rack_shape_check(s, why, whylen);
    if (rc) return rc;
    if (!t->ntenants) return oc__fail(why, whylen, OC_EINVAL, "rack: the trace has no tenants");
    out->span = t->events[t->nevents - 1].time - t->events[0].time;
    /* every fraction is a time average: with no time there is nothing to average */
    if (!(out->span > 0))
        return oc__fail(why, whylen, OC_EINVAL,
                        "rack: the trace spans no time (all events at %g); fractions are time "
                        "averages",
                        t->events[0].time);
    oc__progress progress;
    oc__progress_begin(&progress, s->progress, s->progress_ctx, "events",
                       (uint64_t)t->nevents * OC__RACK_ARCHS);
    oc__rack_ar_cache cache = {NULL, 0, 0, s->bytes, &progress};
    for (int a = 0; a < OC__RACK_ARCHS && !rc; a++) {
        out->tenant[a] = oc__calloc(t->ntenants, sizeof *out->tenant[a]);
        if (!out->tenant[a])
            rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        else
            rc = replay_one(s, t, (oc__rack_arch)a, &cache, (uint64_t)a * t->nevents, &out->arch[a],
                            out->tenant[a], why, whylen);
    }
    oc__progress_end(&progress);
    free(cache.e);
    if (rc) oc__rack_result_free(out);
    return rc;
}

/* ---- the public handle (opticoll_studies.h): the replay's result, allocated -------------- */

int oc_rack_replay(const oc_rack_shape *s, const oc_rack_trace *t, oc_rack_result **out, char *why,
                   size_t whylen) {
    *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(s ? s->settings : NULL, &prev, why, whylen);
    if (!rc && !(*out = calloc(1, sizeof **out)))
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    if (!rc) rc = oc__rack_replay(s, t, *out, why, whylen);
    oc__settings_leave(prev);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

void oc_rack_result_free(oc_rack_result *r) {
    if (!r) return;
    oc__rack_result_free(r);
    free(r);
}
