/*
 * rack_trace.c — the tenants that come and go on a rack (studies/rack.h; rack.c's essay says
 * what a tenant asks for): a seeded random trace (sizes half powers of two, half any, arrivals
 * and stays uniform, integer arithmetic only: the same trace on every platform) or a trace read
 * from a file (tenant ids mapped through a hash table, every line checked, bad input refused in
 * one line naming the file and the line), its events sorted in time.
 */
#include "core/quote.h"
#include "studies/rack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- traces -----------------------------------------------------------------------------------
 */

void oc__rack_trace_free(oc__rack_trace *t) {
    if (!t) return;
    free(t->tenants);
    free(t->events);
    memset(t, 0, sizeof *t);
}

static int add_tenant(oc__rack_trace *t, size_t *cap, const char *id, uint32_t g, double at) {
    if (t->ntenants == *cap &&
        oc__grow((void **)&t->tenants, cap, t->ntenants + 1, sizeof *t->tenants))
        return OC_ENOMEM;
    oc__rack_tenant *x = &t->tenants[t->ntenants++];
    memset(x, 0, sizeof *x);
    snprintf(x->id, sizeof x->id, "%s", id);
    x->gpus = g;
    x->arrive = at;
    x->leave = -1;
    return 0;
}

static int add_event(oc__rack_trace *t, size_t *cap, double at, int leave, size_t tenant) {
    if (t->nevents == *cap && oc__grow((void **)&t->events, cap, t->nevents + 1, sizeof *t->events))
        return OC_ENOMEM;
    t->events[t->nevents++] = (oc__rack_event){at, leave, (uint32_t)tenant};
    return 0;
}

/* splitmix64 (Steele, Lea and Flood): the same numbers on every platform, unlike rand(). */
static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in 0 .. n-1 (the modulo bias is below 2^-50 for these n). */
static uint32_t below(uint64_t *x, uint32_t n) {
    return (uint32_t)(splitmix64(x) % n);
}

static int by_event(const void *x, const void *y) {
    const oc__rack_event *a = x, *b = y;
    if (a->time != b->time) return a->time < b->time ? -1 : 1;
    if (a->leave != b->leave) return a->leave ? -1 : 1; /* leaves first: they free GPUs */
    return a->tenant < b->tenant ? -1 : a->tenant > b->tenant;
}

/* The seeded trace. Tenant i arrives 1 .. 19 time units (uniform, mean 10) after tenant i-1 and
 * stays 1 .. 199 units (uniform, mean 100), so about 10 tenants are present at once. Its size g is,
 * with probability 1/2, a power of two 2^k with k uniform in 0 .. log2(G), else uniform in 1 .. G,
 * where G = min(64, rack GPUs): a mean of about 25 GPUs, so the offered load is close to a
 * 256-GPU rack. Integer times and integer arithmetic only: the same trace on every platform. */
int oc__rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc__rack_trace *out,
                          char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    if (tenants < 1 || tenants > OC__RACK_MAX_TENANTS)
        return oc__fail(why, whylen, OC_ERANGE, "--tenants %u: 1 to %u", tenants,
                        OC__RACK_MAX_TENANTS);
    const uint32_t G = rack_gpus < 64 ? rack_gpus : 64;
    uint32_t kmax = 0;
    while ((2u << kmax) <= G)
        kmax++;
    size_t tcap = 0, ecap = 0;
    uint64_t x = seed;
    uint64_t now = 0;
    for (uint32_t i = 0; i < tenants; i++) {
        now += 1 + below(&x, 19);
        uint32_t g = (splitmix64(&x) & 1) ? 1u << below(&x, kmax + 1) : 1 + below(&x, G);
        uint64_t stay = 1 + below(&x, 199);
        char id[16];
        snprintf(id, sizeof id, "t%u", i + 1);
        if (add_tenant(out, &tcap, id, g, (double)now) ||
            add_event(out, &ecap, (double)now, 0, i) ||
            add_event(out, &ecap, (double)(now + stay), 1, i)) {
            oc__rack_trace_free(out);
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        }
        out->tenants[i].leave = (double)(now + stay);
    }
    qsort(out->events, out->nevents, sizeof *out->events, by_event);
    snprintf(out->source, sizeof out->source, "seed %llu, %u tenants", (unsigned long long)seed,
             tenants);
    return 0;
}

/* Active ids: open addressing on FNV-1a, linear probing; tombstones keep probe chains whole. */
typedef struct idmap {
    int64_t *slot; /* tenant index, -1 empty, -2 deleted */
    size_t mask;
} idmap;

static uint64_t fnv1a(const char *s) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

/* The slot holding id, or (with insert) the first free one on its chain; SIZE_MAX if absent. */
static size_t idmap_find(const idmap *m, const oc__rack_trace *t, const char *id, int insert) {
    size_t i = (size_t)fnv1a(id) & m->mask, tomb = SIZE_MAX;
    for (;; i = (i + 1) & m->mask) {
        const int64_t v = m->slot[i];
        if (v == -1) return insert ? (tomb != SIZE_MAX ? tomb : i) : SIZE_MAX;
        if (v == -2) {
            if (tomb == SIZE_MAX) tomb = i;
        } else if (!strcmp(t->tenants[v].id, id)) {
            return i;
        }
    }
}

int oc__rack_trace_parse(const char *text, size_t len, const char *source, uint32_t rack_gpus,
                         oc__rack_trace *out, char *why, size_t whylen) {
    memset(out, 0, sizeof *out);
    source = OC_Q(source); /* a file name, in messages only */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    idmap m = {NULL, 0};
    size_t size = 16;
    while (size < 2 * lines + 2)
        size *= 2;
    m.slot = oc__malloc_array(size, sizeof *m.slot);
    if (!m.slot) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    m.mask = size - 1;
    for (size_t i = 0; i < size; i++)
        m.slot[i] = -1;
    size_t tcap = 0, ecap = 0, arrivals = 0;
    uint32_t *arrived_line = NULL;
    size_t acap = 0;
    double last = 0;
    int rc = 0;
    unsigned lineno = 0;
    for (size_t at = 0; at < len || (at == len && lineno == 0 && len == 0);) {
        size_t end = at;
        while (end < len && text[end] != '\n')
            end++;
        lineno++;
        char buf[512];
        size_t n = end - at;
        if (n >= sizeof buf) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: line longer than %zu characters", source,
                          lineno, sizeof buf - 1);
            goto fail;
        }
        if (memchr(text + at, 0, n)) {
            /* a NUL would silently end the line early: refuse rather than drop its tail */
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: the line holds a NUL byte", source,
                          lineno);
            goto fail;
        }
        memcpy(buf, text + at, n);
        buf[n] = 0;
        at = end + 1;
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *tok[5];
        int nt = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t\r", &save); w;
             w = strtok_r(NULL, " \t\r", &save)) {
            if (nt == 5) break;
            tok[nt++] = w;
        }
        if (nt == 0) {
            if (end >= len) break;
            continue;
        }
        if (nt < 3 || nt > 4) {
            rc = oc__fail(why, whylen, OC_EPARSE,
                          "%s:%u: expected 'TIME arrive ID GPUS' or 'TIME leave ID', got %d "
                          "field%s",
                          source, lineno, nt, nt == 1 ? "" : "s");
            goto fail;
        }
        double time;
        /* decimal only: strtod would also take hex (0x10), nan and inf, which are not times */
        int prc = strspn(tok[0], "0123456789.eE+-") != strlen(tok[0])
                      ? OC_EPARSE
                      : oc_parse_double(tok[0], 0, 1e15, &time);
        if (tok[0][0] == '-' && prc != OC_EPARSE) prc = OC_ERANGE;
        if (prc) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: time '%s' %s", source, lineno,
                          OC_Q(tok[0]),
                          prc == OC_EPARSE ? "is not a number"
                                           : "is out of range (0 to 1e15; negative times are "
                                             "not allowed)");
            goto fail;
        }
        if (time < last) {
            rc = oc__fail(why, whylen, OC_EPARSE,
                          "%s:%u: time %s is earlier than the line before (%g)", source, lineno,
                          tok[0], last);
            goto fail;
        }
        last = time;
        int leave;
        if (!strcmp(tok[1], "arrive"))
            leave = 0;
        else if (!strcmp(tok[1], "leave"))
            leave = 1;
        else {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: '%s' is neither arrive nor leave", source,
                          lineno, OC_Q(tok[1]));
            goto fail;
        }
        const char *id = tok[2];
        if (strlen(id) > 31) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: id '%s' is longer than 31 characters",
                          source, lineno, OC_Q(id));
            goto fail;
        }
        uint64_t g = 0;
        if (nt == 4) {
            int grc = oc_parse_u64(tok[3], 0, UINT64_MAX, &g);
            if (grc) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: GPUS '%s' is %s", source, lineno,
                              OC_Q(tok[3]),
                              tok[3][0] == '-'   ? "negative"
                              : grc == OC_ERANGE ? "out of range (more GPUs than any rack has)"
                                                 : "not a whole number of GPUs");
                goto fail;
            }
            if (g == 0) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: a tenant needs at least 1 GPU",
                              source, lineno);
                goto fail;
            }
            if (g > rack_gpus) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: %s GPUs asked, the rack has %u",
                              source, lineno, tok[3], rack_gpus);
                goto fail;
            }
        } else if (!leave) {
            rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: arrive needs GPUS (TIME arrive ID GPUS)",
                          source, lineno);
            goto fail;
        }
        size_t slot = idmap_find(&m, out, id, !leave);
        if (!leave) {
            if (m.slot[slot] >= 0) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: tenant '%s' is already in the rack (arrived on line %u)",
                              source, lineno, OC_Q(id), arrived_line[m.slot[slot]]);
                goto fail;
            }
            if (out->ntenants >= OC__RACK_MAX_TENANTS) {
                rc = oc__fail(why, whylen, OC_EPARSE, "%s:%u: more than %u tenants", source, lineno,
                              OC__RACK_MAX_TENANTS);
                goto fail;
            }
            if (out->ntenants == acap &&
                oc__grow((void **)&arrived_line, &acap, out->ntenants + 1, sizeof *arrived_line))
                goto nomem;
            arrived_line[out->ntenants] = lineno;
            if (add_tenant(out, &tcap, id, (uint32_t)g, time) ||
                add_event(out, &ecap, time, 0, out->ntenants - 1))
                goto nomem;
            m.slot[slot] = (int64_t)out->ntenants - 1;
            arrivals++;
        } else {
            if (slot == SIZE_MAX) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: leave of '%s', which is not in the rack", source, lineno,
                              OC_Q(id));
                goto fail;
            }
            oc__rack_tenant *x = &out->tenants[m.slot[slot]];
            if (nt == 4 && g != x->gpus) {
                rc = oc__fail(why, whylen, OC_EPARSE,
                              "%s:%u: leave of '%s' says %s GPUs, it arrived asking for %u", source,
                              lineno, OC_Q(id), OC_Q(tok[3]), x->gpus);
                goto fail;
            }
            x->leave = time;
            if (add_event(out, &ecap, time, 1, (size_t)m.slot[slot])) goto nomem;
            m.slot[slot] = -2;
        }
        if (end >= len) break;
    }
    if (!arrivals) {
        rc = oc__fail(why, whylen, OC_EPARSE, "%s: no arrivals in the trace", source);
        goto fail;
    }
    snprintf(out->source, sizeof out->source, "%s", source);
    free(m.slot);
    free(arrived_line);
    return 0;
nomem:
    rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
fail:
    free(m.slot);
    free(arrived_line);
    oc__rack_trace_free(out);
    return rc;
}

/* Reads and parses the file at `path` (OC_EIO when it cannot be read). */
static int trace_read(const char *path, uint32_t rack_gpus, oc__rack_trace *out, char *why,
                      size_t whylen) {
    memset(out, 0, sizeof *out);
    char *buf = NULL;
    size_t len = 0;
    int rc = oc__read_file(path, 0, NULL, &buf, &len, why, whylen);
    if (!rc) rc = oc__rack_trace_parse(buf ? buf : "", len, path, rack_gpus, out, why, whylen);
    free(buf);
    return rc;
}

/* ---- the public handles (opticoll_studies.h): the same trace and result, allocated ---------- */

int oc_rack_trace_read(const oc_settings *settings, const char *path, uint32_t rack_gpus,
                       oc_rack_trace **out, char *why, size_t whylen) {
    *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(settings, &prev, why, whylen); /* the file's cap */
    if (!rc && !(*out = calloc(1, sizeof **out)))
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    if (!rc) rc = trace_read(path, rack_gpus, *out, why, whylen);
    oc__settings_leave(prev);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

int oc_rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc_rack_trace **out,
                         char *why, size_t whylen) {
    *out = calloc(1, sizeof **out);
    if (!*out) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    int rc = oc__rack_trace_random(seed, tenants, rack_gpus, *out, why, whylen);
    if (rc) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

void oc_rack_trace_free(oc_rack_trace *t) {
    if (!t) return;
    oc__rack_trace_free(t);
    free(t);
}
