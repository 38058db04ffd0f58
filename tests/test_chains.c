/*
 * test_chains.c — the pipelined broadcast on the star (src/algo/broadcast_chains.c).
 *
 *  (a) verified with real data at P = 1, 2, 3, 5, 7, 12, 100 (and 64, 31) on k = 1, 3, 4, at one
 *      message, 1000 bytes and 1 KiB, by default and with pins: every mapped schedule takes
 *      exactly ceil(q / c) + P - 2 steps (one step a round: distinct strides give distinct pairs,
 *      at most c <= k streams a processor; a chain that repeats a pair or overfills a processor
 *      is caught), and is at or above the physical bound in steps and time;
 *  (b) where the star's bound shows the seed broadcasts' gap (1 KiB, L = 1, D = 1): within 1.1x
 *      of the proven time bound at P = 9, k = 3 (tcp1-split 3.24x), within 2.5x at P = 17 .. 100,
 *      k = 3 and 4, and faster than both TCP1 and TCP1-split there;
 *  (c) the search contract: no pinned (chains, pieces) of a grid beats the default at P = 7, 12;
 *  (d) bad input, one line each: more chains than strides coprime to P - 1, fewer pieces than
 *      chains, more transfers than the budget, an unknown parameter.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static oc_report *bc_run(const char *algo, uint32_t P, const char *net, uint64_t bytes,
                         const char *params, int data, int *err, char *why, size_t len) {
    return run_words("star", OC_BROADCAST, algo, P, bytes, params, net, data, err, why, len);
}

static uint64_t param_u64(const oc_report *rep, const char *key) {
    const char *v = oc_report_param(rep, key);
    return v ? strtoull(v, NULL, 10) : 0;
}

/* Verified with real data; exactly its rounds in steps; at or above the physical bound. */
static oc_report *checked(uint32_t P, const char *net, uint64_t bytes, const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = bc_run("chains", P, net, bytes, params, 1, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
          "chains P=%u %s %llu B %s: %s", P, net, (unsigned long long)bytes,
          params ? params : "(default)", err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    const uint64_t c = param_u64(rep, "chains"), q = param_u64(rep, "pieces");
    const uint64_t rounds = P > 1 ? (q + c - 1) / c + P - 2 : 0;
    CHECK(c >= 1 && q >= c && oc_report_steps(rep) == rounds,
          "chains P=%u %s %s: %llu steps, %llu rounds (chains=%llu pieces=%llu)", P, net,
          params ? params : "", (unsigned long long)oc_report_steps(rep),
          (unsigned long long)rounds, (unsigned long long)c, (unsigned long long)q);
    oc_physical_bound_info pb = {0};
    if (oc_report_physical_bound(rep, &pb) == 1)
        CHECK(oc_report_steps(rep) >= pb.steps && oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
              "chains P=%u %s %s: %llu steps %.9g below the physical bound %llu %.9g", P, net,
              params ? params : "", (unsigned long long)oc_report_steps(rep), oc_report_time(rep),
              (unsigned long long)pb.steps, pb.time_s);
    return rep;
}

static void test_verified(void) {
    static const uint32_t Ps[] = {1, 2, 3, 5, 7, 12, 31, 64, 100};
    static const char *const nets[] = {"k=1 D=1", "k=3 D=1", "k=4 D=0.5 tau=2"};
    static const uint64_t sizes[] = {1, 1000, 1024};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++)
        for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
                oc_report_free(checked(Ps[i], nets[k], sizes[s], NULL));
    /* pins: one chain, two, pieces that do not divide evenly among the chains */
    oc_report_free(checked(12, "k=3", 1000, "chains=1 pieces=7"));
    oc_report_free(checked(12, "k=3", 1000, "chains=3 pieces=10"));
    oc_report_free(checked(7, "k=3", 1000, "chains=2 pieces=5"));
    oc_report_free(checked(3, "k=3", 1000, "chains=2 pieces=64"));
    oc_report_free(checked(100, "k=3", 1024, "chains=3 pieces=1024"));
    oc_report_free(checked(2, "k=4", 1024, "chains=1 pieces=1"));
}

/* ---- (b) the gap the star's bound showed ---- */

static double time_of(const char *algo, uint32_t P, const char *net, uint64_t bytes) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = bc_run(algo, P, net, bytes, NULL, 0, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep), "%s P=%u %s: %s", algo, P, net, why);
    const double t = rep ? oc_report_time(rep) : 0;
    oc_report_free(rep);
    return t;
}

static void test_gap(void) {
    static const uint32_t Ps[] = {9, 17, 31, 64, 100};
    static const char *const nets[] = {"k=3 D=1", "k=4 D=1"};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++)
        for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
            oc_report *rep = checked(Ps[i], nets[k], 1024, NULL);
            oc_physical_bound_info pb = {0};
            const double limit = Ps[i] == 9 && !strcmp(nets[k], "k=3 D=1") ? 1.1 : 2.5;
            CHECK(rep && oc_report_physical_bound(rep, &pb) == 1 &&
                      oc_report_time(rep) <= limit * pb.time_s,
                  "chains P=%u %s 1 KiB: %.6g, the bound %.6g (within %.1fx)", Ps[i], nets[k],
                  rep ? oc_report_time(rep) : 0, pb.time_s, limit);
            const double mine = rep ? oc_report_time(rep) : 0;
            const double t1 = time_of("tcp1", Ps[i], nets[k], 1024);
            const double t2 = time_of("tcp1-split", Ps[i], nets[k], 1024);
            CHECK(mine < t1 && mine < t2, "chains P=%u %s: %.6g, tcp1 %.6g, tcp1-split %.6g", Ps[i],
                  nets[k], mine, t1, t2);
            oc_report_free(rep);
        }
}

/* ---- (c) the search contract ---- */

static void test_search(void) {
    static const uint32_t Ps[] = {7, 12};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++) {
        char why[512] = "";
        int err = 0;
        oc_report *def = bc_run("chains", Ps[i], "k=3", 1024, NULL, 0, &err, why, sizeof why);
        CHECK(err == 0 && def, "chains P=%u default: %s", Ps[i], why);
        if (!def) continue;
        const double best = oc_report_time(def);
        for (uint32_t c = 1; c <= 3; c++)
            for (uint32_t q = c; q <= 1024; q = q * 3 + 1) {
                char pins[64];
                snprintf(pins, sizeof pins, "chains=%u pieces=%u", c, q);
                oc_report *rep =
                    bc_run("chains", Ps[i], "k=3", 1024, pins, 0, &err, why, sizeof why);
                if (err == OC_EINVAL) continue; /* more chains than strides (P = 7: two) */
                CHECK(err == 0 && rep, "chains P=%u %s: %s", Ps[i], pins, why);
                if (rep)
                    CHECK(oc_report_time(rep) >= best * (1 - 1e-12),
                          "chains P=%u: %s takes %.9g, the default %.9g", Ps[i], pins,
                          oc_report_time(rep), best);
                oc_report_free(rep);
            }
        oc_report_free(def);
    }
}

/* ---- (d) bad input ---- */

static void refused(uint32_t P, const char *params, int want, const char *text) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = bc_run("chains", P, "k=3", 1024, params, 0, &err, why, sizeof why);
    CHECK(err == want && !rep && strstr(why, text) && !strchr(why, '\n'),
          "chains P=%u %s: %d (%s), wanted %d and \"%s\"", P, params, err, why, want, text);
    oc_report_free(rep);
}

static void test_bad_input(void) {
    refused(7, "chains=3 pieces=30", OC_EINVAL, "at most 2 chains");
    refused(12, "chains=3 pieces=2", OC_EINVAL, "at least one piece a chain");
    refused(4000, "chains=1 pieces=65536", OC_ETOOBIG, "budget");
    refused(12, "chains=1 pieces=65537", OC_EINVAL, "at most 65536 pieces");
    refused(12, "chain=3", OC_ENOENT, "unknown chains parameter");
}

int main(void) {
    test_verified();
    test_gap();
    test_search();
    test_bad_input();
    return CHECK_SUMMARY();
}
