/*
 * test_sipco.c — Flex-SiPCO on SiPAC(r, l) (src/algo/allreduce_sipco.c; lumorph section 3, Fig. 3).
 *   - verified (symbolic and real data) at odd, prime and non-power N for every r with r^l = N, on
 *     the switch and on the fabric (no MZI limit where the tile's 16 wavelengths hold l (r-1)
 *     circuits), and the mapped time equals the closed form exactly on both;
 *   - on the fabric the circuits are configured once (one 3.7 us reconfiguration) in 2l rounds;
 *   - at Fig. 3's 8 GPUs on the seed's 1x3 switch the search takes SiPAC(2,3) (3 circuits) and
 *     refuses SiPAC(8,1) (7 circuits), and beats Lumorph-2 at 1 KiB by the 4 reconfigurations it
 *     saves less the bandwidth it loses;
 *   - N not a power of the pinned r is refused naming SiPAC's r^l.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static uint32_t levels(uint32_t N, uint32_t r) {
    uint32_t l = 0;
    uint64_t P = 1;
    for (; P < N; P *= r) l++;
    return P == N ? l : 0;
}

static void test_matrix(void) {
    const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 27, 64, 100};
    char why[512], pin[32];
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        for (uint32_t r = 2; r <= (N < 2 ? 2 : N); r++) {
            const uint32_t l = levels(N, r);
            if (N >= 2 && !l) continue;
            snprintf(pin, sizeof pin, "r=%u", r);
            int err;
            oc_report *rep = run_net("switch", OC_ALLREDUCE, "sipco", N, 3 << 20, pin, NULL, &err,
                                     why, sizeof why);
            CHECK(!err && oc_report_verified(rep) && oc_report_data_checked(rep) &&
                      rep->has_time_formula && close_to(oc_report_time(rep), rep->time_formula_s),
                  "switch N=%u %s: %s", N, pin, why);
            oc_report_free(rep);
            if (N >= 2 && l * (r - 1) > 16) continue;
            rep = run_net("fabric", OC_ALLREDUCE, "sipco", N, 3 << 20, pin, "mzi_degree=0", &err,
                          why, sizeof why);
            CHECK(!err && oc_report_verified(rep) && oc_report_data_checked(rep) &&
                      rep->has_time_formula && close_to(oc_report_time(rep), rep->time_formula_s),
                  "fabric N=%u %s: %s", N, pin, why);
            if (!err && N >= 2)
                CHECK(oc_report_rounds(rep) == 2 * l && close_to(num(rep, "time_reconfig_s"), 3.7e-6),
                      "fabric N=%u %s: %llu rounds, reconfig %g", N, pin,
                      (unsigned long long)oc_report_rounds(rep), num(rep, "time_reconfig_s"));
            oc_report_free(rep);
        }
    }
}

static void test_fig3(void) {
    char why[512];
    int err;
    oc_report *rep = run_net("fabric", OC_ALLREDUCE, "sipco", 8, 1024, NULL, NULL, &err, why,
                             sizeof why);
    const char *r = rep ? oc_report_param(rep, "r") : NULL;
    CHECK(!err && r && !strcmp(r, "2") && num(rep, "max_circuits_per_tile") == 3,
          "SiPAC(2,3) on the 1x3 switch: %s", r ? r : why);
    const double t = rep ? oc_report_time(rep) : NAN;
    oc_report_free(rep);
    rep = run_net("fabric", OC_ALLREDUCE, "sipco", 8, 1024, "r=8", NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "7 concurrent circuits"), "r=8: %s", why);
    rep = run_net("fabric", OC_ALLREDUCE, "rhd", 8, 1024, "radix=2", NULL, &err, why, sizeof why);
    const double t2 = rep ? oc_report_time(rep) : NAN;
    /* 6 rounds each; sipco configures once (Lumorph-2: 5 times), and sends 7 x 1024/24 bytes per
     * direction on 5 of 16 wavelengths where Lumorph-2 sends 7 x 1024/8 on all 16 */
    const double bw = 18.75e9, expect = 4 * 3.7e-6 + 2 * 7 * (1024.0 / 8) / (16 * bw) -
                                        2 * 7 * ceil(1024.0 / 24) / (5 * bw);
    CHECK(!err && fabs((t2 - t) - expect) < 1e-12, "Lumorph-2 %g - sipco %g = %g, expected %g", t2,
          t, t2 - t, expect);
    oc_report_free(rep);
}

static void test_refused(void) {
    char why[512];
    int err;
    oc_report *rep =
        run_net("switch", OC_ALLREDUCE, "sipco", 12, 1 << 20, "r=2", NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_EINVAL && strstr(why, "not a power of r=2") && strstr(why, "SiPAC"),
          "12 GPUs, r=2: %s", why);
    rep = run_net("switch", OC_ALLREDUCE, "sipco", 8, 10, "r=2", NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_EINVAL && strstr(why, "too few"), "10 bytes: %s", why);
}

int main(void) {
    test_matrix();
    test_fig3();
    test_refused();
    return CHECK_SUMMARY();
}
