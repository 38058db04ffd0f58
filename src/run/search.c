/*
 * search.c — the parameter search: the pipeline's side of the search contract (algos.h).
 *
 * An algorithm with parameters (OpTree's radices, WRHT's m and pieces, H-Ring's g, the radix of
 * rd / rh / rhd, the broadcast's h' ...) offers every parameter set a user could pin, each with a
 * proven lower bound on its mapped cost. Here each offer is kept until the search needs an answer;
 * then the pending offers are mapped best bound first, and one is skipped only when its bound is
 * already worse than a candidate that was mapped. Mapping a candidate is the real thing: the
 * algorithm's plan, its rounds, the network model's mapping and the model's own finish() (so the
 * time is the model's time, with its reconfigurations, serialisation and tuning, not steps times a
 * step). The final run of the winner then verifies and checks resources as every run does.
 *
 * The objective is the model's time (ties: fewer steps) or, on request, its steps (ties: less
 * time); remaining ties go to the candidate offered first, which the algorithms make the simpler
 * choice. Times within a relative 1e-9 count as equal, so that two schedules whose costs differ
 * only in the rounding of a sum tie. A candidate whose schedule would pass SEARCH_TRANSFER_BUDGET
 * transfers is not mapped (the log says so): the search stays seconds, and the contract's
 * optimality holds over what was mapped or pruned by a bound.
 *
 * Everything the search saw goes into the report's search log (`run --explain`, JSON "search").
 */
#include "run/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A candidate whose schedule has more transfers than this is not mapped during a search. */
#define SEARCH_TRANSFER_BUDGET (UINT64_C(1) << 25)
#define SAME_TIME 1e-9

typedef struct searcher {
    oc__search base;
    const oc__algo *algo;
    const oc__model *model;
    const oc_request *req;
    oc__search_log *log;
    size_t mapped_upto; /* entries [0, mapped_upto) are decided; the rest are pending */
    size_t best;        /* index of the best mapped entry, or SIZE_MAX */
    int objective;
    int failed; /* OC_ENOMEM met while mapping */
} searcher;

/* ---- the network's figures ---- */

int oc__net_figures(const oc__model *model, const oc__spec *spec, const oc_kv *net_params,
                    oc__formula_in *in, char *why, size_t len) {
    oc__netrun *net = NULL;
    int rc = model->create(spec, net_params, 0, &net, why, len);
    if (rc) return rc;
    in->channels = model->channels(net);
    in->step_time = model->step_time(net);
    in->network = model->info.name;
    /* the settings the model parsed, typed: what the algorithms read of the network */
    memset(&in->cfg, 0, sizeof in->cfg);
    if (model->config) model->config(net, &in->cfg);
    model->destroy(net);
    /* the same network with an empty payload: what a step costs whatever it carries */
    oc__spec empty = *spec;
    empty.bytes = empty.chunk_bytes = 0;
    empty.block_node = NULL;
    if ((rc = model->create(&empty, net_params, 0, &net, why, len))) return rc;
    in->step_fixed = model->step_time(net);
    in->wavelengths = in->cfg.kind == OC_NETCFG_RING ? in->cfg.ring.wavelengths : in->channels;
    in->lanes = 0;
    in->reconfig_s = 0;
    if (model->circuits) model->circuits(net, &in->lanes, &in->reconfig_s);
    model->destroy(net);
    return 0;
}

/* ---- mapping one candidate ---- */

typedef struct budget_sink {
    oc__sink sink;
    uint64_t transfers;
} budget_sink;

static int budget_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)index;
    budget_sink *b = (budget_sink *)self;
    b->transfers += r->count;
    if (b->transfers > SEARCH_TRANSFER_BUDGET)
        return oc__fail(why, len, OC_ETOOBIG, "more than %llu transfers",
                        (unsigned long long)SEARCH_TRANSFER_BUDGET);
    return 0;
}

/* Plans, generates and maps one candidate without the resource check; the model's steps and
 * time on success. */
static int evaluate(const searcher *s, const oc_kv *params, uint64_t *steps, double *time,
                    char *why, size_t len) {
    const oc_request *req = s->req;
    oc__plan plan = {0}; /* freed on every path, also when plan() refuses before its begin */
    oc__netrun *net = NULL;
    oc_report *scratch = NULL;
    int rc = s->algo->plan(&plan, req->collective, req->nodes, req->root, req->bytes, params, why,
                           len);
    if (rc) goto out;
    rc = s->model->create(&plan.spec, req->net_params, 0, &net, why, len);
    if (rc) goto out;
    budget_sink budget = {.sink = {.round = budget_round}};
    budget.sink.next = s->model->sink(net);
    budget.sink.next->next = NULL;
    oc__emit emit;
    oc__emit_init(&emit, &plan.spec, &budget.sink, why, len);
    rc = s->algo->generate(&plan, &emit);
    oc__emit_free(&emit);
    if (rc) goto out;
    if (!(scratch = oc__report_new())) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = s->model->finish(net, scratch, why, len))) goto out;
    *steps = scratch->steps;
    *time = scratch->time_s;
    /* the unit the model's times are in (the log is the searcher's, not const) */
    memcpy(s->log->time_unit, scratch->time_unit, sizeof s->log->time_unit);
    s->log->time_unit_value = scratch->time_unit_value;
out:
    oc_report_free(scratch);
    if (net) s->model->destroy(net);
    oc__plan_free(s->algo, &plan);
    return rc;
}

/* ---- comparing ---- */

static int same_time(double a, double b) {
    return fabs(a - b) <= SAME_TIME * fmax(fabs(a), fabs(b));
}

/* <0 when mapped entry a beats mapped entry b under the objective. */
static int better(const searcher *s, const oc__search_entry *a, const oc__search_entry *b) {
    int t = same_time(a->time_s, b->time_s) ? 0 : a->time_s < b->time_s ? -1 : 1;
    int st = a->steps == b->steps ? 0 : a->steps < b->steps ? -1 : 1;
    int first = s->objective == OC_OBJECTIVE_STEPS ? st : t;
    int second = s->objective == OC_OBJECTIVE_STEPS ? t : st;
    if (first) return first;
    if (second) return second;
    return a->offered < b->offered ? -1 : 1;
}

/* 1 when nothing bounded by b (offered at `offered`) can beat the best mapped entry. */
static int beaten(const searcher *s, double bound_time, uint64_t bound_steps, size_t offered) {
    if (s->best == SIZE_MAX) return 0;
    const oc__search_entry *best = &s->log->entry[s->best];
    int t = same_time(bound_time, best->time_s) ? 0 : bound_time > best->time_s ? 1 : -1;
    int st = bound_steps > best->steps ? 1 : bound_steps == best->steps ? 0 : -1;
    int first = s->objective == OC_OBJECTIVE_STEPS ? st : t;
    int second = s->objective == OC_OBJECTIVE_STEPS ? t : st;
    if (first > 0) return 1; /* strictly worse on the objective */
    if (first < 0) return 0;
    if (second > 0) return 1; /* equal at best, and worse on the tie-break */
    if (second < 0) return 0;
    return offered > best->offered; /* a full tie goes to the earlier offer */
}

/* ---- the log ---- */

static int log_add(oc__search_log *log, oc__search_entry **out) {
    if (oc__grow((void **)&log->entry, &log->cap, log->n + 1, sizeof *log->entry)) return OC_ENOMEM;
    *out = &log->entry[log->n];
    memset(*out, 0, sizeof **out);
    (*out)->offered = log->n++;
    return 0;
}

static char *params_text(const oc_kv *kv) {
    size_t need = 1;
    for (size_t i = 0; i < oc_kv_count(kv); i++)
        need += strlen(oc_kv_key(kv, i)) + strlen(oc_kv_value(kv, i)) + 2;
    char *t = malloc(need);
    if (!t) return NULL;
    size_t at = 0;
    t[0] = 0;
    for (size_t i = 0; i < oc_kv_count(kv); i++)
        at += (size_t)snprintf(t + at, need - at, "%s%s=%s", i ? " " : "", oc_kv_key(kv, i),
                               oc_kv_value(kv, i));
    return t;
}


/* ---- the oc__search a search() offers to ---- */

static int s_offer(oc__search *base, const oc__bound *bound, const oc_kv *params) {
    searcher *s = (searcher *)base;
    oc__search_entry *e;
    if (log_add(s->log, &e)) return OC_ENOMEM;
    if (oc__kv_copy(params, &e->params)) return OC_ENOMEM;
    if (!(e->text = params_text(params))) return OC_ENOMEM;
    e->status = -1; /* pending */
    if (bound) {
        e->bound_time_s = bound->time_s;
        e->bound_steps = bound->steps;
        e->bound_name = bound->name;
    }
    return 0;
}

/* A pending entry's place in the order of mapping: its bound under the objective, then its
 * order of offer (searches run concurrently in sweeps and reproductions: no shared context). */
typedef struct pending {
    double key;
    size_t index; /* into the log; the order of offer */
} pending;

static int by_bound(const void *pa, const void *pb) {
    const pending *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Maps every pending entry, best bound first, skipping those a mapped one already beats. */
static int flush(searcher *s) {
    oc__search_log *log = s->log;
    size_t npend = log->n - s->mapped_upto;
    if (!npend) return 0;
    pending *order = malloc(npend * sizeof *order);
    if (!order) return OC_ENOMEM;
    for (size_t i = 0; i < npend; i++) {
        const oc__search_entry *e = &log->entry[s->mapped_upto + i];
        order[i].index = s->mapped_upto + i;
        order[i].key =
            s->objective == OC_OBJECTIVE_STEPS ? (double)e->bound_steps : e->bound_time_s;
    }
    qsort(order, npend, sizeof *order, by_bound);
    int rc = 0;
    for (size_t i = 0; i < npend && !rc; i++) {
        oc__search_entry *e = &log->entry[order[i].index];
        if (beaten(s, e->bound_time_s, e->bound_steps, e->offered)) {
            e->status = OC__CAND_PRUNED;
            log->pruned++;
            continue;
        }
        char why[256] = "";
        int erc = evaluate(s, e->params, &e->steps, &e->time_s, why, sizeof why);
        if (erc == OC_ENOMEM) {
            rc = OC_ENOMEM;
            break;
        }
        if (erc) {
            e->status = erc == OC_ETOOBIG && strstr(why, "transfers") ? OC__CAND_OVER
                                                                      : OC__CAND_REFUSED;
            if (e->status == OC__CAND_OVER)
                log->over++;
            else
                log->refused++;
            if (!(e->reason = strdup(why))) rc = OC_ENOMEM;
            continue;
        }
        e->status = OC__CAND_MAPPED;
        log->mapped++;
        if (s->best == SIZE_MAX || better(s, e, &log->entry[s->best]) < 0) s->best = order[i].index;
    }
    free(order);
    s->mapped_upto = log->n;
    return rc;
}

static int s_can_win(oc__search *base, const oc__bound *bound, int *yes) {
    searcher *s = (searcher *)base;
    int rc = flush(s);
    if (rc) return rc;
    *yes = !beaten(s, bound ? bound->time_s : 0, bound ? bound->steps : 0, s->log->n);
    return 0;
}

static int s_prune(oc__search *base, const char *family, const oc__bound *bound, uint64_t count) {
    searcher *s = (searcher *)base;
    int rc = flush(s); /* keep the pending entries' order of decision before the family */
    if (rc) return rc;
    oc__search_entry *e;
    if (log_add(s->log, &e)) return OC_ENOMEM;
    if (!(e->text = strdup(family ? family : "(family)"))) return OC_ENOMEM;
    e->status = OC__CAND_FAMILY;
    e->count = count;
    if (bound) {
        e->bound_time_s = bound->time_s;
        e->bound_steps = bound->steps;
        e->bound_name = bound->name;
    }
    s->log->families++;
    s->mapped_upto = s->log->n;
    return 0;
}

/* The one sentence that says why the winner won. */
static int explain_winner(searcher *s) {
    oc__search_log *log = s->log;
    const oc__search_entry *w = &log->entry[s->best];
    log->winner = s->best;
    log->runner_up = log->n;
    for (size_t i = 0; i < log->n; i++)
        if (i != s->best && log->entry[i].status == OC__CAND_MAPPED &&
            (log->runner_up == log->n || better(s, &log->entry[i], &log->entry[log->runner_up]) < 0))
            log->runner_up = i;
    char tw[32], tr[32], buf[768];
    oc_format_time(tw, sizeof tw, w->time_s, log->time_unit, log->time_unit_value);
    if (log->runner_up == log->n) {
        snprintf(buf, sizeof buf, "%s is the only candidate mapped (%llu steps, %s)", w->text,
                 (unsigned long long)w->steps, tw);
    } else {
        const oc__search_entry *r = &log->entry[log->runner_up];
        oc_format_time(tr, sizeof tr, r->time_s, log->time_unit, log->time_unit_value);
        const char *how;
        if (s->objective == OC_OBJECTIVE_STEPS)
            how = w->steps < r->steps ? "fewest steps" : "as few steps, less time";
        else
            how = !same_time(w->time_s, r->time_s) ? "least time"
                  : w->steps < r->steps            ? "as fast, fewer steps"
                                                   : "as fast, as few steps, offered first (simpler)";
        snprintf(buf, sizeof buf, "%s wins on %s: %llu steps, %s; next best %s: %llu steps, %s",
                 w->text, how, (unsigned long long)w->steps, tw, r->text,
                 (unsigned long long)r->steps, tr);
    }
    return (log->why_won = strdup(buf)) ? 0 : OC_ENOMEM;
}

/* oc__search_in.figures: the search_in sits first in a search_ctx. */
typedef struct search_ctx {
    oc__search_in in;
    const oc__model *model;
    const oc_kv *net_params;
} search_ctx;

static int figures(const oc__search_in *in, oc_collective coll, uint32_t q, oc__formula_in *out,
                   char *why, size_t len) {
    const search_ctx *c = (const search_ctx *)in;
    oc__spec spec;
    int rc = oc__spec_init(&spec, coll, in->nodes, in->root, in->bytes, q, why, len);
    if (!rc) rc = oc__net_figures(c->model, &spec, c->net_params, out, why, len);
    oc__spec_free(&spec);
    return rc;
}

int oc__search_params(const oc__algo *algo, const oc__model *model, const oc_request *req,
                      oc_kv **chosen, oc_report *rep, char *why, size_t len) {
    *chosen = NULL;
    if (!algo->search || !model) return 0;
    oc__spec probe;
    oc__formula_in in;
    int rc = oc__spec_init(&probe, OC_ALLREDUCE, req->nodes, 0, req->bytes, 1, why, len);
    if (rc) return rc;
    rc = oc__net_figures(model, &probe, req->net_params, &in, why, len);
    oc__spec_free(&probe);
    if (rc) return rc;
    searcher s = {.base = {.offer = s_offer, .can_win = s_can_win, .prune = s_prune},
                  .algo = algo,
                  .model = model,
                  .req = req,
                  .best = SIZE_MAX,
                  .objective = req->objective == OC_OBJECTIVE_STEPS ? OC_OBJECTIVE_STEPS
                                                                    : OC_OBJECTIVE_TIME};
    if (!(s.log = calloc(1, sizeof *s.log))) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    s.log->objective = s.objective == OC_OBJECTIVE_STEPS ? "steps" : "time";
    s.log->explain = req->explain;
    const search_ctx ctx = {.in = {.coll = req->collective,
                                   .nodes = req->nodes,
                                   .root = req->root,
                                   .bytes = req->bytes,
                                   .params = req->params,
                                   .net = &in,
                                   .figures = figures},
                            .model = model,
                            .net_params = req->net_params};
    rc = algo->search(&ctx.in, &s.base, why, len);
    if (rc == OC_ENOMEM) rc = oc__fail(why, len, OC_ENOMEM, "out of memory in the parameter search");
    if (rc) goto out;
    if ((rc = flush(&s))) {
        rc = oc__fail(why, len, rc, "out of memory in the parameter search");
        goto out;
    }
    if (s.log->n == 0) goto out; /* nothing to search: the user pinned everything */
    if (s.best == SIZE_MAX) {
        /* name the first refusal: it says what would have been needed */
        const char *first = NULL;
        for (size_t i = 0; i < s.log->n && !first; i++)
            if (s.log->entry[i].reason) first = s.log->entry[i].reason;
        rc = oc__fail(why, len, OC_ENOTSUP,
                      "none of the %zu %s parameter sets for %u nodes could be mapped%s%s",
                      s.log->n, algo->info.name, req->nodes, first ? ": " : "",
                      first ? first : "");
        goto out;
    }
    if ((rc = explain_winner(&s))) goto out;
    oc__search_entry *w = &s.log->entry[s.best];
    if ((rc = oc__kv_copy(w->params, chosen))) goto out;
    rc = oc__report_note(rep,
                         "parameters searched by mapped %s: %llu mapped, %llu pruned by a proven "
                         "bound%s; %s (run --explain lists them)",
                         s.log->objective, (unsigned long long)s.log->mapped,
                         (unsigned long long)(s.log->pruned + s.log->families),
                         s.log->over || s.log->refused ? ", others not mapped" : "",
                         s.log->why_won);
    if (rc) goto out;
    oc__search_log_free(rep->search);
    rep->search = s.log;
    s.log = NULL;
out:
    if (rc == OC_ENOMEM) rc = oc__fail(why, len, OC_ENOMEM, "out of memory in the parameter search");
    if (rc) {
        oc_kv_free(*chosen);
        *chosen = NULL;
    }
    oc__search_log_free(s.log);
    return rc;
}
