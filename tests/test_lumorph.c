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
 * The relations `reproduce lumorph` reports, checked on runs of their own where the alpha-beta
 * algebra decides them (Lumorph-2 below Ring at every size: same beta term, fewer alphas; Ring
 * below Lumorph-4 at 1 GiB: 16/15 more beta outweighs the saved alphas); the reproduction runs
 * and finds every simulated time equal to its closed form; the throughput estimate (compute,
 * buckets, speedup) equals the arithmetic done here, and bad inputs are refused.
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
#include "model_map.h"

static const double A = 0.7e-6;       /* alpha */
static const double RC = 3.7e-6;      /* MZI reconfiguration */
static const double BETA = 1 / 300e9; /* s per byte on all 16 wavelengths of a tile */

/* Sums of doubles in another order than the model's: equal to a few ulps, not bit for bit. */
static int same(double a, double b) {
    return fabs(a - b) <= 1e-9 * fabs(b) + 1e-18;
}

static oc_report *run_on(const char *net, oc_collective coll, const char *algo, uint32_t N,
                         uint64_t bytes, const char *param, int *err, char *why, size_t len) {
    return run_net(net, coll, algo, N, bytes, param, NULL, err, why, len);
}

static oc_report *run(oc_collective coll, const char *algo, uint32_t N, uint64_t bytes,
                      const char *param, int *err, char *why, size_t len) {
    return run_on("fabric", coll, algo, N, bytes, param, err, why, len);
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

/* NCCL's pipelined double binary tree: C chunks per tree add C - 1 rounds; on the switch and on
 * the fabric the simulated time equals the tree's own closed form, with real data. */
static void test_dbtree_pipeline(void) {
    char why[256] = "";
    int err;
    const uint32_t sizes[] = {2, 3, 5, 12, 64, 100};
    const uint32_t Cs[] = {2, 8};
    const uint64_t n = 1 << 20;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const uint32_t N = sizes[i];
        /* pipeline=1 pinned: unpinned, the search picks the best C */
        oc_report *one = run(OC_ALLREDUCE, "dbtree", N, n, "pipeline=1", &err, why, sizeof why);
        CHECK(one && strcmp(oc_report_param(one, "pipeline"), "1") == 0, "dbtree N=%u: %s", N, why);
        for (size_t c = 0; c < 2 && one; c++) {
            char param[24];
            snprintf(param, sizeof param, "pipeline=%u", Cs[c]);
            for (int net = 0; net < 2; net++) {
                /* the two trees give a node up to 4 circuits a round: more than the seed's
                 * 1x3 MZI switch holds (tests/test_fabric_mzi.c), so the form is checked on a
                 * switch of any degree */
                oc_report *rep = run_net(net ? "switch" : "fabric", OC_ALLREDUCE, "dbtree", N, n,
                                         param, net ? NULL : "mzi_degree=0", &err, why,
                                         sizeof why);
                CHECK(rep && oc_report_verified(rep) && oc_report_data_checked(rep) &&
                          oc_report_rounds(rep) == oc_report_rounds(one) + Cs[c] - 1,
                      "dbtree %s N=%u C=%u: %s", param, N, Cs[c], why);
                CHECK(rep && rep->has_time_formula &&
                          same(oc_report_time(rep), rep->time_formula_s),
                      "dbtree %s N=%u on %s: %.15g, formula %.15g", param, N,
                      net ? "switch" : "fabric", rep ? oc_report_time(rep) : 0,
                      rep ? rep->time_formula_s : 0);
                oc_report_free(rep);
            }
        }
        oc_report_free(one);
    }
    /* Pipelining pays at large buffers on the switch: 64 MiB, 256 GPUs, C = 16 beats C = 1. */
    oc_report *a =
        run_on("switch", OC_ALLREDUCE, "dbtree", 256, 64 << 20, "pipeline=1", &err, why, 256);
    oc_report *b =
        run_on("switch", OC_ALLREDUCE, "dbtree", 256, 64 << 20, "pipeline=16", &err, why, 256);
    CHECK(a && b && oc_report_time(b) < 0.5 * oc_report_time(a), "pipelined tree at 64 MiB");
    oc_report_free(a);
    oc_report_free(b);
    /* More chunks than bytes is refused with a reason. */
    oc_report *bad = run(OC_ALLREDUCE, "dbtree", 5, 7, "pipeline=8", &err, why, sizeof why);
    CHECK(!bad && err == OC_EINVAL && strstr(why, "pipeline"), "pipeline=8 of 7 bytes: %s", why);
}

/* A verified all-reduce's time: Lumorph-r on the fabric (r > 0), else `algo` on the switch. */
static double t_run(uint32_t N, uint64_t n, int r, const char *algo) {
    char why[256] = "", param[16];
    int err;
    snprintf(param, sizeof param, "radix=%d", r);
    oc_report *rep = r ? run(OC_ALLREDUCE, "rhd", N, n, param, &err, why, sizeof why)
                       : run_on("switch", OC_ALLREDUCE, algo, N, n, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep), "N=%u %s: %s", N, r ? "rhd" : algo, why);
    double t = rep ? oc_report_time(rep) : NAN;
    oc_report_free(rep);
    return t;
}

static void test_relations(void) {
    const uint32_t Ns[] = {64, 128, 256};
    for (size_t i = 0; i < 3; i++) {
        const uint32_t N = Ns[i];
        for (uint64_t n = 1024; n <= (UINT64_C(1) << 30); n *= 1024) {
            /* 2 log2 N (alpha + reconf) - reconf < 2 (N-1) alpha for N >= 64; same beta term */
            const double l2 = t_run(N, n, 2, NULL), ring = t_run(N, n, 0, "ring");
            CHECK(l2 < ring, "N=%u n=%llu: Lumorph-2 %.6g not below Ring %.6g", N,
                  (unsigned long long)n, l2, ring);
        }
    }
    /* 1 KiB, 256 GPUs: Lumorph-4's 8 rounds beat Lumorph-2's 16; Ring's 510 alphas lose to both;
     * the unpipelined Tree (about 2 log2 N rounds of 0.7 us, no reconfiguration) beats them. */
    const double l2 = t_run(256, 1024, 2, NULL), l4 = t_run(256, 1024, 4, NULL);
    const double ring = t_run(256, 1024, 0, "ring"), tree = t_run(256, 1024, 0, "dbtree");
    CHECK(l4 < l2 && l2 < ring && tree < l4, "1 KiB, 256: L-4 %g L-2 %g Ring %g Tree %g", l4, l2,
          ring, tree);
    CHECK(1 - l4 / ring > 0.8, "1 KiB, 256: Lumorph-4 %.3f of Ring, not 80%% less", l4 / ring);
    /* 1 GiB, 256: beta 2 x 255/3 x 16/5 x n/256 against 2 x 255/256 n: Ring wins by ~150 us. */
    const uint64_t G = UINT64_C(1) << 30;
    const double l4g = t_run(256, G, 4, NULL), ringg = t_run(256, G, 0, "ring");
    const double gap = (2.0 * 85 * 3.2 / 256 - 2.0 * 255 / 256) * (double)G / 300e9 -
                       (502 * A - 7 * RC); /* bandwidth lost minus alphas saved */
    CHECK(ringg < l4g && same(l4g - ringg, gap), "1 GiB, 256: Ring %g, Lumorph-4 %g, gap %g", ringg,
          l4g, gap);
}

static void test_reproduce(void) {
    char why[512] = "", *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = mem ? oc_reproduce("lumorph", mem, why, sizeof why) : OC_ENOMEM;
    if (mem) fclose(mem);
    CHECK(rc == 0, "reproduce lumorph: %s", why);
    CHECK(buf && strstr(buf, "in 231 of 231 runs"), "every simulated time = its closed form");
    CHECK(buf && strstr(buf, "Fig. 4(b), 256 GPUs") && strstr(buf, "Fig. 4(a)") &&
              strstr(buf, "up to 1.7x"),
          "sections present");
    free(buf);
}

static void test_throughput(void) {
    char why[256] = "";
    oc_throughput_in in = {.model = "BERT-large",
                           .parameters = 340000000,
                           .batch = 6,
                           .nodes = 256,
                           .buckets = 24,
                           .tokens = 128,
                           .peak_tflops = 312,
                           .utilisation = 0.5};
    oc_throughput t;
    int rc = oc_throughput_estimate(&in, &t, why, sizeof why);
    CHECK(rc == 0, "throughput: %s", why);
    if (rc) return;
    const double compute = 6.0 * 340e6 * 128 * 6 / (312e12 * 0.5);
    const uint64_t bucket = (4 * UINT64_C(340000000) + 23) / 24;
    const double chunk = (double)((bucket + 255) / 256);
    const double ring = 510 * A + 510 * chunk * BETA;
    const double l2 = 16 * A + 15 * RC + 510 * chunk * BETA;
    const double l4 = 8 * A + 7 * RC + 2.0 * 85 * 3.2 * chunk * BETA;
    CHECK(t.bucket_bytes == bucket && same(t.compute_s, compute), "compute %g, bucket %llu",
          t.compute_s, (unsigned long long)t.bucket_bytes);
    CHECK(same(t.side[2].allreduce_s, ring) && same(t.side[0].allreduce_s, l2) &&
              same(t.side[1].allreduce_s, l4),
          "all-reduces %g %g %g, want %g %g %g", t.side[0].allreduce_s, t.side[1].allreduce_s,
          t.side[2].allreduce_s, l2, l4, ring);
    const double best = fmin(l2, l4);
    const double want = (compute + 24 * ring) / (compute + 24 * best);
    CHECK(same(t.speedup, want) && t.best == (l4 < l2 ? 1 : 0), "speedup %g, want %g", t.speedup,
          want);
    CHECK(same(t.side[2].samples_per_s, 6.0 * 256 / (compute + 24 * ring)), "Ring samples/s");
    CHECK(strcmp(t.model, "BERT-large") == 0, "model name");
    /* More, smaller buckets: the alphas weigh more, the speedup grows. */
    in.buckets = 384;
    oc_throughput t2;
    CHECK(oc_throughput_estimate(&in, &t2, why, sizeof why) == 0 && t2.speedup > t.speedup,
          "384 buckets: %g not above %g", t2.speedup, t.speedup);
    oc_throughput_free(&t2);
    /* Bad inputs. */
    const oc_throughput_in good = in;
    in.utilisation = 0;
    CHECK(oc_throughput_estimate(&in, &t2, why, sizeof why) == OC_EINVAL && strstr(why, "util"),
          "utilisation 0: %s", why);
    in = good;
    in.buckets = 0;
    CHECK(oc_throughput_estimate(&in, &t2, why, sizeof why) == OC_EINVAL, "0 buckets");
    in = good;
    in.nodes = 1;
    CHECK(oc_throughput_estimate(&in, &t2, why, sizeof why) == OC_EINVAL, "1 node");
    in = good;
    in.parameters = 2;
    in.buckets = 9;
    CHECK(oc_throughput_estimate(&in, &t2, why, sizeof why) == OC_EINVAL, "empty buckets");
    oc_throughput_free(&t);
}

/* The model's name is the caller's text, held whole by the result (it was cut into a char[64]):
 * a 400-byte name with an ESC in it comes back whole after the caller's copy is spoiled, the text
 * writer prints it whole with the ESC escaped, JSON carries it whole. */
static void test_throughput_long_name(void) {
    enum { NAME = 400 };
    char name[NAME + 1], kept[NAME + 1], why[256] = "";
    for (int i = 0; i < NAME; i++)
        name[i] = (char)('A' + i % 26);
    name[5] = '\x1b';
    name[NAME] = '\0';
    memcpy(kept, name, sizeof name);
    oc_throughput_in in = {.model = name,
                           .parameters = 110000000,
                           .batch = 7,
                           .nodes = 12,
                           .buckets = 5,
                           .tokens = 128,
                           .peak_tflops = 125,
                           .utilisation = 0.5,
                           .skip_data_check = 1};
    oc_throughput t;
    int rc = oc_throughput_estimate(&in, &t, why, sizeof why);
    CHECK(rc == 0, "throughput with a long name: %s", why);
    if (rc) return;
    memset(name, 'x', NAME);
    CHECK(t.model && strcmp(t.model, kept) == 0, "the name whole: %zu bytes of %d",
          t.model ? strlen(t.model) : 0, NAME);
    char *out[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        size_t len = 0;
        FILE *f = open_memstream(&out[k], &len);
        if (!f) continue;
        int wrc = k ? oc_throughput_write_json(&t, f) : oc_throughput_write_text(&t, f);
        if (fclose(f) || wrc) {
            free(out[k]);
            out[k] = NULL;
        }
    }
    char escaped[NAME + 8];
    snprintf(escaped, sizeof escaped, "%.5s\\x1b%s", kept, kept + 6);
    CHECK(out[0] && strstr(out[0], escaped) && !strchr(out[0], '\x1b'),
          "text: the whole name, ESC escaped");
    char json_name[NAME + 16];
    snprintf(json_name, sizeof json_name, "%.5s\\u001b%s", kept, kept + 6);
    CHECK(out[1] && strstr(out[1], json_name), "JSON: the whole name");
    free(out[0]);
    free(out[1]);
    oc_throughput_free(&t);
    CHECK(t.model == NULL, "oc_throughput_free zeroes the result");
    oc_throughput_free(&t); /* twice, and on a zeroed one: nothing */
}

int main(void) {
    test_powers();
    test_other_sizes();
    test_halves();
    test_dbtree_pipeline();
    test_relations();
    test_reproduce();
    test_throughput();
    test_throughput_long_name();
    return CHECK_SUMMARY();
}
