/*
 * test_optree_pinned.c — OpTree's all-gather search with its depth pinned (`k=K`), against the
 * exhaustive optimum of that depth, and the search's fast stage counts against routing every
 * transfer (issue 31, item 3: the pinned search within 2x of the unpinned one).
 *
 * The pinned search prunes radix lists by proven bounds built from exact stage loads; those loads
 * are now counted per segment (a middle or last stage, O(N + S)) or per residue (the ring stage,
 * O(V + N)) instead of transfer by transfer (O(V m)), allgather_optree.c's segment_load and
 * ring_stage_load. Three parts:
 *  - loads: every stage (V, W, m) with W m dividing V, for every V in N..2N of N = 2 .. 40 and of
 *    some V of larger N (odd, prime, powers), counted both ways (oc__optree_stage_load): the same
 *    load and the same "exact" flag. A fast count that is off by one block anywhere fails here,
 *    whether or not it would change a winner.
 *  - pinned search: every ordered radix list m_1 x ... x m_k (m_j >= 2) with a product in N..2N,
 *    run pinned through the public API (oc_run, radices=), the best of each depth kept (least
 *    time, then fewest steps); the search with k=K pinned must reach exactly that time and those
 *    steps, and every candidate it mapped must have a bound at most its mapped cost. N = 2, 3, 5,
 *    7, 12, 16, 17, 24, 29, 31, 36, 37, 40, at w = 1, 3, 64, and at the ring's spread=0 (bounds in
 *    time and steps) at N = 5, 7, 12, 17, 24, 29, 31, 37, w = 1, 8, 64, 1 KiB .. 256 MiB blocks.
 *    Every candidate the search logs with a bound, mapped or pruned (also with nothing pinned),
 *    must have that bound at most the cost of its list run pinned: a bound claiming one block
 *    more of the least class, or one more step a stage, fails here. It shares no code with
 *    the search.
 *  - slow (`test_optree_pinned slow`, or one depth: `slow-k4`, `slow-k3`; label slow): N = 65536
 *    with k = 3 and 4 pinned, each answer asserted (not its time) against the list the search
 *    found before this change (when every list that could win had its stages counted transfer by
 *    transfer and was mapped: 45 s and 95 s of CPU), and against its neighbours (each radix one
 *    up or down, products kept in N..2N) run pinned: no neighbour is faster.
 */
#include "algo/algos.h"
#include "algo/allgather_optree.h"
#include "algo/radix.h"
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

enum { MAX_DEPTH = 16 };

typedef struct best {
    double time;
    uint64_t steps;
    char radices[256];
    size_t lists;
} best;

/* The ring's settings of the current part. */
static uint64_t wavelengths = 64, block = 4096;
static int unspread;

static oc_report *run(uint32_t N, const char *param, int *err, char *why, size_t len) {
    char net[96];
    snprintf(net, sizeof net, "wavelengths=%llu%s", (unsigned long long)wavelengths,
             unspread ? " spread=0" : "");
    /* the real-data run of 256 MiB blocks would only repeat the symbolic verifier's answer */
    return run_words("ring", OC_ALLGATHER, "optree", N, block, param, net, block <= (1u << 20),
                     err, why, len);
}

/* Every list enumerate() ran pinned, with its mapped cost: the search's logged bounds are
 * checked against these (pruned candidates included, which the search never maps). */
typedef struct pinned_cost {
    char radices[64];
    double time;
    uint64_t steps;
} pinned_cost;

static pinned_cost *costs;
static size_t ncosts, capcosts;

static void remember(const char *radices, double t, uint64_t s) {
    if (ncosts == capcosts) {
        capcosts = capcosts ? 2 * capcosts : 256;
        pinned_cost *grown = realloc(costs, capcosts * sizeof *costs);
        CHECK(grown != NULL, "out of memory");
        if (!grown) exit(1);
        costs = grown;
    }
    snprintf(costs[ncosts].radices, sizeof costs[ncosts].radices, "%s", radices);
    costs[ncosts].time = t;
    costs[ncosts].steps = s;
    ncosts++;
}

static const pinned_cost *cost_of(const char *radices) {
    for (size_t i = 0; i < ncosts; i++)
        if (strcmp(costs[i].radices, radices) == 0) return &costs[i];
    return NULL;
}

/* ---- loads ---- */

static void check_stage(uint32_t N, uint64_t V, uint64_t W, uint32_t m) {
    uint64_t fast = 0, routed = 0, fast_units = 0, routed_units = 0, fast_least = 0,
             routed_least = 0;
    int fast_exact = -1, routed_exact = -1;
    int rc1 = oc__optree_stage_counts(N, V, W, m, OC__OPTREE_COUNT_SEARCH, &fast, &fast_units,
                                      &fast_least, &fast_exact);
    int rc2 = oc__optree_stage_counts(N, V, W, m, OC__OPTREE_COUNT_ROUTED, &routed, &routed_units,
                                      &routed_least, &routed_exact);
    CHECK(rc1 == 0 && rc2 == 0 && fast == routed && fast_exact == routed_exact &&
              fast_units == routed_units && fast_least == routed_least,
          "N=%u V=%llu W=%llu m=%u: search counts %llu blocks, %llu transfers, least %llu (exact "
          "%d); routed %llu blocks, %llu transfers, least %llu (exact %d)",
          N, (unsigned long long)V, (unsigned long long)W, m, (unsigned long long)fast,
          (unsigned long long)fast_units, (unsigned long long)fast_least, fast_exact,
          (unsigned long long)routed, (unsigned long long)routed_units,
          (unsigned long long)routed_least, routed_exact);
}

/* Every stage of V positions: W m divides V, m >= 2 (the ring stage is W m = V). */
static void check_stages_of(uint32_t N, uint64_t V) {
    for (uint64_t S = 2; S <= V; S++) {
        if (V % S) continue;
        for (uint64_t W = 1; 2 * W <= S; W++)
            if (S % W == 0) check_stage(N, V, W, (uint32_t)(S / W));
    }
}

static void check_loads(void) {
    for (uint32_t N = 2; N <= 40; N++)
        for (uint64_t V = N; V <= 2ull * N; V++)
            check_stages_of(N, V);
    static const uint32_t LARGE[] = {97, 100, 127, 128, 257, 1000, 1024};
    for (size_t i = 0; i < sizeof LARGE / sizeof LARGE[0]; i++) {
        const uint32_t N = LARGE[i];
        /* exact, one over, uneven by a third, and the most uneven (2N - 1, 2N) */
        const uint64_t Vs[] = {N, N + 1ull, N + N / 3ull, 2ull * N - 1, 2ull * N};
        for (size_t j = 0; j < sizeof Vs / sizeof Vs[0]; j++)
            check_stages_of(N, Vs[j]);
    }
    check_stages_of(1000, 1440); /* many divisors: 2^5 3^2 5 */
    check_stages_of(4096, 6144);
}

/* ---- the ring stage's colours, counted by the search against the ring model's mapping ---- */

/* A sink that keeps round 0 (the ring stage) of the schedule it is handed. */
typedef struct keep_first {
    oc__sink base;
    oc__round round;
    int kept, failed;
} keep_first;

static int keep_round0(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    (void)why;
    (void)len;
    keep_first *k = (keep_first *)self;
    if (index != 0) return 0;
    k->round.xfers = malloc((r->count ? r->count : 1) * sizeof *r->xfers);
    if (!k->round.xfers) {
        k->failed = 1;
        return 0;
    }
    memcpy(k->round.xfers, r->xfers, r->count * sizeof *r->xfers);
    k->round.count = k->round.cap = r->count;
    k->kept = 1;
    return 0;
}

/* The ring stage of m1 x (V / m1) on N nodes mapped by the ring model at wavelengths=1 (a colour
 * a step, so its steps are the most colours of a direction and its lower bound the busiest
 * link), against oc__optree_ring_stage_colours. */
static void check_ring_colours_of(uint32_t N, uint64_t V, uint32_t m1) {
    const oc__algo *a = oc__algo_find(OC_ALLGATHER, "optree");
    char why[256] = "", text[64];
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    keep_first k = {.base = {.round = keep_round0}};
    snprintf(text, sizeof text, "%ux%llu", m1, (unsigned long long)(V / m1));
    oc_kv *params = oc_kv_new();
    int rc = !a || !params ? OC_ENOMEM : oc_kv_set(params, "radices", text);
    if (!rc) rc = a->plan(&plan, OC_ALLGATHER, N, 0, 4096, params, why, sizeof why);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &k.base, why, sizeof why);
        rc = a->generate(&plan, &e);
        oc__emit_free(&e);
    }
    CHECK(rc == 0 && k.kept && !k.failed, "N=%u radices=%s: rc %d '%s'", N, text, rc, why);
    if (a) oc__plan_free(a, &plan);
    oc_kv_free(params);
    if (rc || !k.kept) {
        free(k.round.xfers);
        return;
    }
    int err = 0;
    oc_report *rep = map_coll_on(oc__model_find("ring"), OC_ALLGATHER, N, 4096,
                                 "wavelengths=1 fibres=1", &k.round, 1, &err, why, sizeof why);
    uint64_t colours[2] = {0, 0}, maxload[2] = {0, 0};
    rc = oc__optree_ring_stage_colours(N, V, m1, colours, maxload);
    const uint64_t most = colours[0] > colours[1] ? colours[0] : colours[1];
    const uint64_t heaviest = maxload[0] > maxload[1] ? maxload[0] : maxload[1];
    const uint64_t steps = rep ? rep->steps : 0, lb = rep ? rep->steps_lb : 0;
    CHECK(rep && rc == 0 && steps == most && lb == heaviest,
          "N=%u radices=%s: the ring model colours the ring stage in %llu (busiest link %llu); "
          "the search counts %llu / %llu colours (links %llu / %llu), rc %d '%s'",
          N, text, (unsigned long long)steps, (unsigned long long)lb, (unsigned long long)colours[0], (unsigned long long)colours[1],
          (unsigned long long)maxload[0], (unsigned long long)maxload[1], rc, why);
    oc_report_free(rep);
    free(k.round.xfers);
}

/* Every m1 and V (a multiple of m1 in N..2N, V / m1 >= 2) of N = 2 .. 40, and a few of each m1
 * of larger N (odd, prime, powers; m1 that divide N and m1 that do not; N/2 ties both ways). */
static void check_ring_colours(void) {
    for (uint32_t N = 2; N <= 40; N++)
        for (uint32_t m1 = 2; 2ull * m1 <= 2ull * N; m1++)
            for (uint64_t V = ((N + m1 - 1ull) / m1) * m1; V <= 2ull * N; V += m1)
                if (V / m1 >= 2) check_ring_colours_of(N, V, m1);
    static const uint32_t LARGE[] = {97, 100, 127, 128, 257, 1000, 1021, 1024};
    for (size_t i = 0; i < sizeof LARGE / sizeof LARGE[0]; i++) {
        const uint32_t N = LARGE[i];
        const uint32_t step = N / 24 ? N / 24 : 1;
        for (uint32_t m1 = 2; m1 <= N / 2; m1 += (m1 < 12 ? 1 : step)) {
            const uint64_t lo = ((N + m1 - 1ull) / m1) * m1;
            const uint64_t Vs[] = {lo, lo + m1, (2ull * N / m1) * m1};
            for (size_t j = 0; j < 3; j++)
                if (Vs[j] <= 2ull * N && Vs[j] / m1 >= 2 && (j == 0 || Vs[j] != Vs[j - 1]))
                    check_ring_colours_of(N, Vs[j], m1);
        }
    }
}

/* ---- the pinned search against every list of its depth ---- */

static int better(double t, uint64_t s, const best *b) {
    if (b->lists == 0) return 1;
    if (fabs(t - b->time) <= 1e-9 * fmax(t, b->time)) return s < b->steps;
    return t < b->time;
}

/* Every list extending `prefix` (product P, depth k) with a product in N..2N, run pinned; the
 * best of each depth into b[depth]. */
static void enumerate(uint32_t N, char *prefix, uint64_t P, uint32_t k, best *b) {
    if (P >= N && P <= 2ull * N && k >= 1 && k < MAX_DEPTH) {
        char p[300], why[512];
        int err;
        snprintf(p, sizeof p, "radices=%s", prefix);
        oc_report *rep = run(N, p, &err, why, sizeof why);
        CHECK(err == 0 && rep, "N=%u %s refused: %s", N, prefix, why);
        if (rep) {
            const double t = oc_report_time(rep);
            const uint64_t s = oc_report_steps(rep);
            remember(prefix, t, s);
            if (better(t, s, &b[k])) {
                b[k].time = t;
                b[k].steps = s;
                snprintf(b[k].radices, sizeof b[k].radices, "%s", prefix);
            }
            b[k].lists++;
            oc_report_free(rep);
        }
    }
    const size_t at = strlen(prefix);
    for (uint64_t m = 2; P * m <= 2ull * N; m++) {
        snprintf(prefix + at, 256 - at, at ? "x%llu" : "%llu", (unsigned long long)m);
        enumerate(N, prefix, P * m, k + 1, b);
        prefix[at] = 0;
    }
}

/* Every logged candidate's bound, mapped or pruned, at most the cost of that list run pinned
 * (the bounds are proofs: a bound above it could prune the best list), and at most its mapped
 * cost when mapped. */
static void check_bounds_hold(const oc_report *rep, uint32_t N, uint32_t k) {
    const oc__search_log *log = rep->search;
    for (size_t i = 0; log && i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status == OC__CAND_MAPPED)
            CHECK(e->bound_time_s <= e->time_s * (1 + 1e-12) && e->bound_steps <= e->steps,
                  "N=%u k=%u w=%llu spread=%d: %s bound %.9g s %llu steps above its mapped %.9g s "
                  "%llu steps",
                  N, k, (unsigned long long)wavelengths, !unspread, e->text, e->bound_time_s,
                  (unsigned long long)e->bound_steps, e->time_s, (unsigned long long)e->steps);
        if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
        const char *radices = strncmp(e->text, "radices=", 8) == 0 ? e->text + 8 : NULL;
        const pinned_cost *c = radices ? cost_of(radices) : NULL;
        CHECK(c != NULL, "N=%u k=%u: the logged candidate %s is no list enumerate() ran", N, k,
              e->text);
        if (c)
            CHECK(e->bound_time_s <= c->time * (1 + 1e-12) && e->bound_steps <= c->steps,
                  "N=%u k=%u w=%llu spread=%d %llu B: %s (%s) bound %.9g s %llu steps above the "
                  "list run pinned, %.9g s %llu steps",
                  N, k, (unsigned long long)wavelengths, !unspread, (unsigned long long)block,
                  e->text, e->status == OC__CAND_MAPPED ? "mapped" : "pruned", e->bound_time_s,
                  (unsigned long long)e->bound_steps, c->time, (unsigned long long)c->steps);
    }
}

static void check_pinned(uint32_t N) {
    best b[MAX_DEPTH] = {{0}};
    char prefix[256] = "";
    ncosts = 0;
    enumerate(N, prefix, 1, 0, b);
    for (uint32_t k = 0; k < MAX_DEPTH; k++) {
        if (k && !b[k].lists) continue;
        char p[32], why[512];
        int err;
        snprintf(p, sizeof p, "k=%u", k);
        oc_report *rep = run(N, k ? p : NULL, &err, why, sizeof why);
        CHECK(err == 0 && rep, "N=%u k=%u: %s", N, k, why);
        if (!rep) continue;
        if (!k) { /* nothing pinned: only its bounds (test_search_optree checks its choice) */
            check_bounds_hold(rep, N, k);
            oc_report_free(rep);
            continue;
        }
        const double t = oc_report_time(rep);
        const uint64_t s = oc_report_steps(rep);
        const char *got = oc_report_param(rep, "radices");
        CHECK(fabs(t - b[k].time) <= 1e-9 * fmax(t, b[k].time) && s == b[k].steps,
              "N=%u k=%u w=%llu spread=%d %llu B: the search's radices=%s %llu steps %.9g s; the "
              "best of all %zu lists of depth %u radices=%s %llu steps %.9g s",
              N, k, (unsigned long long)wavelengths, !unspread, (unsigned long long)block,
              got ? got : "-", (unsigned long long)s, t, b[k].lists, k, b[k].radices,
              (unsigned long long)b[k].steps, b[k].time);
        check_bounds_hold(rep, N, k);
        oc_report_free(rep);
    }
}

/* ---- N = 65536 (slow) ---- */

/* Runs radices=`list` pinned; *ok 0 when refused. */
static void run_list(uint32_t N, const uint32_t *m, uint32_t k, double *t, uint64_t *s, int *ok) {
    char p[300] = "radices=", why[512];
    size_t at = strlen(p);
    for (uint32_t j = 0; j < k; j++)
        at += (size_t)snprintf(p + at, sizeof p - at, j ? "x%u" : "%u", m[j]);
    int err;
    oc_report *rep = run(N, p, &err, why, sizeof why);
    *ok = err == 0 && rep;
    if (*ok) {
        *t = oc_report_time(rep);
        *s = oc_report_steps(rep);
    }
    oc_report_free(rep);
}

/* The search with k pinned finds `expect` (found before the fast counts, by counting every
 * list's stages transfer by transfer), and no list one radix step away is faster. */
static void check_large(uint32_t N, uint32_t k, const char *expect) {
    char p[32], why[512];
    int err;
    snprintf(p, sizeof p, "k=%u", k);
    oc_report *rep = run(N, p, &err, why, sizeof why);
    CHECK(err == 0 && rep, "N=%u k=%u: %s", N, k, why);
    if (!rep) return;
    const char *got = oc_report_param(rep, "radices");
    CHECK(got && strcmp(got, expect) == 0, "N=%u k=%u: radices=%s, expected %s", N, k,
          got ? got : "-", expect);
    const double t = oc_report_time(rep);
    const uint64_t s = oc_report_steps(rep);
    oc_report_free(rep);
    oc__radices r;
    if (!got || oc__radices_parse(expect, &r, why, sizeof why) || r.k != k) return;
    for (uint32_t j = 0; j < k; j++)
        for (int delta = -1; delta <= 1; delta += 2) {
            uint32_t m[MAX_DEPTH];
            memcpy(m, r.m, k * sizeof *m);
            if (delta < 0 && m[j] <= 2) continue;
            m[j] = delta < 0 ? m[j] - 1 : m[j] + 1;
            uint64_t V = 1;
            for (uint32_t i = 0; i < k; i++)
                V *= m[i];
            if (V < N || V > 2ull * N) continue;
            double tn = 0;
            uint64_t sn = 0;
            int ok;
            run_list(N, m, k, &tn, &sn, &ok);
            CHECK(ok && !better(tn, sn, &(best){.time = t, .steps = s, .lists = 1}),
                  "N=%u k=%u: the neighbour with radix %u of stage %u (%.9g s, %llu steps) beats "
                  "the search's %s (%.9g s, %llu steps)",
                  N, k, m[j], j + 1, tn, (unsigned long long)sn, expect, t, (unsigned long long)s);
        }
}

int main(int argc, char **argv) {
    /* "slow" runs both depths; "slow-k4" and "slow-k3" one each (one CTest test each, so that
     * neither needs more than a fifth of its limit: issue 27) */
    const char *part = argc > 1 ? argv[1] : "";
    if (strncmp(part, "slow", 4) == 0) {
        const int k4 = !strcmp(part, "slow") || !strcmp(part, "slow-k4");
        const int k3 = !strcmp(part, "slow") || !strcmp(part, "slow-k3");
        if (!k4 && !k3) {
            fprintf(stderr, "test_optree_pinned: unknown part %s (slow, slow-k4, slow-k3)\n", part);
            return 2;
        }
        wavelengths = 64;
        block = 4u << 20;
        if (k4) check_large(65536, 4, "30x13x13x13");
        if (k3) check_large(65536, 3, "64x32x32");
        return CHECK_SUMMARY();
    }
    check_loads();
    check_ring_colours();
    static const uint32_t NS[] = {2, 3, 5, 7, 12, 16, 17, 24, 29, 31, 36, 37, 40};
    static const uint64_t WS[] = {1, 3, 64};
    for (size_t w = 0; w < sizeof WS / sizeof WS[0]; w++) {
        wavelengths = WS[w];
        for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++)
            check_pinned(NS[i]);
    }
    /* spread=0: the bounds in time (the largest bundle of each stage, the busiest link in
     * transfers, the least class) and in steps; primes among N, w = 1, 8, 64 */
    unspread = 1;
    static const uint64_t BLOCKS[] = {1024, 4096, 1 << 20, 256u << 20};
    static const uint32_t NS0[] = {5, 7, 12, 17, 24, 29, 31, 37};
    static const uint64_t WS0[] = {1, 8, 64};
    for (size_t bi = 0; bi < sizeof BLOCKS / sizeof BLOCKS[0]; bi++) {
        block = BLOCKS[bi];
        for (size_t w = 0; w < sizeof WS0 / sizeof WS0[0]; w++) {
            wavelengths = WS0[w];
            for (size_t i = 0; i < sizeof NS0 / sizeof NS0[0]; i++)
                check_pinned(NS0[i]);
        }
    }
    free(costs);
    return CHECK_SUMMARY();
}
