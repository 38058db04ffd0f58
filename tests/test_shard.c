/*
 * test_shard.c — chunk-sharded verification (src/run/shard.c): the same
 * verdict and the same first error as one pass.
 *
 *  1. Every algorithm of the registry on its first network, N in {1, 2, 3, 5, 7, 12, 100}: run
 *     once in one pass and again with shards of 1 chunk forced (oc_settings.verify_shard) on 2
 *     threads and of 7 chunks on 1; the return code, the reason, the rounds, transfers,
 * chunk-transfers, redundant deliveries, steps and time must be the same.
 *  2. Error injection: a generated schedule is stored, one transfer is broken (a sender that
 *     does not hold the chunk, a contribution counted twice, a copy racing a write, a transfer
 *     dropped, a node out of range, a chunk range past the end), and the broken schedule is
 *     verified in one pass and sharded: the first error must be the same line.
 *  3. Windowed generation: the ring's generator skips the senders outside a window
 *     (ring_phases.c); a shard's rounds must be exactly the whole rounds' transfers that touch
 *     the window, in their places.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "keep_rounds.h"
#include "run/pipeline.h"
#include "settings_now.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, steps;
    double time, transfers, units, redundant;
} outcome;

static outcome run_one(const oc_algorithm_info *a, const char *net, uint32_t n) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc_request req = {.collective = a->collective,
                      .algorithm = a->name,
                      .network = net,
                      .nodes = n,
                      .bytes = 4096};
    oc_report *rep = NULL;
    o.rc = oc_run(&req, &rep, o.why, sizeof o.why);
    if (!o.rc) {
        o.rounds = oc_report_rounds(rep);
        o.steps = oc_report_steps(rep);
        o.time = oc_report_time(rep);
        o.transfers = (double)rep->transfers;
        o.units = (double)rep->units;
        o.redundant = (double)rep->redundant;
    }
    oc_report_free(rep);
    return o;
}

static int same(const outcome *x, const outcome *y) {
    return x->rc == y->rc && !strcmp(x->why, y->why) && x->rounds == y->rounds &&
           x->steps == y->steps && x->time == y->time && x->transfers == y->transfers &&
           x->units == y->units && x->redundant == y->redundant;
}

/* Part `part` of `parts`: the registry's algorithms at places part, part + parts, ... (parts 1:
 * every one). CTest runs the parts as tests side by side: two halves took 268 and 393 s on a
 * loaded machine against their 600 s limit (issue 27: no test may need more than a fifth). */
static void every_algorithm(size_t part, size_t parts) {
    /* shards of one chunk on two threads, of seven on one */
    const uint32_t shard[] = {1, 7};
    const unsigned threads[] = {2, 1};
    for (size_t i = part; i < oc_algorithm_count(); i += parts) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        char net[32];
        size_t k = strcspn(a->networks, ",");
        snprintf(net, sizeof net, "%.*s", (int)k, a->networks);
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            test_settings.verify_shard = 0;
            test_settings.verify_threads = 0;
            const outcome one = run_one(a, net, sizes[s]);
            for (size_t w = 0; w < 2; w++) {
                const unsigned t = threads[w];
                /* All-to-all on 100 nodes has 10^4 chunks: windows of one chunk were 10^4
                 * regenerations of the schedule, 2.4 min of this test for cartesian and pipeline
                 * alone (of 3 min). Windows of 97 and 679 chunks (no divisor of a node's 100)
                 * still cut across every node's block; one-chunk windows are kept at N <= 12. */
                const uint32_t width =
                    a->collective == OC_ALLTOALL && sizes[s] > 12 ? 97 * shard[w] : shard[w];
                test_settings.verify_shard = width;
                test_settings.verify_threads = t;
                {
                    const outcome sh = run_one(a, net, sizes[s]);
                    CHECK(same(&one, &sh),
                          "%s %s on %s, N=%u, shards of %u on %u threads: one pass rc %d '%s' "
                          "rounds %llu transfers %.0f; sharded rc %d '%s' rounds %llu "
                          "transfers %.0f",
                          oc_collective_name(a->collective), a->name, net, sizes[s], width, t,
                          one.rc, one.why, (unsigned long long)one.rounds, one.transfers, sh.rc,
                          sh.why, (unsigned long long)sh.rounds, sh.transfers);
                }
            }
        }
    }
    test_settings.verify_shard = 0;
    test_settings.verify_threads = 0;
}

/* ---- error injection ---- */

typedef enum {
    BREAK_SENDER, /* the sender of a late transfer: a node that does not hold the chunk */
    BREAK_TWICE,  /* a reduce repeated in the same round: counted twice (or a copy race) */
    BREAK_DROP,   /* a transfer removed: something missing at the end */
    BREAK_RANGE,  /* a node out of range */
    BREAK_CHUNKS, /* a chunk range past the end */
    BREAK_SELF,   /* a node sending to itself */
    BREAK_COUNT
} breakage;

static const char *const break_names[] = {"sender", "twice", "drop", "range", "chunks", "self"};

/* Plans `name` on n nodes as oc_run would (4 KiB); 0, or the plan is freed and the planner's
 * error returned (a restriction: power of two...). */
static int plan_for(oc_collective coll, const char *name, uint32_t n, const oc__algo **algo,
                    oc__plan *plan) {
    oc_request req = {
        .collective = coll, .algorithm = name, .nodes = n, .bytes = 4096, .skip_data_check = 1};
    const oc__model *model;
    char why[512];
    oc_report *rep = oc__report_new();
    int rc = rep ? oc__plan_request(&req, algo, &model, plan, rep, why, sizeof why) : OC_ENOMEM;
    oc_report_free(rep);
    if (rc) oc__plan_free(*algo, plan);
    return rc;
}

/* Breaks the stored schedule: transfer `at` of round `r` (both taken modulo what exists). */
static int inject(oc__store *st, const oc__spec *spec, breakage b, size_t r, size_t at) {
    if (!st->count) return 0;
    oc__round *rd = &st->rounds[r % st->count];
    if (!rd->count) return 0;
    oc__transfer *t = &rd->xfers[at % rd->count];
    switch (b) {
    case BREAK_SENDER:
        t->src = (t->src + 1) % spec->nodes;
        if (t->src == t->dst) t->src = (t->src + 1) % spec->nodes;
        break;
    case BREAK_TWICE: {
        oc__transfer copy = *t;
        if (oc__round_push(rd, copy.src, copy.dst, (oc__op)copy.op, copy.first, copy.count))
            return -1;
        break;
    }
    case BREAK_DROP:
        *t = rd->xfers[rd->count - 1];
        rd->count--;
        break;
    case BREAK_RANGE:
        t->dst = spec->nodes + 3;
        break;
    case BREAK_CHUNKS:
        t->count = spec->chunks + 1 - t->first;
        break;
    case BREAK_SELF:
        t->dst = t->src;
        break;
    default:
        break;
    }
    return 1;
}

static outcome verify_store(const oc__spec *spec, const oc__store *st) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc_report *rep = oc__report_new();
    oc__store_source src = {st};
    o.rc = oc__run_schedule(spec, oc__source_store, &src, NULL, NULL, 1, NULL, rep, o.why,
                            sizeof o.why);
    if (!o.rc) {
        o.rounds = oc_report_rounds(rep);
        o.transfers = (double)rep->transfers;
        o.redundant = (double)rep->redundant;
    }
    oc_report_free(rep);
    return o;
}

static void error_injection(void) {
    static const struct {
        oc_collective coll;
        const char *algo;
    } cases[] = {{OC_ALLREDUCE, "ring"},   {OC_ALLREDUCE, "rhd"},      {OC_ALLREDUCE, "bt"},
                 {OC_ALLREDUCE, "dbtree"}, {OC_ALLREDUCE, "wrht"},     {OC_ALLREDUCE, "rd"},
                 {OC_ALLREDUCE, "hring"},  {OC_REDUCESCATTER, "ring"}, {OC_ALLGATHER, "ring"},
                 {OC_ALLGATHER, "bruck"},  {OC_ALLGATHER, "onestage"}, {OC_ALLGATHER, "optree"},
                 {OC_ALLTOALL, "pairwise"}};
    const uint32_t n_of[] = {5, 7, 12, 16};
    uint64_t compared = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t ni = 0; ni < sizeof n_of / sizeof *n_of; ni++)
            for (int b = 0; b < BREAK_COUNT; b++)
                for (size_t pick = 0; pick < 3; pick++) {
                    test_settings.verify_shard = 0;
                    const oc__algo *algo = NULL;
                    oc__plan plan;
                    char why[512] = "";
                    if (plan_for(cases[c].coll, cases[c].algo, n_of[ni], &algo, &plan))
                        continue; /* a restriction (power of two...): nothing to break */
                    oc__store st;
                    oc__store_init(&st);
                    int rc = oc__generate(algo, &plan, &st.sink, why, sizeof why);
                    CHECK(rc == 0, "%s %s: %s", cases[c].algo, break_names[b], why);
                    /* spread the pick over early, middle and late rounds */
                    const size_t r = pick * st.count / 3 + pick, at = 7 * pick + (size_t)b;
                    if (!rc && inject(&st, &plan.spec, (breakage)b, r, at) > 0) {
                        const outcome one = verify_store(&plan.spec, &st);
                        for (uint32_t w = 1; w <= 5; w += 2) {
                            test_settings.verify_shard = w;
                            const outcome sh = verify_store(&plan.spec, &st);
                            CHECK(one.rc == sh.rc && !strcmp(one.why, sh.why),
                                  "%s %s N=%u break %s round %zu: one pass %d '%s', shards of "
                                  "%u: %d '%s'",
                                  oc_collective_name(cases[c].coll), cases[c].algo, n_of[ni],
                                  break_names[b], r, one.rc, one.why, w, sh.rc, sh.why);
                            compared++;
                        }
                        test_settings.verify_shard = 0;
                    }
                    oc__store_free(&st);
                    oc__plan_free(algo, &plan);
                }
    CHECK(compared > 500, "only %llu broken schedules compared", (unsigned long long)compared);
    test_settings.verify_shard = 0;
}

/* ---- windowed generation ---- */

static void windows(void) {
    static const struct {
        oc_collective coll;
        const char *algo;
    } cases[] = {{OC_ALLREDUCE, "ring"},
                 {OC_ALLREDUCE, "hring"},
                 {OC_REDUCESCATTER, "ring"},
                 {OC_ALLGATHER, "ring"},
                 {OC_ALLGATHER, "onestage"}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t ni = 0; ni < sizeof sizes / sizeof *sizes; ni++) {
            const oc__algo *algo = NULL;
            oc__plan plan;
            char why[256];
            if (plan_for(cases[c].coll, cases[c].algo, sizes[ni], &algo, &plan)) continue;
            keep whole;
            keep_init(&whole);
            CHECK(oc__generate(algo, &plan, &whole.sink, why, sizeof why) == 0, "%s", why);
            const uint32_t C = plan.spec.chunks;
            for (uint32_t lo = 0; lo < C; lo += 1 + C / 5)
                for (uint32_t w = 1; w <= 3 && lo + w <= C; w++) {
                    keep part;
                    keep_init(&part);
                    oc__emit e;
                    oc__emit_init(&e, &plan.spec, &part.sink, why, sizeof why);
                    oc__emit_window(&e, lo, lo + w);
                    CHECK(algo->generate(&plan, &e) == 0, "%s", why);
                    CHECK(e.rounds == whole.st.count,
                          "%s N=%u window [%u,%u): %llu rounds, not %zu", cases[c].algo, sizes[ni],
                          lo, lo + w, (unsigned long long)e.rounds, whole.st.count);
                    /* the part is exactly the whole's transfers that touch the window */
                    size_t j = 0, k = 0, bad = 0;
                    for (size_t r = 0; r < whole.st.count; r++)
                        for (size_t i = 0; i < whole.st.rounds[r].count; i++, k++) {
                            const oc__transfer *t = &whole.st.rounds[r].xfers[i];
                            if (t->first >= lo + w || t->first + t->count <= lo) continue;
                            if (j >= part.npos || part.pos[j] != whole.pos[k]) bad++;
                            j++;
                        }
                    CHECK(!bad && j == part.npos,
                          "%s N=%u window [%u,%u): %zu transfers misplaced, %zu of %zu kept",
                          cases[c].algo, sizes[ni], lo, lo + w, bad, j, part.npos);
                    oc__emit_free(&e);
                    keep_free(&part);
                }
            keep_free(&whole);
            oc__plan_free(algo, &plan);
        }
}

/* "algorithms-K/M" (K < M): part K of M of the algorithms; 0 and the part, or -1. */
static int algorithms_part(const char *arg, unsigned *part, unsigned *parts) {
    char end;
    return sscanf(arg, "algorithms-%u/%u%c", part, parts, &end) == 2 && *part < *parts ? 0 : -1;
}

/* No argument: all three parts; otherwise the parts named (windows, errors, algorithms, or its
 * part K of M, algorithms-K/M). */
int main(int argc, char **argv) {
    test_settings_enter();
    int all = argc < 2;
    unsigned part, parts;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "windows") && strcmp(argv[i], "errors") &&
            strcmp(argv[i], "algorithms") && algorithms_part(argv[i], &part, &parts))
            return fprintf(stderr, "unknown part '%s'\n", argv[i]), 2;
    for (int i = 0; i < (all ? 1 : argc); i++) {
        const char *p = all ? "" : argv[i];
        if (all || !strcmp(p, "windows")) windows();
        if (all || !strcmp(p, "errors")) error_injection();
        if (all || !strcmp(p, "algorithms")) every_algorithm(0, 1);
        if (!all && !algorithms_part(p, &part, &parts)) every_algorithm(part, parts);
    }
    return CHECK_SUMMARY();
}
