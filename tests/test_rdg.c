/*
 * test_rdg.c — recursive doubling in unequal groups on the fabric (src/algo/groups.c and the
 * three rdg algorithms: allreduce_rdg.c, allgather_rdg.c, reducescatter_rdg.c).
 *
 *  (a) verified with real data (floats summed, blocks copied) for the all-reduce, all-gather and
 *      reduce-scatter at N = 1, 2, 3, 5, 7, 12, 100 (and 13, 16, 63, 97, 1024) on the fabric with
 *      its defaults, mzi_degree=0 and mzi_split=1, 1 KiB and 1 MiB; never below the physical
 *      bound; one step a round at the defaults;
 *  (b) the tree's rounds at radix 4 against an independent brute force over every way to split
 *      a class (any parts of at least 1/4 of it, at most four), N = 2 .. 64 and 100;
 *  (c) the search contract: at N = 2 .. 24 and 100, every radix (and for the all-reduce every
 *      group) one could pin that runs is no faster than the default (1 KiB and 1 MiB, defaults
 *      and mzi_degree=0);
 *  (d) where the fabric's bound showed the gap (N = 100, 1 KiB): four rounds for each collective,
 *      faster than rdk (all-reduce), rd (all-gather) and rh (reduce-scatter), below 3 times
 *      the physical time bound;
 *      The all-reduce at 1 MiB (groups of 4 around the tree): faster than rhd, below 3 times;
 *      pinned groups with real data at N = 21, 100, 12;
 *  (e) bad input: radix 1, radix text, radix 2 off the powers of two, N above 4096, radix= for
 *      one node, an unknown parameter, a group that does not divide N or above N / 2: refused in
 *      one line.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static const oc_collective colls[] = {OC_ALLREDUCE, OC_ALLGATHER, OC_REDUCESCATTER};

static oc_report *run(oc_collective c, const char *algo, uint32_t N, const char *np, uint64_t bytes,
                      const char *params, int *err, char *why, size_t len) {
    return run_words("fabric", c, algo, N, bytes, params, np, 1, err, why, len);
}

static void test_verified(void) {
    static const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100, 13, 16, 63, 97, 1024};
    static const char *const nets[] = {"", "mzi_degree=0", "mzi_split=1"};
    static const uint64_t sizes[] = {1024, 1 << 20};
    for (size_t c = 0; c < 3; c++)
        for (size_t n = 0; n < sizeof Ns / sizeof *Ns; n++)
            for (size_t t = 0; t < 3; t++)
                for (size_t s = 0; s < 2; s++) {
                    const uint32_t N = Ns[n];
                    if (N == 1024 && (t || s)) continue; /* the large N once */
                    char why[512] = "";
                    int err = 0;
                    oc_report *rep =
                        run(colls[c], "rdg", N, nets[t], sizes[s], NULL, &err, why, sizeof why);
                    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
                          "rdg %s N=%u %s %llu: %s", oc_collective_name(colls[c]), N, nets[t],
                          (unsigned long long)sizes[s], err ? why : "not verified");
                    if (err || !rep) {
                        oc_report_free(rep);
                        continue;
                    }
                    CHECK((N < 2) == (oc_report_rounds(rep) == 0), "rdg N=%u: %llu rounds", N,
                          (unsigned long long)oc_report_rounds(rep));
                    if (!nets[t][0])
                        CHECK(oc_report_steps(rep) == oc_report_rounds(rep),
                              "rdg N=%u: %llu steps, %llu rounds", N,
                              (unsigned long long)oc_report_steps(rep),
                              (unsigned long long)oc_report_rounds(rep));
                    oc_physical_bound_info pb = {0};
                    if (oc_report_physical_bound(rep, &pb) == 1)
                        CHECK(oc_report_steps(rep) >= pb.steps &&
                                  oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
                              "rdg N=%u %s: below the physical bound", N, nets[t]);
                    oc_report_free(rep);
                }
}

/* The fewest levels of a tree over n nodes, radix r, by brute force: a class of n > 1 nodes is
 * split into 2 .. r parts, each at least n / r, each with one level fewer (or passes a level
 * whole). memo[n] for the levels, filled from below. */
static uint32_t brute_levels(uint32_t n, uint32_t r, uint32_t *memo);

static int parts_fit(uint32_t left, uint32_t lo, uint32_t parts, uint32_t most, uint32_t n,
                     uint32_t r, uint32_t levels, uint32_t *memo) {
    if (left == 0) return parts >= 2;
    if (parts == r) return 0;
    for (uint32_t p = lo; p <= left && p <= most; p++)
        if ((uint64_t)p * r >= n && p < n && brute_levels(p, r, memo) <= levels &&
            parts_fit(left - p, p, parts + 1, most, n, r, levels, memo))
            return 1;
    return 0;
}

static uint32_t brute_levels(uint32_t n, uint32_t r, uint32_t *memo) {
    if (n == 1) return 0;
    if (memo[n]) return memo[n];
    uint32_t best = 99;
    for (uint32_t levels = 0; levels < 12 && best == 99; levels++)
        if (parts_fit(n, 1, 0, n, n, r, levels, memo)) best = levels + 1;
    return memo[n] = best;
}

static void test_tree(void) {
    uint32_t memo[101] = {0};
    for (uint32_t N = 2; N <= 100; N++) {
        if (N > 64 && N != 100) continue;
        const uint32_t want = brute_levels(N, 4, memo);
        char why[512] = "";
        int err = 0;
        oc_report *rep = run(OC_ALLREDUCE, "rdg", N, "", 1024, "radix=4", &err, why, sizeof why);
        CHECK(!err && rep && oc_report_rounds(rep) == want,
              "rdg radix=4 N=%u: %llu rounds, brute force %u (%s)", N,
              rep ? (unsigned long long)oc_report_rounds(rep) : 0ULL, want, why);
        oc_report_free(rep);
    }
    /* by hand: F_2 = 1..12 and 16 (13 needs three levels), 100 = 64 + 36 in four */
    CHECK(brute_levels(13, 4, memo) == 3 && brute_levels(16, 4, memo) == 2 &&
              brute_levels(100, 4, memo) == 4 && brute_levels(63, 4, memo) == 4,
          "the brute force's hand cases");
}

static void test_search(void) {
    static const char *const nets[] = {"", "mzi_degree=0"};
    static const uint64_t sizes[] = {1024, 1 << 20};
    uint32_t Ns[24];
    size_t nn = 0;
    for (uint32_t N = 2; N <= 24; N++)
        Ns[nn++] = N;
    Ns[nn++] = 100;
    for (size_t c = 0; c < 3; c++)
        for (size_t n = 0; n < nn; n++)
            for (size_t t = 0; t < 2; t++)
                for (size_t s = 0; s < 2; s++) {
                    char why[512] = "";
                    int err = 0;
                    oc_report *rep =
                        run(colls[c], "rdg", Ns[n], nets[t], sizes[s], NULL, &err, why, sizeof why);
                    CHECK(err == 0 && rep, "rdg N=%u default: %s", Ns[n], why);
                    if (err || !rep) {
                        oc_report_free(rep);
                        continue;
                    }
                    const double best = oc_report_time(rep);
                    oc_report_free(rep);
                    uint32_t tried = 0;
                    /* the all-reduce's groups too: g = 1 and the divisors of N up to N / 2 */
                    const uint32_t gmax = colls[c] == OC_ALLREDUCE ? Ns[n] / 2 : 1;
                    for (uint32_t gr = 1; gr <= gmax || gr == 1; gr++)
                        for (uint32_t r = 2; r <= 17 && r <= Ns[n] / gr; r++) {
                            if (Ns[n] % gr) break;
                            char param[48];
                            if (colls[c] == OC_ALLREDUCE)
                                snprintf(param, sizeof param, "radix=%u group=%u", r, gr);
                            else
                                snprintf(param, sizeof param, "radix=%u", r);
                            rep = run(colls[c], "rdg", Ns[n], nets[t], sizes[s], param, &err, why,
                                      sizeof why);
                            if (!err && rep) {
                                tried++;
                                CHECK(oc_report_time(rep) >= best * (1 - 1e-12),
                                      "rdg %s N=%u %s %llu: %s (%.6g s) beats the default "
                                      "(%.6g s)",
                                      oc_collective_name(colls[c]), Ns[n], nets[t],
                                      (unsigned long long)sizes[s], param, oc_report_time(rep),
                                      best);
                            }
                            oc_report_free(rep);
                        }
                    CHECK(tried >= 1, "rdg N=%u %s: no pinned radix ran", Ns[n], nets[t]);
                }
}

static void test_gap(void) {
    static const char *const rival[] = {"rdk", "rd", "rh"};
    for (size_t c = 0; c < 3; c++) {
        char why[512] = "";
        int err = 0, err2 = 0;
        oc_report *rdg = run(colls[c], "rdg", 100, "", 1024, NULL, &err, why, sizeof why);
        oc_report *other = run(colls[c], rival[c], 100, "", 1024, NULL, &err2, why, sizeof why);
        CHECK(!err && !err2 && rdg && other, "N=100, 1 KiB: %s", why);
        if (!err && !err2 && rdg && other) {
            oc_physical_bound_info pb = {0};
            CHECK(oc_report_physical_bound(rdg, &pb) == 1 && pb.time_s > 0, "a physical bound");
            CHECK(oc_report_steps(rdg) == 4 && oc_report_time(rdg) < oc_report_time(other) &&
                      oc_report_time(rdg) < 3 * pb.time_s,
                  "rdg %s N=100 1 KiB: %llu steps, %.4g s (%s %.4g s, bound %.4g s)",
                  oc_collective_name(colls[c]), (unsigned long long)oc_report_steps(rdg),
                  oc_report_time(rdg), rival[c], oc_report_time(other), pb.time_s);
        }
        oc_report_free(rdg);
        oc_report_free(other);
    }
}

/* The all-reduce at 1 MiB, N = 100: a reduce-scatter in groups of 4, the tree over the 25
 * groups' lanes, an all-gather: 5 rounds of a quarter vector, faster than rhd (8 rounds with a
 * fold) and below 3 times the bound. */
static void test_gap_groups(void) {
    char why[512] = "";
    int err = 0, err2 = 0;
    oc_report *rdg = run(OC_ALLREDUCE, "rdg", 100, "", 1 << 20, NULL, &err, why, sizeof why);
    oc_report *rhd = run(OC_ALLREDUCE, "rhd", 100, "", 1 << 20, NULL, &err2, why, sizeof why);
    CHECK(!err && !err2 && rdg && rhd, "N=100, 1 MiB: %s", why);
    if (!err && !err2 && rdg && rhd) {
        oc_physical_bound_info pb = {0};
        const char *g = oc_report_param(rdg, "group");
        CHECK(oc_report_physical_bound(rdg, &pb) == 1 && pb.time_s > 0, "a physical bound");
        CHECK(g && !strcmp(g, "4") && oc_report_steps(rdg) == 5 &&
                  oc_report_time(rdg) < oc_report_time(rhd) && oc_report_time(rdg) < 3 * pb.time_s,
              "rdg all-reduce N=100 1 MiB: group %s, %llu steps, %.4g s (rhd %.4g s, bound %.4g s)",
              g ? g : "?", (unsigned long long)oc_report_steps(rdg), oc_report_time(rdg),
              oc_report_time(rhd), pb.time_s);
    }
    oc_report_free(rdg);
    oc_report_free(rhd);
    /* a pinned group runs with real data at odd and prime-factor N (7 x 3, 5 x 20) */
    static const struct {
        uint32_t N;
        const char *params;
    } pins[] = {{21, "group=7"}, {21, "group=3 radix=3"}, {100, "group=5"}, {12, "group=6"}};
    for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
        oc_report *rep = run(OC_ALLREDUCE, "rdg", pins[i].N, "mzi_degree=0", 4096, pins[i].params,
                             &err, why, sizeof why);
        CHECK(!err && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
              "rdg N=%u %s: %s", pins[i].N, pins[i].params, err ? why : "not verified");
        oc_report_free(rep);
    }
}

static void test_bad(void) {
    static const struct {
        uint32_t N;
        const char *params, *want;
    } cases[] = {{16, "radix=1", "from 2 to 64"},          {16, "radix=four", "from 2 to 64"},
                 {100, "radix=2", "cannot reach N = 100"}, {5000, "", "at most 4096"},
                 {1, "radix=2", "nothing to do"},          {16, "radices=4", "radices"},
                 {100, "group=3", "does not divide"},      {100, "group=51", "from 1 to 50"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char why[512] = "";
        int err = 0;
        const oc_collective c = strstr(cases[i].params, "group") ? OC_ALLREDUCE : OC_ALLGATHER;
        oc_report *rep =
            run(c, "rdg", cases[i].N, "", 1024, cases[i].params, &err, why, sizeof why);
        CHECK(err != 0 && !rep && strstr(why, cases[i].want) && !strchr(why, '\n'),
              "rdg N=%u %s: refused in one line naming '%s': %d '%s'", cases[i].N, cases[i].params,
              cases[i].want, err, why);
        oc_report_free(rep);
    }
}

int main(void) {
    test_verified();
    test_tree();
    test_search();
    test_gap();
    test_gap_groups();
    test_bad();
    return CHECK_SUMMARY();
}
