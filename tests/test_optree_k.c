/*
 * test_optree_k.c — OpTree's all-gather search with its depth pinned (`k=K`) against the
 * exhaustive optimum of that depth on a grid of small N, and the two claims its newer pruning
 * rests on (allgather_optree.c, the essay's "One stage, any V" and "The ring stage when m_1
 * divides N"; issue 31 item 3).
 *
 *  - same_rounds: a one-stage list of V positions (radices=V, V = N .. 2N) emits exactly the
 *    schedule of radices=N (every transfer's ends, labels and count, in order), and the ring stage
 *    (round 1) of m_1 x W is the same sequence of (source, destination, count) for every V = m_1 W
 *    in N..2N for every m_1 the search shares one ring stage among (oc__optree_ring_stage_shared:
 *    m_1 divides N). The control: for some m_1 that does not divide N the ring stages of two V
 *    differ (so the comparison can tell them apart, and a rule sharing those fails). Read from the
 *    plan's own generator through a sink, not from the search.
 *  - pinned: N = 2, 3, 5, 7, 12, 16, 97, 100 at w = 1, 8, 64 (97 and 100 at w = 8 and 64) and
 *    k = 1 .. min(5, the deepest list): every ordered list of depth k with a product in N..2N run
 *    pinned (radices=), the least time then fewest steps kept; the search with k pinned must reach
 *    exactly that time and those steps, at k = 1 choose radices=N itself (the earliest offer of the
 *    tie), and every candidate it logged with a bound, mapped or pruned, must have that bound at
 *    most the cost of its list run pinned. A rule that prunes a list by a cost not its own (the
 *    ring stage of another V shared where m_1 does not divide N) fails here. N = 1 has nothing
 *    to gather, and k=1 is refused there in one line.
 */
#include "algo/algos.h"
#include "algo/allgather_optree.h"
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

enum { MAX_K = 5 };

/* ---- the schedules themselves ---- */

/* A sink that folds a schedule's transfers into hashes: of round 1 by (src, dst, count), and of
 * every round by (src, dst, first, count) too. */
typedef struct fold {
    oc__sink base;
    uint64_t ring, all;
    uint64_t rounds;
} fold;

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0x100000001B3ull;
}

static int fold_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)why;
    (void)len;
    fold *f = (fold *)self;
    f->all = mix(f->all, 0xFFFFFFFFull + index);
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (index == 0) f->ring = mix(mix(mix(f->ring, t->src), t->dst), t->count);
        f->all = mix(mix(mix(mix(f->all, t->src), t->dst), t->first), t->count);
    }
    f->rounds++;
    return 0;
}

/* Plans and generates radices=`radices` on N nodes into *f; 0 or an error. */
static int fold_list(uint32_t N, const char *radices, fold *f) {
    const oc__algo *a = oc__algo_find(OC_ALLGATHER, "optree");
    char why[256] = "";
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    memset(f, 0, sizeof *f);
    f->base.round = fold_round;
    oc_kv *params = oc_kv_new();
    int rc = !a || !params ? OC_ENOMEM : oc_kv_set(params, "radices", radices);
    if (!rc) rc = a->plan(&plan, OC_ALLGATHER, N, 0, 4096, params, why, sizeof why);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &f->base, why, sizeof why);
        rc = a->generate(&plan, &e);
        oc__emit_free(&e);
    }
    CHECK(rc == 0, "N=%u radices=%s: rc %d '%s'", N, radices, rc, why);
    if (a) oc__plan_free(a, &plan);
    oc_kv_free(params);
    return rc;
}

static void same_rounds(void) {
    static const uint32_t NS[] = {2, 3, 5, 7, 12, 16, 30, 97, 100};
    for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++) {
        const uint32_t N = NS[i];
        char text[32];
        fold at_n, at_v;
        snprintf(text, sizeof text, "%u", N);
        if (fold_list(N, text, &at_n)) continue;
        for (uint64_t V = N + 1ull; V <= 2ull * N; V++) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)V);
            if (fold_list(N, text, &at_v)) continue;
            CHECK(at_v.all == at_n.all && at_v.rounds == at_n.rounds,
                  "N=%u: one stage of %llu positions is not the schedule of radices=%u", N,
                  (unsigned long long)V, N);
        }
        uint32_t differ = 0, controls = 0;
        for (uint32_t m = 2; 2 * m <= N; m++) { /* W >= 2 at V = N needs m <= N / 2 */
            uint64_t first = 0;
            int have = 0, any_diff = 0;
            for (uint64_t W = 2; m * W <= 2ull * N; W++) {
                if (m * W < N) continue;
                snprintf(text, sizeof text, "%ux%llu", m, (unsigned long long)W);
                if (fold_list(N, text, &at_v)) continue;
                if (!have) first = at_v.ring, have = 1;
                any_diff |= at_v.ring != first;
            }
            if (oc__optree_ring_stage_shared(N, m)) {
                CHECK(!any_diff,
                      "N=%u: the search maps the ring stage of m_1=%u once for every V, but it "
                      "differs across V",
                      N, m);
            } else {
                controls++;
                differ += (uint32_t)any_diff;
            }
        }
        /* the control: where m_1 does not divide N the stages do differ (N = 7 onwards has
         * such an m_1 with two V to compare) */
        if (N >= 7)
            CHECK(controls > 0 && differ > 0,
                  "N=%u: no ring stage of an m_1 that does not divide N differs across V (%u "
                  "tried): the comparison cannot tell",
                  N, controls);
    }
}

/* ---- the pinned search against every list of its depth ---- */

static uint64_t wavelengths = 64;

static oc_report *run(uint32_t N, const char *param, int *err, char *why, size_t len) {
    char net[64];
    snprintf(net, sizeof net, "wavelengths=%llu", (unsigned long long)wavelengths);
    return run_words("ring", OC_ALLGATHER, "optree", N, 4u << 20, param, net, 0, err, why, len);
}

typedef struct pinned {
    char radices[64];
    double time;
    uint64_t steps;
} pinned;

static pinned *lists;
static size_t nlists, caplists;

typedef struct best {
    double time;
    uint64_t steps;
    char radices[64];
    size_t lists;
} best;

static int better(double t, uint64_t s, const best *b) {
    if (b->lists == 0) return 1;
    if (fabs(t - b->time) <= 1e-9 * fmax(t, b->time)) return s < b->steps;
    return t < b->time;
}

/* Every list of depth `want` extending `prefix` (product P, depth k), run pinned. */
static void enumerate(uint32_t N, uint32_t want, char *prefix, uint64_t P, uint32_t k, best *b) {
    if (k == want) {
        if (P < N || P > 2ull * N) return;
        char p[96], why[512];
        int err;
        snprintf(p, sizeof p, "radices=%s", prefix);
        oc_report *rep = run(N, p, &err, why, sizeof why);
        CHECK(err == 0 && rep, "N=%u %s refused: %s", N, prefix, why);
        if (!rep) return;
        const double t = oc_report_time(rep);
        const uint64_t s = oc_report_steps(rep);
        oc_report_free(rep);
        if (nlists == caplists) {
            caplists = caplists ? 2 * caplists : 1024;
            pinned *grown = realloc(lists, caplists * sizeof *lists);
            CHECK(grown != NULL, "out of memory");
            if (!grown) exit(1);
            lists = grown;
        }
        snprintf(lists[nlists].radices, sizeof lists[nlists].radices, "%s", prefix);
        lists[nlists].time = t;
        lists[nlists].steps = s;
        nlists++;
        if (better(t, s, b)) {
            b->time = t;
            b->steps = s;
            snprintf(b->radices, sizeof b->radices, "%s", prefix);
        }
        b->lists++;
        return;
    }
    const size_t at = strlen(prefix);
    /* the stages left after this one need a factor of at least 2 each */
    for (uint64_t m = 2; (P * m) << (want - k - 1) <= 2ull * N; m++) {
        snprintf(prefix + at, 64 - at, at ? "x%llu" : "%llu", (unsigned long long)m);
        enumerate(N, want, prefix, P * m, k + 1, b);
        prefix[at] = 0;
    }
}

static const pinned *pinned_of(const char *radices) {
    for (size_t i = 0; i < nlists; i++)
        if (strcmp(lists[i].radices, radices) == 0) return &lists[i];
    return NULL;
}

static uint32_t deepest(uint32_t N) {
    uint32_t k = 0;
    while ((UINT64_C(2) << k) <= 2ull * N)
        k++;
    return k;
}

static void check_depth(uint32_t N, uint32_t k) {
    best b = {0};
    char prefix[64] = "", p[32], why[512];
    nlists = 0;
    enumerate(N, k, prefix, 1, 0, &b);
    snprintf(p, sizeof p, "k=%u", k);
    int err;
    oc_report *rep = run(N, p, &err, why, sizeof why);
    CHECK(err == 0 && rep, "N=%u k=%u w=%llu: %s", N, k, (unsigned long long)wavelengths, why);
    if (!rep) return;
    const double t = oc_report_time(rep);
    const uint64_t s = oc_report_steps(rep);
    const char *got = oc_report_param(rep, "radices");
    CHECK(b.lists > 0 && fabs(t - b.time) <= 1e-9 * fmax(t, b.time) && s == b.steps,
          "N=%u k=%u w=%llu: the search's radices=%s %llu steps %.9g s; the best of all %zu lists "
          "radices=%s %llu steps %.9g s",
          N, k, (unsigned long long)wavelengths, got ? got : "-", (unsigned long long)s, t, b.lists,
          b.radices, (unsigned long long)b.steps, b.time);
    if (k == 1) {
        char n[16];
        snprintf(n, sizeof n, "%u", N);
        CHECK(got && strcmp(got, n) == 0, "N=%u k=1: radices=%s, not the first offer radices=%u", N,
              got ? got : "-", N);
    }
    const oc__search_log *log = rep->search;
    for (size_t i = 0; log && i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
        const char *radices = strncmp(e->text, "radices=", 8) == 0 ? e->text + 8 : NULL;
        const pinned *c = radices ? pinned_of(radices) : NULL;
        CHECK(c != NULL, "N=%u k=%u: the logged candidate %s is no list of depth %u", N, k, e->text,
              k);
        if (c)
            CHECK(e->bound_time_s <= c->time * (1 + 1e-12) && e->bound_steps <= c->steps,
                  "N=%u k=%u w=%llu: %s bound %.9g s %llu steps above the list run pinned, "
                  "%.9g s %llu steps",
                  N, k, (unsigned long long)wavelengths, e->text, e->bound_time_s,
                  (unsigned long long)e->bound_steps, c->time, (unsigned long long)c->steps);
    }
    oc_report_free(rep);
}

static void pinned_grid(void) {
    static const uint32_t NS[] = {2, 3, 5, 7, 12, 16, 97, 100};
    static const uint64_t WS[] = {1, 8, 64};
    for (size_t w = 0; w < sizeof WS / sizeof WS[0]; w++) {
        wavelengths = WS[w];
        for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++) {
            const uint32_t N = NS[i];
            if (N > 16 && WS[w] == 1) continue; /* (the run time: w = 8 and 64 there) */
            const uint32_t kmax = deepest(N) < MAX_K ? deepest(N) : MAX_K;
            for (uint32_t k = 1; k <= kmax; k++)
                check_depth(N, k);
        }
    }
    /* N = 1: nothing to gather (no stage, no search); a depth pinned there is refused in one
     * line, not searched */
    char why[512] = "";
    int err;
    oc_report *rep = run(1, NULL, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_steps(rep) == 0, "N=1: err %d '%s'", err, why);
    oc_report_free(rep);
    rep = run(1, "k=1", &err, why, sizeof why);
    CHECK(err != 0 && !rep && strstr(why, "no stages"), "N=1 k=1: err %d '%s'", err, why);
    oc_report_free(rep);
}

int main(void) {
    same_rounds();
    pinned_grid();
    free(lists);
    return CHECK_SUMMARY();
}
