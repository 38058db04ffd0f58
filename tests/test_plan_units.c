/*
 * test_plan_units.c — every algorithm's plan states its work before it generates (issue 27, item
 * 4: "every algorithm counts its transfers and work before it generates").
 *
 * A plan states two counts in its spec (core/core.h): units, the chunk-transfers of the whole
 * schedule (a reduction's verifier merges a contribution set for each), and transfers (a copy
 * verifier's and a model's work is one range or one bundle a transfer). The work budget
 * (core/budget.c) refuses a run or a search candidate from them before anything is generated, so
 * a count below the schedule's lets work past the budget, and a missing one (0) lets it all past.
 *
 * For every algorithm of the table (oc__algo_at: one added tomorrow is met here too) on its
 * first network, at N in {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 30, 31, 36, 64} (those its
 * restrictions take; at least two must be), at the parameters the search chooses and a few pinned
 * ones:
 *  - the plan's units and transfers are those the generator emits (counted by a sink on the
 *    flattened rounds), or, for the algorithms in `bounded` below, at least those (each with
 *    the reason its count is a bound); a count that is wrong fails, a missing one is named
 *    ("states no units"), so that a new algorithm without its counts is found at once;
 *  - at a work budget of 1 every run on two or more nodes is refused with OC_ETOOBIG and a line
 *    naming the work budget and OPTICOLL_WORK_BUDGET, before its first round (the rounds'
 *    progress, reported at every step, never tells of one); at one below the work its plan
 *    states (oc__shard_work: the chunk-transfers of a reduction verified a set a chunk, else
 *    the transfers), its parameters pinned, the same, naming the count; at the stated work it
 *    is not refused by the budget.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/progress.h"
#include "core/result.h"
#include "run/pipeline.h"
#include "run/shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 30, 31, 36, 64};

/* The algorithms whose stated counts are proven upper bounds rather than exact, and why. */
static const struct {
    const char *collective, *name, *why;
} bounded[] = {
    {"allgather", "optree", "V (m_j - 1) transfers a stage: fewer where two partners share a node"},
    {"alltoall", "tcp2", "a packet moves at most once a step; each step's transfers bounded"},
    {"gossip", "tcp2", "at most two transfers a stream (a range that wraps)"},
    {"broadcast", "tcp1-split", "the dummies' and same-node sends are dropped from the bound"},
    {"alltoall", "cartesian", "its transfer count; at most N packets (one node's) a transfer"},
    {"alltoall", "bex", "at most N packets (one node's) a transfer"},
    {"alltoall", "qex", "at most N packets (one node's) a transfer"},
    {NULL, NULL, NULL},
};

static int is_bounded(const oc__algo *a) {
    for (size_t i = 0; bounded[i].name; i++)
        if (!strcmp(bounded[i].name, a->info.name) &&
            !strcmp(bounded[i].collective, oc_collective_name(a->info.collective)))
            return 1;
    return 0;
}

typedef struct counter {
    oc__sink sink;
    uint64_t transfers, units;
} counter;

static int count_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)index, (void)why, (void)len;
    counter *c = (counter *)self;
    c->transfers += r->count;
    for (size_t i = 0; i < r->count; i++)
        c->units += r->xfers[i].count;
    return 0;
}

/* The network an algorithm is tried on: the first it lists, with what that network needs. */
static const char *network_of(const oc__algo *a, char *buf, size_t len) {
    snprintf(buf, len, "%s", a->info.networks);
    buf[strcspn(buf, ",")] = 0;
    return buf;
}

static oc_kv *net_params_for(const oc__algo *a) {
    oc_kv *kv = oc_kv_new();
    if (kv && !strncmp(a->info.name, "dex", 3)) oc_kv_set(kv, "switching", "wh");
    return kv;
}

/* The request every check of this file makes: `a` on N nodes, 4 KiB, on its network (its name
 * written into `net`, its settings `np`), `params` pinned, without the real-data run. */
static oc_request request_for(const oc__algo *a, uint32_t N, const oc_kv *params, char *net,
                              size_t len, const oc_kv *np) {
    return (oc_request){.collective = a->info.collective,
                        .algorithm = a->info.name,
                        .network = network_of(a, net, len),
                        .nodes = N,
                        .bytes = 4096,
                        .params = params,
                        .net_params = np,
                        .skip_data_check = 1};
}

/* Plans `a` on N nodes as a run would (the search's choice where unpinned), generates it into a
 * counter and compares. Returns 1 when the plan was made (the restrictions took N), else 0. */
static int compare_counts(const oc__algo *a, uint32_t N, oc_kv *params) {
    char net[64];
    oc_kv *np = net_params_for(a);
    oc_request req = request_for(a, N, params, net, sizeof net, np);
    const oc__algo *algo = NULL;
    const oc__model *model = NULL;
    oc__plan plan = {0};
    char why[512] = "";
    oc_report *rep = oc__report_new();
    int rc = rep ? oc__plan_request(&req, &algo, &model, &plan, rep, why, sizeof why) : OC_ENOMEM;
    int made = 0;
    if (rc == 0) {
        made = 1;
        counter c = {.sink.round = count_round};
        rc = oc__generate(algo, &plan, &c.sink, why, sizeof why);
        CHECK(rc == 0, "%s %s N=%u: generate: %s", oc_collective_name(a->info.collective),
              a->info.name, N, why);
        const uint64_t su = plan.spec.units, st = plan.spec.transfers;
        const int bound = is_bounded(a);
        if (!rc && N >= 2) {
            CHECK(su != 0,
                  "%s %s N=%u states no units (chunk-transfers): its plan must count "
                  "them (%llu emitted)",
                  oc_collective_name(a->info.collective), a->info.name, N,
                  (unsigned long long)c.units);
            CHECK(st != 0,
                  "%s %s N=%u states no transfers: its plan must count them (%llu "
                  "emitted)",
                  oc_collective_name(a->info.collective), a->info.name, N,
                  (unsigned long long)c.transfers);
        }
        if (!rc && (su || st || N >= 2)) {
            char used[256] = "";
            for (size_t k = 0; k < oc_kv_count(plan.used); k++)
                snprintf(used + strlen(used), sizeof used - strlen(used), " %s=%s",
                         oc_kv_key(plan.used, k), oc_kv_value(plan.used, k));
            CHECK(bound ? su >= c.units : su == c.units,
                  "%s %s N=%u [%s ]: the plan states %llu chunk-transfers, the schedule has %llu",
                  oc_collective_name(a->info.collective), a->info.name, N, used,
                  (unsigned long long)su, (unsigned long long)c.units);
            CHECK(bound ? st >= c.transfers : st == c.transfers,
                  "%s %s N=%u [%s ]: the plan states %llu transfers, the schedule has %llu",
                  oc_collective_name(a->info.collective), a->info.name, N, used,
                  (unsigned long long)st, (unsigned long long)c.transfers);
        }
    }
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
    oc_kv_free(np);
    return made;
}

/* ---- the budget refuses at the stated work, before the first round ---- */

/* The rounds' progress, every step reported (oc__progress_every_step): a round made is a call
 * with done < total or a second call; the one call a refused run may get is the end's, which
 * reports done = total. */
typedef struct seen {
    uint64_t rounds_calls, rounds_short;
} seen;

static int record(void *ctx, const char *what, uint64_t done, uint64_t total) {
    seen *s = ctx;
    if (!strcmp(what, "rounds")) {
        s->rounds_calls++;
        if (done < total) s->rounds_short++;
    }
    return 0;
}

/* Runs `a` on N nodes with `params` at a work budget of `budget`: its return code and reason;
 * *rounds whether a round was made. */
static int run_at(const oc__algo *a, uint32_t N, const oc_kv *params, uint64_t budget, char *why,
                  size_t len, int *rounds) {
    char net[64];
    oc_kv *np = net_params_for(a);
    const oc_settings settings = {.work_budget = budget};
    seen s = {0};
    oc_request req = request_for(a, N, params, net, sizeof net, np);
    req.settings = &settings;
    req.progress = record;
    req.progress_ctx = &s;
    oc_report *rep = NULL;
    oc__progress_every_step(1);
    int rc = oc_run(&req, &rep, why, len);
    oc__progress_every_step(0);
    *rounds = s.rounds_calls > 1 || s.rounds_short;
    oc_report_free(rep);
    oc_kv_free(np);
    return rc;
}

/* At a budget of 1, and of one below the work the plan states (its parameters pinned: no
 * search), the run is refused with one line naming the budget and the variable, before any
 * round; at the stated work it is not refused by the budget. */
static void refused_at_the_edge(const oc__algo *a, uint32_t N) {
    const char *cname = oc_collective_name(a->info.collective);
    char why[512] = "";
    int rounds = 0;
    int rc = run_at(a, N, NULL, 1, why, sizeof why, &rounds);
    CHECK(rc == OC_ETOOBIG && strstr(why, "work budget of 1") &&
              strstr(why, "OPTICOLL_WORK_BUDGET") && !strchr(why, '\n') && !rounds,
          "%s %s N=%u at a work budget of 1: %d %s (rounds made: %d)", cname, a->info.name, N, rc,
          why, rounds);
    /* the plan a run makes (the search's choice), its parameters pinned */
    char net[64];
    oc_kv *np = net_params_for(a);
    oc_request req = request_for(a, N, NULL, net, sizeof net, np);
    const oc__algo *algo = NULL;
    const oc__model *model = NULL;
    oc__plan plan = {0};
    oc_report *rep = oc__report_new();
    rc = rep ? oc__plan_request(&req, &algo, &model, &plan, rep, why, sizeof why) : OC_ENOMEM;
    const uint64_t work = rc ? 0 : oc__shard_work(&plan.spec);
    /* the parameters a user can pin (m on the star is the workload; radices say k) */
    oc_kv *pins = oc_kv_new();
    for (size_t i = 0; !rc && pins && i < oc_kv_count(plan.used); i++) {
        const char *key = oc_kv_key(plan.used, i);
        int known = 0;
        for (size_t j = 0; a->param_names && a->param_names[j]; j++)
            known |= !strcmp(a->param_names[j], key);
        if (known && strcmp(key, "m") && !(!strcmp(key, "k") && oc_kv_get(plan.used, "radices")))
            oc_kv_set(pins, key, oc_kv_value(plan.used, i));
    }
    oc__plan_free(algo, &plan);
    oc_report_free(rep);
    oc_kv_free(np);
    CHECK(rc == 0 && work > 1, "%s %s N=%u: planned %d, stated work %llu", cname, a->info.name, N,
          rc, (unsigned long long)work);
    if (rc || work <= 1) {
        oc_kv_free(pins);
        return;
    }
    rc = run_at(a, N, pins, work - 1, why, sizeof why, &rounds);
    /* the count named, or (work N - 1, the least any schedule has) the floor's line */
    char want[64], floor[64];
    snprintf(want, sizeof want, "is %llu ", (unsigned long long)work);
    snprintf(floor, sizeof floor, "at least %llu transfers whatever", (unsigned long long)work);
    CHECK(rc == OC_ETOOBIG && (strstr(why, want) || strstr(why, floor)) &&
              strstr(why, "OPTICOLL_WORK_BUDGET") && !rounds,
          "%s %s N=%u at a work budget one below its %llu: %d %s (rounds made: %d)", cname,
          a->info.name, N, (unsigned long long)work, rc, why, rounds);
    rc = run_at(a, N, pins, work, why, sizeof why, &rounds);
    CHECK(!(rc == OC_ETOOBIG && strstr(why, "work budget")),
          "%s %s N=%u at a work budget of its %llu: %d %s", cname, a->info.name, N,
          (unsigned long long)work, rc, why);
    oc_kv_free(pins);
}

/* A budget above the floor (N - 1) but below every candidate's work: the search says that every
 * parameter set it tried is past the budget (not "none could be mapped"), and stops after 4096
 * such candidates where its space is larger (WRHT all-reduce on 64 nodes offered 1.04e6 of them,
 * 1 GiB of log, before its log's share stopped it). */
static void search_all_refused(void) {
    static const struct {
        oc_collective coll;
        const char *algo, *net, *want;
    } cases[] = {{OC_ALLREDUCE, "rhd", "switch", "every rhd parameter set tried ("},
                 {OC_ALLREDUCE, "wrht", "ring", "(4096, where the search stops)"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const oc_settings settings = {.work_budget = 100};
        oc_request req = {.collective = cases[i].coll,
                          .algorithm = cases[i].algo,
                          .network = cases[i].net,
                          .nodes = 64,
                          .bytes = 1 << 20,
                          .skip_data_check = 1,
                          .settings = &settings};
        char why[512] = "";
        oc_report *rep = NULL;
        int rc = oc_run(&req, &rep, why, sizeof why);
        CHECK(rc == OC_ETOOBIG && strstr(why, cases[i].want) &&
                  strstr(why, "more than the work budget of 100"),
              "%s on 64 nodes at a work budget of 100: %d %s", cases[i].algo, rc, why);
        oc_report_free(rep);
    }
}

/* Parameters the search may not choose at 4096 bytes, pinned so that their counts are held too
 * (a group's lanes and group rounds, many pieces, the other digraph family, small radices):
 * the collective, the algorithm and up to two key, value pairs. */
static const struct {
    const char *collective, *name, *pins[4];
} pinned[] = {
    {"allreduce", "rdg", {"group", "2", "radix", "2"}},
    {"allreduce", "rdg", {"group", "3", "radix", "3"}},
    {"allgather", "rdg", {"radix", "3", NULL, NULL}},
    {"reducescatter", "rdg", {"radix", "5", NULL, NULL}},
    {"broadcast", "ktree", {"degree", "2", "pieces", "7"}},
    {"gather", "ktree", {"degree", "1", NULL, NULL}},
    {"gossip", "kautz", {"degree", "2", "family", "debruijn"}},
    {"alltoall", "kautz", {"degree", "3", "family", "debruijn"}},
    {"alltoall", "kautz", {"degree", "1", NULL, NULL}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static void compare_pinned(const oc__algo *a) {
    for (size_t i = 0; pinned[i].name; i++) {
        if (strcmp(pinned[i].name, a->info.name) ||
            strcmp(pinned[i].collective, oc_collective_name(a->info.collective)))
            continue;
        int made = 0;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            oc_kv *params = oc_kv_new();
            for (size_t k = 0; params && k < 4 && pinned[i].pins[k]; k += 2)
                oc_kv_set(params, pinned[i].pins[k], pinned[i].pins[k + 1]);
            made += sizes[s] >= 2 && compare_counts(a, sizes[s], params);
            oc_kv_free(params);
        }
        CHECK(made >= 2, "%s %s pinned (%s=%s): planned at only %d of the sizes",
              pinned[i].collective, pinned[i].name, pinned[i].pins[0], pinned[i].pins[1], made);
    }
}

int main(void) {
    for (size_t i = 0; i < oc__algo_count(); i++) {
        const oc__algo *a = oc__algo_at(i);
        int made = 0;
        uint32_t some = 0;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            oc_kv *params = oc_kv_new();
            if (compare_counts(a, sizes[s], params) && sizes[s] >= 2) {
                made++;
                if (!some || sizes[s] == 16) some = sizes[s];
            }
            oc_kv_free(params);
        }
        CHECK(made >= 2, "%s %s: planned at only %d of the sizes",
              oc_collective_name(a->info.collective), a->info.name, made);
        if (some) refused_at_the_edge(a, some);
        compare_pinned(a);
    }
    search_all_refused();
    return CHECK_SUMMARY();
}
