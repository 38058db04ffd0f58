/*
 * test_rdk.c — recursive doubling in mixed radix with one fold on the fabric
 * (src/algo/allreduce_rdk.c).
 *
 *  (a) verified with real data at N = 1, 2, 3, 5, 7, 12, 100 (and 13, 31, 64, 97) on the fabric
 *      with its defaults, mzi_degree=0 and mzi_split=1, at 1 KiB and 1 MiB: exactly k rounds plus
 *      two where the radices' product is below N, one step a round (defaults), and never below
 *      the physical bound;
 *  (b) the search contract: at N = 2 .. 24 and 100, every non-increasing radix vector the user
 *      could pin that runs is no faster than the default (1 KiB and 1 MiB);
 *  (c) where the fabric's bound showed the gap (all-reduce, 1 KiB, N = 100: rhd 4.84 times the
 *      time bound): five rounds, faster than rhd and below 3.5 times the bound;
 *  (d) bad input: an increasing vector, a product above N, a fold above 64 (N = 200), an unknown
 *      parameter, radices= for one node.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static oc_report *ar(const char *algo, uint32_t N, const char *np, uint64_t bytes,
                     const char *params, int *err, char *why, size_t len) {
    return run_words("fabric", OC_ALLREDUCE, algo, N, bytes, params, np, 1, err, why, len);
}

/* The radices' product and count of "AxBx..." */
static uint64_t product(const char *v, uint32_t *k) {
    uint64_t P = 1;
    *k = 0;
    for (const char *p = v; *p;) {
        char *end;
        P *= strtoull(p, &end, 10);
        ++*k;
        p = *end == 'x' ? end + 1 : end;
    }
    return P;
}

static void test_verified(void) {
    static const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100, 13, 31, 64, 97};
    static const char *const nets[] = {"", "mzi_degree=0", "mzi_split=1"};
    static const uint64_t sizes[] = {1024, 1 << 20};
    for (size_t n = 0; n < sizeof Ns / sizeof *Ns; n++)
        for (size_t t = 0; t < 3; t++)
            for (size_t s = 0; s < 2; s++) {
                const uint32_t N = Ns[n];
                char why[512] = "";
                int err = 0;
                oc_report *rep = ar("rdk", N, nets[t], sizes[s], NULL, &err, why, sizeof why);
                CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
                      "rdk N=%u %s %llu: %s", N, nets[t], (unsigned long long)sizes[s],
                      err ? why : "not verified");
                if (err || !rep) {
                    oc_report_free(rep);
                    continue;
                }
                const char *v = oc_report_param(rep, "radices");
                if (N >= 2) {
                    uint32_t k = 0;
                    const uint64_t P = v ? product(v, &k) : 0;
                    CHECK(v && P >= 2 && P <= N, "rdk N=%u: radices %s", N, v ? v : "(none)");
                    const uint64_t rounds = k + (P < N ? 2u : 0u);
                    CHECK(oc_report_rounds(rep) == rounds,
                          "rdk N=%u %s radices=%s: %llu rounds, want %llu", N, nets[t], v ? v : "",
                          (unsigned long long)oc_report_rounds(rep), (unsigned long long)rounds);
                    if (!nets[t][0])
                        CHECK(oc_report_steps(rep) == rounds, "rdk N=%u: %llu steps, %llu rounds",
                              N, (unsigned long long)oc_report_steps(rep),
                              (unsigned long long)rounds);
                } else {
                    CHECK(oc_report_rounds(rep) == 0, "rdk N=1: no rounds");
                }
                oc_physical_bound_info pb = {0};
                if (oc_report_physical_bound(rep, &pb) == 1)
                    CHECK(oc_report_steps(rep) >= pb.steps &&
                              oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
                          "rdk N=%u %s: below the physical bound", N, nets[t]);
                oc_report_free(rep);
            }
}

/* Every non-increasing vector of radices <= last with product <= N, appended to prefix. */
typedef struct pins {
    uint32_t N;
    const char *net;
    uint64_t bytes;
    double best; /* the default's time */
    uint64_t tried;
} pins;

static void each_vector(pins *p, char *buf, size_t at, uint64_t P, uint64_t last) {
    if (at) {
        char why[512] = "";
        int err = 0;
        char param[160];
        snprintf(param, sizeof param, "radices=%s", buf);
        oc_report *rep = ar("rdk", p->N, p->net, p->bytes, param, &err, why, sizeof why);
        if (!err && rep) {
            p->tried++;
            CHECK(oc_report_time(rep) >= p->best * (1 - 1e-12),
                  "rdk N=%u %s %llu: pinned %s (%.6g s) beats the default (%.6g s)", p->N, p->net,
                  (unsigned long long)p->bytes, buf, oc_report_time(rep), p->best);
        }
        oc_report_free(rep);
    }
    for (uint64_t r = last; r >= 2; r--) {
        if (P * r > p->N) continue;
        const int n = snprintf(buf + at, 160 - at, "%s%llu", at ? "x" : "", (unsigned long long)r);
        each_vector(p, buf, at + (size_t)n, P * r, r);
        buf[at] = 0;
    }
}

static void test_search(void) {
    static const char *const nets[] = {"", "mzi_degree=0"};
    static const uint64_t sizes[] = {1024, 1 << 20};
    uint32_t Ns[24];
    size_t nn = 0;
    for (uint32_t N = 2; N <= 24; N++)
        Ns[nn++] = N;
    Ns[nn++] = 100;
    for (size_t n = 0; n < nn; n++)
        for (size_t t = 0; t < 2; t++)
            for (size_t s = 0; s < 2; s++) {
                char why[512] = "";
                int err = 0;
                oc_report *rep = ar("rdk", Ns[n], nets[t], sizes[s], NULL, &err, why, sizeof why);
                CHECK(err == 0 && rep, "rdk N=%u default: %s", Ns[n], why);
                if (err || !rep) {
                    oc_report_free(rep);
                    continue;
                }
                pins p = {Ns[n], nets[t], sizes[s], oc_report_time(rep), 0};
                oc_report_free(rep);
                char buf[160] = "";
                /* radix 17 needs 16 circuits: the most the tile's 16 wavelengths hold */
                each_vector(&p, buf, 0, 1, Ns[n] < 17 ? Ns[n] : 17);
                CHECK(p.tried >= 1, "rdk N=%u %s: no pinned vector ran", Ns[n], nets[t]);
            }
}

static void test_gap(void) {
    char why[512] = "";
    int err = 0, err2 = 0;
    oc_report *rdk = ar("rdk", 100, "", 1024, NULL, &err, why, sizeof why);
    oc_report *rhd = ar("rhd", 100, "", 1024, NULL, &err2, why, sizeof why);
    CHECK(!err && !err2 && rdk && rhd, "N=100, 1 KiB: %s", why);
    if (!err && !err2 && rdk && rhd) {
        oc_physical_bound_info pb = {0};
        CHECK(oc_report_physical_bound(rdk, &pb) == 1 && pb.time_s > 0, "a physical bound");
        CHECK(oc_report_steps(rdk) == 5 && oc_report_time(rdk) < oc_report_time(rhd) &&
                  oc_report_time(rdk) < 3.5 * pb.time_s,
              "rdk N=100 1 KiB: %llu steps, %.3g s (rhd %.3g s, bound %.3g s)",
              (unsigned long long)oc_report_steps(rdk), oc_report_time(rdk), oc_report_time(rhd),
              pb.time_s);
    }
    oc_report_free(rdk);
    oc_report_free(rhd);
}

static void test_bad(void) {
    static const struct {
        uint32_t N;
        const char *params, *want;
    } cases[] = {{16, "radices=2x4", "non-increasing"},
                 {16, "radices=4x4x2", "above N"},
                 {200, "radices=2", "at most 64"},
                 {16, "radix=4", "radix"},
                 {1, "radices=2", "nothing to do"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char why[512] = "";
        int err = 0;
        oc_report *rep = ar("rdk", cases[i].N, "", 1024, cases[i].params, &err, why, sizeof why);
        CHECK(err != 0 && !rep && strstr(why, cases[i].want) && !strchr(why, '\n'),
              "rdk N=%u %s: refused in one line naming '%s': %d '%s'", cases[i].N, cases[i].params,
              cases[i].want, err, why);
        oc_report_free(rep);
    }
}

int main(void) {
    test_verified();
    test_search();
    test_gap();
    test_bad();
    return CHECK_SUMMARY();
}
