/*
 * test_twophase.c — the two-phase all-to-all in groups on the fabric (src/algo/alltoall_twophase.c).
 *
 *  (a) verified with real data at N = 1, 2, 3, 5, 7, 12 and 100 (symbolically at 1000) on the fabric (the seed's
 *      1x3 switch, mzi_degree=0, and mzi_split=1 with a 1x1 switch: rounds in passes), searched
 *      and pinned, 1 KiB and 65539-byte blocks; every run at or above the physical bound, and
 *      its rounds as the plan counts them (phase 1's periods and phase 2's packing);
 *  (b) the search's bound (its essay): at N = 5, 7, 12, 13, 31 and 32, and with rounds split
 *      into passes (mzi_split=1, up to 16 circuits) at N = 5, 7, 12, 13, every (groups, circuits)
 *      run pinned; every candidate the search logs, mapped or pruned, has a bound at most its
 *      pinned run's time and steps (a reconfiguration or a round too many fails), the search
 *      returns the best pinned run, and no pinned run is below the physical bound;
 *  (c) the gap it closes (1 KiB, the seed's fabric): at N = 100 within 1.8x of the physical bound
 *      (kshift, the best before, 5.4x) and a third of kshift's time; at N = 32 and 64 within 3x
 *      (5.9x and 5.3x before); groups=10 circuits=3 at N = 100 pays six reconfigurations
 *      (three periods, three phase-2 rounds) in 33 rounds; where the gap stays (N = 31, 4.9x)
 *      the report names the schedules as the likely loose side;
 *  (d) bad input: groups=0, groups above N, circuits above N - 1, an unknown parameter.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static oc_report *a2a(const char *algo, uint32_t N, const char *np, uint64_t bytes,
                      const char *params, int data, int *err, char *why, size_t len) {
    return run_words("fabric", OC_ALLTOALL, algo, N, bytes, params, np, data, err, why, len);
}

static oc_report *checked(uint32_t N, const char *np, uint64_t bytes, const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a("twophase", N, np, bytes, params, 1, &err, why, sizeof why);
    /* the real-data run is the pipeline's choice past its size (N = 1000: a million blocks) */
    CHECK(err == 0 && rep && oc_report_verified(rep) && (N > 100 || oc_report_data_checked(rep)),
          "twophase N=%u %s %s: %s", N, np, params ? params : "(searched)",
          err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    oc_physical_bound_info pb = {0};
    CHECK(oc_report_physical_bound(rep, &pb) == 1 && oc_report_steps(rep) >= pb.steps &&
              oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
          "twophase N=%u %s %s: %.9g s, %llu steps below the physical bound %.9g, %llu", N, np,
          params ? params : "", oc_report_time(rep), (unsigned long long)oc_report_steps(rep),
          pb.time_s, (unsigned long long)pb.steps);
    return rep;
}

static void test_verified(void) {
    static const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100, 1000};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        const uint32_t N = Ns[i];
        oc_report_free(checked(N, "", 1024, NULL));
        if (N > 100) continue;
        oc_report_free(checked(N, "mzi_degree=0", 65539, NULL));
        oc_report_free(checked(N, "mzi_split=1 mzi_degree=1", 1024, NULL));
        if (N >= 3) {
            /* uneven groups, a group a node, and more circuits than the switch holds, in passes */
            char p[64];
            snprintf(p, sizeof p, "groups=%u circuits=2", N / 2);
            oc_report_free(checked(N, "", 1024, p));
            snprintf(p, sizeof p, "groups=%u circuits=1", N);
            oc_report_free(checked(N, "", 65539, p));
            oc_report_free(checked(N, "mzi_split=1", 1024, "groups=2 circuits=2"));
        }
    }
    /* a large N pinned off the search's choice: 7 uneven groups, 2 circuits */
    oc_report_free(checked(1000, "", 1024, "groups=7 circuits=2"));
}

typedef struct pinned {
    double time;
    uint64_t steps;
} pinned;

/* Every (groups, circuits) at N on network settings `np` pinned, then the search: every logged
 * candidate's bound at most its pinned run, the search's choice the best pinned run. `most`: the
 * most circuits the search may offer there (the MZI degree; the wavelengths where rounds split). */
static void search_bound_at(uint32_t N, const char *np, uint32_t most, size_t *mapped,
                            size_t *pruned) {
    enum { MOST = 32, CIRCUITS = 16 };
    pinned cost[MOST + 1][CIRCUITS + 1];
    uint32_t ba = 0, bp = 0;
    for (uint32_t a = 1; a <= N; a++)
        for (uint32_t p = 1; p <= most && p < N; p++) {
            char params[64], why[512] = "";
            int err = 0;
            snprintf(params, sizeof params, "groups=%u circuits=%u", a, p);
            oc_report *rep = a2a("twophase", N, np, 1024, params, 0, &err, why, sizeof why);
            CHECK(err == 0 && rep && oc_report_verified(rep), "N=%u %s %s: %s", N, np, params,
                  why);
            if (!rep) return;
            /* the grid of pinned schedules against the physical bound (odd, prime, power N) */
            oc_physical_bound_info pb = {0};
            CHECK(oc_report_physical_bound(rep, &pb) == 1 &&
                      oc_report_time(rep) >= pb.time_s * (1 - 1e-12) &&
                      oc_report_steps(rep) >= pb.steps,
                  "N=%u %s %s: %.9g s below the physical bound %.9g s", N, np, params,
                  oc_report_time(rep), pb.time_s);
            cost[a][p] = (pinned){oc_report_time(rep), oc_report_steps(rep)};
            oc_report_free(rep);
            if (!ba || cost[a][p].time < cost[ba][bp].time ||
                (cost[a][p].time == cost[ba][bp].time && cost[a][p].steps < cost[ba][bp].steps))
                ba = a, bp = p;
        }
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a("twophase", N, np, 1024, NULL, 0, &err, why, sizeof why);
    CHECK(err == 0 && rep, "N=%u %s searched: %s", N, np, why);
    if (!rep) return;
    const char *ga = oc_report_param(rep, "groups"), *gp = oc_report_param(rep, "circuits");
    const uint32_t wa = ga ? (uint32_t)strtoul(ga, NULL, 10) : 0;
    const uint32_t wp = gp ? (uint32_t)strtoul(gp, NULL, 10) : 0;
    CHECK(wa >= 1 && wa <= N && wp >= 1 && wp <= most && cost[wa][wp].time == cost[ba][bp].time &&
              cost[wa][wp].steps == cost[ba][bp].steps,
          "N=%u %s: the search chose groups=%s circuits=%s; the best pinned is groups=%u "
          "circuits=%u (%.9g)",
          N, np, ga ? ga : "-", gp ? gp : "-", ba, bp, cost[ba][bp].time);
    const oc__search_log *log = rep->search;
    for (size_t k = 0; log && k < log->n; k++) {
        const oc__search_entry *e = &log->entry[k];
        if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
        e->status == OC__CAND_MAPPED ? (*mapped)++ : (*pruned)++;
        unsigned a = 0, p = 0;
        CHECK(sscanf(e->text, "groups=%u circuits=%u", &a, &p) == 2 && a >= 1 && a <= N &&
                  p >= 1 && p <= most && p < N,
              "N=%u %s: the logged candidate %s", N, np, e->text);
        if (a < 1 || a > N || p < 1 || p > most || p >= N) continue;
        CHECK(e->bound_time_s <= cost[a][p].time * (1 + 1e-12) &&
                  e->bound_steps <= cost[a][p].steps,
              "N=%u %s groups=%u circuits=%u (%s): bound %.9g s %llu steps above its run %.9g s "
              "%llu steps",
              N, np, a, p, e->status == OC__CAND_MAPPED ? "mapped" : "pruned", e->bound_time_s,
              (unsigned long long)e->bound_steps, cost[a][p].time,
              (unsigned long long)cost[a][p].steps);
    }
    oc_report_free(rep);
}

static void test_search_bound(void) {
    static const uint32_t Ns[] = {5, 7, 12, 13, 31, 32};
    size_t mapped = 0, pruned = 0;
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        search_bound_at(Ns[i], "", 3, &mapped, &pruned);
    /* rounds above the 1x3 switch split into passes: up to 16 circuits (the wavelengths) */
    static const uint32_t split[] = {5, 7, 12, 13};
    for (size_t i = 0; i < sizeof split / sizeof *split; i++)
        search_bound_at(split[i], "mzi_split=1", 16, &mapped, &pruned);
    CHECK(pruned > mapped, "the bound pruned %zu, %zu mapped", pruned, mapped);
}

static double best_time(const char *algo, uint32_t N, const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a(algo, N, "", 1024, params, 0, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep), "%s N=%u: %s", algo, N, why);
    const double t = rep ? oc_report_time(rep) : 0;
    oc_report_free(rep);
    return t;
}

static void test_gap(void) {
    static const struct {
        uint32_t N;
        double within;
    } cases[] = {{100, 1.8}, {64, 3.0}, {32, 3.0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oc_report *rep = checked(cases[i].N, "", 1024, NULL);
        oc_physical_bound_info pb = {0};
        CHECK(rep && oc_report_physical_bound(rep, &pb) == 1 &&
                  oc_report_time(rep) <= cases[i].within * pb.time_s,
              "twophase N=%u 1 KiB: %.6g s, the bound %.6g s (wanted within %.1fx)", cases[i].N,
              rep ? oc_report_time(rep) : 0, pb.time_s, cases[i].within);
        const double mine = rep ? oc_report_time(rep) : 0, ks = best_time("kshift", cases[i].N, NULL);
        CHECK(mine > 0 && mine < ks / 2, "twophase N=%u: %.6g s against kshift's %.6g s",
              cases[i].N, mine, ks);
        oc_report_free(rep);
    }
    /* where the gap stays (N = 31: unequal groups, 4.9x), the report names the schedules */
    oc_report *prime = checked(31, "", 1024, NULL);
    oc_physical_bound_info pb31 = {0};
    const double ratio = prime && oc_report_physical_bound(prime, &pb31) == 1
                             ? oc_report_time(prime) / pb31.time_s
                             : 0;
    CHECK(ratio > OC_LOOSE_RATIO &&
              oc_physical_bound_loose(&pb31, ratio, NULL) == OC_LOOSE_SCHEDULE,
          "twophase N=31 1 KiB: %.3g x the bound, likely loose side %d", ratio,
          (int)oc_physical_bound_loose(&pb31, ratio, NULL));
    oc_report_free(prime);
    /* groups=10 circuits=3 at N = 100: 30 rounds in three periods of 10 (one circuit set each),
     * then three rounds of 10-block ranges, each new: 33 rounds, six reconfigurations */
    oc_report *rep = checked(100, "", 1024, "groups=10 circuits=3");
    double reconf = -1;
    CHECK(rep && oc_report_steps(rep) == 33 &&
              oc_report_number(rep, "reconfigurations", &reconf) == 1 && reconf == 6,
          "twophase N=100 groups=10 circuits=3: %llu steps, %g reconfigurations",
          rep ? (unsigned long long)oc_report_steps(rep) : 0, reconf);
    oc_report_free(rep);
}

static void refused(uint32_t N, const char *params, int want, const char *text) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a("twophase", N, "", 1024, params, 0, &err, why, sizeof why);
    CHECK(err == want && !rep && strstr(why, text) && !strchr(why, '\n'),
          "twophase N=%u %s: %d (%s), wanted %d and \"%s\"", N, params, err, why, want, text);
    oc_report_free(rep);
}

static void test_bad_input(void) {
    refused(12, "groups=0", OC_ERANGE, "groups=0");
    refused(7, "groups=8", OC_EINVAL, "at most N = 7");
    refused(7, "groups=1 circuits=7", OC_EINVAL, "at most N - 1 = 6");
    refused(7, "group=2", OC_ENOENT, "unknown twophase parameter");
}

int main(void) {
    test_verified();
    test_search_bound();
    test_gap();
    test_bad_input();
    return CHECK_SUMMARY();
}
