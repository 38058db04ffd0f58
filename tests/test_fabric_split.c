/*
 * test_fabric_split.c — the fabric's mzi_split=1 (lumorph section 2's 1x3 MZI switch): a
 * round whose busiest tile has d circuits above the MZI degree D runs in ceil(d / D) passes, each
 * at most D circuits out of and into every tile, each one step with its own alpha and
 * reconfiguration, its circuits sharing the tile's 16 wavelengths among the pass's circuits.
 *   - rhd radix=N (one level of N-1 circuits) at degrees 3 and 7 on N = 8, 12, 16, 24: refused
 *     without the setting where N-1 > D (at 24 and D = 7 also above the 16 wavelengths; at 8 and
 *     D = 7 it fits and nothing is split), run and verified with it, in
 *     exactly 2 ceil((N-1)/D) steps, and the time is the test's own sum over the passes;
 *   - mzi_split=1 does nothing where the rounds fit (radix 4 on degree 3: same time);
 *   - the search under mzi_split=1 maps every candidate (its bounds assume unsplit rounds) and
 *     its choice is no slower than each pinned candidate tried here.
 * Before the setting, every split run here was refused.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static const double ALPHA = 0.7e-6, RECONF = 3.7e-6, RATE = 300e9 / 16;

/* rhd radix=N on the split fabric: both rounds, pass q holding min(D, d - qD) circuits a tile. */
static double expect_time(uint32_t N, uint32_t D, uint64_t bytes, uint64_t *steps) {
    const uint32_t d = N - 1, P = (d + D - 1) / D;
    const double chunk = ceil((double)bytes / N);
    double t = 0;
    for (uint32_t q = 0; q < P; q++) {
        const uint32_t dq = d - q * D < D ? d - q * D : D;
        t += ALPHA + RECONF + chunk / ((16 / dq) * RATE);
    }
    *steps = 2ull * P;
    /* one pass: the doubling round keeps the halving round's circuits (no reconfiguration) */
    return 2 * t - (P == 1 ? RECONF : 0);
}

static void test_radix(void) {
    const uint32_t Ns[] = {8, 12, 16, 24}, Ds[] = {3, 7};
    char why[512], pin[32], net[64];
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 2; j++) {
            const uint32_t N = Ns[i], D = Ds[j];
            snprintf(pin, sizeof pin, "radix=%u", N);
            snprintf(net, sizeof net, "mzi_degree=%u", D);
            int err;
            oc_report *rep = run_net("fabric", OC_ALLREDUCE, "rhd", N, 1 << 20, pin, net, &err,
                                     why, sizeof why);
            if (N - 1 > D)
                CHECK(!rep && err == OC_ERESOURCE, "N=%u D=%u unsplit: %s", N, D, why);
            oc_report_free(rep);
            snprintf(net, sizeof net, "mzi_degree=%u mzi_split=1", D);
            rep = run_words("fabric", OC_ALLREDUCE, "rhd", N, 1 << 20, pin, net, 1, &err, why,
                            sizeof why);
            uint64_t steps;
            const double t = expect_time(N, D, 1 << 20, &steps);
            CHECK(!err && oc_report_verified(rep) && oc_report_data_checked(rep) &&
                      oc_report_steps(rep) == steps && close_to(oc_report_time(rep), t) &&
                      num(rep, "mzi_extra_steps") == (double)(steps - 2) &&
                      num(rep, "mzi_split_rounds") == (N - 1 > D ? 2 : 0) &&
                      num(rep, "max_circuits_per_tile") <= D,
                  "N=%u D=%u split: %llu steps (expected %llu), %g s (expected %g): %s", N, D,
                  rep ? (unsigned long long)oc_report_steps(rep) : 0ull,
                  (unsigned long long)steps, rep ? oc_report_time(rep) : 0.0, t, why);
            oc_report_free(rep);
        }
}

static void test_fits(void) {
    char why[512];
    int err;
    oc_report *a = run_net("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=4", NULL, &err, why,
                           sizeof why);
    oc_report *b = run_net("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=4", "mzi_split=1",
                           &err, why, sizeof why);
    CHECK(a && b && oc_report_time(a) == oc_report_time(b) && num(b, "mzi_split_rounds") == 0,
          "radix 4 fits the 1x3 switch: %s", why);
    oc_report_free(a);
    oc_report_free(b);
}

static void test_search(void) {
    static const char *const pins[] = {"radix=12", "radices=3x4", "radices=4x3", "radices=2x6",
                                       "radices=6x2", "radices=2x2x3", "radices=3x2x2", "radix=2",
                                       "radix=3", "radix=4"};
    char why[512];
    const uint64_t sizes[] = {1024, 1 << 26};
    for (size_t k = 0; k < 2; k++) {
        int err;
        oc_report *rep = run_net("fabric", OC_ALLREDUCE, "rhd", 12, sizes[k], NULL, "mzi_split=1",
                                 &err, why, sizeof why);
        CHECK(!err, "search: %s", why);
        const double best = rep ? oc_report_time(rep) : NAN;
        oc_report_free(rep);
        for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
            rep = run_net("fabric", OC_ALLREDUCE, "rhd", 12, sizes[k], pins[i], "mzi_split=1", &err,
                          why, sizeof why);
            CHECK(!err && best <= oc_report_time(rep) * (1 + 1e-9), "%s at %llu B: %g < %g (%s)",
                  pins[i], (unsigned long long)sizes[k], rep ? oc_report_time(rep) : 0.0, best,
                  why);
            oc_report_free(rep);
        }
    }
}

int main(void) {
    test_radix();
    test_fits();
    test_search();
    return CHECK_SUMMARY();
}
