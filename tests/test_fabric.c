/*
 * test_fabric.c — tests of the Lumorph photonic rack (src/net/fabric.c and its check,
 * fabric_check.c). With the seed's figures (alpha = 0.7 us, 300 GB/s per GPU split over 16
 * wavelengths of 18.75 GB/s, MZI reconfiguration 3.7 us):
 *   - one circuit costs alpha + reconfiguration + b / (16 x 18.75 GB/s) exactly;
 *   - a tile with three circuits gives each 5 wavelengths (15 of 16 used);
 *   - reconfiguration is charged only when the circuit set changes (ring all-reduce: once);
 *   - a tile over its wavelengths is refused; a server pair short of fibres (W wavelengths each)
 *     shares them or runs in more steps, and a pair without fibres is refused,
 * and the independent check refuses a wrong account naming the tile and the round;
 *   - rhd all-reduce in radix 2 and 4 at N = 256 is verified and its time decomposes into
 *     2 log_r(N) alphas, the reconfigurations and 2 (N-1)/N n beta x 16 / (3 x 5) for radix 4.
 * Every test asserts a result a wrong implementation would get wrong.
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

static const double A = 0.7e-6;       /* alpha */
static const double RC = 3.7e-6;      /* MZI reconfiguration */
static const double WL = 300e9 / 16;  /* bytes/s per wavelength */
static const double BETA = 1 / 300e9; /* s per byte, all 16 wavelengths */

/* Maps hand-made rounds on the model under test (model_map.h). */
static oc_report *map(uint32_t N, uint64_t bytes, const char *net, oc__round *r, size_t nr,
                      int *err, char *why, size_t len) {
    return map_on(&oc__model_fabric, N, bytes, net, r, nr, err, why, len);
}

static void test_rounds(void) {
    char why[256] = "";
    int err;
    oc__round r[3] = {{0}};
    /* One circuit of 3 chunks of 1000 bytes: all 16 wavelengths. */
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 0, 3);
    oc_report *rep = map(4, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), A + RC + 3000 / (16 * WL)) &&
              oc_report_steps(rep) == 1,
          "one circuit: %s", why);
    CHECK(rep && close_to(num(rep, "time_alpha_s"), A) &&
              close_to(num(rep, "time_reconfig_s"), RC) &&
              close_to(num(rep, "time_bandwidth_s"), 3000 * BETA) &&
              num(rep, "max_tile_wavelengths") == 16,
          "one circuit: terms");
    oc_report_free(rep);
    /* Node 0 also sends to 2 and 3 (1 chunk each): three circuits of 5 wavelengths. */
    oc__round_push(&r[0], 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&r[0], 0, 3, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), A + RC + 3000 / (5 * WL)) &&
              num(rep, "max_tile_wavelengths") == 15 && num(rep, "min_circuit_wavelengths") == 5 &&
              num(rep, "max_circuits_per_tile") == 3,
          "radix 4 split: %.15g", rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    /* The same circuits again, in another order: no reconfiguration; then others: one more. */
    oc__round_push(&r[1], 0, 3, OC_OP_COPY, 0, 1);
    oc__round_push(&r[1], 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&r[1], 0, 1, OC_OP_COPY, 0, 1);
    oc__round_push(&r[2], 1, 0, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, r, 2, &err, why, sizeof why);
    CHECK(rep && num(rep, "reconfigurations") == 1 &&
              close_to(oc_report_time(rep), 2 * A + RC + 3000 / (5 * WL) + 1000 / (5 * WL)),
          "same circuits: %s", why);
    oc_report_free(rep);
    rep = map(4, 1000, NULL, r, 3, &err, why, sizeof why);
    CHECK(rep && num(rep, "reconfigurations") == 2 && close_to(num(rep, "time_reconfig_s"), 2 * RC),
          "changed circuits");
    oc_report_free(rep);
    /* Parameters. */
    rep = map(4, 1000, "reconfig_us=0", &r[2], 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), A + 1000 * BETA), "reconfig_us=0");
    oc_report_free(rep);
    rep = map(4, 1000, "wavelengths_per_tile=8", &r[0], 1, &err, why, sizeof why);
    /* 8 wavelengths of 37.5 GB/s: three circuits of 2 */
    CHECK(rep && close_to(num(rep, "time_bandwidth_s"), 3000 / (2 * 300e9 / 8)) &&
              num(rep, "max_tile_wavelengths") == 6,
          "wavelengths_per_tile=8");
    oc_report_free(rep);
    rep = map(4, 1000, "wavelengths=4", &r[0], 1, &err, why, sizeof why);
    CHECK(!rep && err, "unknown parameter");
    for (int i = 0; i < 3; i++)
        oc__round_free(&r[i]);
}

/* Rounds the rack cannot carry are refused with a reason. */
static void test_refused(void) {
    char why[256] = "";
    int err;
    oc__round r = {0};
    for (uint32_t d = 1; d <= 17; d++)
        oc__round_push(&r, 0, d, OC_OP_COPY, 0, 1);
    oc_report *rep = map(32, 1000, NULL, &r, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "tile 0") && strstr(why, "17 circuits"),
          "17 circuits at a tile: %s", why);
    oc__round_free(&r);
    /* Two servers of 2 tiles, 1 fibre each way: 0 -> 2 and 1 -> 3 need 2. */
    oc__round_push(&r, 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&r, 1, 3, OC_OP_COPY, 0, 1);
    oc__round s = {0};
    rep = map(4, 1000, "tiles_per_server=2", &r, 1, &err, why, sizeof why);
    CHECK(rep && num(rep, "circuits_between_servers") == 2 && num(rep, "servers") == 2,
          "two fibres by default");
    oc_report_free(rep);
    rep = map(4, 1000, "fibres_between_servers=1", &r, 1, &err, why, sizeof why);
    CHECK(rep != NULL, "one server of 32 tiles: no fibre used: %s", why);
    oc_report_free(rep);
    oc_kv *kv = oc_kv_new();
    oc_kv_set(kv, "tiles_per_server", "2");
    oc_kv_set(kv, "fibres_between_servers", "1");
    oc__spec spec;
    oc__netrun *run = NULL;
    CHECK(oc__spec_init(&spec, OC_ALLTOALL, 4, 0, 1000, 1, why, sizeof why) == 0, "spec");
    CHECK(oc__model_create(&oc__model_fabric, &spec, kv, 1, &run, why, sizeof why) == 0, "create");
    if (run) {
        oc__sink *sink = oc__model_fabric.sink(run);
        /* 2 circuits of 16 wavelengths on 1 fibre of 16: they share it, 8 each
         * scarce fibres degrade a run; they were refused before) */
        why[0] = 0;
        err = sink->round(sink, 7, &r, why, sizeof why);
        CHECK(err == 0, "fibres shared: %s", why);
        oc__model_fabric.destroy(run);
        run = NULL;
    }
    oc_kv_set(kv, "fibres_between_servers", "0");
    CHECK(oc__model_create(&oc__model_fabric, &spec, kv, 1, &run, why, sizeof why) == 0, "create");
    if (run) {
        oc__sink *sink = oc__model_fabric.sink(run);
        err = sink->round(sink, 7, &r, why, sizeof why);
        CHECK(err == OC_ERESOURCE && strstr(why, "round 7") &&
                  strstr(why, "fibres_between_servers=0 gives them no path"),
              "no fibres: %s", why);
        oc__model_fabric.destroy(run);
    }
    oc__spec_free(&spec);
    oc_kv_free(kv);
    oc__round_push(&s, 2, 2, OC_OP_COPY, 0, 1);
    rep = map(4, 1000, NULL, &s, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_EINVAL, "self circuit");
    oc__round_free(&r);
    oc__round_free(&s);
}

/* The independent check refuses every wrong account. */
static void test_check(void) {
    char why[256] = "";
    oc__fab_checker *c = NULL;
    CHECK(oc__fab_checker_new(&c) == 0, "checker");
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 0, 1);
    oc__round_push(&r, 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&r, 0, 3, OC_OP_COPY, 0, 1);
    oc__fab_shape sh = {.nodes = 4, .tiles_per_server = 32, .wavelengths = 16, .fibres = 32};
    const uint32_t ok[] = {5, 5, 5}, over[] = {6, 6, 6}, few[] = {5, 4, 5};
    CHECK(oc__fab_check(c, 5, &r, &sh, ok, why, sizeof why) == 0, "right: %s", why);
    CHECK(oc__fab_check(c, 5, &r, &sh, over, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "round 5") && strstr(why, "tile 0") && strstr(why, "18 wavelengths"),
          "over 16: %s", why);
    CHECK(oc__fab_check(c, 5, &r, &sh, few, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "0 -> 2") && strstr(why, "rule gives 5"),
          "wrong share: %s", why);
    oc__fab_shape small = {.nodes = 4, .tiles_per_server = 1, .wavelengths = 16, .fibres = 0};
    CHECK(oc__fab_check(c, 2, &r, &small, ok, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "fibres"),
          "fibres: %s", why);
    /* scarce fibres: two circuits between servers of 2 tiles on 1 fibre share its 16
     * wavelengths, 8 each; the full 16 each is refused */
    oc__round two = {0};
    oc__round_push(&two, 0, 2, OC_OP_COPY, 0, 1);
    oc__round_push(&two, 1, 3, OC_OP_COPY, 0, 1);
    oc__fab_shape one = {.nodes = 4, .tiles_per_server = 2, .wavelengths = 16, .fibres = 1};
    const uint32_t half[] = {8, 8}, whole[] = {16, 16};
    CHECK(oc__fab_check(c, 3, &two, &one, half, why, sizeof why) == 0, "shared fibre: %s", why);
    CHECK(oc__fab_check(c, 3, &two, &one, whole, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "32 wavelengths from server 0 to server 1"),
          "unshared fibre: %s", why);
    oc__round_free(&two);
    oc__round_push(&r, 1, 9, OC_OP_COPY, 0, 1);
    const uint32_t four[] = {5, 5, 5, 16};
    CHECK(oc__fab_check(c, 2, &r, &sh, four, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "no path"),
          "no path: %s", why);
    oc__round_free(&r);
    oc__fab_checker_free(c);
}

static oc_report *run(oc_collective coll, const char *algo, uint32_t N, uint64_t bytes,
                      const char *param, const char *net, int *err, char *why, size_t len) {
    return run_net("fabric", coll, algo, N, bytes, param, net, err, why, len);
}

static void test_algorithms(void) {
    char why[256] = "";
    int err;
    const uint64_t n = 1 << 20;
    /* Ring all-reduce: the same N circuits every round, configured once. */
    const uint32_t N = 64;
    oc_report *rep = run(OC_ALLREDUCE, "ring", N, n, NULL, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep) && num(rep, "reconfigurations") == 1 &&
              close_to(oc_report_time(rep),
                       2.0 * (N - 1) * A + RC + 2.0 * (N - 1) / N * (double)n * BETA),
          "ring N=64: %s %.15g", why, rep ? oc_report_time(rep) : 0);
    CHECK(rep && num(rep, "circuits_between_servers") == 2.0 * (N - 1) * 2,
          "ring N=64: 2 circuits cross servers per round");
    oc_report_free(rep);
    /* rhd at N = 256 (8 servers of 32): radix 2 and 4. */
    const uint32_t M = 256;
    for (uint32_t r = 2; r <= 4; r += 2) {
        char param[16];
        snprintf(param, sizeof param, "radix=%u", r);
        const double k = r == 2 ? 8 : 4, w = r == 2 ? 16 : 5;
        /* each circuit of a level carries the node's block over (r-1) circuits of w wavelengths */
        const double bw = 2.0 * (M - 1) / M * (double)n / (double)(r - 1) / (w * WL);
        rep = run(OC_ALLREDUCE, "rhd", M, n, param, NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep), "rhd radix %u N=256: %s", r, why);
        if (!rep) continue;
        const double rec = num(rep, "reconfigurations");
        CHECK(close_to(num(rep, "time_alpha_s"), 2 * k * A) &&
                  close_to(num(rep, "time_bandwidth_s"), bw) && rec >= 2 * k - 1 && rec <= 2 * k &&
                  close_to(oc_report_time(rep), 2 * k * A + rec * RC + bw),
              "rhd radix %u N=256: %.15g (bw %.15g, want %.15g)", r, oc_report_time(rep),
              num(rep, "time_bandwidth_s"), bw);
        CHECK(num(rep, "max_tile_wavelengths") == (r == 2 ? 16 : 15),
              "rhd radix %u: wavelengths used", r);
        oc_report_free(rep);
    }
    /* 16 fibres per server pair are too few for radix 2's level across 32 tiles (pinned: the
     * search would pick radices that fit): its 32 circuits share the pair's 256 wavelengths, 8
     * each, in the same steps; 1 fibre (16 wavelengths for 32 circuits) takes 2 passes, 1
     * wavelength each, one more step per such level (refused before). */
    oc_report *full = run(OC_ALLREDUCE, "rhd", M, n, "radix=2", NULL, &err, why, sizeof why);
    rep = run(OC_ALLREDUCE, "rhd", M, n, "radix=2", "fibres_between_servers=16", &err, why,
              sizeof why);
    CHECK(full && rep && oc_report_verified(rep) && num(rep, "fibre_shared_circuits") > 0 &&
              num(rep, "fibre_extra_steps") == 0 && num(rep, "min_circuit_wavelengths") == 8 &&
              oc_report_steps(rep) == oc_report_steps(full) &&
              oc_report_time(rep) > oc_report_time(full),
          "16 fibres shared: %s", why);
    oc_report_free(rep);
    rep = run(OC_ALLREDUCE, "rhd", M, n, "radix=2", "fibres_between_servers=1", &err, why,
              sizeof why);
    CHECK(full && rep && oc_report_verified(rep) && num(rep, "fibre_extra_steps") > 0 &&
              num(rep, "min_circuit_wavelengths") == 1 &&
              (double)oc_report_steps(rep) ==
                  (double)oc_report_steps(full) + num(rep, "fibre_extra_steps") &&
              close_to(num(rep, "time_alpha_s"), (double)oc_report_steps(rep) * A),
          "1 fibre: passes: %s", why);
    oc_report_free(rep);
    oc_report_free(full);
    rep = run(OC_ALLREDUCE, "ring", M, n, "", "fibres_between_servers=0", &err, why, sizeof why);
    CHECK(!rep && err == OC_ERESOURCE && strstr(why, "fibres_between_servers=0 gives them no path"),
          "no fibres: %s", why);
    oc_report_free(rep);
}

int main(void) {
    test_rounds();
    test_refused();
    test_check();
    test_algorithms();
    return CHECK_SUMMARY();
}
