/*
 * test_shard_part.c — one run split into parts (src/run/shard.c: oc_settings.part, oc__part_merge),
 * as opticoll-cluster splits it across MPI ranks; here each part is a thread and a barrier
 * stands for the tool's MPI_Allgather, so the test runs without MPI and under the sanitizers.
 *
 *  1. Runs: algorithms of every collective at N in {1, 2, 3, 5, 7, 12, 100}, split into 2, 3 and
 *     5 parts with shards of 1 chunk forced and with the automatic plan: part 0's report (return
 *     code, reason, rounds, transfers, chunk-transfers, redundant deliveries, steps, time) equals
 *     the whole run's; every other part returns OC_ENOTSUP (it ran no cost pass) or the whole
 *     run's failure; the parts verified their contiguous shares and nothing twice.
 *  2. Broken stored schedules (a contribution counted twice, a transfer dropped, a node out of
 *     range, and two faults at once: a late one in the first chunk, an early one in the last,
 *     so that the parts holding them disagree) give every part the one-pass first error.
 *  3. The merge itself: the smallest key wins, ties go to the lower part, parts that planned
 *     differently or did not reach their passes are refused with one line.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "run/pipeline.h"
#include "run/shard.h"
#include "run_outcome.h"
#include "settings_now.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARTS = 5 };

/* The parts of one split run: the results they hand to combine, met at a barrier. */
typedef struct world {
    unsigned count;
    pthread_barrier_t bar;
    oc__part_result res[MAX_PARTS];
} world;

/* What one part runs: an algorithm's request, or a stored schedule of `spec`. */
typedef struct job {
    const oc_request *req;
    const oc__spec *spec;
    const oc__store *st;
} job;

typedef struct member {
    oc__part part; /* first: combine gets it back as the member */
    world *w;
    const job *job;
    outcome out;
    oc__part_result mine; /* what this part handed to combine */
} member;

static int combine(oc__part *self, oc__part_result *r) {
    member *m = (member *)self;
    m->mine = *r;
    m->w->res[self->index] = *r;
    pthread_barrier_wait(&m->w->bar);
    oc__part_merge(m->w->res, m->w->count, r);
    pthread_barrier_wait(&m->w->bar);
    return 0;
}

static outcome run_job(const job *j) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc_report *rep = NULL;
    if (j->req) {
        o.rc = oc_run(j->req, &rep, o.why, sizeof o.why);
    } else {
        oc__store_source src = {j->st};
        rep = oc__report_new();
        o.rc = rep ? oc__run_schedule(j->spec, oc__source_store, &src, NULL, NULL, 1, NULL, rep,
                                      o.why, sizeof o.why)
                   : OC_ENOMEM;
    }
    outcome_take(&o, rep);
    return o;
}

/* One part on its thread, as the tool runs one on each rank: a part that failed before its
 * passes still joins the combine. */
static void *part_main(void *arg) {
    member *m = arg;
    oc_settings mine = test_settings; /* the main thread's knobs, and this thread's part */
    mine.part = &m->part;
    const oc_settings *prev = oc__settings_enter(&mine);
    m->out = run_job(m->job);
    oc__settings_leave(prev);
    if (!m->part.combined) {
        oc__part_result r;
        memset(&r, 0, sizeof r);
        r.rc = m->out.rc ? m->out.rc : OC_EINVAL;
        snprintf(r.why, sizeof r.why, "%s", m->out.why);
        combine(&m->part, &r);
    }
    return NULL;
}

/* Runs the job whole and in `count` parts and checks the parts against the whole; `what` names
 * the case in failures. */
static void split_matches(const job *j, unsigned count, const char *what) {
    const outcome whole = run_job(j);
    world w;
    memset(&w, 0, sizeof w);
    w.count = count;
    member m[MAX_PARTS];
    pthread_t t[MAX_PARTS];
    CHECK(pthread_barrier_init(&w.bar, NULL, count) == 0, "barrier");
    for (unsigned i = 0; i < count; i++) {
        memset(&m[i], 0, sizeof m[i]);
        m[i].part = (oc__part){.index = i, .count = count, .combine = combine};
        m[i].w = &w;
        m[i].job = j;
        CHECK(pthread_create(&t[i], NULL, part_main, &m[i]) == 0, "thread %u", i);
    }
    for (unsigned i = 0; i < count; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&w.bar);
    CHECK(outcome_same(&whole, &m[0].out),
          "%s in %u parts: whole rc %d '%s' rounds %llu redundant %llu; part 0 rc %d '%s' rounds "
          "%llu redundant %llu",
          what, count, whole.rc, whole.why, (unsigned long long)whole.rounds,
          (unsigned long long)whole.redundant, m[0].out.rc, m[0].out.why,
          (unsigned long long)m[0].out.rounds, (unsigned long long)m[0].out.redundant);
    uint32_t ran = 0;
    for (unsigned i = 1; i < count; i++) {
        const int want = whole.rc ? whole.rc : OC_ENOTSUP;
        CHECK(m[i].out.rc == want && (!whole.rc || !strcmp(m[i].out.why, whole.why)),
              "%s, part %u of %u: rc %d '%s', want %d '%s'", what, i, count, m[i].out.rc,
              m[i].out.why, want, whole.rc ? whole.why : "");
    }
    for (unsigned i = 0; i < count && m[0].part.combined; i++) {
        const oc__part_result *p = &m[i].mine;
        /* part i verified the contiguous share [i S / count, (i + 1) S / count) */
        const uint32_t S = p->shards, share = (uint32_t)((uint64_t)S * (i + 1) / count) -
                                              (uint32_t)((uint64_t)S * i / count);
        CHECK(p->ran == share && p->cost == (i == 0) && m[i].part.combined == 1,
              "%s, part %u of %u: verified %u of %u shards (want %u), cost pass %d, %u combines",
              what, i, count, p->ran, S, share, p->cost, m[i].part.combined);
        ran += p->ran;
    }
    /* every shard once, and at least one a part unless the chunks are fewer than the parts */
    const oc__part_result *p0 = &m[0].mine;
    if (m[0].part.combined)
        CHECK(ran == p0->shards && (p0->shards >= count || p0->width == 1),
              "%s in %u parts: %u shards of %u chunks, %u verified", what, count, p0->shards,
              p0->width, ran);
}

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};

/* Every collective's algorithms at the odd, prime and non-power sizes, in 2, 3 and 5 parts. */
static void runs(void) {
    static const struct {
        oc_collective coll;
        const char *algo, *net;
    } cases[] = {{OC_ALLREDUCE, "ring", "switch"},     {OC_ALLREDUCE, "rhd", "switch"},
                 {OC_ALLREDUCE, "dbtree", "switch"},   {OC_ALLREDUCE, "hring", "ring"},
                 {OC_REDUCESCATTER, "ring", "switch"}, {OC_ALLGATHER, "ring", "ring"},
                 {OC_ALLGATHER, "bruck", "switch"},    {OC_ALLGATHER, "onestage", "ring"},
                 {OC_BROADCAST, "tcp1-split", "star"}, {OC_ALLTOALL, "pairwise", "switch"},
                 {OC_ALLREDUCE, "wrht", "ring"}};
    const uint32_t shard[] = {1, 0};
    const unsigned parts[] = {2, 3, 5};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t k = 0; k < 2 * sizeof parts / sizeof *parts; k++) {
                oc_request req = {.collective = cases[c].coll,
                                  .algorithm = cases[c].algo,
                                  .network = cases[c].net,
                                  .nodes = sizes[s],
                                  .bytes = 4096};
                const job j = {.req = &req};
                char what[128];
                test_settings.verify_shard = shard[k % 2]; /* both ways on each part count */
                snprintf(what, sizeof what, "%s %s on %s, N=%u, shards of %u",
                         oc_collective_name(cases[c].coll), cases[c].algo, cases[c].net, sizes[s],
                         shard[k % 2]);
                split_matches(&j, parts[k / 2], what);
            }
    test_settings.verify_shard = 0;
}

/* ---- broken stored schedules ---- */

/* The index of the first transfer of round r carrying chunk c, or the round's count. */
static size_t carrying(const oc__round *r, uint32_t c) {
    size_t i = 0;
    while (i < r->count && (c < r->xfers[i].first || c >= r->xfers[i].first + r->xfers[i].count))
        i++;
    return i;
}

enum { DUP, DROP, OUT_OF_RANGE, TWO_FAULTS, FAULTS };
static const char *const fault_names[] = {"twice", "dropped", "out of range", "two faults"};

/* Breaks the stored schedule; 0 when it has no place for the fault. */
static int breaks(oc__store *st, const oc__spec *spec, int fault) {
    if (st->count < 2) return 0;
    oc__round *early = &st->rounds[st->count / 4], *late = &st->rounds[st->count * 3 / 4];
    const size_t e = carrying(early, spec->chunks - 1), l = carrying(late, 0);
    if (e == early->count || l == late->count) return 0;
    switch (fault) {
    case DUP: { /* the last chunk's transfer of an early round, twice */
        const oc__transfer t = early->xfers[e];
        return oc__round_push(early, t.src, t.dst, (oc__op)t.op, t.first, t.count) ? -1 : 1;
    }
    case DROP: /* the first chunk's transfer of a late round, gone */
        late->xfers[l] = late->xfers[--late->count];
        return 1;
    case OUT_OF_RANGE:
        late->xfers[l].dst = spec->nodes;
        return 1;
    default: { /* the part of the first chunk meets a late fault, that of the last an early one */
        late->xfers[l].dst = spec->nodes + 1;
        const oc__transfer t = early->xfers[e];
        return oc__round_push(early, t.src, t.dst, (oc__op)t.op, t.first, t.count) ? -1 : 1;
    }
    }
}

static void broken(void) {
    static const struct {
        oc_collective coll;
        const char *algo;
    } cases[] = {{OC_ALLREDUCE, "ring"},     {OC_ALLREDUCE, "rhd"},  {OC_ALLREDUCE, "dbtree"},
                 {OC_REDUCESCATTER, "ring"}, {OC_ALLGATHER, "ring"}, {OC_ALLGATHER, "bruck"}};
    const uint32_t n_of[] = {5, 7, 12};
    unsigned compared = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t ni = 0; ni < sizeof n_of / sizeof *n_of; ni++)
            for (int f = 0; f < FAULTS; f++) {
                oc_request req = {.collective = cases[c].coll,
                                  .algorithm = cases[c].algo,
                                  .nodes = n_of[ni],
                                  .bytes = 4096,
                                  .skip_data_check = 1};
                const oc__algo *algo = NULL;
                const oc__model *model = NULL;
                oc__plan plan;
                char why[512] = "";
                oc_report *rep = oc__report_new();
                int rc = oc__plan_request(&req, &algo, &model, &plan, rep, why, sizeof why);
                oc_report_free(rep);
                CHECK(rc == 0, "%s N=%u: %s", cases[c].algo, n_of[ni], why);
                oc__store st;
                oc__store_init(&st);
                if (!rc) rc = oc__generate(algo, &plan, &st.sink, why, sizeof why);
                if (!rc && breaks(&st, &plan.spec, f) > 0) {
                    const job j = {.spec = &plan.spec, .st = &st};
                    char what[128];
                    snprintf(what, sizeof what, "%s %s N=%u, %s", oc_collective_name(cases[c].coll),
                             cases[c].algo, n_of[ni], fault_names[f]);
                    test_settings.verify_shard = 1;
                    split_matches(&j, 3, what);
                    test_settings.verify_shard = 0;
                    split_matches(&j, 2, what);
                    compared++;
                }
                oc__store_free(&st);
                oc__plan_free(algo, &plan);
            }
    CHECK(compared >= 60, "only %u broken schedules compared", compared);
}

/* ---- the merge ---- */

static oc__part_result part_with(int rc, uint64_t round, uint32_t chunk, const char *why,
                                 uint32_t shards, uint32_t ran, int cost) {
    oc__part_result r;
    memset(&r, 0, sizeof r);
    r.rc = rc;
    r.key = (oc__verify_key){round, 3, 0, chunk};
    snprintf(r.why, sizeof r.why, "%s", why);
    r.shards = shards;
    r.width = shards ? 2 : 0;
    r.ran = ran;
    r.cost = cost;
    r.redundant = 1;
    return r;
}

static void merge(void) {
    oc__part_result all[3], out;
    all[0] = part_with(0, 0, 0, "", 6, 2, 1);
    all[1] = part_with(OC_EVERIFY, 9, 2, "late", 6, 2, 0);
    all[2] = part_with(OC_EVERIFY, 4, 5, "early", 6, 2, 0);
    oc__part_merge(all, 3, &out);
    CHECK(out.rc == OC_EVERIFY && !strcmp(out.why, "early") && out.redundant == 3 && out.ran == 6,
          "smallest key: rc %d '%s' redundant %llu ran %u", out.rc, out.why,
          (unsigned long long)out.redundant, out.ran);
    all[1] = part_with(OC_EVERIFY, 4, 5, "tie, lower part", 6, 2, 0);
    oc__part_merge(all, 3, &out);
    CHECK(!strcmp(out.why, "tie, lower part"), "a tie goes to the lower part: '%s'", out.why);
    all[1] = part_with(0, 0, 0, "", 6, 2, 0);
    all[2] = part_with(0, 0, 0, "", 6, 2, 0);
    oc__part_merge(all, 3, &out);
    CHECK(out.rc == 0 && out.shards == 6 && out.width == 2, "success: rc %d '%s'", out.rc, out.why);
    all[2].width = 3;
    oc__part_merge(all, 3, &out);
    CHECK(out.rc == OC_EINVAL && strstr(out.why, "planned different shards (part 0: 6 of 2 "
                                                 "chunks, part 2: 6 of 3 chunks)"),
          "plans differ: rc %d '%s'", out.rc, out.why);
    all[2] = part_with(0, 0, 0, "", 6, 1, 0);
    oc__part_merge(all, 3, &out);
    CHECK(out.rc == OC_EINVAL && strstr(out.why, "verified 5 of 6 shards"),
          "a shard left out: rc %d '%s'", out.rc, out.why);
    all[2] = part_with(OC_ENOMEM, 0, 0, "out of memory", 0, 0, 0);
    all[2].key = (oc__verify_key){0, 0, 0, 0};
    oc__part_merge(all, 3, &out);
    CHECK(out.rc == OC_ENOMEM && !strcmp(out.why, "out of memory"),
          "a part that failed before its passes: rc %d '%s'", out.rc, out.why);
}

/* No argument: every part; otherwise the parts named (merge, runs, broken). */
int main(int argc, char **argv) {
    test_settings_enter();
    static const char *const names[] = {"merge", "runs", "broken"};
    static void (*const fns[])(void) = {merge, runs, broken};
    for (int i = 1; i < argc; i++) {
        size_t k = 0;
        while (k < 3 && strcmp(argv[i], names[k]))
            k++;
        if (k == 3) return fprintf(stderr, "unknown part '%s'\n", argv[i]), 2;
    }
    for (size_t k = 0; k < 3; k++) {
        int asked = argc < 2;
        for (int i = 1; i < argc; i++)
            asked |= !strcmp(argv[i], names[k]);
        if (asked) fns[k]();
    }
    return CHECK_SUMMARY();
}
