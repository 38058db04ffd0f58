/*
 * pipeline.c — spec -> algorithm -> schedule -> (semantic verifier, real-data run, network model)
 * -> report. This is the one place that wires the parts together; see ARCHITECTURE.md.
 *
 * Verification is on by default and a failure is an error, not a flag: oc_run returns a report
 * only when the semantic verifier and the network model's resource check both passed. The
 * real-data run is added when its state fits in OC_DATA_BUDGET bytes (it does for every test size;
 * the report says when it was skipped and why): the N x C state, or for a schedule with the ring's
 * rotation symmetry node 0's C chunks alone (verify/data.c, which says when it had to stop).
 *
 * Parameter searches (OpTree's radices) are decided before the plan, by search.c, under the search
 * contract: the default is the optimum of the mapped cost over everything the user could pin.
 */
#include "run/pipeline.h"
#include "core/progress.h"
#include "core/quote.h"
#include "run/shard.h"
#include "run/watch.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OC_DATA_BUDGET (UINT64_C(64) << 20)

static int resolve(oc_collective coll, const char *algorithm, const char *network,
                const oc__algo **algo, const oc__model **model, char *why, size_t len) {
    *algo = oc__algo_find(coll, algorithm);
    if (!*algo) {
        char names[256] = "";
        for (size_t i = 0; i < oc__algo_count(); i++) {
            const oc__algo *a = oc__algo_at(i);
            if (a->info.collective != coll) continue;
            if (*names) strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, a->info.name, sizeof names - strlen(names) - 1);
        }
        return oc__fail(why, len, OC_ENOENT, "unknown %s algorithm '%s' (known: %s)",
                        oc_collective_name(coll), OC_Q(algorithm), *names ? names : "none yet");
    }
    *model = NULL;
    if (network) {
        *model = oc__model_find(network);
        if (!*model) {
            char names[128] = "";
            for (size_t i = 0; i < oc_network_count(); i++) {
                if (*names) strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, oc_network_at(i)->name, sizeof names - strlen(names) - 1);
            }
            return oc__fail(why, len, OC_ENOENT, "unknown network '%s' (known: %s)", OC_Q(network),
                            names);
        }
        if (!oc__algo_supports(*algo, network))
            return oc__fail(why, len, OC_ENOTSUP, "%s %s runs on %s, not on %s",
                            oc_collective_name(coll), algorithm, (*algo)->info.networks, network);
    }
    return 0;
}

/* Replays the file's rounds through the emitter as they are: the emitter's own range checks are
 * bypassed so that the verifier, not the emitter, names what is wrong with a file. */
int oc__source_store(void *arg, oc__emit *e) {
    const oc__store_source *s = arg;
    for (size_t i = 0; i < s->store->count; i++) {
        const oc__round *r = &s->store->rounds[i];
        for (size_t k = 0; k < r->count; k++) {
            const oc__transfer *t = &r->xfers[k];
            if (oc__round_push(&e->cur, t->src, t->dst, (oc__op)t->op, t->first, t->count))
                return oc__fail(e->why, e->whylen, OC_ENOMEM, "out of memory");
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

/* ---- the checked run ---- */

/* oc__run_schedule with a watch (NULL: none) on a network whose settings are parsed (NULL: no
 * network): the one checked run every entry below comes to. */
static int run_schedule_watched(const oc__spec *spec, oc__source source, void *source_arg,
                                const oc__netset *net, int data_check, oc__sink *extra,
                                oc__watch *watch, oc_report *rep, char *why, size_t len);

/* The settings of an entry that names its network by model and parameters, parsed once for its
 * run: *net is `set` filled, or NULL without a model. */
static int parse_for(const oc__model *model, const oc_kv *net_params, uint32_t nodes,
                     oc__netset *set, const oc__netset **net, char *why, size_t len) {
    *net = NULL;
    if (!model) return 0;
    int rc = oc__netset_parse(model, net_params, nodes, set, why, len);
    if (!rc) *net = set;
    return rc;
}

int oc__run_schedule(const oc__spec *spec, oc__source source, void *source_arg,
                     const oc__model *model, const oc_kv *net_params, int data_check,
                     oc__sink *extra, oc_report *rep, char *why, size_t len) {
    oc__netset set;
    const oc__netset *net;
    int rc = parse_for(model, net_params, spec->nodes, &set, &net, why, len);
    return rc ? rc
              : run_schedule_watched(spec, source, source_arg, net, data_check, extra, NULL, rep,
                                     why, len);
}

/* Appends sink k to the chain (*head, *tail). */
static void chain_add(oc__sink **head, oc__sink **tail, oc__sink *k) {
    if (!k) return;
    if (*tail)
        (*tail)->next = k;
    else
        *head = k;
    *tail = k;
    while ((*tail)->next) /* an exporter's sinks may come chained */
        *tail = (*tail)->next;
}

/* One checked run under the shard plan; *grew is set when a one-pass verifier of a reduction
 * outgrew its share of the budget (contributions that fragment), so that the caller can shard. */
static int run_planned(const oc__spec *spec, oc__source source, void *source_arg,
                       const oc__netset *netset, int data_check, oc__sink *extra, oc__watch *watch,
                       const oc__shard_plan *shard, oc_report *rep, int *grew, char *why,
                       size_t len) {
    const oc__model *model = netset ? netset->model : NULL;
    oc__verifier *ver = NULL;
    oc__datacheck *data = NULL;
    oc__netrun *net = NULL;
    oc__emit emit;
    oc__emit_init(&emit, spec, NULL, why, len);
    oc__sink *head = NULL, *tail = NULL;
    int rc = 0;
    *grew = 0;
    if (!shard->separate) {
        /* a reduction's one pass keeps to a shard's size, and is sharded if it outgrows it;
         * one in the orbit state (verify.c) to the share the plan counted it in */
        const uint64_t share = !oc_collective_reduces(spec->coll)            ? oc__memory_budget()
                               : oc__verifier_orbit_fits(spec, shard->share) ? shard->share
                                                                             : shard->target;
        if ((rc = oc__verifier_new_window(spec, 0, spec->chunks, share, &ver, why, len))) goto out;
        oc__sink *v = oc__verifier_sink(ver);
        v->next = NULL;
        chain_add(&head, &tail, v);
    }
    if (data_check) {
        rc = oc__datacheck_new(spec, OC_DATA_BUDGET, &data, why, len);
        if (rc) goto out;
        if (data) {
            oc__sink *d = oc__datacheck_sink(data);
            d->next = NULL;
            chain_add(&head, &tail, d);
        } else {
            snprintf(rep->data_note, sizeof rep->data_note,
                     "skipped: the real-data state of %u nodes x %u chunks is above %llu MiB",
                     spec->nodes, spec->chunks, (unsigned long long)(OC_DATA_BUDGET >> 20));
        }
    } else {
        snprintf(rep->data_note, sizeof rep->data_note, "skipped: turned off");
    }
    if (model) {
        rc = oc__net_create(netset, spec, 1, &net, why, len);
        if (rc) goto out;
        if (watch && (rc = watch->attach(watch, model, net, why, len))) goto out;
        oc__sink *m = model->sink(net);
        m->next = NULL;
        chain_add(&head, &tail, m);
    }
    chain_add(&head, &tail, extra);
    if (ver) {
        emit.sinks = head;
        if ((rc = source(source_arg, &emit))) {
            *grew = rc == OC_ETOOBIG && oc__verifier_key(ver).phase == OC__VK_BUDGET &&
                    oc_collective_reduces(spec->coll) && spec->chunks > 1;
            goto out;
        }
        if ((rc = oc__verifier_finish(ver, why, len))) goto out;
        rep->rounds = emit.rounds;
        rep->transfers = emit.transfers;
        rep->units = emit.units;
        rep->redundant = oc__verifier_redundant(ver);
    } else {
        oc__shard_out so;
        if ((rc = oc__verify_sharded(spec, source, source_arg, shard, head, &so, why, len)))
            goto out;
        rep->rounds = so.rounds;
        rep->transfers = so.transfers;
        rep->units = so.units;
        rep->redundant = so.redundant;
    }
    if (data && (rc = oc__datacheck_finish(data, why, len))) goto out;
    /* a check that ran in the orbit state alone may have had to stop (data.c): no verdict */
    const char *data_skipped = data ? oc__datacheck_skipped(data) : NULL;
    if (data_skipped) snprintf(rep->data_note, sizeof rep->data_note, "%s", data_skipped);
    rep->data_checked = data != NULL && !data_skipped;
    rep->nodes = spec->nodes;
    rep->root = spec->root;
    rep->bytes = spec->bytes;
    rep->q = spec->q;
    rep->chunks = spec->chunks;
    rep->chunk_bytes = spec->chunk_bytes;
    snprintf(rep->collective, sizeof rep->collective, "%s", oc_collective_name(spec->coll));
    if (model) {
        snprintf(rep->network, sizeof rep->network, "%s", model->info.name);
        if ((rc = model->finish(net, rep, why, len))) goto out;
        if (watch && (rc = watch->finish(watch, rep, why, len))) goto out;
    }
    rep->verified = 1;
out:
    if (net) model->destroy(net);
    oc__datacheck_free(data);
    oc__verifier_free(ver);
    oc__emit_free(&emit);
    return rc;
}

static int run_schedule_watched(const oc__spec *spec, oc__source source, void *source_arg,
                                const oc__netset *net, int data_check, oc__sink *extra,
                                oc__watch *watch, oc_report *rep, char *why, size_t len) {
    /* Sharded or not is decided first: a run that cannot fit is refused before any work. */
    oc__shard_plan shard;
    int grew = 0, rc = oc__shard_plan_for(spec, &shard, why, len);
    if (!rc)
        rc = run_planned(spec, source, source_arg, net, data_check, extra, watch, &shard, rep,
                         &grew, why, len);
    if (grew) {
        /* The estimate (two intervals a cell) was low: run again in two shards, which halve
         * themselves again as often as their state needs. */
        shard.shards = 2;
        shard.separate = 1;
        shard.width = (uint32_t)oc__ceil_div(spec->chunks, 2);
        rc = run_planned(spec, source, source_arg, net, data_check, extra, watch, &shard, rep,
                         &grew, why, len);
    }
    return rc;
}

/* ---- generating from an algorithm ---- */

static int from_algo(void *arg, oc__emit *e) {
    oc__algo_source *s = arg;
    return s->algo->generate(s->plan, e);
}

/* A counted source (oc_run's: the algorithm's rounds; a schedule file's: its stored rounds): the
 * rounds `source` emits, counted for the progress report by a sink first in the chain (it sees
 * every round). */
typedef struct progress_source {
    oc__source source;
    void *arg;
    oc__progress progress;
} progress_source;

typedef struct progress_sink {
    oc__sink sink;
    oc__progress *progress;
} progress_sink;

static int progress_round(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                          size_t len) {
    (void)r;
    oc__progress *p = ((progress_sink *)self)->progress;
    /* One count a run: a run begun again (a one-pass verifier that outgrew its share, run again
     * in shards) goes over rounds it already counted, and the count waits until it is past them
     * rather than going back. */
    if (oc__progress_at(p, index + 1 > p->done ? index + 1 : p->done, 0))
        return oc__fail(why, len, OC_ECANCELED, "cancelled after %llu rounds",
                        (unsigned long long)(index + 1));
    return 0;
}

/* A shard's rounds: not counted, but the caller's request to stop is honoured there too. */
static int stop_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)r;
    if (((progress_sink *)self)->progress->stopped)
        return oc__fail(why, len, OC_ECANCELED, "cancelled after %llu rounds of a shard",
                        (unsigned long long)(index + 1));
    return 0;
}

static int from_source_counted(void *arg, oc__emit *e) {
    progress_source *s = arg;
    /* A sharded run generates the rounds once in the cost pass and once more per verifier shard
     * (on other threads; a single shard over every chunk is not windowed but is a shard all the
     * same): only the cost pass is counted, or two threads would move one count back and forth. */
    if (!s->progress.fn) return s->source(s->arg, e);
    progress_sink ps = {
        .sink = {.round = e->shard_pass ? stop_round : progress_round,
                 .next = e->sinks,
                 .takes_family = 1}, /* reads the index alone */
        .progress = &s->progress};
    e->sinks = &ps.sink;
    int rc = s->source(s->arg, e);
    e->sinks = ps.sink.next;
    return rc;
}

/* oc__run_schedule_reported on a network whose settings are parsed (NULL: no network). */
static int run_reported(const oc__spec *spec, oc__source source, void *source_arg, uint64_t rounds,
                        const oc__netset *net, int data_check, oc__sink *extra, oc__watch *watch,
                        oc_progress_fn progress, void *progress_ctx, oc_report *rep, char *why,
                        size_t len) {
    progress_source src = {.source = source, .arg = source_arg};
    /* A word ahead of long work (OC_PROGRESS_AHEAD), once the run is known to pass its budgets:
     * a run refused says so, not that it would be long. */
    oc__shard_plan ahead;
    char scratch[256];
    if (progress && !oc__shard_plan_for(spec, &ahead, scratch, sizeof scratch))
        oc__work_ahead(spec, ahead.separate ? 2 : 1, progress, progress_ctx);
    oc__progress_begin(&src.progress, progress, progress_ctx, "rounds", rounds);
    oc__set_shard_progress(progress, progress_ctx); /* the shards report as well */
    /* the loops inside a round poll the rounds' progress too (a round of millions of transfers) */
    oc__progress *const watched = oc__stop_watch(&src.progress);
    int rc = run_schedule_watched(spec, from_source_counted, &src, net, data_check, extra, watch,
                                  rep, why, len);
    oc__stop_watch(watched);
    oc__set_shard_progress(NULL, NULL);
    oc__progress_end(&src.progress);
    return rc;
}

int oc__run_schedule_reported(const oc__spec *spec, oc__source source, void *source_arg,
                              uint64_t rounds, const oc__model *model, const oc_kv *net_params,
                              int data_check, oc__sink *extra, oc__watch *watch,
                              oc_progress_fn progress, void *progress_ctx, oc_report *rep,
                              char *why, size_t len) {
    oc__netset set;
    const oc__netset *net;
    int rc = parse_for(model, net_params, spec->nodes, &set, &net, why, len);
    return rc ? rc
              : run_reported(spec, source, source_arg, rounds, net, data_check, extra, watch,
                             progress, progress_ctx, rep, why, len);
}

/* The checked run of a planned request, its rounds and its verifier's shards reported to the
 * request's progress callback (oc_request.progress): what oc_run and every exporter
 * (oc__export_check) run, so that an export of a large schedule shows the same progress line and
 * the same word ahead of long work as a run of it. */
static int run_counted(const oc_request *req, const oc__algo *algo, const oc__plan *plan,
                       const oc__netset *net, oc__sink *extra, oc__watch *watch, oc_report *rep,
                       char *why, size_t len) {
    oc__algo_source src = {algo, plan};
    return run_reported(&plan->spec, from_algo, &src, plan->rounds, net, !req->skip_data_check,
                        extra, watch, req->progress, req->progress_ctx, rep, why, len);
}

/* A request's network settings, parsed the first time its run needs them: before the parameter
 * search when the algorithm searches, else after the plan, where the model's first creation
 * read them before they were parsed once (so a bad setting is named after the same checks as
 * before). `given`: parsed by the caller for many runs (a compare), used as it is. */
typedef struct request_net {
    const oc__netset *given;
    oc__netset set;
    const oc__netset *net; /* NULL until parsed, and without a model */
} request_net;

static int request_net_get(const oc_request *req, const oc__model *model, request_net *rn,
                           char *why, size_t len) {
    if (rn->net || !model) return 0;
    if (rn->given) {
        rn->net = rn->given;
        return 0;
    }
    return parse_for(model, req->net_params, req->nodes, &rn->set, &rn->net, why, len);
}

/* The search, then the plan, of a resolved request (oc__run_request's and oc__plan_request's):
 * the network's settings parsed into rn for the search when it needs them. */
static int search_and_plan(const oc_request *req, const oc__algo *algo, const oc__model *model,
                           request_net *rn, oc__search_defer **defer, oc__plan *plan,
                           oc_report *rep, char *why, size_t len) {
    oc_kv *chosen = NULL, *params = NULL;
    int rc = oc__algo_node_cap(algo, req->collective, req->nodes, req->root, req->bytes,
                               req->params, why, len);
    if (!rc) rc = oc__work_floor_check(req->collective, req->nodes, why, len);
    if (!rc && algo->search) rc = request_net_get(req, model, rn, why, len);
    if (!rc) rc = oc__search_params_deferred(algo, rn->net, req, &chosen, defer, rep, why, len);
    if (!rc && oc__kv_copy(chosen ? chosen : req->params, &params))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (!rc)
        rc = algo->plan(plan, req->collective, req->nodes, req->root, req->bytes, params, why, len);
    oc_kv_free(chosen);
    oc_kv_free(params);
    return rc;
}

/* oc_run with a watch on the final, checked run (NULL: none), on the network settings `given`
 * parsed by the caller (NULL: parsed here, once). */
static int run_request(const oc_request *req, const oc__netset *given, oc__watch *watch,
                       oc_report **out, char *why, size_t len) {
    *out = NULL;
    if (!req) return oc__fail(why, len, OC_EINVAL, "no request");
    const oc__algo *algo;
    const oc__model *model;
    int rc = resolve(req->collective, req->algorithm, req->network, &algo, &model, why, len);
    if (rc) return rc;
    if (algo->param_names &&
        (rc = oc__kv_only(req->params, algo->param_names, algo->info.name, why, len)))
        return rc;
    oc_report *rep = oc__report_new();
    if (!rep) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    request_net rn = {.given = given};
    oc__search_defer *defer = NULL; /* the search's lone candidate, settled by this run */
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    /* A plan first, so that bad input is refused before any search. */
    if (req->nodes < 1) {
        rc = oc__fail(why, len, OC_EINVAL, "the number of nodes must be at least 1");
        goto fail;
    }
    if ((rc = search_and_plan(req, algo, model, &rn, watch ? NULL : &defer, &plan, rep, why, len)))
        goto fail;
    if (watch && !model) {
        rc = oc__fail(why, len, OC_EINVAL, "%s needs a network (-t)", watch->what);
        goto fail;
    }
    if ((rc = request_net_get(req, model, &rn, why, len))) goto fail;
    rc = run_counted(req, algo, &plan, rn.net, defer ? oc__search_defer_sink(defer) : NULL,
                     defer ? oc__search_defer_watch(defer) : watch, rep, why, len);
    if (!rc && defer) rc = oc__search_defer_settle(defer, rep, why, len);
    /* A network refusing the schedule (a message too far for store-and-forward) usually means
     * the algorithm's dims are not the network's: name the algorithm's next to the network's. */
    const char *pd = oc_kv_get(plan.used, "dims");
    if (rc == OC_ENOTSUP && pd && why && strlen(why) < len)
        snprintf(why + strlen(why), len - strlen(why), "; the schedule was planned for -p dims=%s",
                 pd);
    if (rc) goto fail;
    snprintf(rep->algorithm, sizeof rep->algorithm, "%s", algo->info.name);
    for (size_t i = 0; i < oc_kv_count(plan.used); i++)
        if ((rc = oc_kv_set(rep->params, oc_kv_key(plan.used, i), oc_kv_value(plan.used, i))))
            goto fail;
    if (model && (rc = oc__pbound_report(req, rn.net, rep, why, len))) goto fail;
    if (model && algo->formula) {
        oc__formula_in in;
        if ((rc = oc__net_figures(rn.net, &plan.spec, &in, why, len))) goto fail;
        rc = algo->formula(&plan, &in, rep);
        if (rc) {
            rc = oc__fail(why, len, rc, "out of memory");
            goto fail;
        }
    }
    oc__search_defer_free(defer);
    oc__plan_free(algo, &plan);
    *out = rep;
    return 0;
fail:
    oc__search_defer_free(defer);
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
    return rc;
}

int oc__run_request(const oc_request *req, oc__watch *watch, oc_report **out, char *why,
                    size_t len) {
    return run_request(req, NULL, watch, out, why, len);
}

static int run_in(const oc_request *req, const oc__netset *net, oc_report **out, char *why,
                  size_t len) {
    if (out) *out = NULL;
    if (!req) return oc__fail(why, len, OC_EINVAL, "no request");
    if (!req->links) return run_request(req, net, NULL, out, why, len);
    oc__links *links = oc__links_new();
    if (!links) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    int rc = run_request(req, net, oc__links_watch(links), out, why, len);
    oc__links_free(links);
    return rc;
}

int oc__run_parsed(const oc_request *req, const oc__netset *net, oc_report **out, char *why,
                   size_t len) {
    if (out) *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(req ? req->settings : NULL, &prev, why, len);
    if (!rc) rc = run_in(req, net, out, why, len);
    oc__settings_leave(prev);
    return rc;
}

int oc_run(const oc_request *req, oc_report **out, char *why, size_t len) {
    return oc__run_parsed(req, NULL, out, why, len);
}

/* ---- planning for exporters: the same search and plan as oc_run ---- */

/* oc__plan_request into an export's parsed settings (NULL: parsed and dropped). */
static int plan_request(const oc_request *req, const oc__algo **algo, const oc__model **model,
                        request_net *rn, oc__plan *plan, oc_report *rep, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    int rc = resolve(req->collective, req->algorithm, req->network, algo, model, why, len);
    if (rc) return rc;
    if ((*algo)->param_names &&
        (rc = oc__kv_only(req->params, (*algo)->param_names, (*algo)->info.name, why, len)))
        return rc;
    return search_and_plan(req, *algo, *model, rn, NULL, plan, rep, why, len);
}

int oc__plan_request(const oc_request *req, const oc__algo **algo, const oc__model **model,
                     oc__plan *plan, oc_report *rep, char *why, size_t len) {
    request_net rn = {0};
    return plan_request(req, algo, model, &rn, plan, rep, why, len);
}

int oc__generate(const oc__algo *algo, const oc__plan *plan, oc__sink *sinks, char *why,
                 size_t len) {
    oc__emit emit;
    oc__emit_init(&emit, &plan->spec, sinks, why, len);
    int rc = algo->generate(plan, &emit);
    oc__emit_free(&emit);
    return rc;
}

int oc__source_algo(void *arg, oc__emit *e) {
    return from_algo(arg, e);
}

int oc__export_begin(const oc_request *req, oc__export *x, char *why, size_t len) {
    memset(x, 0, sizeof *x);
    if (!(x->rep = oc__report_new())) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    request_net rn = {0};
    int rc = plan_request(req, &x->algo, &x->model, &rn, &x->plan, x->rep, why, len);
    if (rn.net) { /* the search parsed them: the check reads the same */
        x->net = *rn.net;
        x->parsed = 1;
    }
    return rc;
}

int oc__export_check(const oc_request *req, oc__export *x, oc__sink *extra, oc__watch *watch,
                     char *why, size_t len) {
    request_net rn = {.given = x->parsed ? &x->net : NULL};
    int rc = request_net_get(req, x->model, &rn, why, len);
    return rc ? rc : run_counted(req, x->algo, &x->plan, rn.net, extra, watch, x->rep, why, len);
}

void oc__export_end(oc__export *x) {
    oc__plan_free(x->algo, &x->plan);
    oc_report_free(x->rep);
    memset(x, 0, sizeof *x);
}
