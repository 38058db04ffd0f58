/*
 * test_kshift.c — the pairwise all-to-all with g shifts a round (src/algo/alltoall_kshift.c).
 *
 *  (a) verified with real data at P = 1, 2, 3, 5, 7, 12, 100 on the star (k = 1, 3) and the
 *      fabric (defaults, and mzi_degree=0), by default and pinned; on the star with g <= k every
 *      round is one step (ceil((P-1)/g) steps: a round that repeats a partner or overfills a
 *      filter bank is caught), and every run is at or above the physical bound;
 *  (b) where the star's bound showed the seed's gap (1 KiB, L = 1, D = 1, k = 3: TCP2 3.1 and
 *      3.55 times, pairwise 3 times at P = 31 and 100): within 1.15x of the proven time bound,
 *      and faster than pairwise on the fabric (fewer reconfigurations);
 *  (c) bad input: shifts=0, shifts above P - 1, an unknown parameter.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static oc_report *a2a(const char *net, const char *algo, uint32_t P, const char *np, uint64_t bytes,
                      const char *params, int data, int *err, char *why, size_t len) {
    return run_words(net, OC_ALLTOALL, algo, P, bytes, params, np, data, err, why, len);
}

static oc_report *checked(const char *net, uint32_t P, const char *np, uint64_t bytes,
                          const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a(net, "kshift", P, np, bytes, params, 1, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
          "kshift %s P=%u %s %s: %s", net, P, np, params ? params : "(default)",
          err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    const char *gs = oc_report_param(rep, "shifts");
    const uint64_t g = gs ? strtoull(gs, NULL, 10) : 0;
    CHECK(g >= 1, "kshift P=%u: shifts %s", P, gs ? gs : "(none)");
    if (!strcmp(net, "star") && g >= 1) {
        const uint64_t k = strstr(np, "k=1") ? 1 : 3;
        if (g <= k)
            CHECK(oc_report_steps(rep) == (P > 1 ? (P - 1 + g - 1) / g : 0),
                  "kshift star P=%u %s shifts=%llu: %llu steps", P, np, (unsigned long long)g,
                  (unsigned long long)oc_report_steps(rep));
    }
    oc_physical_bound_info pb = {0};
    if (oc_report_physical_bound(rep, &pb) == 1)
        CHECK(oc_report_steps(rep) >= pb.steps && oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
              "kshift %s P=%u %s: below the physical bound", net, P, np);
    return rep;
}

static void test_verified(void) {
    static const uint32_t Ps[] = {1, 2, 3, 5, 7, 12, 100};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++) {
        oc_report_free(checked("star", Ps[i], "k=1", 1000, NULL));
        oc_report_free(checked("star", Ps[i], "k=3", 1000, NULL));
        oc_report_free(checked("star", Ps[i], "k=3 D=100", 1, NULL));
        oc_report_free(checked("fabric", Ps[i], "", 1024, NULL));
        oc_report_free(checked("fabric", Ps[i], "mzi_degree=0", 65539, NULL));
        if (Ps[i] > 2) oc_report_free(checked("star", Ps[i], "k=3", 1000, "shifts=2"));
    }
}

static void test_gap(void) {
    static const uint32_t Ps[] = {31, 100};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++) {
        oc_report *rep = checked("star", Ps[i], "k=3", 1024, NULL);
        oc_physical_bound_info pb = {0};
        CHECK(rep && oc_report_physical_bound(rep, &pb) == 1 &&
                  oc_report_time(rep) <= 1.15 * pb.time_s,
              "kshift star P=%u k=3 1 KiB: %.6g, the bound %.6g", Ps[i],
              rep ? oc_report_time(rep) : 0, pb.time_s);
        oc_report_free(rep);
        char why[512] = "";
        int err = 0;
        oc_report *mine = a2a("fabric", "kshift", Ps[i], "", 1024, NULL, 0, &err, why, sizeof why);
        oc_report *pw = a2a("fabric", "pairwise", Ps[i], "", 1024, NULL, 0, &err, why, sizeof why);
        CHECK(mine && pw && oc_report_time(mine) < oc_report_time(pw) / 2,
              "kshift fabric P=%u 1 KiB: %.6g, pairwise %.6g", Ps[i],
              mine ? oc_report_time(mine) : 0, pw ? oc_report_time(pw) : 0);
        oc_report_free(mine);
        oc_report_free(pw);
    }
}

static void refused(uint32_t P, const char *params, int want, const char *text) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = a2a("star", "kshift", P, "k=3", 1024, params, 0, &err, why, sizeof why);
    CHECK(err == want && !rep && strstr(why, text) && !strchr(why, '\n'),
          "kshift P=%u %s: %d (%s), wanted %d and \"%s\"", P, params, err, why, want, text);
    oc_report_free(rep);
}

static void test_bad_input(void) {
    refused(12, "shifts=0", OC_ERANGE, "shifts=0");
    refused(7, "shifts=7", OC_EINVAL, "at most P - 1 = 6");
    refused(7, "shift=2", OC_ENOENT, "unknown kshift parameter");
}

int main(void) {
    test_verified();
    test_gap();
    test_bad_input();
    return CHECK_SUMMARY();
}
