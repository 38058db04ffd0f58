/*
 * test_switch.c — tests of the ideal electrical switch (src/net/switch.c, the lumorph seed's
 * baseline) and of the algorithms that run on it: the simulated times of ring and rhd all-reduce
 * must equal the alpha-beta closed forms, computed here from alpha and beta alone:
 *     ring:      2(N-1) alpha + 2(N-1)/N n beta
 *     rhd, r:    2 log_r(N) (r-1) alpha + 2(N-1)/N n beta      (N a power of r)
 * with the seed's alpha = 0.7 us and 300 GB/s (beta = 1/300e9 s per byte). N not a power of the
 * radix runs with real data (the verifier's executor) and must match the algorithm's own formula.
 * Hand-made rounds check the port rule: a node's sends (receives) in one round are serialised.
 *
 * Every test asserts a result a wrong implementation would get wrong. The harness prints one line
 * per failure and ends with "N passed, M failed".
 */
#include "core/core.h"
#include "net/net.h"
#include "net/switch.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static const double A = 0.7e-6;       /* alpha */
static const double BETA = 1 / 300e9; /* s per byte */

/* Maps hand-made rounds on the model under test (model_map.h). */
static oc_report *map(uint32_t N, uint64_t bytes, const char *net, oc__round *r, size_t nr,
                      int *err, char *why, size_t len) {
    return map_on(&oc__model_switch, N, bytes, net, r, nr, err, why, len);
}

static void test_rounds(void) {
    char why[256] = "";
    int err;
    oc__round r[2] = {{0}};
    /* One transfer of 3 chunks of 1000 bytes: alpha + 3000 beta. */
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 0, 3);
    oc_report *rep = map(4, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), A + 3000 * BETA) && oc_report_steps(rep) == 1,
          "one transfer: %s", why);
    oc_report_free(rep);
    /* Disjoint pairs in parallel: still one step; the slowest (3 chunks) sets the time. */
    oc__round_push(&r[0], 2, 3, OC_OP_COPY, 0, 1);
    oc__round_push(&r[0], 1, 0, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), A + 3000 * BETA) && oc_report_steps(rep) == 1 &&
              num(rep, "max_port_degree") == 1,
          "parallel pairs");
    oc_report_free(rep);
    /* Node 0 sends twice more: its send port serialises three transfers (3 + 1 + 2 chunks). */
    oc__round_push(&r[0], 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&r[0], 0, 3, OC_OP_COPY, 0, 2);
    rep = map(4, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3 * A + 6000 * BETA) && oc_report_steps(rep) == 3 &&
              num(rep, "rounds_serialised") == 1,
          "serialised sends: %.15g", rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    /* Incast on the receive side: 1, 2, 3 -> 0 in a second round, 1 chunk each. */
    for (uint32_t s = 1; s <= 3; s++)
        oc__round_push(&r[1], s, 0, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, r, 2, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 6 * A + 9000 * BETA) && oc_report_steps(rep) == 6,
          "incast");
    oc_report_free(rep);
    /* Parameters: alpha 2 us, 100 GB/s. */
    rep = map(4, 1000, "alpha_us=2", &r[1], 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3 * 2e-6 + 3000 * BETA), "alpha_us");
    oc_report_free(rep);
    rep = map(4, 1000, "bandwidth_gbytes=100", &r[1], 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3 * A + 3000 / 100e9), "bandwidth");
    oc_report_free(rep);
    /* Bad input is refused with a reason. */
    rep = map(4, 1000, "bandwidth_gbytes=0", &r[1], 1, &err, why, sizeof why);
    CHECK(!rep && err && strstr(why, "bandwidth_gbytes"), "zero bandwidth: %s", why);
    rep = map(4, 1000, "wavelengths=4", &r[1], 1, &err, why, sizeof why);
    CHECK(!rep && err, "unknown parameter");
    oc__round_push(&r[1], 2, 2, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, &r[1], 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_EINVAL, "self transfer");
    oc__round_free(&r[0]);
    oc__round_free(&r[1]);
}

static oc_report *run(oc_collective coll, const char *algo, uint32_t N, uint64_t bytes,
                      const char *param, int *err, char *why, size_t len) {
    return run_net("switch", coll, algo, N, bytes, param, NULL, err, why, len);
}

/* The run is verified and its time equals both `want` and the algorithm's own formula. */
static void expect(oc_report *rep, const char *what, uint32_t N, double want, const char *why) {
    CHECK(rep && oc_report_verified(rep), "%s N=%u: %s", what, N, why);
    CHECK(rep && close_to(oc_report_time(rep), want), "%s N=%u: %.15g s, want %.15g", what, N,
          rep ? oc_report_time(rep) : 0, want);
    CHECK(rep && rep->has_time_formula && close_to(rep->time_formula_s, want),
          "%s N=%u: formula %.15g, want %.15g", what, N, rep ? rep->time_formula_s : 0, want);
}

static void test_closed_forms(void) {
    char why[256] = "";
    int err;
    const uint64_t n = 1 << 20; /* 1 MiB: every N below divides it */
    const uint32_t pow2[] = {2, 4, 8, 16, 64, 256};
    for (size_t i = 0; i < sizeof pow2 / sizeof pow2[0]; i++) {
        const uint32_t N = pow2[i];
        const double bw = 2.0 * (N - 1) / N * (double)n * BETA;
        oc_report *rep = run(OC_ALLREDUCE, "ring", N, n, NULL, &err, why, sizeof why);
        expect(rep, "ring", N, 2.0 * (N - 1) * A + bw, why);
        oc_report_free(rep);
        rep = run(OC_ALLREDUCE, "rhd", N, n, NULL, &err, why, sizeof why);
        expect(rep, "rhd radix 2", N, 2.0 * log_r(N, 2) * A + bw, why);
        CHECK(rep && oc_report_steps(rep) == 2 * log_r(N, 2), "rhd N=%u steps", N);
        oc_report_free(rep);
    }
    const uint32_t pow4[] = {4, 16, 64, 256};
    for (size_t i = 0; i < sizeof pow4 / sizeof pow4[0]; i++) {
        const uint32_t N = pow4[i];
        const double bw = 2.0 * (N - 1) / N * (double)n * BETA;
        oc_report *rep = run(OC_ALLREDUCE, "rhd", N, n, "radix=4", &err, why, sizeof why);
        /* on the switch the three transfers of a level share the node's port */
        expect(rep, "rhd radix 4", N, 2.0 * log_r(N, 4) * 3 * A + bw, why);
        CHECK(rep && oc_report_steps(rep) == 6 * log_r(N, 4) &&
                  strcmp(oc_report_param(rep, "radix"), "4") == 0,
              "rhd radix 4 N=%u steps", N);
        oc_report_free(rep);
    }
    /* Ring at N not a power of anything: still 2(N-1) alpha + 2(N-1)/N n beta (n divisible). */
    const uint32_t other[] = {3, 5, 7, 12, 100};
    const uint64_t n2 = 256 * 3 * 25 * 7;
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        const uint32_t N = other[i];
        oc_report *rep = run(OC_ALLREDUCE, "ring", N, n2, NULL, &err, why, sizeof why);
        expect(rep, "ring", N, 2.0 * (N - 1) * A + 2.0 * (N - 1) / N * (double)n2 * BETA, why);
        oc_report_free(rep);
    }
}

/* Other N: MPICH's fold onto P = r^floor(log_r N) nodes, with real data. */
static void test_other_sizes(void) {
    char why[256] = "";
    int err;
    const uint32_t sizes[] = {3, 5, 6, 12, 100};
    const uint64_t n = 3 * 5 * 7 * 64 * 128; /* divisible by every P below */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        for (uint32_t r = 2; r <= 4; r += 2) {
            char param[16];
            snprintf(param, sizeof param, "radix=%u", r);
            uint32_t P;
            const uint32_t k = fold_pow(N, r, &P);
            const double m = (double)((N - P + P - 1) / P);
            const double c = (double)n / P * BETA;
            const double want = 2.0 * k * (r - 1) * A + 2.0 * (P - 1) * c + 2 * m * (A + P * c);
            oc_report *rep = run(OC_ALLREDUCE, "rhd", N, n, param, &err, why, sizeof why);
            expect(rep, r == 2 ? "rhd radix 2" : "rhd radix 4", N, want, why);
            CHECK(rep && oc_report_data_checked(rep), "rhd N=%u radix %u: no real data", N, r);
            oc_report_free(rep);
        }
    }
    /* Radix 2 at N = 6: the textbook MPICH figure, 2 log2(4) + 2 rounds. */
    oc_report *rep = run(OC_ALLREDUCE, "rhd", 6, 1 << 20, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 6, "rhd N=6 steps");
    oc_report_free(rep);
    rep = run(OC_ALLREDUCE, "rhd", 8, 1 << 20, "radix=1", &err, why, sizeof why);
    CHECK(!rep && err && strstr(why, "radix"), "radix 1 refused: %s", why);
}

/* Reduce-scatter rh and all-gather rd: k (r-1) alpha + (N-1) b beta for N = r^k (b = one block),
 * verified with real data and never above their formula (an upper bound) for other N. */
static void test_halves(void) {
    char why[256] = "";
    int err;
    const uint32_t sizes[] = {2, 4, 16, 64, 3, 5, 6, 12, 100};
    const uint64_t n = 1 << 20;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        for (uint32_t r = 2; r <= 4; r += 2) {
            char param[16];
            snprintf(param, sizeof param, "radix=%u", r);
            uint32_t P;
            const uint32_t k = fold_pow(N, r, &P);
            for (int ag = 0; ag < 2; ag++) {
                const char *what = ag ? "allgather rd" : "reducescatter rh";
                oc_report *rep = run(ag ? OC_ALLGATHER : OC_REDUCESCATTER, ag ? "rd" : "rh", N,
                                     ag ? n / N : n, param, &err, why, sizeof why);
                CHECK(rep && oc_report_verified(rep) && oc_report_data_checked(rep),
                      "%s N=%u r=%u: %s", what, N, r, why);
                if (!rep) continue;
                if (P == N) {
                    double want =
                        (double)k * (r - 1) * A + (double)(N - 1) * (double)(n / N) * BETA;
                    expect(rep, what, N, want, why);
                    CHECK(oc_report_steps(rep) == k * (r - 1), "%s N=%u steps", what, N);
                } else {
                    CHECK(rep->has_time_formula &&
                              oc_report_time(rep) <= rep->time_formula_s * (1 + 1e-12),
                          "%s N=%u r=%u: %.15g above the bound %.15g", what, N, r,
                          oc_report_time(rep), rep->time_formula_s);
                }
                oc_report_free(rep);
            }
        }
    }
}

/* NCCL's double binary tree: 2 ceil(log2 N) rounds (the trees' height and depth), verified with
 * real data, and the switch's time equals the tree's own alpha-beta count. */
static void test_dbtree(void) {
    char why[256] = "";
    int err;
    const uint32_t sizes[] = {2, 3, 5, 6, 7, 12, 16, 64, 100};
    const uint64_t n = 1 << 20;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        /* pipeline=1 pinned: the tree unpipelined (unpinned, the search picks C) */
        oc_report *rep = run(OC_ALLREDUCE, "dbtree", N, n, "pipeline=1", &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) && oc_report_data_checked(rep), "dbtree N=%u: %s", N,
              why);
        if (!rep) continue;
        CHECK(oc_report_rounds(rep) == 2 * log_r(N, 2), "dbtree N=%u: %llu rounds", N,
              (unsigned long long)oc_report_rounds(rep));
        /* every transfer is half the vector: time = steps (alpha + n/2 beta) */
        const double want = (double)oc_report_steps(rep) * (A + (double)(n / 2) * BETA);
        expect(rep, "dbtree", N, want, why);
        CHECK(oc_report_steps(rep) >= oc_report_rounds(rep), "dbtree N=%u steps", N);
        oc_report_free(rep);
    }
    /* N = 2: one exchange up, one down. */
    oc_report *rep = run(OC_ALLREDUCE, "dbtree", 2, n, "pipeline=1", &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 2 * (A + (double)(n / 2) * BETA)), "dbtree N=2");
    oc_report_free(rep);
}

/* The independent check refuses every wrong account of a round. */
static void test_check(void) {
    char why[256] = "";
    oc__sw_checker *c = NULL;
    CHECK(oc__sw_checker_new(&c) == 0, "checker");
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 0, 2);
    oc__round_push(&r, 0, 2, OC_OP_COPY, 2, 1);
    oc__round_push(&r, 3, 1, OC_OP_COPY, 0, 1);
    /* node 0 sends 3000 bytes in two transfers; node 1 receives 3000 bytes in two */
    oc__sw_claim ok = {.degree = 2, .msgs = 2, .bytes = 3000};
    CHECK(oc__sw_check(c, 0, &r, 4, 1000, A, BETA, &ok, why, sizeof why) == 0, "right: %s", why);
    oc__sw_claim few = {.degree = 1, .msgs = 2, .bytes = 3000};
    CHECK(oc__sw_check(c, 0, &r, 4, 1000, A, BETA, &few, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "steps"),
          "degree: %s", why);
    oc__sw_claim light = {.degree = 2, .msgs = 1, .bytes = 2000};
    CHECK(oc__sw_check(c, 0, &r, 4, 1000, A, BETA, &light, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "busiest"),
          "busiest: %s", why);
    oc__sw_claim ghost = {.degree = 2, .msgs = 2, .bytes = 4000};
    CHECK(oc__sw_check(c, 0, &r, 4, 1000, A, BETA, &ghost, why, sizeof why) == OC_ERESOURCE,
          "no such port");
    oc__round_push(&r, 2, 2, OC_OP_COPY, 0, 1);
    CHECK(oc__sw_check(c, 0, &r, 4, 1000, A, BETA, &ok, why, sizeof why) == OC_ERESOURCE,
          "self transfer");
    oc__round_free(&r);
    oc__sw_checker_free(c);
}

int main(void) {
    test_rounds();
    test_check();
    test_closed_forms();
    test_other_sizes();
    test_halves();
    test_dbtree();
    return CHECK_SUMMARY();
}
