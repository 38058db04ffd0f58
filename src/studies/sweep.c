/*
 * sweep.c — a grid of runs (opticoll.h, "sweeps"): every candidate algorithm at every node count
 * and size, what `opticoll sweep`, `opticoll tune` and `run -a auto` stand on.
 *
 * Every point runs through oc_run — generated, verified (semantic, real data unless
 * skip_data_check is set) and mapped with the network's resource check — and is rendered where it
 * ran (a CSV line and a JSON object), so that the caller prints the strings and the report itself
 * need not outlive the run. An algorithm whose restrictions exclude a point (OC_ENOTSUP) or which
 * the library refuses as too big (OC_ETOOBIG) is "not run" there with the library's reason; any
 * other failure is the point's failure, and oc_sweep_first_failure names the first in point order,
 * whatever the threads did first. The points run on the library's pool (core/pool.h): each job
 * writes only its own point, so a point depends on nothing but itself, which is what lets the
 * cluster tool run shares of a sweep on other processes and bring the points back as bytes
 * (oc_sweep_point_pack).
 */
#include "studies/studies.h"
#include "core/json.h"
#include "core/pool.h"
#include "core/progress.h"
#include "core/quote.h"

#include <stdlib.h>
#include <string.h>

struct oc_sweep {
    oc_request base;    /* the spec's request (algorithm, nodes and bytes unused) */
    oc_settings settings; /* a copy of the spec's settings (base.settings points here or is NULL) */
    const char **algos; /* the candidates: names owned by the registry */
    size_t nalgos;
    uint64_t *nodes, *sizes; /* copies of the spec's lists */
    size_t nnodes, nsizes;
    oc_sweep_point *points; /* nalgos x nnodes x nsizes, in point order */
    size_t n;
};

int oc_algorithm_runs_on(const oc_algorithm_info *a, const char *network) {
    size_t n = strlen(network);
    for (const char *p = a->networks; *p;) {
        size_t k = strcspn(p, ",");
        if (k == n && !strncmp(p, network, n)) return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* The candidates: the spec's list, each checked against the registry, or every algorithm of the
 * collective that runs on the network, in registry order. */
static int sweep_algorithms(oc_sweep *s, const oc_sweep_spec *spec, char *why, size_t whylen) {
    const char *coll = oc_collective_name(s->base.collective), *net = s->base.network;
    size_t cap = spec->algorithms ? spec->nalgorithms : oc_algorithm_count();
    s->algos = oc__calloc(cap ? cap : 1, sizeof *s->algos);
    if (!s->algos) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    for (size_t k = 0; k < cap; k++) {
        const oc_algorithm_info *x = NULL;
        if (!spec->algorithms) {
            x = oc_algorithm_at(k);
            if (x->collective == s->base.collective && oc_algorithm_runs_on(x, net))
                s->algos[s->nalgos++] = x->name;
            continue;
        }
        const char *name = spec->algorithms[k];
        for (size_t i = 0; name && i < oc_algorithm_count() && !x; i++)
            if (oc_algorithm_at(i)->collective == s->base.collective &&
                !strcmp(oc_algorithm_at(i)->name, name))
                x = oc_algorithm_at(i);
        if (!x)
            return oc__fail(why, whylen, OC_ENOENT, "unknown %s algorithm '%s'", coll,
                            OC_Q(name ? name : "(null)"));
        if (!oc_algorithm_runs_on(x, net))
            return oc__fail(why, whylen, OC_EINVAL, "%s does not run on %s", x->name, net);
        for (size_t j = 0; j < s->nalgos; j++)
            if (s->algos[j] == x->name)
                return oc__fail(why, whylen, OC_EINVAL, "%s named twice", x->name);
        s->algos[s->nalgos++] = x->name;
    }
    if (!s->nalgos)
        return oc__fail(why, whylen, OC_ENOTSUP, "no %s algorithm runs on %s", coll, net);
    return 0;
}

/* Copies a node or size list after checking it: non-empty, strictly increasing, in [lo, hi]. */
static int sweep_list(const char *what, const uint64_t *in, size_t n, uint64_t lo, uint64_t hi,
                      uint64_t **out, char *why, size_t whylen) {
    if (!in || !n) return oc__fail(why, whylen, OC_EINVAL, "no %s", what);
    for (size_t i = 0; i < n; i++)
        if (in[i] < lo || in[i] > hi || (i && in[i] <= in[i - 1]))
            return oc__fail(why, whylen, OC_EINVAL,
                            "%s: %llu is out of range or out of order (increasing, %llu to %llu)",
                            what, (unsigned long long)in[i], (unsigned long long)lo,
                            (unsigned long long)hi);
    *out = oc__malloc_array(n, sizeof **out);
    if (!*out) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    memcpy(*out, in, n * sizeof **out);
    return 0;
}

int oc_sweep_new(const oc_sweep_spec *spec, oc_sweep **out, char *why, size_t whylen) {
    *out = NULL;
    if (!spec || !spec->base.network)
        return oc__fail(why, whylen, OC_EINVAL, "a sweep needs a network");
    if ((unsigned)spec->base.collective >= OC_COLLECTIVE_COUNT)
        return oc__fail(why, whylen, OC_EINVAL, "unknown collective");
    int known = 0;
    for (size_t i = 0; i < oc_network_count() && !known; i++)
        known = !strcmp(oc_network_at(i)->name, spec->base.network);
    if (!known)
        return oc__fail(why, whylen, OC_ENOENT, "unknown network '%s'", OC_Q(spec->base.network));
    int rc = oc_settings_check(spec->base.settings, why, whylen);
    if (rc) return rc;
    oc_sweep *s = calloc(1, sizeof *s);
    if (!s) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    s->base = spec->base;
    if (spec->base.settings) {
        s->settings = *spec->base.settings;
        s->base.settings = &s->settings;
    }
    s->base.algorithm = NULL;
    s->nnodes = spec->nnodes;
    s->nsizes = spec->nsizes;
    const oc_settings *prev = oc__settings_enter(s->base.settings);
    if ((rc = sweep_algorithms(s, spec, why, whylen)) ||
        (rc = sweep_list("node counts", spec->nodes, spec->nnodes, 1, OC_MAX_NODES, &s->nodes, why,
                         whylen)) ||
        (rc = sweep_list("sizes", spec->sizes, spec->nsizes, 0, OC_MAX_BYTES, &s->sizes, why,
                         whylen)))
        goto fail;
    /* each factor is at most OC_MAX_NODES, the registry's size or 2^50 values: the product of
     * the first two cannot overflow, and the budget check bounds the third */
    uint64_t points = (uint64_t)s->nalgos * s->nnodes;
    if (points > SIZE_MAX / s->nsizes / sizeof *s->points) {
        rc = oc__fail(why, whylen, OC_ETOOBIG, "too many points");
        goto fail;
    }
    s->n = (size_t)points * s->nsizes;
    if ((rc = oc__budget_check((uint64_t)s->n * sizeof *s->points, "the sweep's points", why,
                               whylen)))
        goto fail;
    s->points = oc__calloc(s->n, sizeof *s->points);
    if (!s->points) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < s->n; i++) {
        oc_sweep_point *p = &s->points[i];
        p->status = OC_POINT_PENDING;
        p->algorithm = i % s->nalgos;
        p->nodes = (uint32_t)s->nodes[i / (s->nsizes * s->nalgos)];
        p->bytes = s->sizes[i / s->nalgos % s->nsizes];
    }
    oc__settings_leave(prev);
    *out = s;
    return 0;
fail:
    oc__settings_leave(prev);
    oc_sweep_free(s);
    return rc;
}

/* Empties a point back to pending (its strings freed). */
static void point_clear(oc_sweep_point *p) {
    free((char *)p->csv);
    free((char *)p->json);
    free((char *)p->time);
    free((char *)p->params);
    free((char *)p->why);
    oc_sweep_point keep = *p;
    memset(p, 0, sizeof *p);
    p->status = OC_POINT_PENDING;
    p->algorithm = keep.algorithm;
    p->nodes = keep.nodes;
    p->bytes = keep.bytes;
}

void oc_sweep_free(oc_sweep *s) {
    if (!s) return;
    for (size_t i = 0; s->points && i < s->n; i++)
        point_clear(&s->points[i]);
    free(s->points);
    free(s->algos);
    free(s->nodes);
    free(s->sizes);
    free(s);
}

size_t oc_sweep_count(const oc_sweep *s) {
    return s->n;
}

size_t oc_sweep_algorithm_count(const oc_sweep *s) {
    return s->nalgos;
}

const char *oc_sweep_algorithm(const oc_sweep *s, size_t k) {
    return k < s->nalgos ? s->algos[k] : NULL;
}

size_t oc_sweep_node_count(const oc_sweep *s) {
    return s->nnodes;
}

uint64_t oc_sweep_nodes(const oc_sweep *s, size_t ni) {
    return ni < s->nnodes ? s->nodes[ni] : 0;
}

size_t oc_sweep_size_count(const oc_sweep *s) {
    return s->nsizes;
}

uint64_t oc_sweep_size(const oc_sweep *s, size_t si) {
    return si < s->nsizes ? s->sizes[si] : 0;
}

const oc_request *oc_sweep_request(const oc_sweep *s) {
    return &s->base;
}

const oc_sweep_point *oc_sweep_point_at(const oc_sweep *s, size_t i) {
    return i < s->n ? &s->points[i] : NULL;
}

const oc_sweep_point *oc_sweep_point_of(const oc_sweep *s, size_t ni, size_t si, size_t k) {
    if (ni >= s->nnodes || si >= s->nsizes || k >= s->nalgos) return NULL;
    return &s->points[(ni * s->nsizes + si) * s->nalgos + k];
}

/* ---- one point ---- */

/* The report as one CSV line (json 0) or one JSON object, malloc'ed into *text. */
static int render(const oc_report *rep, int json, char **text) {
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m) return OC_ENOMEM;
    int rc = json ? oc_report_write_json(rep, m) : oc_report_write_csv(rep, m, 0);
    if (fclose(m) && !rc) rc = OC_ENOMEM;
    return rc;
}

/* CSV: quotes doubled inside a quoted field. */
static void csv_quoted(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The not-run point as a CSV line (run's columns, empty figures, the reason as the note) and as
 * {algorithm, nodes, bytes, not_run}. */
static int render_not_run(const oc_sweep *s, const oc_sweep_point *p, char **csv, char **json) {
    const char *algo = s->algos[p->algorithm];
    size_t len = 0;
    FILE *m = open_memstream(csv, &len);
    if (!m) return OC_ENOMEM;
    fprintf(m, "%s,%s,%s,%u,%llu,,,,,,,,,,,,,", oc_collective_name(s->base.collective), algo,
            s->base.network, p->nodes, (unsigned long long)p->bytes);
    char *note = malloc(strlen(p->why) + sizeof "not run: ");
    if (!note) {
        fclose(m);
        return OC_ENOMEM;
    }
    sprintf(note, "not run: %s", p->why);
    csv_quoted(m, note);
    free(note);
    fputc('\n', m);
    if (fclose(m)) return OC_ENOMEM;
    cJSON *o = cJSON_CreateObject();
    int ok = o && oc__json_str(o, "algorithm", algo) && oc__json_u64(o, "nodes", p->nodes) &&
             oc__json_u64(o, "bytes", p->bytes) && oc__json_str(o, "not_run", p->why);
    char *text = ok ? oc__json_text(o, OC__JSON_SPACED) : NULL;
    cJSON_Delete(o);
    if (!text) return OC_ENOMEM;
    /* the rendered point ends with a line break, as run's JSON does */
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return OC_ENOMEM;
    }
    memcpy(line + n, "\n", 2);
    *json = line;
    return 0;
}

/* The parameters as "k=v k=v" (NULL: out of memory). */
static char *kv_text(const oc_kv *kv) {
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return NULL;
    for (size_t i = 0; kv && i < oc_kv_count(kv); i++)
        fprintf(m, i ? " %s=%s" : "%s=%s", oc_kv_key(kv, i), oc_kv_value(kv, i));
    if (fclose(m)) {
        free(text);
        return NULL;
    }
    return text;
}

/* Runs point i into its slot: 0, or OC_ENOMEM when it could not be rendered. */
static int point_job(size_t i, oc_sweep *s, oc__progress *points) {
    oc_sweep_point *p = &s->points[i];
    point_clear(p);
    oc_request q = s->base;
    /* Each point's run reports to the sweep's callback too (its rounds, its candidates), passed
     * on under the sweep's lock so that the callback never runs on two threads at once: a
     * sweep's points differ by orders of magnitude (--nodes 1..131072), so the pace of its first
     * points says nothing of its last, and a point's own rounds are what can say ahead that it
     * will be long; and a stop asked in that callback stops a long point. */
    q.progress = points->fn ? oc__progress_forward : NULL;
    q.progress_ctx = points;
    q.algorithm = s->algos[p->algorithm];
    q.nodes = p->nodes;
    q.bytes = p->bytes;
    oc_report *rep = NULL;
    char *csv = NULL, *json = NULL, why[OC__REASON_LEN] = "", when[64] = "";
    int rc = 0, err = q.root < q.nodes ? oc_run(&q, &rep, why, sizeof why) : OC_ENOTSUP;
    if (q.root >= q.nodes) snprintf(why, sizeof why, "root %u is not below N", q.root);
    if (!err) oc_report_format_time(rep, when, sizeof when, oc_report_time(rep));
    p->why = strdup(why);
    p->time = strdup(when);
    p->params = err ? strdup("") : kv_text(oc_report_params(rep));
    if (!p->why || !p->time || !p->params) {
        oc_report_free(rep);
        point_clear(p);
        return OC_ENOMEM;
    }
    if (!err) {
        p->status = OC_POINT_RAN;
        p->steps = oc_report_steps(rep);
        p->rounds = oc_report_rounds(rep);
        p->time_s = oc_report_time(rep);
        oc_physical_bound_info b;
        p->has_physical_bound = oc_report_physical_bound(rep, &b);
        p->physical_bound_steps = p->has_physical_bound ? b.steps : 0;
        p->physical_bound_time_s = p->has_physical_bound ? b.time_s : 0;
        rc = render(rep, 0, &csv);
        if (!rc) rc = render(rep, 1, &json);
        oc_report_free(rep);
    } else if (err == OC_ENOTSUP || err == OC_ETOOBIG) {
        p->status = OC_POINT_NOT_RUN;
        rc = render_not_run(s, p, &csv, &json);
    } else {
        p->status = OC_POINT_FAILED;
        p->err = err;
    }
    if (rc) {
        free(csv);
        free(json);
        point_clear(p);
        return OC_ENOMEM;
    }
    p->csv = csv;
    p->json = json;
    return 0;
}

/* The pool numbers its jobs from 0: job k is point lo + k. */
typedef struct sweep_range {
    oc_sweep *s;
    size_t lo;
    oc__progress progress; /* points done, from the pool's threads */
} sweep_range;

static int range_job(size_t k, void *ctx) {
    sweep_range *r = ctx;
    if (r->progress.stopped) return OC_ECANCELED; /* the caller asked to stop: no more points */
    int rc = point_job(r->lo + k, r->s, &r->progress);
    int stop = oc__progress_add(&r->progress);
    return rc ? rc : stop;
}

int oc_sweep_run(oc_sweep *s, size_t lo, size_t hi, unsigned threads, char *why, size_t whylen) {
    if (lo > hi || hi > s->n)
        return oc__fail(why, whylen, OC_EINVAL, "points %zu .. %zu: the sweep has %zu", lo, hi,
                        s->n);
    sweep_range r = {.s = s, .lo = lo};
    oc__progress_begin(&r.progress, s->base.progress, s->base.progress_ctx, "points", hi - lo);
    const oc_settings *prev = oc__settings_enter(s->base.settings); /* for the pool's workers */
    int rc = oc__pool_run(hi - lo, threads, range_job, &r, NULL);
    oc__settings_leave(prev);
    oc__progress_end(&r.progress);
    if (rc == OC_ECANCELED)
        return oc__fail(why, whylen, rc, "cancelled: the sweep's points stopped");
    return rc ? oc__fail(why, whylen, rc, "out of memory running the sweep's points") : 0;
}

int oc_sweep_first_failure(const oc_sweep *s, size_t *at) {
    for (size_t i = 0; i < s->n; i++)
        if (s->points[i].status == OC_POINT_FAILED) {
            if (at) *at = i;
            return s->points[i].err;
        }
    if (at) *at = s->n;
    return 0;
}

/* ---- a point as bytes: the record, then its texts (CSV, JSON, time, params, why), each with its
 * NUL ---- */

enum { TEXTS = 5 }; /* csv, json, time, params, why */

int oc_sweep_point_pack(const oc_sweep *s, size_t i, char **blob, size_t *len) {
    *blob = NULL;
    *len = 0;
    if (i >= s->n) return OC_EINVAL;
    oc_sweep_point p = s->points[i];
    const char *text[TEXTS] = {p.csv, p.json, p.time, p.params, p.why};
    size_t n[TEXTS], total = sizeof p;
    for (int t = 0; t < TEXTS; t++)
        total += n[t] = strlen(text[t] ? text[t] : "") + 1;
    p.csv = p.json = p.time = p.params = p.why = NULL;
    char *b = malloc(total);
    if (!b) return OC_ENOMEM;
    memcpy(b, &p, sizeof p);
    size_t at = sizeof p;
    for (int t = 0; t < TEXTS; t++) {
        memcpy(b + at, text[t] ? text[t] : "", n[t]);
        at += n[t];
    }
    *blob = b;
    *len = total;
    return 0;
}

int oc_sweep_point_unpack(oc_sweep *s, size_t i, const char *blob, size_t len) {
    oc_sweep_point p;
    if (i >= s->n || !blob || len < sizeof p + TEXTS || blob[len - 1]) return OC_EINVAL;
    memcpy(&p, blob, sizeof p);
    const oc_sweep_point *here = &s->points[i];
    if (p.algorithm != here->algorithm || p.nodes != here->nodes || p.bytes != here->bytes ||
        p.status < OC_POINT_PENDING || p.status > OC_POINT_FAILED)
        return OC_EINVAL;
    /* the five texts, each ended by its NUL, filling the blob to its last byte */
    const char *text[TEXTS], *at = blob + sizeof p, *end = blob + len;
    for (int t = 0; t < TEXTS; t++) {
        const char *nul = at < end ? memchr(at, 0, (size_t)(end - at)) : NULL;
        if (!nul) return OC_EINVAL;
        text[t] = at;
        at = nul + 1;
    }
    if (at != end) return OC_EINVAL;
    /* csv and json only where the point has them; the others once it is not pending */
    int rendered = p.status == OC_POINT_RAN || p.status == OC_POINT_NOT_RUN,
        done = p.status != OC_POINT_PENDING;
    p.csv = rendered ? strdup(text[0]) : NULL;
    p.json = rendered ? strdup(text[1]) : NULL;
    p.time = done ? strdup(text[2]) : NULL;
    p.params = done ? strdup(text[3]) : NULL;
    p.why = done ? strdup(text[4]) : NULL;
    if ((rendered && (!p.csv || !p.json)) || (done && (!p.time || !p.params || !p.why))) {
        point_clear(&p);
        return OC_ENOMEM;
    }
    point_clear(&s->points[i]);
    s->points[i] = p;
    return 0;
}
