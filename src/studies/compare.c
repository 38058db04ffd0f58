/*
 * compare.c — every algorithm of a collective at one point (opticoll.h, "compare"): what
 * `opticoll compare` and the Python package's opticoll.compare both call, so that the two cannot
 * drift apart.
 *
 * A compare is a list of algorithms and a set of pins, each algorithm run once through oc_run
 * (generated, verified, mapped and costed) with the pins that reach it:
 *
 *   the list   every algorithm of the collective in registry order, those made for other networks
 *              included (they are listed as not run, with the reason oc_run gives), or the
 *              caller's names in the caller's order: each an algorithm of the collective that runs
 *              on the network, each named once;
 *   the pins   KEY=VALUE reaches every listed algorithm that takes KEY, ALGO.KEY=VALUE the listed
 *              ALGO alone and wins over a plain KEY; a pin that reaches no algorithm is refused
 *              before anything runs, as a typo must not silently compare the defaults.
 *
 * An algorithm whose restrictions exclude the point (OC_ENOTSUP) or which the library refuses as
 * too big (OC_ETOOBIG) is "not run" with oc_run's reason; any other failure of a run is the
 * compare's failure. The refusals are worded as the command words them (its -a and -p), because
 * the command prints them as they are and the Python package promises the command's lines.
 *
 * The network's settings are parsed once for the compare (net/netset.c) and handed to every
 * run; when they do not parse, each run parses them itself and fails as oc_run would, so that the
 * compare's answer is the one it gave when each run parsed its own. The runs are independent
 * (each its own search, plan, verifier and network; nothing shared but the registries and the
 * parsed settings, which are read only), so they go to the thread pool (core/pool.h) on
 * COMPARE_THREADS threads, each run writing only its own slot: the reports, their order and the
 * error returned (that of the first failing run in list order, whatever finished first) are those
 * of running them one after another. On the ring at N = 4096 two algorithms (rd's search and the
 * one-stage all-gather; rhd's search and SiPCO's) take most of the time, and the two cores take
 * one each.
 */
#include "core/json.h"
#include "core/pool.h"
#include "core/quote.h"
#include "run/pipeline.h"
#include "studies/studies.h"

#include <stdlib.h>
#include <string.h>

/* Runs at a time: the two cores of the machines the project is measured on, as run/batch.c. */
enum { COMPARE_THREADS = 2 };

void oc_compare_result_free(oc_compare_result *r) {
    if (!r) return;
    for (size_t i = 0; i < r->count; i++) {
        oc_report_free(r->runs[i].report);
        free(r->runs[i].reason);
    }
    free(r->runs);
    memset(r, 0, sizeof *r);
}

/* The registry's algorithm of collective c called `name`, or NULL. */
static const oc_algorithm_info *algorithm_of(oc_collective c, const char *name) {
    for (size_t i = 0; name && i < oc_algorithm_count(); i++)
        if (oc_algorithm_at(i)->collective == c && !strcmp(oc_algorithm_at(i)->name, name))
            return oc_algorithm_at(i);
    return NULL;
}

/* The algorithms compared, into res->runs[0 .. res->count) (their reports still NULL). */
static int compare_list(const oc_request *req, const char *const *names, size_t n,
                        oc_compare_result *res, char *why, size_t len) {
    const char *coll = oc_collective_name(req->collective);
    if (names && !n) return oc__fail(why, len, OC_EINVAL, "compare: no algorithm listed");
    res->runs = oc__calloc(names ? n : oc_algorithm_count(), sizeof *res->runs);
    if (!res->runs) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (!names) {
        for (size_t i = 0; i < oc_algorithm_count(); i++)
            if (oc_algorithm_at(i)->collective == req->collective)
                res->runs[res->count++].algorithm = oc_algorithm_at(i);
        if (!res->count)
            return oc__fail(why, len, OC_ENOTSUP, "no %s algorithm runs on %s", coll, req->network);
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        const oc_algorithm_info *x = algorithm_of(req->collective, names[k]);
        if (!x)
            return oc__fail(why, len, OC_ENOENT,
                            "-a: '%s' is not an algorithm of %s (see opticoll list)",
                            OC_Q(names[k] ? names[k] : "(null)"), coll);
        if (!oc_algorithm_runs_on(x, req->network))
            return oc__fail(why, len, OC_EINVAL, "-a: '%s' does not run on %s (see opticoll list)",
                            x->name, OC_Q(req->network));
        for (size_t i = 0; i < res->count; i++)
            if (res->runs[i].algorithm == x)
                return oc__fail(why, len, OC_EINVAL, "-a: '%s' is listed twice", x->name);
        res->runs[res->count++].algorithm = x;
    }
    return 0;
}

/* The algorithm a pin is for: "ALGO.KEY" names ALGO (copied into algo; *key = KEY), a plain KEY
 * none (NULL; *key = the pin). */
static const char *pin_target(const char *pin, const char **key, char *algo, size_t len) {
    const char *dot = strchr(pin, '.');
    *key = pin;
    if (!dot) return NULL;
    snprintf(algo, len, "%.*s", (int)(dot - pin), pin);
    *key = dot + 1;
    return algo;
}

/* Every pin must reach a listed algorithm: KEY one that takes KEY, ALGO.KEY the listed ALGO,
 * which must take KEY. */
static int compare_pins(const oc_compare_result *res, const oc_kv *pins, char *why, size_t len) {
    for (size_t i = 0; i < oc_kv_count(pins); i++) {
        const char *pin = oc_kv_key(pins, i), *key;
        char algo[64];
        const char *target = pin_target(pin, &key, algo, sizeof algo);
        int taken = 0, listed = 0;
        for (size_t k = 0; k < res->count; k++) {
            if (target && strcmp(res->runs[k].algorithm->name, target)) continue;
            listed = 1;
            taken |= oc_algorithm_takes(res->runs[k].algorithm, key);
        }
        if (target && !listed)
            return oc__fail(why, len, OC_ENOENT,
                            "compare -p %s: '%s' is not among the algorithms compared", OC_Q(pin),
                            OC_Q(target));
        if (!taken && target)
            return oc__fail(why, len, OC_ENOENT,
                            "compare -p %s: %s takes no such parameter (see opticoll list)",
                            OC_Q(pin), OC_Q(target));
        if (!taken)
            return oc__fail(why, len, OC_ENOENT,
                            "compare -p %s: no algorithm compared takes it (see opticoll list)",
                            OC_Q(pin));
    }
    return 0;
}

/* The pins for algorithm a: the plain KEY pins it takes, then its own ALGO.KEY pins (which win,
 * oc_kv_set replacing). NULL when memory ran out. */
static oc_kv *pins_for(const oc_kv *pins, const oc_algorithm_info *a) {
    oc_kv *kv = oc_kv_new();
    for (int pass = 0; kv && pass < 2; pass++)
        for (size_t i = 0; i < oc_kv_count(pins); i++) {
            const char *key;
            char algo[64];
            const char *target = pin_target(oc_kv_key(pins, i), &key, algo, sizeof algo);
            if ((pass == 0) != (target == NULL)) continue;
            if (target && strcmp(target, a->name)) continue;
            if (!oc_algorithm_takes(a, key)) continue;
            if (oc_kv_set(kv, key, oc_kv_value(pins, i))) {
                oc_kv_free(kv);
                return NULL;
            }
        }
    return kv;
}

/* Runs res->runs[k]'s algorithm with its pins. A restriction or a refusal as too big leaves the
 * report NULL and the reason in the run; anything else is the compare's error, with oc_run's
 * reason in `why`. */
static int compare_one(const oc_request *base, const oc__netset *net, const oc_kv *pins,
                       oc_compare_run *run, char *why, size_t len) {
    oc_request req = *base;
    oc_kv *kv = pins_for(pins, run->algorithm);
    if (!kv) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    req.algorithm = run->algorithm->name;
    req.params = kv;
    char reason[OC__REASON_LEN] = "";
    int err = oc__run_parsed(&req, net, &run->report, reason, sizeof reason);
    oc_kv_free(kv);
    if (err && err != OC_ENOTSUP && err != OC_ETOOBIG) {
        run->report = NULL;
        snprintf(why, len, "%s", reason);
        return err;
    }
    if (err) run->report = NULL;
    if (!(run->reason = strdup(err ? reason : "")))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

/* The pool's view of a compare: run k's reason for failing goes to why[k * WHY_LEN]. */
enum { WHY_LEN = 1024 };
typedef struct compare_jobs {
    const oc_request *req;
    const oc__netset *net; /* the settings parsed once; NULL: each run parses (and refuses) them */
    const oc_kv *pins;
    oc_compare_run *runs;
    char *why;
} compare_jobs;

static int compare_job(size_t k, void *ctx) {
    compare_jobs *j = ctx;
    return compare_one(j->req, j->net, j->pins, &j->runs[k], j->why + k * WHY_LEN, WHY_LEN);
}

static int compare_in(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
                      const oc_kv *pins, oc_compare_result *out, char *why, size_t whylen) {
    if (!out) return oc__fail(why, whylen, OC_EINVAL, "compare: no result to fill");
    memset(out, 0, sizeof *out);
    if (!req || !req->network)
        return oc__fail(why, whylen, OC_EINVAL, "compare needs a request with a network");
    if ((unsigned)req->collective >= OC_COLLECTIVE_COUNT)
        return oc__fail(why, whylen, OC_EINVAL, "compare: unknown collective");
    oc_compare_result res;
    memset(&res, 0, sizeof res);
    int rc;
    if ((rc = compare_list(req, algorithms, nalgorithms, &res, why, whylen)) ||
        (rc = compare_pins(&res, pins, why, whylen)))
        goto fail;
    compare_jobs jobs = {.req = req, .pins = pins, .runs = res.runs};
    const oc__model *model = oc__model_find(req->network);
    oc__netset net;
    char ignored[8];
    if (model &&
        !oc__netset_parse(model, req->net_params, req->nodes, &net, ignored, sizeof ignored))
        jobs.net = &net;
    if (!(jobs.why = oc__calloc(res.count, WHY_LEN))) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto fail;
    }
    size_t failed = res.count;
    rc = oc__pool_run(res.count, COMPARE_THREADS, compare_job, &jobs, &failed);
    if (rc && failed < res.count)
        snprintf(why, whylen, "%s", jobs.why + failed * WHY_LEN);
    else if (rc) /* the pool could not start (its lock) */
        rc = oc__fail(why, whylen, rc, "compare: %s", oc_strerror(rc));
    free(jobs.why);
    if (rc) goto fail;
    /* The runs first, then the algorithms not run, each in the list's order: a stable partition. */
    for (size_t i = 0; i < res.count; i++)
        if (res.runs[i].report) {
            oc_compare_run t = res.runs[i];
            memmove(&res.runs[res.nrun + 1], &res.runs[res.nrun],
                    (i - res.nrun) * sizeof *res.runs);
            res.runs[res.nrun++] = t;
        }
    *out = res;
    return 0;
fail:
    oc_compare_result_free(&res);
    return rc;
}

int oc_compare(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
               const oc_kv *pins, oc_compare_result *out, char *why, size_t whylen) {
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, whylen);
    if (!rc) rc = compare_in(req, algorithms, nalgorithms, pins, out, why, whylen);
    oc__settings_leave(prev);
    return rc;
}

int oc_compare_write_json(const oc_compare_result *r, FILE *f) {
    /* One array, an element a line: the reports, then {"algorithm", "not_run"} for the others. */
    int err = fputs("[", f) == EOF ? OC_EIO : 0;
    for (size_t k = 0; k < r->count && !err; k++) {
        if (k && fputs(",", f) == EOF) {
            err = OC_EIO;
        } else if (k < r->nrun) {
            err = oc_report_write_json(r->runs[k].report, f);
        } else {
            cJSON *x = cJSON_CreateObject();
            if (!oc__json_str(x, "algorithm", r->runs[k].algorithm->name) ||
                !oc__json_str(x, "not_run", r->runs[k].reason)) {
                cJSON_Delete(x);
                x = NULL; /* oc__json_write: out of memory */
            }
            err = oc__json_write(f, x, OC__JSON_SPACED, "\n");
        }
    }
    if (!err && fputs("]\n", f) == EOF) err = OC_EIO;
    return err;
}
