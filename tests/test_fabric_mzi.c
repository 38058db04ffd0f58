/*
 * test_fabric_mzi.c — the 1x3 MZI degree of the Lumorph fabric (seed section 2: "MZI-based
 * optical switches of 1X3 degree", Fig. 1(a): the all-to-all of four tiles). A tile holds at most
 * mzi_degree (default 3) concurrent circuits per direction:
 *   - hand-made rounds with 4 circuits out of, or into, one tile are refused naming the tile and
 *     the 1x3 switch; mzi_degree=4 takes them (4 wavelengths each);
 *   - the independent check (fabric_check.c) refuses the same round on its own;
 *   - rhd radix 8 (7 circuits per GPU) is refused with the limit named, radix 4 (3) runs, and
 *     mzi_degree=7 lets radix 8 run;
 *   - the default parameter search on the fabric picks only schedules the switch holds, at odd,
 *     prime and non-power N, and lifting the limit never makes the best time worse.
 * Before the limit, every one of these rounds ran (7 circuits per tile at radix 8).
 * Also what a server holds: tiles_per_server above 32 ("A Lightpath wafer has 32 or fewer
 * tiles") is refused with that reason (it ran before, at any count up to 2^20).
 */
#include "core/core.h"
#include "net/fabric.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static void test_rounds(void) {
    char why[256] = "";
    int err = 0;
    oc__round out = {0}, in = {0};
    for (uint32_t d = 1; d <= 4; d++) {
        oc__round_push(&out, 0, d, OC_OP_COPY, 0, 1);
        oc__round_push(&in, d, 0, OC_OP_COPY, 0, 1);
    }
    oc_report *rep = map_on(&oc__model_fabric, 5, 1000, NULL, &out, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "tile 0 sends on 4 concurrent circuits") &&
              strstr(why, "1x3 MZI switch"),
          "4 out of a tile: %s", why);
    oc_report_free(rep);
    rep = map_on(&oc__model_fabric, 5, 1000, NULL, &in, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "tile 0 receives on 4 concurrent circuits"),
          "4 into a tile: %s", why);
    oc_report_free(rep);
    rep = map_on(&oc__model_fabric, 5, 1000, "mzi_degree=4", &out, 1, &err, why, sizeof why);
    CHECK(rep && num(rep, "max_circuits_per_tile") == 4 && num(rep, "min_circuit_wavelengths") == 4,
          "mzi_degree=4: %s", why);
    oc_report_free(rep);
    /* the check on its own */
    oc__fab_checker *c = NULL;
    CHECK(oc__fab_checker_new(&c) == 0, "checker");
    oc__fab_shape sh = {
        .nodes = 5, .tiles_per_server = 32, .wavelengths = 16, .fibres = 32, .mzi_degree = 3};
    const uint32_t wl[] = {4, 4, 4, 4};
    CHECK(oc__fab_check(c, 7, &out, &sh, wl, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "round 7") && strstr(why, "tile 0 sends on 4 circuits") &&
              strstr(why, "1x3"),
          "check, degree 3: %s", why);
    sh.mzi_degree = 0;
    CHECK(oc__fab_check(c, 7, &out, &sh, wl, why, sizeof why) == 0, "check, any degree: %s", why);
    oc__fab_checker_free(c);
    oc__round_free(&out);
    oc__round_free(&in);
}

static void test_radix(void) {
    char why[256] = "";
    int err = 0;
    oc_report *rep =
        run_net("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=8", NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "7 concurrent circuits") &&
              strstr(why, "mzi_degree=3"),
          "radix 8: %s", why);
    oc_report_free(rep);
    rep = run_net("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=4", NULL, &err, why,
                  sizeof why);
    CHECK(rep && num(rep, "max_circuits_per_tile") == 3, "radix 4: %s", why);
    oc_report_free(rep);
    rep = run_net("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=8", "mzi_degree=7", &err, why,
                  sizeof why);
    CHECK(rep && num(rep, "max_circuits_per_tile") == 7, "radix 8, mzi_degree=7: %s", why);
    oc_report_free(rep);
}

static void test_search(void) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 64, 100, 128};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        char why[256] = "";
        int err = 0;
        oc_report *d = run_net("fabric", OC_ALLREDUCE, "rhd", Ns[i], 64u << 20, "", NULL, &err,
                               why, sizeof why);
        oc_report *any = run_net("fabric", OC_ALLREDUCE, "rhd", Ns[i], 64u << 20, "",
                                 "mzi_degree=0", &err, why, sizeof why);
        CHECK(d && oc_report_verified(d) && num(d, "max_circuits_per_tile") <= 3,
              "N=%u default: %s (%g circuits)", Ns[i], why, d ? num(d, "max_circuits_per_tile") : 0);
        CHECK(d && any && oc_report_time(any) <= oc_report_time(d) * (1 + 1e-12),
              "N=%u: any degree %g s, 1x3 %g s", Ns[i], any ? oc_report_time(any) : 0,
              d ? oc_report_time(d) : 0);
        oc_report_free(d);
        oc_report_free(any);
    }
}

static void test_tiles(void) {
    char why[256] = "";
    int err = 0;
    oc_report *rep = run_net("fabric", OC_ALLREDUCE, "ring", 64, 1 << 20, "", "tiles_per_server=32",
                             &err, why, sizeof why);
    CHECK(rep != NULL, "32 tiles: %s", why);
    oc_report_free(rep);
    const char *over[] = {"tiles_per_server=33", "tiles_per_server=64", "tiles_per_server=1000"};
    for (size_t i = 0; i < 3; i++) {
        rep = run_net("fabric", OC_ALLREDUCE, "ring", 64, 1 << 20, "", over[i], &err, why,
                      sizeof why);
        CHECK(!rep && err == OC_EINVAL && strstr(why, "a Lightpath server holds at most 32 tiles"),
              "%s: %s", over[i], why);
        oc_report_free(rep);
    }
}

int main(void) {
    test_tiles();
    test_rounds();
    test_radix();
    test_search();
    return CHECK_SUMMARY();
}
