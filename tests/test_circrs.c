/*
 * test_circrs.c — the circulant reduce-scatter (src/algo/reducescatter_circulant.c), the dual of
 * the circulant all-gather (every transfer reversed in time and direction, a reduction).
 *
 *  (a) verified with real data (every contribution counted once, the sums compared) at N = 1, 2,
 *      3, 5, 7, 12, 100 on w = 1, 4, 64 and F = 2, searched and with each variant pinned; every
 *      mapped schedule at least its own search bound (the formula) and the reduce-scatter's
 *      physical bound, steps and time (src/bounds).
 *  (b) the dual: at every depth and variant (and first-round budget) on a grid of N and w, the
 *      reduce-scatter maps to the steps and rounds of the all-gather at the same parameters, and
 *      the searched defaults agree where a step costs the same (the all-gather's block = the
 *      reduce-scatter's vector / N).
 *  (c) the search contract: at N = 7, 12, 16, 17, every pin of depth, variant and first (every
 *      budget): none beats the default.
 *  (d) windows: every chunk window's transfers are the whole schedule's, in place.
 *  (e) deliberate breaks: a reduction sent twice (a contribution counted twice) and the source's
 *      last reduction moved to the first round (before its sender has its children's sums: their
 *      contributions never reach the owner) are refused by the verifier.
 *  (f) bad input: one line each, before any work.
 *  slow: N = 1024 (w = 64 with real data, w = 8) verified, at least both bounds, steps equal to
 *  the all-gather's at the chosen parameters.
 */
#include "algo/algos.h"
#include "algo/circulant.h"
#include "core/core.h"
#include "net/net.h"
#include "run/pipeline.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "keep_rounds.h"
#include "keep_verify.h"
#include "model_map.h"

static int slow;

static oc_report *rs_run(oc_collective coll, uint32_t N, const char *net, uint64_t bytes,
                         const char *params, int data, int *err, char *why, size_t len) {
    return run_words("ring", coll, "circulant", N, bytes, params, net, data, err, why, len);
}

/* ---- (a) verified runs ---- */

/* Verified (with real data when asked), at least its own bound and the physical bound. */
static oc_report *checked(uint32_t N, const char *net, uint64_t bytes, const char *params,
                          int data) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = rs_run(OC_REDUCESCATTER, N, net, bytes, params, data, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && (!data || oc_report_data_checked(rep)),
          "reducescatter circulant N=%u %s %s: %s", N, net, params ? params : "(default)",
          err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    double formula = 0;
    oc_physical_bound_info pb = {0};
    CHECK(oc_report_steps_formula(rep, &formula) == 1 &&
              (double)oc_report_steps(rep) >= formula - 1e-9,
          "N=%u %s %s: %llu steps below its bound %.0f", N, net, params ? params : "",
          (unsigned long long)oc_report_steps(rep), formula);
    CHECK(oc_report_physical_bound(rep, &pb) == 1 && oc_report_steps(rep) >= pb.steps &&
              oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
          "N=%u %s %s: %llu steps %.9g s below the physical bound %llu %.9g", N, net,
          params ? params : "", (unsigned long long)oc_report_steps(rep), oc_report_time(rep),
          (unsigned long long)pb.steps, pb.time_s);
    return rep;
}

static const char *const nets[] = {"wavelengths=1", "wavelengths=4", "wavelengths=64",
                                   "wavelengths=2 fibres=2"};
#define NNETS (sizeof nets / sizeof *nets)

static void verified_runs(void) {
    static const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t k = 0; k < NNETS; k++) {
            const uint32_t N = Ns[i];
            oc_report_free(checked(N, nets[k], 1u << 20, NULL, 1));
            /* each variant pinned, the mirrored one with a first-round budget too */
            char p[64];
            for (int v = 0; v <= 3; v++) {
                snprintf(p, sizeof p, "depth=%u variant=%d%s", N >= 4 ? 2 : 1, v < 3 ? v : 2,
                         v == 3 && N >= 4 ? " first=2" : "");
                oc_report_free(checked(N, nets[k], 1u << 20, p, 1));
            }
            /* a deep tree: the reduction's order over many rounds */
            if (N >= 12) {
                snprintf(p, sizeof p, "depth=%u variant=1", oc__circ_depth_cap(N));
                oc_report_free(checked(N, nets[k], 1u << 20, p, 1));
            }
        }
    /* a vector that N does not divide (the last block shorter) */
    oc_report_free(checked(7, "wavelengths=2", 1000, NULL, 1));
    oc_report_free(checked(100, "wavelengths=8", 12345, NULL, 1));
}

/* ---- (b) the dual ---- */

/* The same parameters on both collectives: the same steps and rounds. The all-gather's block is
 * bytes / N, so a step carries the same chunk. */
static void dual_at(uint32_t N, const char *net, const char *p) {
    char why[512] = "";
    int err = 0, err2 = 0;
    oc_report *ag = rs_run(OC_ALLGATHER, N, net, 4096, p, 0, &err, why, sizeof why);
    oc_report *rs = rs_run(OC_REDUCESCATTER, N, net, 4096ull * N, p, 0, &err2, why, sizeof why);
    CHECK(err == 0 && err2 == 0 && ag && rs && oc_report_verified(ag) && oc_report_verified(rs),
          "dual N=%u %s %s: %d %d %s", N, net, p ? p : "(default)", err, err2, why);
    if (ag && rs) {
        CHECK(oc_report_steps(ag) == oc_report_steps(rs) &&
                  oc_report_rounds(ag) == oc_report_rounds(rs),
              "dual N=%u %s %s: all-gather %llu steps %llu rounds, reduce-scatter %llu %llu", N,
              net, p ? p : "(default)", (unsigned long long)oc_report_steps(ag),
              (unsigned long long)oc_report_rounds(ag), (unsigned long long)oc_report_steps(rs),
              (unsigned long long)oc_report_rounds(rs));
        if (!p) { /* the searches chose the same tree */
            const char *keys[] = {"depth", "variant", "first"};
            for (size_t i = 0; i < 3; i++) {
                const char *a = oc_report_param(ag, keys[i]), *b = oc_report_param(rs, keys[i]);
                CHECK((!a && !b) || (a && b && !strcmp(a, b)), "dual N=%u %s: %s %s and %s", N, net,
                      keys[i], a ? a : "-", b ? b : "-");
            }
        }
    }
    oc_report_free(ag);
    oc_report_free(rs);
}

static void duals(void) {
    static const uint32_t Ns[] = {5, 7, 12, 16, 17, 31, 64, 100};
    static const char *const dnets[] = {"wavelengths=1", "wavelengths=3", "wavelengths=8",
                                        "wavelengths=2 fibres=2"};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t k = 0; k < sizeof dnets / sizeof *dnets; k++) {
            const uint32_t N = Ns[i], cap = oc__circ_depth_cap(N);
            dual_at(N, dnets[k], NULL);
            for (uint32_t d = 1; d <= cap && d <= 8; d++)
                for (int v = 0; v < 5; v++) { /* 3, 4: variant 2 with first = 2, 6 */
                    const uint64_t h = (N - 1) / 2, first = v == 3 ? 2 : 6;
                    if (v >= 3 && (d < 2 || first > h * (h + 1) / 2)) continue;
                    char p[64];
                    snprintf(p, sizeof p, "depth=%u variant=%d%s", d, v < 3 ? v : 2,
                             v == 3   ? " first=2"
                             : v == 4 ? " first=6"
                                      : "");
                    dual_at(N, dnets[k], p);
                }
        }
}

/* ---- (c) the search contract ---- */

static void search_contract(uint32_t N, const char *net) {
    char why[512] = "";
    int err = 0;
    const uint64_t bytes = 4096ull * N;
    oc_report *def = rs_run(OC_REDUCESCATTER, N, net, bytes, NULL, 0, &err, why, sizeof why);
    CHECK(err == 0 && def && oc_report_verified(def), "default N=%u %s: %s", N, net, why);
    if (!def) return;
    const double best = oc_report_time(def);
    const uint32_t cap = oc__circ_depth_cap(N);
    const uint64_t h = (N - 1) / 2, budgets = h * (h + 1) / 2;
    int pins = 0, beaten = 0;
    for (uint32_t d = 1; d <= cap; d++)
        for (uint64_t v = 0; v <= 2 + (d >= 2 ? budgets : 0); v++) {
            char p[64];
            if (v <= 2)
                snprintf(p, sizeof p, "depth=%u variant=%llu", d, (unsigned long long)v);
            else
                snprintf(p, sizeof p, "depth=%u variant=2 first=%llu", d,
                         (unsigned long long)(v - 2));
            oc_report *rep = rs_run(OC_REDUCESCATTER, N, net, bytes, p, 0, &err, why, sizeof why);
            CHECK(err == 0 && rep, "N=%u %s %s: %s", N, net, p, why);
            pins++;
            if (rep && oc_report_time(rep) < best * (1 - 1e-12)) {
                beaten++;
                CHECK(0, "N=%u %s: %s takes %.9g s, the default (depth %s variant %s) %.9g s", N,
                      net, p, oc_report_time(rep), oc_report_param(def, "depth"),
                      oc_report_param(def, "variant"), best);
            }
            oc_report_free(rep);
        }
    CHECK(!beaten && pins > 3, "N=%u %s: %d of %d pins beat the default", N, net, beaten, pins);
    oc_report_free(def);
}

/* ---- (d) windows, (e) deliberate breaks ---- */

static void breaks(uint32_t N, const char *words) {
    const oc__algo *algo = oc__algo_find(OC_REDUCESCATTER, "circulant");
    if (!algo) return;
    oc__plan plan = {0};
    keep whole;
    char why[512] = "";
    if (plan_kept(algo, OC_REDUCESCATTER, N, words, &plan, &whole)) goto out;
    const size_t R = whole.st.count;
    CHECK(R >= 2, "N=%u %s: %zu rounds (two wanted for the breaks)", N, words, R);
    if (R < 2) goto out;
    /* the schedule itself passes this path, and is all reductions */
    CHECK(verify_changed(&plan, &whole, 0, 0, 0, 0, why, sizeof why) == 0,
          "N=%u %s: the schedule itself refused: %s", N, words, why);
    int all_reduce = 1;
    for (size_t r = 0; r < R; r++)
        for (size_t i = 0; i < whole.st.rounds[r].count; i++)
            if (whole.st.rounds[r].xfers[i].op != OC_OP_REDUCE) all_reduce = 0;
    CHECK(all_reduce, "N=%u %s: a transfer that is not a reduction", N, words);
    /* a leaf's reduction sent twice: its contribution counted twice */
    CHECK(verify_changed(&plan, &whole, 1, 0, 0, 0, why, sizeof why) != 0,
          "N=%u %s: round 0's first reduction sent twice, accepted", N, words);
    /* the last round's first reduction (into a block's owner, from a child that has children of
     * its own at depth >= 2) moved to round 0, before its children have added theirs */
    CHECK(verify_changed(&plan, &whole, 2, R - 1, 0, 0, why, sizeof why) != 0,
          "N=%u %s: the owner's last reduction moved before its sender's children, accepted", N,
          words);
out:
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

/* ---- (f) bad input ---- */

static void bad_input(void) {
    static const struct {
        uint32_t N;
        const char *params, *says;
    } cases[] = {{4097, NULL, "4096"},
                 {2000, "variant=0", "1024"},
                 {2000, "variant=2", "1024"},
                 {2000, "depth=49", "depth"},
                 {12, "depth=7", "depth"},
                 {12, "variant=3", "variant"},
                 {12, "depth=2 first=4", "variant=2"},
                 {12, "depth=2 variant=2 first=16", "first"},
                 {12, "pieces=3", "pieces"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char why[512] = "";
        int err = 0;
        oc_report *rep = rs_run(OC_REDUCESCATTER, cases[i].N, "wavelengths=8", 1u << 20,
                                cases[i].params, 0, &err, why, sizeof why);
        CHECK(err != 0 && !rep && strstr(why, cases[i].says) && !strchr(why, '\n'),
              "N=%u %s: err %d, '%s' (wanted '%s')", cases[i].N,
              cases[i].params ? cases[i].params : "", err, why, cases[i].says);
        oc_report_free(rep);
    }
}

/* ---- slow: 1024 nodes ---- */

static void large(uint64_t w, int data) {
    char net[32], p[64], why[512] = "";
    int err = 0;
    snprintf(net, sizeof net, "wavelengths=%llu", (unsigned long long)w);
    oc_report *rs = checked(1024, net, 4u << 20, NULL, data);
    if (!rs) return;
    snprintf(p, sizeof p, "depth=%s variant=%s", oc_report_param(rs, "depth"),
             oc_report_param(rs, "variant"));
    oc_report *ag = rs_run(OC_ALLGATHER, 1024, net, 4096, p, 0, &err, why, sizeof why);
    CHECK(err == 0 && ag && oc_report_steps(ag) == oc_report_steps(rs),
          "N=1024 %s %s: all-gather %llu steps, reduce-scatter %llu: %s", net, p,
          ag ? (unsigned long long)oc_report_steps(ag) : 0ull,
          (unsigned long long)oc_report_steps(rs), why);
    oc_report_free(ag);
    oc_report_free(rs);
}

int main(int argc, char **argv) {
    slow = argc > 1 && !strcmp(argv[1], "slow");
    if (slow) {
        large(64, 1);
        large(8, 0);
        return CHECK_SUMMARY();
    }
    verified_runs();
    duals();
    search_contract(7, "wavelengths=1");
    search_contract(12, "wavelengths=2");
    search_contract(16, "wavelengths=8");
    search_contract(17, "wavelengths=4 fibres=2");
    windows_match(OC_REDUCESCATTER, "circulant", 7, "depth=2 variant=0");
    windows_match(OC_REDUCESCATTER, "circulant", 12, "depth=3 variant=1");
    windows_match(OC_REDUCESCATTER, "circulant", 100, "depth=4 variant=2");
    breaks(12, "depth=3 variant=1");
    breaks(100, "depth=5 variant=2");
    bad_input();
    return CHECK_SUMMARY();
}
