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
 *
 * The round cache. A search's candidates share most of their rounds (a mixed-radix all-gather on
 * 1024 nodes has about 66 distinct rounds across 935 candidates). On a model whose cost is
 * additive over rounds (oc__model.additive: the ring, the fat-tree, the switch) each distinct
 * round is mapped once, alone, on a fresh network, and a candidate costs the sum of its rounds'
 * steps and times. A round is found by a hash of the spec's terms the models read (collective,
 * nodes, q, chunk bytes) and of its transfers in order (ends and chunk count: an additive
 * model never reads the chunk labels, which differ between candidates that move the same amounts
 * between the same nodes, nor the op, so that a reduce-scatter level and the all-gather level
 * that mirrors it, the same amounts between the same nodes, are one round: rhd's halving and
 * doubling at N = 4096 on the ring mapped the all-to-all of 4096 nodes twice, 2.4 s each), and a
 * hit is confirmed by comparing all of them, never by the hash alone. The sum is the whole mapping's cost: the steps exactly, the time
 * up to the rounding of a sum of doubles (test_search_cache asserts both on every mapped
 * candidate). The cache is bounded (round_cache_bytes() of transfers); a round it has no room for is
 * still mapped alone and kept apart as the memo until the next such round, so that a round that
 * comes back at once (rhd's doubling after its halving) is not mapped twice. Where rounds seldom
 * recur (fewer hits than misses after CACHE_TRIAL rounds, as when most candidates mapped are
 * folds, each with rounds of its own) the
 * rest of the search maps its candidates whole: a network created for every round would cost
 * more than the cache saves (rhd all-reduce, fat-tree, N = 720: 5.2 s CPU with the cache, 4.2 s
 * without). Models whose rounds are not independent (the fabric's
 * reconfigurations, the star's tuning, the direct networks) map every candidate whole, as before.
 *
 * Round costs. On an additive model an algorithm may have rounds of its own making costed the
 * same way (oc__search.round_costs: each alone, from the cache or on a fresh network) and build
 * exact bounds from them: rhd's search costs each level of radix r at place value w once, where
 * one factorisation's cost is the sum of its levels', and so maps one candidate where it mapped
 * hundreds (rd all-gather on the ring, N = 8192: 259 candidates, 46 s before). The hit and miss
 * counts stay the candidates'.
 *
 * Hints. An algorithm may have a parameter set mapped ahead of its offer (oc__search.hint: rhd's
 * least bound on the ring and the fat-tree, where the enumeration would otherwise reach it last).
 * Its cost prunes only what is strictly worse than it, never a full tie, because which of the two
 * is offered first is not known yet; it is offered later in its own place like any other.
 *
 * The lone candidate left to the final run. A candidate is mapped during the search only so
 * that its cost can decide against another's; when the search ends with one candidate mapped
 * and nothing ever compared with it, its mapping decided nothing, and the final run maps the
 * same schedule again, checked (circulant's all-gather at N = 4096: 16.7 M lightpaths coloured
 * twice, 1.3 s of its 5 s). So where the caller runs the winner at once (oc_run without a watch:
 * oc__search_defer), the first candidate to be mapped while there is no incumbent (no mapped
 * entry, no hint) is left unmapped (`deferred`) and mapped at the first moment anything reads its
 * cost: before the next entry of a flush is decided, before a bound is compared (can_win), a hint
 * mapped or rounds costed alone (each of those reads the best mapped cost or the round cache, and
 * the mapping happens there, in the same place of the sequence of mappings as before, so the
 * cache's counts and every decision are those of the search that maps at once). A candidate
 * still unmapped when the search ends is the winner whatever its cost, and its log entry is
 * filled from the final run instead: on a model where a round mapped alone costs its steps times
 * the step time (the ring at spread=1: ring_finish adds nothing else) and while the cache is in
 * use (a candidate's cost is then the sum, round by round, of its rounds' costs alone, each
 * round's steps its own: the model is additive), the final run's steps, round by round
 * (model->steps after each round), summed as cost_round sums them, are the search's numbers to
 * the last bit (the steps, and the time as the same sum of the same doubles in the same order).
 * Only a candidate the search would have mapped without refusal is left: its transfers known
 * and within the budget, its plan and its work check passed as evaluate_cached passes them.
 */
#include "core/progress.h"
#include "run/pipeline.h"
#include "run/shard.h"
#include "run/watch.h"

#include <stddef.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A search that has mapped nothing and had this many candidates refused by the work budget, and
 * no other refusal, stops there (WRHT all-reduce on 64 nodes at a budget of 100 offered 1.04e6
 * candidates, 1 GiB of log, before its log's share stopped it). */
#define WORK_STOP_AFTER 4096
/* A candidate whose schedule has more transfers than this is not mapped during a search. */
#define SEARCH_TRANSFER_BUDGET (UINT64_C(1) << 25)
#define SAME_TIME 1e-9
/* The rounds after which a cache with fewer hits than misses is given up for the search. */
#define CACHE_TRIAL 64
/* The transfers the round cache keeps at most, in bytes: an eighth of the memory budget (512 MiB
 * at the default 4 GiB), and at least 64 MiB. It must hold the largest rounds a search meets
 * twice: the all-to-all of 4096 nodes (rhd's first level at N = 4096, which the halving and the
 * doubling both have) is 16.7 M transfers, 192 MiB as kept; at 64 MiB it was mapped twice, 2.4 s each. */
static size_t round_cache_bytes(void) {
    const uint64_t b = oc__memory_budget() / 8, floor = (uint64_t)64 << 20;
    return (size_t)(b > floor ? (b < SIZE_MAX ? b : SIZE_MAX) : floor);
}

/* What the cache keeps of a transfer: what an additive model reads of it (12 bytes, not the
 * transfer's 20). */
typedef struct cached_xfer {
    uint32_t src, dst, count;
} cached_xfer;

/* One distinct round: what the models read of the spec, the transfers, and the round's cost. */
typedef struct cached_round {
    uint64_t hash;
    oc_collective coll;
    uint32_t nodes, q;
    uint64_t chunk_bytes;
    cached_xfer *xfers;
    size_t count;
    uint64_t steps;
    double time_s;
} cached_round;

/* Open addressing over cached_round indices (slot = index + 1, 0 = empty). */
typedef struct round_cache {
    cached_round *round;
    size_t n, cap;
    size_t *slot;
    size_t nslots; /* a power of two, at least twice n */
    size_t bytes;  /* transfers kept */
    uint64_t hits, misses;
    /* The last round mapped alone that the cache had no room for (has_memo), kept apart, in a
     * buffer of memo_cap transfers reused from one to the next. A round that comes back right
     * after it is found here: rhd's fold candidates at N = 4093 map their core all-to-all for
     * the halving and again for the doubling (the same ends and amounts) once the cache is full
     * of earlier all-to-alls (200 MB each), 1.4-2.5 s a mapping. */
    cached_round memo;
    size_t memo_cap;
    int has_memo;
    size_t limit;       /* the bytes of transfers kept at most: round_cache_bytes(), or a test's */
    uint64_t memo_hits; /* rounds found in the memo (the test asks that some were) */
} round_cache;

typedef struct searcher {
    oc__search base;
    const oc__algo *algo;
    const oc__model *model;
    const oc__netset *net; /* the model's settings, parsed once for the run */
    const oc_request *req;
    oc__search_log *log;
    size_t mapped_upto; /* entries [0, mapped_upto) are decided; the rest are pending */
    size_t best;        /* index of the best mapped entry, or SIZE_MAX */
    int objective;
    int failed;        /* OC_ENOMEM met while mapping */
    round_cache cache; /* used when the model is additive */
    int check_cache;   /* test: map every candidate whole too and compare (oc__search_check_cache) */
    int no_bounds;     /* the network splits rounds (split_degree): map every candidate */
    uint64_t checked;  /* candidates compared */
    char mismatch[512]; /* the first difference the check found */
    uint64_t budget;    /* the transfers a candidate may have to be mapped (SEARCH_TRANSFER_BUDGET) */
    int has_hint;       /* an incumbent mapped ahead of its offer (oc__search.hint) */
    oc__progress progress; /* candidates decided / offered so far (oc_request.progress) */
    uint64_t decided;
    uint64_t hint_steps;
    double hint_time;
    oc__netrun *alone; /* round_alone's run, kept for the next round (oc__model.reset) */
    uint32_t alone_nodes;
    oc__round spare; /* the emitter's round buffer, kept from one generation to the next */
    uint64_t log_bytes;  /* what the log holds, about (s_offer: SEARCH_LOG_SHARE of the budget) */
    char too_big[320];   /* why the search stopped: its log outgrew its share */
    uint64_t over_work;  /* candidates refused by the work budget (oc__shard_work_fits) */
    int work_stop;       /* stopped: WORK_STOP_AFTER refused by it and nothing mapped */
    char first_over_work[320]; /* the first such refusal's line */
    /* The lone candidate left to the final run (the essay): may_defer when the caller settles
     * it (oc__search_defer), round_is_steps when a round alone costs its steps x the step time,
     * deferred the entry left unmapped for now (SIZE_MAX: none). */
    int may_defer, round_is_steps;
    size_t deferred;
} searcher;

/* The log keeps every candidate offered (--explain lists them). A space of O(N) candidates
 * that all go unmapped (OpTree with k=1 on 2^20 nodes: every V in N..2N, each over the mapping
 * budget, 785 MB of log) is held to a quarter of the memory budget, and refused past it. */
#define SEARCH_LOG_SHARE 4

/* The search's emitters: each candidate or level generated starts with the buffer the last one
 * grew, instead of a fresh one. A round of the all-to-all of 4096 nodes is 320 MiB of transfers,
 * and a buffer that size is a fresh mapping of the allocator each time: its pages were faulted in
 * again for every level rd costs alone (a sixth of its search's time was the kernel's). */
static void search_emit_init(searcher *s, oc__emit *e, const oc__spec *spec, oc__sink *sinks,
                             char *why, size_t len) {
    oc__emit_init(e, spec, sinks, why, len);
    e->cur = s->spare;
    e->cur.count = 0;
    memset(&s->spare, 0, sizeof s->spare);
}

static void search_emit_free(searcher *s, oc__emit *e) {
    oc__round_free(&s->spare);
    s->spare = e->cur;
    memset(&e->cur, 0, sizeof e->cur);
    oc__emit_free(e);
}

/* ---- the network's figures ---- */

int oc__net_figures(const oc__netset *set, const oc__spec *spec, oc__formula_in *in, char *why,
                    size_t len) {
    const oc__model *model = set->model;
    oc__netrun *net = NULL;
    int rc = oc__net_create(set, spec, 0, &net, why, len);
    if (rc) return rc;
    in->channels = model->channels(net);
    in->step_time = model->step_time(net);
    /* the settings the model parsed, typed: what the algorithms read of the network */
    memset(&in->cfg, 0, sizeof in->cfg);
    if (model->config) model->config(net, &in->cfg);
    /* what a step costs whatever it carries: the model's own answer, or the same network
     * created again with an empty payload */
    if (model->step_fixed) {
        in->step_fixed = model->step_fixed(net);
    } else {
        model->destroy(net);
        oc__spec empty = *spec;
        empty.bytes = empty.chunk_bytes = 0;
        empty.block_node = NULL;
        if ((rc = oc__net_create(set, &empty, 0, &net, why, len))) return rc;
        in->step_fixed = model->step_time(net);
    }
    in->wavelengths = in->cfg.kind == OC_NETCFG_RING ? in->cfg.ring.wavelengths : in->channels;
    in->lanes = 0;
    in->reconfig_s = 0;
    in->split_degree = in->max_degree = 0;
    if (model->circuits)
        model->circuits(net, &in->lanes, &in->reconfig_s, &in->split_degree, &in->max_degree);
    model->destroy(net);
    return 0;
}

/* ---- mapping one candidate ---- */

typedef struct budget_sink {
    oc__sink sink;
    uint64_t transfers, budget;
    oc__progress *progress; /* the search's: polled each round */
} budget_sink;

/* A candidate's round is no candidate decided, but a long candidate (the all-to-all of 4096
 * nodes maps for seconds) must still hear a request to stop: each round polls the search's
 * progress (a decrement, the clock only now and then), and a stop ends the candidate there. */
static int poll_round(oc__progress *p, uint64_t index, char *why, size_t len) {
    if (oc__progress_at(p, p->done, 0))
        return oc__fail(why, len, OC_ECANCELED, "cancelled in a candidate, after %llu rounds",
                        (unsigned long long)(index + 1));
    return 0;
}

static int budget_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    budget_sink *b = (budget_sink *)self;
    int rc = poll_round(b->progress, index, why, len);
    if (rc) return rc;
    b->transfers += r->count;
    if (b->transfers > b->budget)
        return oc__fail(why, len, OC_ETOOBIG, "more than %llu transfers",
                        (unsigned long long)b->budget);
    return 0;
}

/* The model's finish() on a scratch report: the steps and time of what net was fed. */
static int finish_cost(const oc__model *model, oc__netrun *net, uint64_t *steps, double *time,
                       oc__search_log *unit_to, char *why, size_t len) {
    oc_report *scratch = oc__report_new();
    if (!scratch) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    int rc = model->finish(net, scratch, why, len);
    if (!rc) {
        *steps = scratch->steps;
        *time = scratch->time_s;
        if (unit_to) { /* the unit of the model's times (the star's tau), for the log's text */
            memcpy(unit_to->time_unit, scratch->time_unit, sizeof unit_to->time_unit);
            unit_to->time_unit_value = scratch->time_unit_value;
        }
    }
    oc_report_free(scratch);
    return rc;
}

/* Plans, generates and maps one candidate without the resource check; the model's steps and
 * time on success. */
static int evaluate(searcher *s, const oc_kv *params, uint64_t *steps, double *time,
                    char *why, size_t len) {
    const oc_request *req = s->req;
    oc__plan plan = {0}; /* freed on every path, also when plan() refuses before its begin */
    oc__netrun *net = NULL;
    int rc = s->algo->plan(&plan, req->collective, req->nodes, req->root, req->bytes, params, why,
                           len);
    if (rc) goto out;
    /* A largest round known ahead past the memory budget is not generated to be mapped: the run
     * would refuse it before its first round (shard.c), and mapping it here would spend that
     * memory first (TCP2's all-to-all on 1500 nodes: 40 MB mapped at a budget of 48 MiB). */
    if ((rc = oc__shard_round_fits(&plan.spec, why, len))) goto out;
    /* nor one whose verification the run would refuse as past the work budget */
    if ((rc = oc__shard_work_fits(&plan.spec, 0, why, len))) goto out;
    /* a candidate that should take long says so before it is mapped */
    oc__work_ahead(&plan.spec, 0, req->progress, req->progress_ctx);
    rc = oc__net_create(s->net, &plan.spec, 0, &net, why, len);
    if (rc) goto out;
    budget_sink budget = {
        .sink = {.round = budget_round}, .budget = s->budget, .progress = &s->progress};
    budget.sink.next = s->model->sink(net);
    budget.sink.next->next = NULL;
    oc__emit emit;
    search_emit_init(s, &emit, &plan.spec, &budget.sink, why, len);
    rc = s->algo->generate(&plan, &emit);
    search_emit_free(s, &emit);
    if (rc) goto out;
    /* the unit the model's times are in goes to the log (the searcher's, not const) */
    rc = finish_cost(s->model, net, steps, time, s->log, why, len);
out:
    if (net) s->model->destroy(net);
    oc__plan_free(s->algo, &plan);
    return rc;
}

/* ---- the round cache ---- */

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xff51afd7ed558ccd);
}

static uint64_t round_hash(const oc__spec *spec, const oc__round *r) {
    uint64_t h = mix(mix(mix(mix(UINT64_C(1469598103934665603), (uint64_t)spec->coll),
                             spec->nodes),
                         spec->q),
                     spec->chunk_bytes);
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        h = mix(h, ((uint64_t)t->src << 32) | t->dst);
        h = mix(h, t->count);
    }
    return mix(h, r->count);
}

static int same_round(const cached_round *c, uint64_t hash, const oc__spec *spec,
                      const oc__round *r) {
    if (c->hash != hash || c->coll != spec->coll || c->nodes != spec->nodes || c->q != spec->q ||
        c->chunk_bytes != spec->chunk_bytes || c->count != r->count)
        return 0;
    for (size_t i = 0; i < r->count; i++) {
        const cached_xfer *a = &c->xfers[i];
        const oc__transfer *b = &r->xfers[i];
        if (a->src != b->src || a->dst != b->dst || a->count != b->count)
            return 0;
    }
    return 1;
}

static const cached_round *cache_find(const round_cache *c, uint64_t hash, const oc__spec *spec,
                                      const oc__round *r) {
    if (!c->nslots) return NULL;
    for (size_t at = (size_t)hash & (c->nslots - 1);; at = (at + 1) & (c->nslots - 1)) {
        if (!c->slot[at]) return NULL;
        const cached_round *e = &c->round[c->slot[at] - 1];
        if (same_round(e, hash, spec, r)) return e;
    }
}

/* Fills e with round r (its transfers into e->xfers, which has room) and its cost. */
static void cached_fill(cached_round *e, uint64_t hash, const oc__spec *spec, const oc__round *r,
                        uint64_t steps, double time_s) {
    for (size_t i = 0; i < r->count; i++)
        e->xfers[i] = (cached_xfer){r->xfers[i].src, r->xfers[i].dst, r->xfers[i].count};
    e->hash = hash;
    e->coll = spec->coll;
    e->nodes = spec->nodes;
    e->q = spec->q;
    e->chunk_bytes = spec->chunk_bytes;
    e->count = r->count;
    e->steps = steps;
    e->time_s = time_s;
}

/* Keeps round r and its cost as the memo (round_cache.memo), when it fits in the cache's share
 * of the memory budget on its own and its buffer can be had; else forgets the memo (a round not
 * kept is only mapped again if it comes back, as before the memo). Always 0. */
static int memo_keep(round_cache *c, uint64_t hash, const oc__spec *spec, const oc__round *r,
                     uint64_t steps, double time_s) {
    c->has_memo = 0;
    if (r->count * sizeof(cached_xfer) > c->limit) return 0;
    if (oc__grow((void **)&c->memo.xfers, &c->memo_cap, r->count ? r->count : 1,
                 sizeof(cached_xfer)))
        return 0;
    cached_fill(&c->memo, hash, spec, r, steps, time_s);
    c->has_memo = 1;
    return 0;
}

/* Keeps a copy of round r and its cost; when the cache is full, keeps it as the memo instead. */
static int cache_add(round_cache *c, uint64_t hash, const oc__spec *spec, const oc__round *r,
                     uint64_t steps, double time_s) {
    size_t bytes = r->count * sizeof(cached_xfer);
    if (c->bytes + bytes > c->limit) return memo_keep(c, hash, spec, r, steps, time_s);
    if (2 * (c->n + 1) > c->nslots) {
        size_t nslots = c->nslots ? 2 * c->nslots : 64;
        size_t *slot = calloc(nslots, sizeof *slot);
        if (!slot) return OC_ENOMEM;
        for (size_t i = 0; i < c->n; i++) {
            size_t at = (size_t)c->round[i].hash & (nslots - 1);
            while (slot[at]) at = (at + 1) & (nslots - 1);
            slot[at] = i + 1;
        }
        free(c->slot);
        c->slot = slot;
        c->nslots = nslots;
    }
    if (oc__grow((void **)&c->round, &c->cap, c->n + 1, sizeof *c->round)) return OC_ENOMEM;
    cached_round *e = &c->round[c->n];
    if (!(e->xfers = malloc(bytes ? bytes : 1))) return OC_ENOMEM;
    cached_fill(e, hash, spec, r, steps, time_s);
    size_t at = (size_t)hash & (c->nslots - 1);
    while (c->slot[at]) at = (at + 1) & (c->nslots - 1);
    c->slot[at] = ++c->n;
    c->bytes += bytes;
    return 0;
}

static void cache_free(round_cache *c) {
    for (size_t i = 0; i < c->n; i++) free(c->round[i].xfers);
    free(c->round);
    free(c->slot);
    free(c->memo.xfers);
    memset(c, 0, sizeof *c);
}

/* The sink a candidate's rounds go through on an additive model: each round's cost from the
 * cache, or from mapping it alone on a fresh network (then kept). */
typedef struct cost_sink {
    oc__sink sink;
    searcher *s;
    const oc__spec *spec;
    uint64_t transfers, steps;
    double time_s;
} cost_sink;

/* Maps round r alone on a fresh network: its steps and time. A model with a reset (the ring)
 * maps every such round on one run, reset before each to a new run's state for spec (of the same
 * nodes), so that its scratch is allocated once for the search instead of once a round; a round
 * that fails leaves nothing behind for the next. */
static int round_alone(searcher *s, const oc__spec *spec, uint64_t index, const oc__round *r,
                       uint64_t *steps, double *time_s, char *why, size_t len) {
    oc__netrun *net = NULL;
    int rc = 0;
    if (s->model->reset && s->alone && s->alone_nodes == spec->nodes) {
        net = s->alone;
        s->alone = NULL;
        s->model->reset(net, spec);
    } else if ((rc = oc__net_create(s->net, spec, 0, &net, why, len))) {
        return rc;
    }
    oc__sink *sink = s->model->sink(net);
    if ((rc = sink->round(sink, index, r, why, len))) goto out;
    rc = finish_cost(s->model, net, steps, time_s, NULL, why, len);
out:
    if (!rc && s->model->reset) {
        if (s->alone) s->model->destroy(s->alone);
        s->alone = net;
        s->alone_nodes = spec->nodes;
    } else {
        s->model->destroy(net);
    }
    return rc;
}

static int cost_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    cost_sink *c = (cost_sink *)self;
    round_cache *cache = &c->s->cache;
    int stop = poll_round(&c->s->progress, index, why, len);
    if (stop) return stop;
    c->transfers += r->count;
    if (c->transfers > c->s->budget)
        return oc__fail(why, len, OC_ETOOBIG, "more than %llu transfers",
                        (unsigned long long)c->s->budget);
    uint64_t hash = round_hash(c->spec, r), steps = 0;
    double time_s = 0;
    const cached_round *hit = cache_find(cache, hash, c->spec, r);
    if (hit) {
        cache->hits++;
        steps = hit->steps;
        time_s = hit->time_s;
    } else if (cache->has_memo && same_round(&cache->memo, hash, c->spec, r)) {
        /* Counted as the miss it was before the memo: the count decides when the cache is
         * given up (map_candidate), and so whether a candidate's cost is its rounds' sum or
         * its whole mapping's (equal up to the rounding of a sum); the memo changes no cost. */
        cache->misses++;
        cache->memo_hits++;
        steps = cache->memo.steps;
        time_s = cache->memo.time_s;
    } else {
        cache->misses++;
        int rc = round_alone(c->s, c->spec, index, r, &steps, &time_s, why, len);
        if (!rc) rc = cache_add(cache, hash, c->spec, r, steps, time_s);
        if (rc == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        if (rc) return rc;
    }
    c->steps += steps;
    c->time_s += time_s;
    return 0;
}

/* evaluate() from the round cache: the same steps and time on an additive model. */
static int evaluate_cached(searcher *s, const oc_kv *params, uint64_t *steps, double *time,
                           char *why, size_t len) {
    const oc_request *req = s->req;
    oc__plan plan = {0};
    int rc = s->algo->plan(&plan, req->collective, req->nodes, req->root, req->bytes, params, why,
                           len);
    if (!rc) rc = oc__shard_work_fits(&plan.spec, 0, why, len); /* as evaluate() */
    if (!rc) oc__work_ahead(&plan.spec, 0, req->progress, req->progress_ctx);
    if (!rc) {
        cost_sink cost = {.sink = {.round = cost_round}, .s = s, .spec = &plan.spec};
        oc__emit emit;
        search_emit_init(s, &emit, &plan.spec, &cost.sink, why, len);
        rc = s->algo->generate(&plan, &emit);
        search_emit_free(s, &emit);
        *steps = cost.steps;
        *time = cost.time_s;
        /* no round reached the model: map it whole, so that the model sees the spec (and may
         * refuse it) as it would */
        if (!rc && !cost.transfers) {
            oc__plan_free(s->algo, &plan);
            return evaluate(s, params, steps, time, why, len);
        }
    }
    oc__plan_free(s->algo, &plan);
    return rc;
}

/* Maps one candidate: from the round cache on an additive model, else whole. In the test's
 * check mode both, and any difference is an error that names the candidate. */
static int map_candidate(searcher *s, const oc__search_entry *e, uint64_t *steps, double *time,
                         char *why, size_t len) {
    /* The cache pays only when rounds recur: past CACHE_TRIAL rounds with fewer hits than
     * misses (every miss is a network created for one round) the rest is mapped whole. */
    const round_cache *c = &s->cache;
    if (!s->model->additive ||
        (!s->check_cache && c->misses >= CACHE_TRIAL && c->hits < c->misses))
        return evaluate(s, e->params, steps, time, why, len);
    int rc = evaluate_cached(s, e->params, steps, time, why, len);
    if (rc || !s->check_cache) return rc;
    uint64_t wsteps = 0;
    double wtime = 0;
    if ((rc = evaluate(s, e->params, &wsteps, &wtime, why, len))) return rc;
    s->checked++;
    if (wsteps != *steps || fabs(wtime - *time) > 1e-12 * fmax(fabs(wtime), fabs(*time))) {
        snprintf(s->mismatch, sizeof s->mismatch,
                 "round cache: %.200s costs %llu steps, %.17g s from its rounds, %llu steps, "
                 "%.17g s mapped whole",
                 e->text, (unsigned long long)*steps, *time, (unsigned long long)wsteps, wtime);
        return OC_EINVAL;
    }
    return 0;
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

/* How a bound compares with a mapped cost: 1 strictly worse (on the objective, or equal there
 * and worse on the tie-break), -1 better somewhere, 0 a full tie. */
static int worse(const searcher *s, double bound_time, uint64_t bound_steps, double time,
                 uint64_t steps) {
    int t = same_time(bound_time, time) ? 0 : bound_time > time ? 1 : -1;
    int st = bound_steps > steps ? 1 : bound_steps == steps ? 0 : -1;
    int first = s->objective == OC_OBJECTIVE_STEPS ? st : t;
    int second = s->objective == OC_OBJECTIVE_STEPS ? t : st;
    return first ? first : second;
}

/* 1 when nothing bounded by b (offered at `offered`) can beat the best mapped entry, or is
 * strictly worse than the hint (which is offered later or was already: the winner is at least as
 * good; a full tie with the hint is kept, since the earlier offer of the two is not known yet). */
static int beaten(const searcher *s, double bound_time, uint64_t bound_steps, size_t offered) {
    if (s->has_hint && worse(s, bound_time, bound_steps, s->hint_time, s->hint_steps) > 0)
        return 1;
    if (s->best == SIZE_MAX) return 0;
    const oc__search_entry *best = &s->log->entry[s->best];
    int w = worse(s, bound_time, bound_steps, best->time_s, best->steps);
    if (w) return w > 0;
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
    const uint64_t share = oc__memory_budget() / SEARCH_LOG_SHARE;
    if (s->log_bytes > share) {
        char have[32], all[32];
        oc__format_bytes(have, sizeof have, share);
        oc__format_bytes(all, sizeof all, oc__memory_budget());
        snprintf(s->too_big, sizeof s->too_big,
                 "the parameter search of %s on %u nodes offered more than %zu candidates, whose "
                 "log needs more than %s, a quarter of the memory budget of %s (pin a parameter "
                 "with -p, or set OPTICOLL_MEMORY_BUDGET_MIB)",
                 s->algo->info.name, s->req->nodes, s->log->n, have, all);
        return OC_ETOOBIG;
    }
    if (log_add(s->log, &e)) return OC_ENOMEM;
    if (oc__kv_copy(params, &e->params)) return OC_ENOMEM;
    if (!(e->text = params_text(params))) return OC_ENOMEM;
    /* the entry, its text, its parameters' copy (a node and two strings a pair) and a reason if
     * it is refused: 740 bytes measured on OpTree's one-stage lists */
    s->log_bytes += 2 * sizeof *e + 3 * (strlen(e->text) + 1) + 96 * oc_kv_count(params) + 400;
    e->status = -1; /* pending */
    if (bound && !s->no_bounds) {
        e->bound_time_s = bound->time_s;
        e->bound_steps = bound->steps;
        e->bound_name = bound->name;
        e->transfers = bound->transfers;
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

/* The reason of a candidate whose transfers, known ahead, are over the search's budget. */
static int over_budget(uint64_t transfers, uint64_t budget, char *why, size_t len) {
    if (transfers > OC_MAX_TRANSFERS)
        return oc__fail(why, len, OC_ETOOBIG, "%llu transfers, more than the %llu this tool generates",
                        (unsigned long long)transfers, (unsigned long long)OC_MAX_TRANSFERS);
    return oc__fail(why, len, OC_ETOOBIG, "%llu transfers, more than the %llu transfers a candidate "
                    "is mapped with during the search",
                    (unsigned long long)transfers, (unsigned long long)budget);
}

/* What flush() records of entry idx once it was mapped (erc: map_candidate's answer, why its
 * reason): mapped, and the best so far if it beats it; or refused or over the budget. 0, or
 * OC_ENOMEM / OC_EINVAL (the cache check's mismatch), which stop the search. */
static int record_mapping(searcher *s, size_t idx, int erc, const char *why) {
    oc__search_log *log = s->log;
    oc__search_entry *e = &log->entry[idx];
    if (erc == OC_ENOMEM) return OC_ENOMEM;
    if (s->mismatch[0]) return OC_EINVAL;
    if (erc) {
        /* over the search's transfer budget, not the run's work budget (refused as the run
         * would refuse it) */
        e->status = erc == OC_ETOOBIG && strstr(why, "transfers") && !strstr(why, "work budget")
                        ? OC__CAND_OVER
                        : OC__CAND_REFUSED;
        if (e->status == OC__CAND_OVER)
            log->over++;
        else
            log->refused++;
        if (erc == OC_ETOOBIG && strstr(why, "work budget") && !s->over_work++)
            snprintf(s->first_over_work, sizeof s->first_over_work, "%s", why);
        if (s->best == SIZE_MAX && s->over_work >= WORK_STOP_AFTER &&
            s->over_work == log->refused) {
            s->work_stop = 1;
            return OC_ETOOBIG;
        }
        return (e->reason = strdup(why)) ? 0 : OC_ENOMEM;
    }
    e->status = OC__CAND_MAPPED;
    log->mapped++;
    if (s->best == SIZE_MAX || better(s, e, &log->entry[s->best]) < 0) s->best = idx;
    return 0;
}

/* Whether entry e, about to be mapped, may be left to the final run (the essay): the caller
 * settles it, nothing is mapped yet to compare it with, a round alone costs its steps x the
 * step time and the cache is in use (map_candidate would sum its rounds), and it would be
 * mapped without refusal as far as can be known ahead: its transfers (within the budget, the
 * caller checked) and evaluate_cached's own plan and work check. */
static int deferrable(searcher *s, const oc__search_entry *e) {
    const round_cache *c = &s->cache;
    if (!s->may_defer || !s->round_is_steps || s->deferred != SIZE_MAX || s->best != SIZE_MAX ||
        s->has_hint || s->check_cache || !s->model->additive || !e->transfers ||
        (c->misses >= CACHE_TRIAL && c->hits < c->misses))
        return 0;
    const oc_request *req = s->req;
    oc__plan plan = {0};
    char why[256];
    int rc = s->algo->plan(&plan, req->collective, req->nodes, req->root, req->bytes, e->params,
                           why, sizeof why);
    if (!rc) rc = oc__shard_work_fits(&plan.spec, 0, why, sizeof why);
    oc__plan_free(s->algo, &plan);
    return rc == 0;
}

/* Maps the entry left unmapped (if any) now, as flush() would have, and records it. */
static int settle(searcher *s) {
    if (s->deferred == SIZE_MAX) return 0;
    const size_t idx = s->deferred;
    s->deferred = SIZE_MAX;
    oc__search_entry *e = &s->log->entry[idx];
    char why[256] = "";
    const int erc = map_candidate(s, e, &e->steps, &e->time_s, why, sizeof why);
    return record_mapping(s, idx, erc, why);
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
        /* an entry left unmapped by the last iteration or flush is mapped before this one is
         * decided: where the search that maps at once mapped it */
        if ((rc = settle(s))) break;
        if ((rc = oc__progress_at(&s->progress, ++s->decided, log->n))) break;
        if (beaten(s, e->bound_time_s, e->bound_steps, e->offered)) {
            e->status = OC__CAND_PRUNED;
            log->pruned++;
            if (s->check_cache && s->model->additive) {
                /* the test compares the pruned too, and reads their costs from the log to
                 * check the winner against them (the costs stay out of the decision) */
                char why[256] = "";
                int erc = map_candidate(s, e, &e->steps, &e->time_s, why, sizeof why);
                if (erc == OC_ENOMEM || s->mismatch[0]) {
                    rc = erc;
                    break;
                }
                if (erc) e->steps = 0, e->time_s = 0;
            }
            continue;
        }
        char why[256] = "";
        /* transfers known ahead: one over the budget is not generated to find out */
        if (e->transfers <= s->budget && deferrable(s, e)) {
            s->deferred = order[i].index; /* mapped when its cost is first read (settle) */
            continue;
        }
        int erc = e->transfers > s->budget
                      ? over_budget(e->transfers, s->budget, why, sizeof why)
                      : map_candidate(s, e, &e->steps, &e->time_s, why, sizeof why);
        rc = record_mapping(s, order[i].index, erc, why);
    }
    free(order);
    s->mapped_upto = log->n;
    return rc;
}

static int s_can_win(oc__search *base, const oc__bound *bound, int *yes) {
    searcher *s = (searcher *)base;
    int rc = flush(s);
    if (!rc) rc = settle(s); /* the bound is compared with the best mapped cost */
    if (rc) return rc;
    *yes = s->no_bounds || !beaten(s, bound ? bound->time_s : 0, bound ? bound->steps : 0,
                                   s->log->n);
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
    return oc__progress_at(&s->progress, ++s->decided, s->log->n);
}

static int s_hint(oc__search *base, const oc_kv *params) {
    searcher *s = (searcher *)base;
    oc__search_entry probe = {.params = (oc_kv *)params, .text = "(hint)"};
    uint64_t steps = 0;
    double time = 0;
    char why[256] = "";
    int rc = settle(s); /* the hint's mapping comes after it, through the same cache */
    if (rc) return rc;
    rc = map_candidate(s, &probe, &steps, &time, why, sizeof why);
    if (rc == OC_ENOMEM) return rc;
    if (rc) return 0; /* no incumbent (the test's check mode still stops on its mismatch) */
    if (!s->has_hint || worse(s, time, steps, s->hint_time, s->hint_steps) < 0) {
        s->has_hint = 1;
        s->hint_steps = steps;
        s->hint_time = time;
    }
    return 0;
}

/* oc__search.round_costs: the rounds gen() emits, each from the cache or mapped alone, as a
 * candidate's are on an additive model; the cache's hit and miss counts (which decide whether
 * candidates keep using it) are the candidates' own and stay as they were. */
static int s_round_costs(oc__search *base, const oc__spec *spec, int (*gen)(void *, oc__emit *),
                         void *ctx, uint64_t *steps, double *time_s, char *why, size_t len) {
    searcher *s = (searcher *)base;
    if (!s->model->additive) return OC_ENOTSUP;
    int rc = settle(s); /* these rounds go through the cache after its rounds */
    if (rc) return rc;
    const uint64_t hits = s->cache.hits, misses = s->cache.misses;
    cost_sink cost = {.sink = {.round = cost_round}, .s = s, .spec = spec};
    oc__emit emit;
    search_emit_init(s, &emit, spec, &cost.sink, why, len);
    rc = gen(ctx, &emit);
    search_emit_free(s, &emit);
    s->cache.hits = hits;
    s->cache.misses = misses;
    *steps = cost.steps;
    *time_s = cost.time_s;
    return rc;
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

/* When nothing was mapped because every candidate's transfers, known ahead, are over the search's
 * budget: the candidate of least bound (ties: offered first) among those the tool can generate is
 * the winner, chosen by its proven bound and mapped by the run itself; when none can be
 * generated, the refusal names the fewest transfers and the limit. 0 (chosen), 1 (the question
 * does not arise: some candidate's transfers are unknown or it was refused otherwise) or an
 * error. */
static int by_bound_alone(searcher *s, const oc__algo *algo, const oc_request *req, oc_report *rep,
                          oc_kv **chosen, char *why, size_t len) {
    oc__search_log *log = s->log;
    size_t pick = SIZE_MAX, fewest = SIZE_MAX;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status == OC__CAND_FAMILY || e->status == OC__CAND_PRUNED) continue;
        if (e->status != OC__CAND_OVER || !e->transfers) return 1;
        if (fewest == SIZE_MAX || e->transfers < log->entry[fewest].transfers) fewest = i;
        if (e->transfers > OC_MAX_TRANSFERS || !e->bound_name) continue;
        const double key = s->objective == OC_OBJECTIVE_STEPS ? (double)e->bound_steps
                                                              : e->bound_time_s;
        const oc__search_entry *p = pick == SIZE_MAX ? NULL : &log->entry[pick];
        const double pkey = !p ? 0 : s->objective == OC_OBJECTIVE_STEPS ? (double)p->bound_steps
                                                                        : p->bound_time_s;
        if (!p || key < pkey) pick = i;
    }
    if (fewest == SIZE_MAX) return 1;
    if (pick == SIZE_MAX) {
        const oc__search_entry *f = &log->entry[fewest];
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s on %u nodes needs at least %llu transfers (%s, the fewest of its %zu "
                        "parameter sets), more than the %llu this tool generates",
                        algo->info.name, req->nodes, (unsigned long long)f->transfers, f->text,
                        log->n, (unsigned long long)OC_MAX_TRANSFERS);
    }
    oc__search_entry *w = &log->entry[pick];
    char t[32], buf[640];
    oc_format_time(t, sizeof t, w->bound_time_s, log->time_unit, log->time_unit_value);
    snprintf(buf, sizeof buf,
             "%s chosen by the least proven bound (%llu steps, %s: %s): no candidate fits the "
             "search's %llu transfers for mapping one, so the run maps it (%llu transfers)",
             w->text, (unsigned long long)w->bound_steps, t, w->bound_name,
             (unsigned long long)s->budget, (unsigned long long)w->transfers);
    if (!(log->why_won = strdup(buf))) return OC_ENOMEM;
    log->winner = pick;
    log->runner_up = log->n;
    int rc = oc__kv_copy(w->params, chosen);
    if (!rc)
        rc = oc__report_note(rep, "parameters searched by proven %s bounds alone: %s (run --explain "
                                  "lists them)",
                             log->objective, buf);
    if (rc) return rc;
    oc__search_log_free(rep->search);
    rep->search = log;
    s->log = NULL;
    return 0;
}

/* The note that sums the search up, added to the report where the search ends (or where the
 * final run settles its lone candidate: nothing adds a note between the two). */
static int search_note(oc_report *rep, const oc__search_log *log) {
    return oc__report_note(rep,
                           "parameters searched by mapped %s: %llu mapped, %llu pruned by a proven "
                           "bound%s; %s (run --explain lists them)",
                           log->objective, (unsigned long long)log->mapped,
                           (unsigned long long)(log->pruned + log->families),
                           log->over || log->refused ? ", others not mapped" : "", log->why_won);
}

/* ---- the lone candidate, settled by the final run (the essay) ---- */

struct oc__search_defer {
    oc__watch watch;  /* attach: the final run's network, to read its steps after each round */
    oc__sink sink;    /* after the model in the final run's chain */
    oc__search_log *log;
    size_t entry;     /* the winner, left unmapped */
    int objective;
    uint64_t budget;
    const oc__model *model;
    oc__netrun *net;
    double step_time; /* the model's step time on the final run's spec */
    uint64_t seen;    /* the model's steps after the last round */
    uint64_t steps;   /* the rounds' steps, summed */
    double time_s;    /* their costs alone, summed as cost_round sums them */
};

static int defer_attach(oc__watch *w, const oc__model *model, oc__netrun *net, char *why,
                        size_t len) {
    (void)why;
    (void)len;
    oc__search_defer *d = (oc__search_defer *)w;
    d->model = model;
    d->net = net;
    d->step_time = model->step_time(net);
    return 0;
}

static int defer_finish(oc__watch *w, oc_report *rep, char *why, size_t len) {
    (void)w;
    (void)rep;
    (void)why;
    (void)len;
    return 0;
}

/* After the model took round `index`: what the round cost alone, added as cost_round adds a
 * round's cost from the cache or from round_alone (finish's time: its steps x the step time).
 * Round 0 starts the sums again (a run begun again in shards goes over its rounds anew). */
static int defer_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)r;
    oc__search_defer *d =
        (oc__search_defer *)(void *)((char *)self - offsetof(oc__search_defer, sink));
    if (!d->net)
        return oc__fail(why, len, OC_EINVAL, "the parameter search's winner ran without a network");
    if (index == 0) d->seen = d->steps = 0, d->time_s = 0;
    const uint64_t now = d->model->steps(d->net), steps = now - d->seen;
    d->seen = now;
    d->steps += steps;
    d->time_s += (double)steps * d->step_time + 0.0; /* ring_finish: steps x step + extra (0) */
    return 0;
}

oc__watch *oc__search_defer_watch(oc__search_defer *d) {
    return &d->watch;
}

oc__sink *oc__search_defer_sink(oc__search_defer *d) {
    return &d->sink;
}

void oc__search_defer_free(oc__search_defer *d) {
    if (!d) return;
    oc__search_log_free(d->log);
    free(d);
}

int oc__search_defer_settle(oc__search_defer *d, oc_report *rep, char *why, size_t len) {
    oc__search_log *log = d->log;
    oc__search_entry *e = &log->entry[d->entry];
    /* The final run is the candidate's schedule: its steps are the rounds' sum, and its
     * transfers were stated ahead within the search's budget (else it would not be here). */
    if (d->steps != rep->steps || rep->transfers > d->budget)
        return oc__fail(why, len, OC_EINVAL,
                        "the parameter search's winner %s: %llu steps over its rounds, %llu run, "
                        "%llu transfers (at most %llu were stated)",
                        e->text, (unsigned long long)d->steps, (unsigned long long)rep->steps,
                        (unsigned long long)rep->transfers, (unsigned long long)d->budget);
    e->steps = d->steps;
    e->time_s = d->time_s;
    e->status = OC__CAND_MAPPED;
    log->mapped++;
    searcher s = {.log = log, .best = d->entry, .objective = d->objective};
    int rc = explain_winner(&s);
    if (!rc) rc = search_note(rep, log);
    if (rc) return oc__fail(why, len, OC_ENOMEM, "out of memory in the parameter search");
    oc__search_log_free(rep->search);
    rep->search = log;
    d->log = NULL;
    return 0;
}

/* oc__search_in.figures: the search_in sits first in a search_ctx. */
typedef struct search_ctx {
    oc__search_in in;
    const oc__netset *net;
} search_ctx;

static int figures(const oc__search_in *in, oc_collective coll, uint32_t q, oc__formula_in *out,
                   char *why, size_t len) {
    const search_ctx *c = (const search_ctx *)in;
    oc__spec spec;
    int rc = oc__spec_init(&spec, coll, in->nodes, in->root, in->bytes, q, why, len);
    if (!rc) rc = oc__net_figures(c->net, &spec, out, why, len);
    oc__spec_free(&spec);
    return rc;
}

static int run_search(const oc__algo *algo, const oc__netset *net, const oc_request *req,
                      int check_cache, uint64_t budget, size_t cache_limit, uint64_t *checked,
                      uint64_t *memo_hits, oc_kv **chosen, oc__search_defer **defer,
                      oc_report *rep, char *why, size_t len) {
    *chosen = NULL;
    if (defer) *defer = NULL;
    if (!algo->search || !net) return 0;
    const oc__model *model = net->model;
    oc__spec probe;
    oc__formula_in in;
    int rc = oc__spec_init(&probe, OC_ALLREDUCE, req->nodes, 0, req->bytes, 1, why, len);
    if (rc) return rc;
    rc = oc__net_figures(net, &probe, &in, why, len);
    oc__spec_free(&probe);
    if (rc) return rc;
    searcher s = {.base = {.offer = s_offer,
                           .can_win = s_can_win,
                           .prune = s_prune,
                           .hint = s_hint,
                           .round_costs = s_round_costs,
                           .budget = budget},
                  .algo = algo,
                  .model = model,
                  .net = net,
                  .req = req,
                  .best = SIZE_MAX,
                  .check_cache = check_cache,
                  .cache = {.limit = cache_limit ? cache_limit : round_cache_bytes()},
                  .budget = budget,
                  .no_bounds = (in.split_degree > 0 && !algo->bounds_hold_split) ||
                               (in.cfg.kind == OC_NETCFG_RING && !in.cfg.ring.spread &&
                                !algo->bounds_hold_unspread),
                  .objective = req->objective == OC_OBJECTIVE_STEPS ? OC_OBJECTIVE_STEPS
                                                                    : OC_OBJECTIVE_TIME,
                  .may_defer = defer != NULL,
                  /* ring_finish: a round alone costs its steps x the step time at spread=1 */
                  .round_is_steps = in.cfg.kind == OC_NETCFG_RING && in.cfg.ring.spread,
                  .deferred = SIZE_MAX};
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
                            .net = net};
    oc__progress_begin(&s.progress, req->progress, req->progress_ctx, "candidates", 0);
    /* a candidate's round of millions of transfers hears a stop inside it (oc__stop_tick) */
    oc__progress *const watched = oc__stop_watch(&s.progress);
    rc = algo->search(&ctx.in, &s.base, why, len);
    if (!rc) rc = flush(&s);
    oc__stop_watch(watched);
    oc__progress_end(&s.progress);
    if (rc == OC_ECANCELED)
        rc = oc__fail(why, len, OC_ECANCELED, "cancelled after %llu candidates",
                     (unsigned long long)s.decided);
    if (s.mismatch[0]) rc = oc__fail(why, len, OC_EINVAL, "%s", s.mismatch);
    if (s.too_big[0]) rc = oc__fail(why, len, OC_ETOOBIG, "%s", s.too_big);
    /* Every candidate decided was refused by the work budget (a budget below the least work
     * of any: nothing mapped, so no bound prunes and the search would offer its whole space):
     * that is the reason, said as the run would say it. */
    if ((rc == 0 || s.too_big[0] || s.work_stop) && s.best == SIZE_MAX && s.over_work &&
        s.over_work == s.log->refused) {
        rc = oc__fail(why, len, OC_ETOOBIG,
                      "every %s parameter set tried (%llu%s) is past the work budget; the "
                      "first: %s",
                      algo->info.name, (unsigned long long)s.over_work,
                      s.work_stop ? ", where the search stops" : "", s.first_over_work);
        goto out;
    }
    if (rc == OC_ENOMEM) rc = oc__fail(why, len, OC_ENOMEM, "out of memory in the parameter search");
    if (rc) goto out;
    if (s.log->n == 0) goto out; /* nothing to search: the user pinned everything */
    if (s.deferred != SIZE_MAX) {
        /* the lone candidate, the winner whatever it costs: its figures come from the final run
         * (oc__search_defer_settle), which runs its parameters */
        oc__search_defer *d = calloc(1, sizeof *d);
        if (!d || (rc = oc__kv_copy(s.log->entry[s.deferred].params, chosen))) {
            free(d);
            rc = OC_ENOMEM;
            goto out;
        }
        *d = (oc__search_defer){.watch = {.what = "the parameter search's winner",
                                          .attach = defer_attach,
                                          .finish = defer_finish},
                                .sink = {.round = defer_round, .takes_family = 1},
                                .log = s.log,
                                .entry = s.deferred,
                                .objective = s.objective,
                                .budget = s.budget};
        s.log->winner = s.deferred;
        s.log = NULL;
        *defer = d;
        goto out;
    }
    if (s.best == SIZE_MAX && (rc = by_bound_alone(&s, algo, req, rep, chosen, why, len)) != 1)
        goto out; /* chosen by its bound, or refused before any work with the fewest transfers */
    rc = 0;
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
    if ((rc = search_note(rep, s.log))) goto out;
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
    if (memo_hits) *memo_hits = s.cache.memo_hits; /* before cache_free clears it */
    cache_free(&s.cache);
    oc__round_free(&s.spare);
    if (s.alone) model->destroy(s.alone);
    if (checked) *checked = s.checked;
    return rc;
}

int oc__search_params(const oc__algo *algo, const oc__netset *net, const oc_request *req,
                      oc_kv **chosen, oc_report *rep, char *why, size_t len) {
    return run_search(algo, net, req, 0, SEARCH_TRANSFER_BUDGET, 0, NULL, NULL, chosen, NULL, rep,
                      why, len);
}

int oc__search_params_deferred(const oc__algo *algo, const oc__netset *net,
                               const oc_request *req, oc_kv **chosen, oc__search_defer **defer,
                               oc_report *rep, char *why, size_t len) {
    return run_search(algo, net, req, 0, SEARCH_TRANSFER_BUDGET, 0, NULL, NULL, chosen, defer,
                      rep, why, len);
}

/* The tests' entries below name the network by its model: its settings (req->net_params) are
 * parsed here, once, as a run would. */
static int search_on(const oc__algo *algo, const oc__model *model, const oc_request *req,
                     int check_cache, uint64_t budget, size_t cache_limit, uint64_t *checked,
                     uint64_t *memo_hits, oc_kv **chosen, oc_report *rep, char *why, size_t len) {
    oc__netset net;
    *chosen = NULL;
    int rc = model && algo->search
                 ? oc__netset_parse(model, req->net_params, req->nodes, &net, why, len)
                 : 0;
    if (rc) return rc;
    return run_search(algo, model && algo->search ? &net : NULL, req, check_cache, budget,
                      cache_limit, checked, memo_hits, chosen, NULL, rep, why, len);
}

int oc__search_check_cache(const oc__algo *algo, const oc__model *model, const oc_request *req,
                           uint64_t *checked, oc_kv **chosen, oc_report *rep, char *why,
                           size_t len) {
    return search_on(algo, model, req, 1, SEARCH_TRANSFER_BUDGET, 0, checked, NULL, chosen, rep,
                     why, len);
}

int oc__search_check_memo(const oc__algo *algo, const oc__model *model, const oc_request *req,
                          size_t cache_bytes, uint64_t *checked, uint64_t *memo_hits,
                          oc_kv **chosen, oc_report *rep, char *why, size_t len) {
    return search_on(algo, model, req, 1, SEARCH_TRANSFER_BUDGET, cache_bytes ? cache_bytes : 1,
                     checked, memo_hits, chosen, rep, why, len);
}

int oc__search_budget(const oc__algo *algo, const oc__model *model, const oc_request *req,
                      uint64_t budget, oc_kv **chosen, oc_report *rep, char *why, size_t len) {
    return search_on(algo, model, req, 0, budget, 0, NULL, NULL, chosen, rep, why, len);
}
