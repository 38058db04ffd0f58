/*
 * test_lumorph.c — the closed forms of the lumorph seed's all-reduces on the photonic fabric
 * (src/net/fabric.c): the time of rhd (radix 2 = Lumorph-2, radix 4 = Lumorph-4), ring and dbtree
 * must equal the algorithm's own formula (time_formula_s), term by term (alpha, reconfiguration,
 * bandwidth), and for rhd and ring also a value computed here from the seed's figures alone:
 *     rhd, N = r^k:  2k alpha + (2k-1) x 3.7 us + 2 (N-1)/(r-1) x 16/floor(16/(r-1)) x (n/N) beta
 *     ring:          2(N-1) alpha + 1 x 3.7 us + 2 (N-1) (n/N) beta
 * with alpha = 0.7 us, beta = 1/300e9 s per byte, 16 wavelengths per tile (radix 4: 3 circuits of
 * 5 wavelengths, 15 of 16 used). Other N (3, 5, 7, 12, 100) fold onto P = r^floor(log_r N) and must
 * still match the formula, with real data.
 *
 * Every test asserts a result a wrong implementation would get wrong.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const double A = 0.7e-6;       /* alpha */
static const double RC = 3.7e-6;      /* MZI reconfiguration */
static const double BETA = 1 / 300e9; /* s per byte on all 16 wavelengths of a tile */

/* Sums of doubles in another order than the model's: equal to a few ulps, not bit for bit. */
static int same(double a, double b) {
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-18;
}

/* A figure of the report (model_map.h has the same, with a model mapper this file does not use). */
static double num(const oc_report *rep, const char *key) {
    double v = NAN;
    oc_report_number(rep, key, &v);
    return v;
}

static oc_report *run(oc_collective coll, const char *algo, uint32_t N, uint64_t bytes,
                      const char *param, int *err, char *why, size_t len) {
    oc_kv *kv = oc_kv_new();
    if (param) oc_kv_set_pair(kv, param);
    oc_report *rep = NULL;
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = "fabric",
                      .nodes = N,
                      .bytes = bytes,
                      .params = kv,
                      .data_check = 1};
    *err = oc_run(&req, &rep, why, len);
    oc_kv_free(kv);
    return rep;
}

/* Verified; time = formula, and each formula term = the model's own term. */
static void expect_formula(const oc_report *rep, const char *what, uint32_t N, const char *why) {
    CHECK(rep && oc_report_verified(rep), "%s N=%u: %s", what, N, why);
    if (!rep) return;
    CHECK(rep->has_time_formula && same(oc_report_time(rep), rep->time_formula_s),
          "%s N=%u: simulated %.15g, formula %.15g", what, N, oc_report_time(rep),
          rep->time_formula_s);
    CHECK(rep->has_formula && rep->steps_formula == (double)oc_report_steps(rep),
          "%s N=%u: %llu steps, formula %g", what, N, (unsigned long long)oc_report_steps(rep),
          rep->steps_formula);
    CHECK(same(num(rep, "formula_alpha_s"), num(rep, "time_alpha_s")) &&
              same(num(rep, "formula_reconfig_s"), num(rep, "time_reconfig_s")) &&
              same(num(rep, "formula_bandwidth_s"), num(rep, "time_bandwidth_s")),
          "%s N=%u: terms alpha %g/%g reconfig %g/%g bandwidth %g/%g", what, N,
          num(rep, "formula_alpha_s"), num(rep, "time_alpha_s"), num(rep, "formula_reconfig_s"),
          num(rep, "time_reconfig_s"), num(rep, "formula_bandwidth_s"),
          num(rep, "time_bandwidth_s"));
}

static uint32_t log_r(uint32_t N, uint32_t r) {
    uint32_t k = 0;
    for (uint64_t p = 1; p < N; p *= r)
        k++;
    return k;
}

/* rhd and ring at powers: the seed's figures alone give the time. */
static void test_powers(void) {
    char why[256] = "";
    int err;
    const uint64_t n = 1 << 20;
    const uint32_t sizes[] = {2, 4, 8, 16, 64, 256};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        const double c = (double)(n / N) * BETA;
        for (uint32_t r = 2; r <= 4; r += 2) {
            if (r == 4 && log_r(N, 4) * 2 != log_r(N, 2)) continue; /* N not a power of 4 */
            char param[16], what[32];
            snprintf(param, sizeof param, "radix=%u", r);
            snprintf(what, sizeof what, "rhd radix %u", r);
            const uint32_t k = log_r(N, r);
            const double split = 16.0 / (16 / (r - 1)); /* radix 4: 16/5 */
            const double want =
                2.0 * k * A + (2.0 * k - 1) * RC + 2.0 * (N - 1) / (r - 1) * split * c;
            oc_report *rep = run(OC_ALLREDUCE, "rhd", N, n, param, &err, why, sizeof why);
            expect_formula(rep, what, N, why);
            CHECK(rep && same(oc_report_time(rep), want), "%s N=%u: %.15g, want %.15g", what, N,
                  rep ? oc_report_time(rep) : 0, want);
            CHECK(rep && oc_report_steps(rep) == 2 * k && num(rep, "reconfigurations") == 2 * k - 1,
                  "%s N=%u: rounds and reconfigurations", what, N);
            if (r == 4 && N >= 4)
                CHECK(rep && num(rep, "max_tile_wavelengths") == 15 &&
                          num(rep, "min_circuit_wavelengths") == 5,
                      "radix 4 N=%u: 3 x 5 of 16 wavelengths", N);
            oc_report_free(rep);
        }
        oc_report *rep = run(OC_ALLREDUCE, "ring", N, n, NULL, &err, why, sizeof why);
        expect_formula(rep, "ring", N, why);
        const double want = 2.0 * (N - 1) * A + RC + 2.0 * (N - 1) * c;
        CHECK(rep && same(oc_report_time(rep), want), "ring N=%u: %.15g, want %.15g", N,
              rep ? oc_report_time(rep) : 0, want);
        oc_report_free(rep);
        rep = run(OC_ALLREDUCE, "dbtree", N, n, NULL, &err, why, sizeof why);
        expect_formula(rep, "dbtree", N, why);
        oc_report_free(rep);
    }
}

/* Other N: the fold (rhd) and uneven chunks (ring: n = 1 MiB is not a multiple of N) still
 * match the formula; with real data. */
static void test_other_sizes(void) {
    char why[256] = "";
    int err;
    const uint64_t n = 1 << 20;
    const uint32_t sizes[] = {3, 5, 7, 12, 100, 200};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        for (uint32_t r = 2; r <= 4; r += 2) {
            char param[16], what[32];
            snprintf(param, sizeof param, "radix=%u", r);
            snprintf(what, sizeof what, "rhd radix %u", r);
            oc_report *rep = run(OC_ALLREDUCE, "rhd", N, n, param, &err, why, sizeof why);
            expect_formula(rep, what, N, why);
            CHECK(rep && oc_report_data_checked(rep), "%s N=%u: no real data", what, N);
            oc_report_free(rep);
        }
        oc_report *rep = run(OC_ALLREDUCE, "ring", N, n, NULL, &err, why, sizeof why);
        expect_formula(rep, "ring", N, why);
        oc_report_free(rep);
        rep = run(OC_ALLREDUCE, "dbtree", N, n, NULL, &err, why, sizeof why);
        expect_formula(rep, "dbtree", N, why);
        oc_report_free(rep);
    }
}

/* The one-way halves at N = r^k: k rounds, k reconfigurations, (N-1)/(r-1) split blocks. */
static void test_halves(void) {
    char why[256] = "";
    int err;
    const uint32_t sizes[] = {4, 16, 64};
    const uint64_t n = 1 << 20;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        for (uint32_t r = 2; r <= 4; r += 2) {
            char param[16];
            snprintf(param, sizeof param, "radix=%u", r);
            const uint32_t k = log_r(N, r);
            const double want = k * (A + RC) + (double)(N - 1) / (r - 1) * (16.0 / (16 / (r - 1))) *
                                                   (double)(n / N) * BETA;
            oc_report *rep = run(OC_REDUCESCATTER, "rh", N, n, param, &err, why, sizeof why);
            expect_formula(rep, "reducescatter rh", N, why);
            CHECK(rep && same(oc_report_time(rep), want), "rh N=%u r=%u: %.15g, want %.15g", N, r,
                  rep ? oc_report_time(rep) : 0, want);
            oc_report_free(rep);
            rep = run(OC_ALLGATHER, "rd", N, n / N, param, &err, why, sizeof why);
            expect_formula(rep, "allgather rd", N, why);
            CHECK(rep && same(oc_report_time(rep), want), "rd N=%u r=%u: %.15g, want %.15g", N, r,
                  rep ? oc_report_time(rep) : 0, want);
            oc_report_free(rep);
        }
    }
}

int main(void) {
    test_powers();
    test_other_sizes();
    test_halves();
    return CHECK_SUMMARY();
}
