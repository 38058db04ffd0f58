/*
 * test_stride.c — the bidirectional ring, two-level stride, multi-level stride, bistride, comb and
 * circulant
 * algorithms
 * (src/algo/stride.c, src/algo/levels.c): the all-gather, its time-reversed reduce-scatter and the
 * all-reduce made of both, as `bidir`, `stride` and `multilevel`, through the public pipeline
 * (oc_run: generated, verified symbolically and on real data, mapped, the model's independent
 * check).
 *
 *  - every one verified at N = 1, 2, 3, 5, 7, 12, 100 and 1000 on every network it declares
 *    (bidir: ring, switch, fat-tree; stride, multilevel: ring), at several w and F, and (slow) at
 *    4096;
 *  - multilevel: steps = sum_j ceil((n_j-1)/2) ceil(N/(n_j Fw)) at every radix list run, and its
 *    search against every list it takes (product N, first radix >= 3 when there are two or more)
 *    for N up to 48 and 64, 100, 128 at several F w;
 *  - steps equal the closed forms where they are exact, computed here on their own: bidir
 *    ceil((N-1)/2) on the ring at any F w (twice for all-reduce); stride L dividing N (or L = 1):
 *    ceil((n1-1)/2) ceil(L/(Fw)) + ceil((L-1)/2) ceil(n1/(Fw)), n1 = N/L;
 *  - the search: for every N up to 40 (and a few more) and several F w, every stride the user can
 *    pin (1..floor((N-1)/2)) is run, and the default (searched) run must take the least time of
 *    them (among equal times, the fewest steps); every pinned run's mapped steps are at least the
 *    closed form its search offers as a proven bound (the report's formula);
 *  - no all-gather maps below the receive bound ceil((N-1)/(2Fw)), which no schedule can beat;
 *  - windowed generation (a verifier shard's): the transfers made for a chunk window are exactly
 *    the whole schedule's transfers touching it, in their places (keep_rounds.h);
 *  - bad input: a stride out of range and an unknown parameter are refused with one line.
 *  - bistride (the stride all-gather with its middle level-2 window split both ways): the same
 *    checks, its closed form at even L, never above stride at the same L, 3N/8 at w = 2
 *    (split_cases); comb (a stride-2 backbone with unit teeth, the F w = 3 all-gather): verified,
 *    its closed form at even and odd N, N/4 steps at F w = 3 (comb_cases); circulant (every
 *    block on the same shortest tree of a depth, rotated): verified, meeting the exact tree-length
 *    bound where Fw is large next to N, fewer steps than multilevel at N = 1024, w = 64
 *    (circulant_cases).
 * With the argument "slow" the N = 4096 runs are added.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "keep_rounds.h"
#include "model_map.h"
#include "run/pipeline.h"

static const oc_collective colls[] = {OC_ALLGATHER, OC_REDUCESCATTER, OC_ALLREDUCE};
static const char *const coll_names[] = {"allgather", "reducescatter", "allreduce"};

static uint64_t cdiv(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

static oc_report *run(const char *net, oc_collective coll, const char *algo, uint32_t N,
                      const char *param, uint64_t w, uint64_t F, int data, int *err, char *why,
                      size_t len) {
    char nbuf[96] = "";
    if (net && !strcmp(net, "ring"))
        snprintf(nbuf, sizeof nbuf, "wavelengths=%llu fibres=%llu", (unsigned long long)w,
                 (unsigned long long)F);
    return run_words(net, coll, algo, N, 1u << 20, param, nbuf[0] ? nbuf : NULL, data, err, why,
                     len);
}

/* Runs, asserts verified (and on real data when asked), checks the receive bound; the report. */
static oc_report *verified(const char *net, size_t ci, const char *algo, uint32_t N,
                           const char *param, uint64_t w, uint64_t F, int data) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = run(net, colls[ci], algo, N, param, w, F, data, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && (!data || oc_report_data_checked(rep)),
          "%s %s on %s N=%u %s w=%llu F=%llu: %s", coll_names[ci], algo, net, N,
          param ? param : "(default)", (unsigned long long)w, (unsigned long long)F,
          err ? why : "not verified");
    if (rep && err == 0 && colls[ci] == OC_ALLGATHER && !strcmp(net, "ring") && N > 1) {
        const uint64_t receive = cdiv(N - 1, 2 * F * w);
        CHECK(oc_report_steps(rep) >= receive,
              "allgather %s N=%u w=%llu F=%llu: %llu steps, below the receive bound %llu", algo, N,
              (unsigned long long)w, (unsigned long long)F,
              (unsigned long long)oc_report_steps(rep), (unsigned long long)receive);
    }
    if (err) {
        oc_report_free(rep);
        return NULL;
    }
    return rep;
}

/* The two-level closed form when L divides N or L = 1 (both levels exact). */
static uint64_t stride_exact(uint32_t N, uint32_t L, uint64_t C) {
    if (N < 2) return 0;
    const uint64_t n1 = N / L;
    return (n1 / 2) * cdiv(L, C) + (L / 2) * cdiv(n1, C);
}

/* bistride's closed form when L divides N or L = 1: stride's, except that at even L the last
 * level-2 round carries ceil(n1/2) blocks each way instead of n1 one way. */
static uint64_t split_exact(uint32_t N, uint32_t L, uint64_t C) {
    if (N < 2 || L % 2) return stride_exact(N, L, C);
    const uint64_t n1 = N / L;
    return (n1 / 2) * cdiv(L, C) + (L / 2 - 1) * cdiv(n1, C) + cdiv(cdiv(n1, 2), C);
}

static void bidir_case(uint32_t N, uint64_t w, uint64_t F, int data) {
    for (size_t ci = 0; ci < 3; ci++) {
        oc_report *rep = verified("ring", ci, "bidir", N, NULL, w, F, data);
        const uint64_t want = (colls[ci] == OC_ALLREDUCE ? 2 : 1) * ((uint64_t)N / 2);
        if (rep)
            CHECK(oc_report_steps(rep) == want, "%s bidir N=%u w=%llu F=%llu: %llu steps, not %llu",
                  coll_names[ci], N, (unsigned long long)w, (unsigned long long)F,
                  (unsigned long long)oc_report_steps(rep), (unsigned long long)want);
        oc_report_free(rep);
    }
}

static void pinned(const char *algo, uint32_t N, uint32_t L, uint64_t w, uint64_t F, int data) {
    char p[32];
    snprintf(p, sizeof p, "stride=%u", L);
    const int split = !strcmp(algo, "bistride");
    for (size_t ci = 0; ci < 3; ci++) {
        oc_report *rep = verified("ring", ci, algo, N, p, w, F, data);
        if (!rep) continue;
        if (L == 1 || N % L == 0) {
            const uint64_t one = split ? split_exact(N, L, F * w) : stride_exact(N, L, F * w);
            const uint64_t want = (colls[ci] == OC_ALLREDUCE ? 2 : 1) * one;
            CHECK(oc_report_steps(rep) == want,
                  "%s %s stride=%u N=%u w=%llu F=%llu: %llu steps, "
                  "the closed form %llu",
                  coll_names[ci], algo, L, N, (unsigned long long)w, (unsigned long long)F,
                  (unsigned long long)oc_report_steps(rep), (unsigned long long)want);
        }
        oc_report_free(rep);
    }
}

static void stride_pinned(uint32_t N, uint32_t L, uint64_t w, uint64_t F, int data) {
    pinned("stride", N, L, w, F, data);
}

typedef struct best {
    double time;
    uint64_t steps;
    uint32_t L;
} best;

/* Every pinned stride against the default, for one collective. */
static void search_algo(const char *algo, size_t ci, uint32_t N, uint64_t w, uint64_t F) {
    best b = {0};
    const uint32_t most = N > 2 ? (N - 1) / 2 : 1;
    for (uint32_t L = 1; L <= most; L++) {
        char p[32], why[512];
        int err;
        snprintf(p, sizeof p, "stride=%u", L);
        oc_report *rep = run("ring", colls[ci], algo, N, p, w, F, 0, &err, why, sizeof why);
        CHECK(err == 0 && rep, "%s %s N=%u %s: %s", coll_names[ci], algo, N, p, why);
        if (!rep || err) {
            oc_report_free(rep);
            continue;
        }
        const double t = oc_report_time(rep);
        const uint64_t s = oc_report_steps(rep);
        double formula = 0;
        CHECK(oc_report_steps_formula(rep, &formula) && (double)s >= formula,
              "%s %s N=%u %s w=%llu F=%llu: %llu steps mapped, below the bound %.0f its search "
              "offers",
              coll_names[ci], algo, N, p, (unsigned long long)w, (unsigned long long)F,
              (unsigned long long)s, formula);
        const int tie = b.L && fabs(t - b.time) <= 1e-9 * fmax(t, b.time);
        if (!b.L || (tie ? s < b.steps : t < b.time)) b = (best){t, s, L};
        oc_report_free(rep);
    }
    char why[512];
    int err;
    oc_report *rep = run("ring", colls[ci], algo, N, NULL, w, F, 0, &err, why, sizeof why);
    CHECK(err == 0 && rep, "%s %s N=%u default: %s", coll_names[ci], algo, N, why);
    if (rep && !err) {
        const double t = oc_report_time(rep);
        const char *got = oc_report_param(rep, "stride");
        CHECK(fabs(t - b.time) <= 1e-9 * fmax(t, b.time) && oc_report_steps(rep) == b.steps,
              "%s %s N=%u w=%llu F=%llu: default stride=%s %llu steps %.9g s; best pinned "
              "stride=%u %llu steps %.9g s",
              coll_names[ci], algo, N, (unsigned long long)w, (unsigned long long)F,
              got ? got : "-", (unsigned long long)oc_report_steps(rep), t, b.L,
              (unsigned long long)b.steps, b.time);
    }
    oc_report_free(rep);
}

static void search_case(size_t ci, uint32_t N, uint64_t w, uint64_t F) {
    search_algo("stride", ci, N, w, F);
}

/* bistride (issue 26's w = 2 gap): verified at N = 1 .. 1000 with its default (searched)
 * stride at several F w; its closed form pinned at even and odd L, dividing N or not (each with
 * the level-2 drops at both edges); its search against every pinned stride; at F w = 2, steps
 * ceil((n1-1)/2) + ceil(n1/4) at L = 2 (3N/8 for 8 | N), 1.25x the path bound at N = 1000, and
 * never more than `stride`'s at the same L (the split only removes load). */
static void split_cases(void) {
    static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100, 1000};
    static const uint64_t ws[][2] = {{1, 1}, {2, 1}, {3, 2}, {4, 1}, {8, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t k = 0; k < sizeof ws / sizeof *ws; k++)
            for (size_t ci = 0; ci < 3; ci++)
                oc_report_free(verified("ring", ci, "bistride", sizes[i], NULL, ws[k][0], ws[k][1],
                                        sizes[i] <= 100));
    static const uint32_t pins[][2] = {{12, 2},   {12, 4},  {12, 3},   {12, 5},  {100, 10},
                                       {100, 4},  {100, 2}, {13, 4},   {11, 2},  {31, 6},
                                       {100, 14}, {5, 2},   {1000, 2}, {1000, 8}};
    static const uint64_t pw[][2] = {{1, 1}, {2, 1}, {3, 2}, {8, 1}};
    for (size_t i = 0; i < sizeof pins / sizeof *pins; i++)
        for (size_t k = 0; k < sizeof pw / sizeof *pw; k++) {
            pinned("bistride", pins[i][0], pins[i][1], pw[k][0], pw[k][1], pins[i][0] <= 100);
            char p[32], why[512];
            int e1 = 0, e2 = 0;
            snprintf(p, sizeof p, "stride=%u", pins[i][1]);
            oc_report *a = run("ring", OC_ALLGATHER, "bistride", pins[i][0], p, pw[k][0], pw[k][1],
                               0, &e1, why, sizeof why);
            oc_report *b = run("ring", OC_ALLGATHER, "stride", pins[i][0], p, pw[k][0], pw[k][1], 0,
                               &e2, why, sizeof why);
            CHECK(!e1 && !e2 && a && b && oc_report_steps(a) <= oc_report_steps(b),
                  "N=%u %s w=%llu: bistride %llu steps, stride %llu", pins[i][0], p,
                  (unsigned long long)pw[k][0], a ? (unsigned long long)oc_report_steps(a) : 0,
                  b ? (unsigned long long)oc_report_steps(b) : 0);
            oc_report_free(a);
            oc_report_free(b);
        }
    /* w = 2: the default at N = 1000 and 1024 against 3N/8 and the path bound */
    static const uint32_t big[] = {1000, 1024};
    for (size_t i = 0; i < 2; i++) {
        const uint32_t N = big[i];
        oc_report *rep = verified("ring", 0, "bistride", N, NULL, 2, 1, 0);
        const uint64_t n1 = N / 2, want = n1 / 2 + cdiv(n1, 4);
        const uint64_t path = cdiv(N - 1 + N / 2, 5);
        CHECK(rep && oc_report_steps(rep) == want && 4 * oc_report_steps(rep) <= 5 * path + 4,
              "bistride N=%u w=2: %llu steps, want %llu (path bound %llu)", N,
              rep ? (unsigned long long)oc_report_steps(rep) : 0, (unsigned long long)want,
              (unsigned long long)path);
        oc_report_free(rep);
    }
    static const uint64_t sw[][2] = {{1, 1}, {2, 1}, {4, 1}, {3, 2}};
    for (uint32_t N = 1; N <= 30; N++)
        for (size_t k = 0; k < sizeof sw / sizeof *sw; k++)
            search_algo("bistride", 0, N, sw[k][0], sw[k][1]);
    for (size_t ci = 1; ci < 3; ci++) {
        search_algo("bistride", ci, 64, 2, 1);
        search_algo("bistride", ci, 23, 4, 1);
    }
}

/* The comb's closed form, computed here on its own: round r delivers offsets 2r - 1 (a tooth, load
 * 1) and 2r (a stride-2 arc, load 2) each way while they are within ceil((N-1)/2) clockwise and
 * floor((N-1)/2) the other way. */
static uint64_t comb_exact(uint32_t N, uint64_t C) {
    uint64_t steps = 0;
    const uint64_t U = N / 2, D = N ? (N - 1) / 2 : 0;
    for (uint64_t r = 1; N > 1 && 2 * r - 1 <= U; r++) {
        const uint64_t up = (2 * r - 1 <= U) + 2 * (2 * r <= U);
        const uint64_t down = (2 * r - 1 <= D) + 2 * (2 * r <= D);
        steps += cdiv(N == 4 ? cdiv(up + down, 2) : (up > down ? up : down), C);
    }
    return steps;
}

/* comb (the F w = 3 all-gather): verified at N = 1 .. 1000 and several F w, steps equal to the
 * closed form (at even and odd N), ceil(ceil((N-1)/2)/2) at F w = 3 and 1.2x the path bound at
 * N = 1000, 1024, 1001. */
static void comb_cases(void) {
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 12, 17, 100, 101, 1000};
    static const uint64_t ws[][2] = {{1, 1}, {2, 1}, {3, 1}, {1, 3}, {8, 1}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t k = 0; k < sizeof ws / sizeof *ws; k++) {
            const uint32_t N = sizes[i];
            oc_report *rep = verified("ring", 0, "comb", N, NULL, ws[k][0], ws[k][1], N <= 101);
            const uint64_t want = comb_exact(N, ws[k][0] * ws[k][1]);
            CHECK(!rep || oc_report_steps(rep) == want,
                  "comb N=%u w=%llu F=%llu: %llu steps, the closed form %llu", N,
                  (unsigned long long)ws[k][0], (unsigned long long)ws[k][1],
                  rep ? (unsigned long long)oc_report_steps(rep) : 0, (unsigned long long)want);
            oc_report_free(rep);
        }
    static const uint32_t big[] = {1000, 1001, 1024};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        const uint32_t N = big[i];
        oc_report *rep = verified("ring", 0, "comb", N, NULL, 3, 1, 0);
        const uint64_t want = cdiv(N / 2, 2), path = cdiv(N - 1 + N / 2, 7);
        CHECK(rep && oc_report_steps(rep) == want && 5 * oc_report_steps(rep) <= 6 * path,
              "comb N=%u w=3: %llu steps, want %llu (path bound %llu)", N,
              rep ? (unsigned long long)oc_report_steps(rep) : 0, (unsigned long long)want,
              (unsigned long long)path);
        oc_report_free(rep);
    }
}

/* multilevel's closed form, computed here on its own */
static uint64_t levels_exact(uint32_t N, const uint32_t *n, size_t k, uint64_t C) {
    uint64_t steps = 0;
    for (size_t j = 0; N > 1 && j < k; j++)
        steps += (n[j] / 2) * cdiv(N / n[j], C);
    return steps;
}

typedef struct lbest {
    double time;
    uint64_t steps;
    char radices[128];
    size_t lists;
} lbest;

/* Every radix list of N multilevel takes (extending prefix, product P), run pinned. */
static void levels_enumerate(size_t ci, uint32_t N, uint64_t w, uint64_t F, uint32_t *n, size_t k,
                             uint64_t P, lbest *b) {
    if (P == N && k > 0 && (k == 1 || n[0] >= 3)) {
        char p[160], why[512], list[128] = "";
        int at = 0, err;
        for (size_t j = 0; j < k; j++)
            at += snprintf(list + at, sizeof list - (size_t)at, j ? "x%u" : "%u", n[j]);
        snprintf(p, sizeof p, "radices=%s", list);
        oc_report *rep = run("ring", colls[ci], "multilevel", N, p, w, F, 0, &err, why, sizeof why);
        CHECK(err == 0 && rep, "%s multilevel N=%u %s: %s", coll_names[ci], N, p, why);
        if (rep && !err) {
            const double t = oc_report_time(rep);
            const uint64_t s = oc_report_steps(rep);
            const uint64_t want =
                (colls[ci] == OC_ALLREDUCE ? 2 : 1) * levels_exact(N, n, k, F * w);
            CHECK(s == want,
                  "%s multilevel N=%u %s w=%llu F=%llu: %llu steps, the closed form %llu",
                  coll_names[ci], N, p, (unsigned long long)w, (unsigned long long)F,
                  (unsigned long long)s, (unsigned long long)want);
            const int tie = b->lists && fabs(t - b->time) <= 1e-9 * fmax(t, b->time);
            if (!b->lists || (tie ? s < b->steps : t < b->time)) {
                b->time = t;
                b->steps = s;
                snprintf(b->radices, sizeof b->radices, "%s", list);
            }
            b->lists++;
        }
        oc_report_free(rep);
        return;
    }
    for (uint64_t m = 2; P * m <= N; m++)
        if ((N / P) % m == 0 && k < 20) {
            n[k] = (uint32_t)m;
            levels_enumerate(ci, N, w, F, n, k + 1, P * m, b);
        }
}

static void levels_search_case(size_t ci, uint32_t N, uint64_t w, uint64_t F) {
    uint32_t n[24];
    lbest b = {0};
    levels_enumerate(ci, N, w, F, n, 0, 1, &b);
    char why[512];
    int err;
    oc_report *rep = run("ring", colls[ci], "multilevel", N, NULL, w, F, 0, &err, why, sizeof why);
    CHECK(err == 0 && rep, "%s multilevel N=%u default: %s", coll_names[ci], N, why);
    if (rep && !err && b.lists) {
        const double t = oc_report_time(rep);
        const char *got = oc_report_param(rep, "radices");
        CHECK(fabs(t - b.time) <= 1e-9 * fmax(t, b.time) && oc_report_steps(rep) == b.steps,
              "%s multilevel N=%u w=%llu F=%llu: default radices=%s %llu steps %.9g s; best of "
              "%zu lists radices=%s %llu steps %.9g s",
              coll_names[ci], N, (unsigned long long)w, (unsigned long long)F, got ? got : "-",
              (unsigned long long)oc_report_steps(rep), t, b.lists, b.radices,
              (unsigned long long)b.steps, b.time);
    }
    oc_report_free(rep);
}

/* Windowed generation against the whole schedule, every window of 1..3 labels from a spread of
 * starts. */
static void windows_case(size_t ci, const char *algo_name, uint32_t N, const char *words) {
    const oc__algo *algo = oc__algo_find(colls[ci], algo_name);
    CHECK(algo != NULL, "no %s %s", coll_names[ci], algo_name);
    if (!algo) return;
    oc_kv *kv = oc_kv_new();
    kv_add_words(kv, words, " ");
    oc__plan plan = {0};
    char why[512] = "";
    int rc = algo->plan(&plan, colls[ci], N, 0, 4096, kv, why, sizeof why);
    CHECK(rc == 0 && plan.spec.window_skips, "%s %s N=%u %s: %s", coll_names[ci], algo_name, N,
          words, rc ? why : "no window_skips");
    keep whole;
    keep_init(&whole);
    if (!rc) rc = oc__generate(algo, &plan, &whole.sink, why, sizeof why);
    CHECK(rc == 0, "%s %s N=%u: %s", coll_names[ci], algo_name, N, why);
    const uint32_t C = plan.spec.chunks;
    for (uint32_t lo = 0; !rc && lo < C; lo += 1 + C / 7)
        for (uint32_t w = 1; w <= 3 && lo + w <= C; w++) {
            const keep_diff d = keep_window(algo, &plan, &whole, lo, lo + w, why, sizeof why);
            CHECK(d.rc == 0 && d.rounds == whole.st.count && d.matched == d.expected &&
                      d.kept == d.expected,
                  "%s %s N=%u %s window [%u,%u): rc %d, %llu rounds of %zu, %zu of %zu in place, "
                  "%zu kept",
                  coll_names[ci], algo_name, N, words, lo, lo + w, d.rc,
                  (unsigned long long)d.rounds, whole.st.count, d.matched, d.expected, d.kept);
        }
    keep_free(&whole);
    oc__plan_free(algo, &plan);
    oc_kv_free(kv);
}

/* The physical bound's steps for an all-gather on the ring (w wavelengths, F = 1). */
static uint64_t ring_bound(uint32_t N, uint64_t w) {
    char nbuf[48];
    snprintf(nbuf, sizeof nbuf, "wavelengths=%llu", (unsigned long long)w);
    oc_kv *np = oc_kv_new();
    kv_add_words(np, nbuf, " ");
    oc_request req = {.collective = OC_ALLGATHER,
                      .network = "ring",
                      .nodes = N,
                      .bytes = 4096,
                      .net_params = np,
                      .skip_data_check = 1};
    oc_physical_bound_info b = {0};
    char why[256] = "";
    CHECK(oc_physical_bound(&req, &b, why, sizeof why) == 0, "bound N=%u: %s", N, why);
    oc_kv_free(np);
    return b.steps;
}

/* circulant (allgather_circulant.c): every block on the same shortest tree of a depth, rotated.
 * Verified with real data at N = 1 .. 100 and several w; where Fw is large next to N it meets
 * the exact tree-length bound (a tree that were not the shortest of its depth, or rounds
 * emitted from the wrong parent, would not); at N = 1024, w = 64 it takes fewer steps than
 * multilevel, the best of the others there; windows; bad input. */
static void circulant_cases(void) {
    static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 17, 31, 100};
    static const uint64_t ws[] = {1, 2, 8, 64};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t k = 0; k < sizeof ws / sizeof *ws; k++)
            oc_report_free(verified("ring", 0, "circulant", sizes[i], NULL, ws[k], 1, 1));
    static const struct {
        uint32_t N;
        uint64_t w;
    } meets[] = {{5, 1}, {7, 1}, {17, 16}, {31, 16}, {100, 64}, {12, 64}};
    for (size_t i = 0; i < sizeof meets / sizeof *meets; i++) {
        oc_report *rep = verified("ring", 0, "circulant", meets[i].N, NULL, meets[i].w, 1, 0);
        const uint64_t bound = ring_bound(meets[i].N, meets[i].w);
        CHECK(rep && oc_report_steps(rep) == bound, "circulant N=%u w=%llu: %llu steps, bound %llu",
              meets[i].N, (unsigned long long)meets[i].w,
              rep ? (unsigned long long)oc_report_steps(rep) : 0, (unsigned long long)bound);
        oc_report_free(rep);
    }
    /* a pinned depth: depth 1 is a star from every source, floor(N^2/4) / 2 a direction */
    oc_report *rep = verified("ring", 0, "circulant", 12, "depth=1", 64, 1, 1);
    CHECK(rep && oc_report_steps(rep) == 1, "circulant N=12 depth=1 w=64: %llu steps",
          rep ? (unsigned long long)oc_report_steps(rep) : 0);
    oc_report_free(rep);
    rep = verified("ring", 0, "circulant", 12, "depth=1", 8, 1, 1);
    CHECK(rep && oc_report_steps(rep) >= 3, "circulant N=12 depth=1 w=8: %llu steps, below "
          "its load 18 / 8", rep ? (unsigned long long)oc_report_steps(rep) : 0);
    oc_report_free(rep);
    /* large N */
    oc_report *c = verified("ring", 0, "circulant", 1024, NULL, 64, 1, 0);
    oc_report *m = verified("ring", 0, "multilevel", 1024, NULL, 64, 1, 0);
    CHECK(c && m && oc_report_steps(c) < oc_report_steps(m) &&
              oc_report_steps(c) >= ring_bound(1024, 64),
          "circulant N=1024 w=64: %llu steps, multilevel %llu",
          c ? (unsigned long long)oc_report_steps(c) : 0,
          m ? (unsigned long long)oc_report_steps(m) : 0);
    oc_report_free(c);
    oc_report_free(m);
    static const struct {
        uint32_t N;
        const char *words;
    } win[] = {{7, ""}, {12, "depth=2"}, {31, "depth=3"}, {100, "depth=4"}};
    for (size_t i = 0; i < sizeof win / sizeof *win; i++)
        windows_case(0, "circulant", win[i].N, win[i].words);
    char why[512] = "";
    int err = 0;
    rep = run("ring", OC_ALLGATHER, "circulant", 12, "depth=7", 8, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "from 1 to 6") && !strchr(why, '\n'),
          "circulant depth=7 on 12 nodes: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "circulant", 12, "depth=0", 8, 1, 0, &err, why, sizeof why);
    CHECK(err != 0, "circulant depth=0 accepted");
    oc_report_free(rep);
    /* above 1024 nodes it runs (tests/test_circulant.c), to 4096 */
    rep = run("ring", OC_ALLGATHER, "circulant", 4097, NULL, 64, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "4096") && !strchr(why, '\n'),
          "circulant on 4097 nodes: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "circulant", 12, "stride=2", 8, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "stride"), "circulant took stride=2: err %d '%s'", err, why);
    oc_report_free(rep);
}

static void bad_input(void) {
    char why[512] = "";
    int err = 0;
    oc_report *rep =
        run("ring", OC_ALLGATHER, "stride", 12, "stride=6", 4, 1, 0, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "stride must be 1..5") && !strchr(why, '\n'),
          "stride=6 on 12 nodes: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "stride", 12, "stride=0", 4, 1, 0, &err, why, sizeof why);
    CHECK(err != 0, "stride=0 accepted");
    oc_report_free(rep);
    rep =
        run("ring", OC_ALLGATHER, "multilevel", 12, "radices=3x3", 4, 1, 0, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "product must be N = 12") && !strchr(why, '\n'),
          "multilevel radices=3x3 on 12 nodes: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep =
        run("ring", OC_ALLGATHER, "multilevel", 12, "radices=2x6", 4, 1, 0, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "first radix must be at least 3"),
          "multilevel radices=2x6: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "bistride", 12, "stride=6", 4, 1, 0, &err, why, sizeof why);
    CHECK(err == OC_EINVAL && strstr(why, "stride must be 1..5") && !strchr(why, '\n'),
          "bistride stride=6 on 12 nodes: err %d, '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "bistride", 12, "radices=3x4", 4, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "radices"), "bistride took radices: err %d '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "comb", 12, "stride=2", 3, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "stride") && !strchr(why, '\n'),
          "comb took stride=2: err %d '%s'", err, why);
    oc_report_free(rep);
    rep = run("ring", OC_ALLGATHER, "bidir", 12, "stride=2", 4, 1, 0, &err, why, sizeof why);
    CHECK(err != 0 && strstr(why, "stride"), "bidir took stride=2: err %d '%s'", err, why);
    oc_report_free(rep);
}

int main(int argc, char **argv) {
    const int slow = argc > 1 && !strcmp(argv[1], "slow");
    static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};
    static const uint64_t ws[][2] = {{1, 1}, {2, 1}, {3, 2}, {8, 1}};
    if (!slow) {
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (size_t k = 0; k < sizeof ws / sizeof *ws; k++) {
                const uint32_t N = sizes[i];
                bidir_case(N, ws[k][0], ws[k][1], 1);
                for (size_t ci = 0; ci < 3; ci++) { /* the default (searched) stride, radices */
                    oc_report *rep = verified("ring", ci, "stride", N, NULL, ws[k][0], ws[k][1], 1);
                    oc_report_free(rep);
                    rep = verified("ring", ci, "multilevel", N, NULL, ws[k][0], ws[k][1], 1);
                    oc_report_free(rep);
                }
            }
        /* bidir on the other networks it declares */
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (size_t ci = 0; ci < 3; ci++) {
                oc_report_free(verified("switch", ci, "bidir", sizes[i], NULL, 1, 1, 1));
                oc_report_free(verified("fattree", ci, "bidir", sizes[i], NULL, 1, 1, 1));
            }
        /* pinned strides, dividing N or not */
        static const uint32_t pins[][2] = {{12, 2},  {12, 3},   {12, 4},   {12, 5}, {100, 10},
                                           {100, 7}, {100, 25}, {100, 49}, {7, 3},  {5, 2}};
        for (size_t i = 0; i < sizeof pins / sizeof *pins; i++)
            for (size_t k = 0; k < sizeof ws / sizeof *ws; k++)
                stride_pinned(pins[i][0], pins[i][1], ws[k][0], ws[k][1], 1);
        /* large N */
        bidir_case(1000, 8, 1, 0);
        stride_pinned(1000, 10, 8, 1, 0);
        stride_pinned(1000, 8, 64, 2, 0);
        stride_pinned(1000, 37, 16, 1, 0);
        for (size_t ci = 0; ci < 3; ci++) {
            oc_report_free(verified("ring", ci, "stride", 1000, NULL, 16, 1, 0));
            oc_report_free(verified("ring", ci, "multilevel", 1000, NULL, 64, 1, 0));
            oc_report_free(verified("ring", ci, "multilevel", 1000, "radices=10x10x10", 8, 2, 0));
        }
        /* multilevel's search against every list it takes */
        static const uint64_t lw[][2] = {{1, 1}, {2, 1}, {4, 2}, {8, 1}, {64, 1}};
        for (uint32_t N = 1; N <= 48; N++)
            for (size_t k = 0; k < sizeof lw / sizeof *lw; k++)
                levels_search_case(0, N, lw[k][0], lw[k][1]);
        static const uint32_t lmore[] = {64, 100, 128};
        for (size_t i = 0; i < sizeof lmore / sizeof *lmore; i++)
            for (size_t ci = 0; ci < 3; ci++) {
                levels_search_case(ci, lmore[i], 8, 1);
                levels_search_case(ci, lmore[i], 64, 2);
            }
        /* the search against every pinned stride */
        static const uint64_t sw[][2] = {{1, 1}, {2, 1}, {3, 1}, {4, 2}, {8, 1}};
        for (uint32_t N = 1; N <= 40; N++)
            for (size_t k = 0; k < sizeof sw / sizeof *sw; k++)
                search_case(0, N, sw[k][0], sw[k][1]);
        static const uint32_t more[] = {64, 100, 127};
        for (size_t i = 0; i < sizeof more / sizeof *more; i++)
            for (size_t ci = 0; ci < 3; ci++) {
                search_case(ci, more[i], 8, 1);
                search_case(ci, more[i], 3, 2);
            }
        for (uint32_t N = 5; N <= 24; N += 3)
            for (size_t ci = 1; ci < 3; ci++)
                search_case(ci, N, 2, 1);
        static const struct {
            const char *algo;
            uint32_t N;
            const char *words;
        } win[] = {{"bidir", 7, ""},
                   {"bidir", 12, ""},
                   {"stride", 13, "stride=3"},
                   {"stride", 12, "stride=4"},
                   {"stride", 100, "stride=7"},
                   {"stride", 31, "stride=5"},
                   {"stride", 10, "stride=3"},
                   {"stride", 16, "stride=5"},
                   {"bistride", 12, "stride=2"},
                   {"bistride", 11, "stride=2"},
                   {"bistride", 13, "stride=4"},
                   {"bistride", 31, "stride=6"},
                   {"bistride", 100, "stride=4"},
                   {"comb", 7, ""},
                   {"comb", 12, ""},
                   {"comb", 100, ""},
                   {"multilevel", 12, ""},
                   {"multilevel", 100, "radices=5x5x4"}};
        for (size_t i = 0; i < sizeof win / sizeof *win; i++)
            for (size_t ci = 0; ci < (strcmp(win[i].algo, "comb") ? 3u : 1u); ci++)
                windows_case(ci, win[i].algo, win[i].N, win[i].words);
        split_cases();
        comb_cases();
        circulant_cases();
        bad_input();
    } else {
        for (size_t ci = 0; ci < 3; ci++) {
            oc_report_free(verified("ring", ci, "stride", 4096, NULL, 64, 1, 0));
            oc_report_free(verified("ring", ci, "stride", 4096, NULL, 8, 2, 0));
        }
        stride_pinned(4096, 64, 64, 1, 0);
        for (size_t ci = 0; ci < 3; ci++)
            oc_report_free(verified("ring", ci, "multilevel", 4096, NULL, 128, 1, 0));
        bidir_case(4096, 1, 1, 0);
        for (size_t ci = 0; ci < 3; ci++) /* the w = 2 case at 4096: 3N/8 steps */
            oc_report_free(verified("ring", ci, "bistride", 4096, NULL, 2, 1, 0));
        pinned("bistride", 4096, 64, 64, 1, 0);
        oc_report *rep = verified("ring", 0, "comb", 4096, NULL, 3, 1, 0);
        CHECK(rep && oc_report_steps(rep) == 1024, "comb N=4096 w=3: %llu steps, not 1024",
              rep ? (unsigned long long)oc_report_steps(rep) : 0);
        oc_report_free(rep);
    }
    return CHECK_SUMMARY();
}
