/*
 * pipeline.h — the wiring of spec, algorithm, verifier, model and report (pipeline.c), shared by
 * oc_run, the schedule exporters and the schedule-file verifier.
 */
#ifndef OC_PIPELINE_H
#define OC_PIPELINE_H

#include "algo/algos.h"
#include "core/core.h"
#include "net/net.h"
#include "core/result.h"
#include "bounds/bounds.h"

/* Something that emits a schedule: an algorithm's plan, or a stored schedule read from a file. */
typedef int (*oc__source)(void *arg, oc__emit *e);

typedef struct oc__algo_source {
    const oc__algo *algo;
    const oc__plan *plan;
} oc__algo_source;

/* oc__source for an oc__algo_source. */
int oc__source_algo(void *arg, oc__emit *e);

/* Verifies (symbolically, with real data when it fits and data_check is set) and maps (when model
 * is not NULL) the schedule `source` emits, then fills rep. In one pass `extra` sinks see every
 * round after the checks of that round passed; when verification runs in passes of its own
 * (run/shard.c: large runs, reductions in chunk shards) they see the rounds in the cost pass,
 * before the shards have verified them, and only a return of 0 says the whole schedule passed.
 * `source` may be run several times, on several threads at once (one run per pass). */
int oc__run_schedule(const oc__spec *spec, oc__source source, void *source_arg,
                     const oc__model *model, const oc_kv *net_params, int data_check,
                     oc__sink *extra, oc_report *rep, char *why, size_t len);

/* Resolves, searches parameters like oc_run, and plans; the caller frees the plan. */
int oc__plan_request(const oc_request *req, const oc__algo **algo, const oc__model **model,
                     oc__plan *plan, oc_report *rep, char *why, size_t len);
/* oc_run (settings, links) on a network whose settings the caller parsed once for many runs
 * (a compare: one parse for all its algorithms); net NULL: the run parses its own. */
int oc__run_parsed(const oc_request *req, const oc__netset *net, oc_report **out, char *why,
                   size_t len);
/* What every schedule exporter holds (formats/: schedule JSON, MSCCL XML, the Chrome timeline,
 * Chakra): the request resolved, its parameters searched and its plan made, and the report of
 * the run. oc__export_begin fills it (a new report, then oc__plan_request into it);
 * oc__export_check verifies and maps the plan's rounds into x->rep (oc__run_schedule with a watch,
 * `extra` sinks and `watch` seeing them, either may be NULL), so that nothing is written unless
 * the schedule passed; oc__export_end frees it, whatever happened since begin. */
typedef struct oc__export {
    const oc__algo *algo; /* NULL until resolved */
    const oc__model *model;
    oc__netset net; /* the model's settings, parsed once for the search and the check */
    int parsed;     /* net is filled */
    oc__plan plan;
    oc_report *rep;
} oc__export;
int oc__export_begin(const oc_request *req, oc__export *x, char *why, size_t len);
struct oc__watch; /* run/watch.h, which includes this header */
int oc__export_check(const oc_request *req, oc__export *x, oc__sink *extra,
                     struct oc__watch *watch, char *why, size_t len);
void oc__export_end(oc__export *x);

/* oc__run_schedule with a watch (NULL: none; run/watch.h) and extra sinks (NULL: none), telling `progress` (NULL: none) of
 * the rounds ("rounds", `rounds` of them when known ahead, else 0) and hearing its stop inside
 * them (oc__stop_watch, the shards too): what oc_run and a schedule file's check (src/formats)
 * share. */
int oc__run_schedule_reported(const oc__spec *spec, oc__source source, void *source_arg,
                              uint64_t rounds, const oc__model *model, const oc_kv *net_params,
                              int data_check, oc__sink *extra, struct oc__watch *watch,
                              oc_progress_fn progress, void *progress_ctx, oc_report *rep,
                              char *why, size_t len);

/* oc__source for a stored schedule (a file read back): its rounds as they are, without the
 * emitter's range checks, so that the verifier names what is wrong. */
typedef struct oc__store_source {
    const oc__store *store;
} oc__store_source;
int oc__source_store(void *arg, oc__emit *e);

/* Fills rep's physical bound for the request on the network `net` (its settings parsed) when
 * the model has one; a model with nothing typed leaves it absent. Other failures are returned. */
int oc__pbound_report(const oc_request *req, const oc__netset *net, oc_report *rep, char *why,
                      size_t len);

/* The network figures the closed forms and the search's bounds use, for a spec, and the settings
 * the model parsed, typed (in->cfg): all an algorithm learns of the network (search.c). */
int oc__net_figures(const oc__netset *net, const oc__spec *spec, oc__formula_in *in, char *why,
                    size_t len);

/* Runs the algorithm's parameter search (search.c), if it has one and there is a network (net,
 * its settings parsed; NULL: none): *chosen is the winning parameter set (NULL when nothing was
 * searched), and rep->search its log. */
int oc__search_params(const oc__algo *algo, const oc__netset *net, const oc_request *req,
                      oc_kv **chosen, oc_report *rep, char *why, size_t len);

/* oc__search_params for a caller that runs the winner at once, checked, with no watch of its
 * own (oc_run): where the search ends with one candidate mapped and nothing compared with it,
 * it is not mapped by the search (*defer is set, the report has no search note or log yet); the
 * caller runs *chosen with oc__search_defer_watch(*defer) as the run's watch and
 * oc__search_defer_sink(*defer) as its extra sink, then oc__search_defer_settle fills the log
 * and the note from that run, exactly as the search would have (search.c, the essay), and
 * oc__search_defer_free frees it (also on failure). *defer stays NULL otherwise. */
typedef struct oc__search_defer oc__search_defer;
int oc__search_params_deferred(const oc__algo *algo, const oc__netset *net,
                               const oc_request *req, oc_kv **chosen, oc__search_defer **defer,
                               oc_report *rep, char *why, size_t len);
struct oc__watch *oc__search_defer_watch(oc__search_defer *d);
oc__sink *oc__search_defer_sink(oc__search_defer *d);
int oc__search_defer_settle(oc__search_defer *d, oc_report *rep, char *why, size_t len);
void oc__search_defer_free(oc__search_defer *d);

/* The test of the round cache (test_search_cache): the same search and the same decisions, but on
 * an additive model every candidate offered one by one (mapped or pruned) is costed from the cache
 * and mapped whole, and a difference in steps or time (beyond a relative 1e-12) fails with
 * OC_EINVAL naming the candidate. *checked: the candidates compared. The log's pruned entries
 * carry their mapped costs too (0 when they could not be mapped). */
int oc__search_check_cache(const oc__algo *algo, const oc__model *model, const oc_request *req,
                           uint64_t *checked, oc_kv **chosen, oc_report *rep, char *why,
                           size_t len);

/* The test of the round cache's memo (test_search_memo): oc__search_check_cache with the cache
 * held to cache_bytes of transfers (the default is an eighth of the memory budget), so that small
 * cases fill it and the rounds it has no room for go through the memo; *memo_hits: the rounds
 * found there. */
int oc__search_check_memo(const oc__algo *algo, const oc__model *model, const oc_request *req,
                          size_t cache_bytes, uint64_t *checked, uint64_t *memo_hits,
                          oc_kv **chosen, oc_report *rep, char *why, size_t len);

/* The test of the search's transfer budget (test_search_optree_budget): oc__search_params with
 * `budget` transfers a candidate may have to be mapped instead of the default 2^25. */
int oc__search_budget(const oc__algo *algo, const oc__model *model, const oc_request *req,
                      uint64_t budget, oc_kv **chosen, oc_report *rep, char *why, size_t len);

int oc__generate(const oc__algo *algo, const oc__plan *plan, oc__sink *sinks, char *why,
                 size_t len);

#endif
