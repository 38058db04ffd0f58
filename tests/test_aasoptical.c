/*
 * test_aasoptical.c — all-to-all on the optical networks and the general all-to-all / all-gather
 * algorithms:
 *  - alltoall onestage and optree on the WDM ring, alltoall pairwise on every network, allgather
 *    bruck on switch, fabric, fattree and ring: verified with real data for N in
 *    {1, 2, 3, 5, 7, 12, 16, 100};
 *  - closed forms recomputed here from their derivations, not read from the algorithm:
 *      pairwise on the switch: (N-1)(alpha + m beta);
 *      bruck on the switch:    (ceil(log2 N) + W) alpha + (N-1) b beta, W = rounds with c_j >= 2;
 *      optree on the ring, pinned radices: sum over stages t < k of
 *        ceil(w_t floor(m_t^2/4) (N/m_t) / C) + ceil((N/m_k)^2 (m_k^2 - [m_k odd]) / 8C),
 *      onestage on the ring: within 5 % of the load bound;
 *  - the radix search keeps a schedule no slower than onestage (k = 1 is always a candidate);
 *  - bad parameters are refused with a reason.
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

static const double A = 0.7e-6;       /* the switch's alpha */
static const double BETA = 1 / 300e9; /* s per byte */
static const uint32_t SIZES[] = {1, 2, 3, 5, 7, 12, 16, 100};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

static oc_report *run(oc_collective coll, const char *algo, const char *net, uint32_t N,
                      uint64_t bytes, const char *param, const char *netparam, int *err, char *why,
                      size_t len) {
    return run_net(net, coll, algo, N, bytes, param, netparam, err, why, len);
}

static void expect_verified(oc_report *rep, const char *what, const char *net, uint32_t N,
                            const char *why) {
    CHECK(rep && oc_report_verified(rep), "%s on %s N=%u: %s", what, net, N, why);
    CHECK(rep && oc_report_data_checked(rep), "%s on %s N=%u: no real-data run", what, net, N);
}

/* Every algorithm on every network it supports, every N, with real data. */
static void test_everywhere(void) {
    static const struct {
        oc_collective coll;
        const char *algo, *nets[5];
    } cases[] = {
        {OC_ALLTOALL, "onestage", {"ring"}},
        {OC_ALLTOALL, "optree", {"ring"}},
        {OC_ALLTOALL, "pairwise", {"switch", "fabric", "fattree", "ring", "star"}},
        {OC_ALLGATHER, "bruck", {"switch", "fabric", "fattree", "ring"}},
    };
    char why[256] = "";
    int err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (size_t k = 0; k < 5 && cases[c].nets[k]; k++)
            for (size_t i = 0; i < NSIZES; i++) {
                oc_report *rep = run(cases[c].coll, cases[c].algo, cases[c].nets[k], SIZES[i], 4096,
                                     NULL, NULL, &err, why, sizeof why);
                expect_verified(rep, cases[c].algo, cases[c].nets[k], SIZES[i], why);
                oc_report_free(rep);
            }
}

static uint32_t ceil_log2(uint32_t N) {
    uint32_t k = 0;
    while ((UINT64_C(1) << k) < N)
        k++;
    return k;
}

static void test_switch_closed_forms(void) {
    char why[256] = "";
    int err;
    oc_report *rep0;
    const uint64_t m = 1 << 20;
    for (size_t i = 0; i < NSIZES; i++) {
        const uint32_t N = SIZES[i];
        oc_report *rep =
            run(OC_ALLTOALL, "pairwise", "switch", N, m, NULL, NULL, &err, why, sizeof why);
        const double want = (N - 1) * (A + (double)m * BETA);
        CHECK(rep && close_to(oc_report_time(rep), want) && oc_report_steps(rep) == N - 1,
              "pairwise switch N=%u: %.15g s, want %.15g", N, rep ? oc_report_time(rep) : 0, want);
        CHECK(rep && rep->has_time_formula && close_to(rep->time_formula_s, want),
              "pairwise switch N=%u: formula", N);
        oc_report_free(rep);
        /* Bruck: a window that wraps past node N-1 is two transfers on the sender's port. */
        uint32_t wraps = 0;
        for (uint64_t d = 1; d < N; d *= 2)
            wraps += (d < N - d ? d : N - d) >= 2;
        rep = run(OC_ALLGATHER, "bruck", "switch", N, m, NULL, NULL, &err, why, sizeof why);
        const double wb = (ceil_log2(N) + wraps) * A + (N - 1) * (double)m * BETA;
        CHECK(rep && close_to(oc_report_time(rep), wb) && oc_report_rounds(rep) == ceil_log2(N),
              "bruck switch N=%u: %.15g s, want %.15g", N, rep ? oc_report_time(rep) : 0, wb);
        CHECK(rep && rep->has_time_formula && close_to(rep->time_formula_s, wb),
              "bruck switch N=%u: formula", N);
        oc_report_free(rep);
    }
    /* What the Bruck form rests on: the switch charges the two pieces of a wrapped window (two
     * transfers 0 -> 1 in one round) two alphas. */
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 2, 1);
    oc__round_push(&r, 0, 1, OC_OP_COPY, 0, 1);
    rep0 = map_on(&oc__model_switch, 3, 1000, NULL, &r, 1, &err, why, sizeof why);
    CHECK(rep0 && close_to(oc_report_time(rep0), 2 * A + 2000 * BETA) &&
              num(rep0, "max_port_degree") == 2,
          "two pieces on one port: %s", why);
    oc_report_free(rep0);
    oc__round_free(&r);
    /* N = 7: rounds carry 1, 2, 3 blocks; the last two wrap: 5 alphas. */
    oc_report *rep =
        run(OC_ALLGATHER, "bruck", "switch", 7, 1000, NULL, NULL, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 5 * A + 6000 * BETA), "bruck N=7 by hand");
    oc_report_free(rep);
}

/* The optree closed form, from its derivation (alltoall_optree.c), for radices r[0..k). */
static uint64_t optree_steps(const uint32_t *r, uint32_t k, uint64_t N, uint64_t C) {
    uint64_t S = 0, w = 1;
    for (uint32_t j = 0; j < k; j++) {
        const uint64_t m = r[j];
        uint64_t load;
        if (j + 1 < k)
            load = w * (m * m / 4) * (N / m);
        else
            load = (N / m) * (N / m) * (m * m - (m % 2)) / 8 +
                   ((N / m) * (N / m) * (m * m - (m % 2)) % 8 != 0);
        S += (load + C - 1) / C;
        w *= m;
    }
    return S;
}

static void test_ring(void) {
    char why[256] = "";
    int err;
    /* Pinned radices: the mapped steps equal the derived closed form exactly. */
    static const struct {
        uint32_t N;
        const char *radices;
        uint32_t r[4], k;
        const char *w;
    } pinned[] = {
        {16, "2x2x2x2", {2, 2, 2, 2}, 4, "wavelengths=2"},
        {16, "4x4", {4, 4}, 2, "wavelengths=2"},
        {16, "2x8", {2, 8}, 2, "wavelengths=2"},
        {16, "8x2", {8, 2}, 2, "wavelengths=2"},
        {12, "3x4", {3, 4}, 2, "wavelengths=2"},
        {12, "4x3", {4, 3}, 2, "wavelengths=2"},
        {12, "2x2x3", {2, 2, 3}, 3, "wavelengths=3"},
        {12, "6x2", {6, 2}, 2, "wavelengths=1"},
        {100, "25x4", {25, 4}, 2, "wavelengths=8"},
        {100, "5x20", {5, 20}, 2, "wavelengths=8"},
        {100, "10x10", {10, 10}, 2, "wavelengths=64"},
    };
    for (size_t i = 0; i < sizeof pinned / sizeof pinned[0]; i++) {
        char p[64];
        snprintf(p, sizeof p, "radices=%s", pinned[i].radices);
        uint64_t C = strtoull(strchr(pinned[i].w, '=') + 1, NULL, 10);
        oc_report *rep = run(OC_ALLTOALL, "optree", "ring", pinned[i].N, 4096, p, pinned[i].w, &err,
                             why, sizeof why);
        const uint64_t want = optree_steps(pinned[i].r, pinned[i].k, pinned[i].N, C);
        expect_verified(rep, "optree", "ring", pinned[i].N, why);
        CHECK(rep && oc_report_steps(rep) == want && rep->steps_formula == (double)want,
              "optree %s N=%u %s: %llu steps (formula %g), want %llu", pinned[i].radices,
              pinned[i].N, pinned[i].w, rep ? (unsigned long long)oc_report_steps(rep) : 0,
              rep ? rep->steps_formula : 0, (unsigned long long)want);
        oc_report_free(rep);
    }
    /* A last stage of odd radix 25 spread round the ring: its load is a bound the colouring
     * comes close to (4x25 on 100 nodes: 169 by the closed form). */
    const uint32_t r425[] = {4, 25};
    oc_report *r4 = run(OC_ALLTOALL, "optree", "ring", 100, 4096, "radices=4x25", "wavelengths=8",
                        &err, why, sizeof why);
    const uint64_t b425 = optree_steps(r425, 2, 100, 8);
    CHECK(r4 && oc_report_verified(r4) && oc_report_steps(r4) >= b425 &&
              oc_report_steps(r4) <= 1.05 * (double)b425 && r4->steps_formula == (double)b425,
          "optree 4x25: %llu steps against the bound %llu",
          r4 ? (unsigned long long)oc_report_steps(r4) : 0, (unsigned long long)b425);
    oc_report_free(r4);
    /* onestage: Lemma 1's load N^2/8 ((N^2-1)/8 odd) is the bound, reached within 5 %; the
     * searched optree is never slower (k = 1 is the same schedule). */
    const uint32_t ns[] = {7, 12, 16, 64, 100};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const uint32_t N = ns[i];
        oc_report *one = run(OC_ALLTOALL, "onestage", "ring", N, 4096, NULL, "wavelengths=4", &err,
                             why, sizeof why);
        oc_report *tree = run(OC_ALLTOALL, "optree", "ring", N, 4096, NULL, "wavelengths=4", &err,
                              why, sizeof why);
        const uint64_t load = ((uint64_t)N * N - N % 2) / 8, lb = (load + 3) / 4;
        uint64_t got_lb = 0;
        CHECK(one && oc_report_steps_lower_bound(one, &got_lb) && got_lb == lb,
              "onestage N=%u: lower bound %llu, want %llu", N, (unsigned long long)got_lb,
              (unsigned long long)lb);
        CHECK(one && oc_report_steps(one) >= lb && oc_report_steps(one) <= 1.05 * (double)lb,
              "onestage N=%u: %llu steps, bound %llu", N,
              one ? (unsigned long long)oc_report_steps(one) : 0, (unsigned long long)lb);
        CHECK(one && tree && oc_report_time(tree) <= oc_report_time(one),
              "optree N=%u slower than onestage", N);
        oc_report_free(one);
        oc_report_free(tree);
    }
    /* Pairwise and Bruck on the ring: their closed forms are colour bounds (a wavelength-slot holds
     * at most floor(N/L) disjoint arcs of length L), so no mapping may beat them. N = 5 by hand:
     * arcs of length 1, 2, 2, 1 need 1, 3, 3, 1 colours (two arcs of length 2 fit round 5 nodes,
     * not the load's 2), on 2 wavelengths 1 + 2 + 2 + 1 = 6 steps where the load bound says 4. */
    for (size_t i = 0; i < NSIZES; i++) {
        const uint32_t N = SIZES[i];
        oc_report *p = run(OC_ALLTOALL, "pairwise", "ring", N, 4096, NULL, "wavelengths=2", &err,
                           why, sizeof why);
        oc_report *b = run(OC_ALLGATHER, "bruck", "ring", N, 4096, NULL, "wavelengths=2", &err, why,
                           sizeof why);
        CHECK(p && p->has_formula && (double)oc_report_steps(p) >= p->steps_formula,
              "pairwise ring N=%u below its bound", N);
        CHECK(b && b->has_formula && (double)oc_report_steps(b) >= b->steps_formula,
              "bruck ring N=%u below its bound", N);
        oc_report_free(p);
        oc_report_free(b);
    }
    oc_report *p5 =
        run(OC_ALLTOALL, "pairwise", "ring", 5, 4096, NULL, "wavelengths=2", &err, why, sizeof why);
    CHECK(p5 && p5->steps_formula == 6 && oc_report_steps(p5) == 6,
          "pairwise ring N=5: %llu steps, formula %g, want 6",
          p5 ? (unsigned long long)oc_report_steps(p5) : 0, p5 ? p5->steps_formula : 0);
    oc_report_free(p5);
    /* Bad parameters: one clear reason each. */
    static const struct {
        uint32_t N;
        const char *param, *word;
    } bad[] = {{12, "radices=3x3", "product"},
               {7, "k=2", "factorisation"},
               {12, "radices=1x12", "radices"},
               {12, "k=9", "k"},
               {1, "radices=2", "one node"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        oc_report *rep = run(OC_ALLTOALL, "optree", "ring", bad[i].N, 4096, bad[i].param, NULL,
                             &err, why, sizeof why);
        CHECK(!rep && err && strstr(why, bad[i].word), "optree N=%u %s: %s", bad[i].N, bad[i].param,
              why);
        oc_report_free(rep);
    }
    oc_report *rep =
        run(OC_ALLTOALL, "pairwise", "ring", 5, 4096, "k=2", NULL, &err, why, sizeof why);
    CHECK(!rep && err, "pairwise takes no parameters");
    oc_report_free(rep);
}

int main(void) {
    test_everywhere();
    test_switch_closed_forms();
    test_ring();
    return CHECK_SUMMARY();
}
