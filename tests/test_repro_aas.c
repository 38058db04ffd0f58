/*
 * test_repro_aas.c — `reproduce aas` through the C API: the claims table of the
 * all-to-all-scatter notes and the settings -n and -t.
 *
 *  - Without settings: 8 claims, each paper value the notes' printed number or the notes' formula
 *    at the experiment's size (recomputed here), each ours from a verified run (recomputed here
 *    through oc_run for the ratios), and each reason that states a number states the one that
 *    makes it true (the test recomputes it and finds it in the text).
 *  - -n: the experiments move to N (Q_4, T(16), M(4,4), T(4,4) at N = 16; only the 1-D torus at a
 *    prime N = 7), and ours changes with it (computed, not copied); -t keeps one network's
 *    experiments; a network the notes do not treat and -n 1 are refused with a reason.
 */
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static oc_figures *collect(uint32_t nodes, const char *network, char *why, size_t len) {
    oc_reproduce_settings set = {.nodes = nodes, .network = network};
    FILE *f = fopen("/dev/null", "w");
    oc_figures *figs = NULL;
    int rc = oc_reproduce_collect("aas", &set, f, &figs, why, len);
    fclose(f);
    return rc ? NULL : figs;
}

static int find(const oc_figures *figs, const char *part, oc_claim_info *out) {
    for (size_t i = 0; i < oc_figures_claim_count(figs); i++)
        if (oc_figures_claim_get(figs, i, out) == 0 && strstr(out->claim, part)) return 1;
    return 0;
}

/* the time of one run of the notes' machine (ts 1 us, tm 1 ns, td 0.05 us, mu 1 KiB) */
static double run_time(const char *algo, const char *network, uint32_t N, const char *param,
                       const char *net, const char *fig, double *figure) {
    oc_kv *par = oc_kv_new(), *np = oc_kv_new();
    char buf[200], why[256], *save = NULL;
    if (param) oc_kv_set_pair(par, param);
    snprintf(buf, sizeof buf, "ts_us=1 tm_ns=1 td_us=0.05 %s", net);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        oc_kv_set_pair(np, t);
    oc_request req = {.collective = OC_ALLTOALL,
                      .algorithm = algo,
                      .network = network,
                      .nodes = N,
                      .bytes = 1024,
                      .params = par,
                      .net_params = np,
                      .skip_data_check = 1};
    oc_report *rep = NULL;
    double t = NAN;
    if (oc_run(&req, &rep, why, sizeof why) == 0) {
        t = oc_report_time(rep);
        if (fig) oc_report_number(rep, fig, figure);
    }
    oc_report_free(rep);
    oc_kv_free(par);
    oc_kv_free(np);
    return t;
}

static int close_to(double a, double b) {
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* The claims at the notes' default sizes (z = 9, Q_5, M(8,8), T(4,4)) or at N. */
static void claims_at(uint32_t N) {
    char why[512], num[64];
    oc_figures *figs = collect(N, NULL, why, sizeof why);
    CHECK(figs, "reproduce aas -n %u: %s", N, why);
    if (!figs) return;
    const uint32_t z = N ? N : 9, n = N ? 4 : 5, q = 4, m = N ? 4 : 8;
    /* the eight of the notes' sections, then the cycle's Lemma and the M(4t,4t) interleaving */
    CHECK(oc_figures_claim_count(figs) == 10, "N=%u: %zu claims", N, oc_figures_claim_count(figs));
    oc_claim_info c;
    CHECK(find(figs, "oriented T(z)", &c) && c.paper == z - 1 && c.ours == z - 1,
          "N=%u pipeline rounds: paper %g ours %g", N, c.paper, c.ours);
    const double half = run_time("pipeline", "torus", z, "directions=1", "duplex=half", NULL, 0),
                 all = run_time("pipeline", "torus", z, "directions=2", "ports=all", NULL, 0);
    snprintf(num, sizeof num, "= %.4g", half / all);
    CHECK(find(figs, "one half", &c) && c.paper == 2 && close_to(c.ours, half / all) &&
              strstr(c.reason, num),
          "N=%u all-port: ours %g want %g, reason '%s' must state '%s'", N, c.ours, half / all,
          c.reason, num);
    const double Nq = (double)(1u << n), bound = 1024e-9 * (Nq - 1) / 2;
    double tm = NAN;
    run_time("sex", "hypercube", 1u << n, NULL, "", "time_tm_s", &tm);
    snprintf(num, sizeof num, "= %.6g", n * Nq / (Nq - 1));
    CHECK(find(figs, "n times less", &c) && c.paper == n && close_to(c.ours, tm / bound) &&
              close_to(c.ours, n * Nq / (Nq - 1)) && strstr(c.reason, num),
          "N=%u WH bound: ours %g, reason '%s' must state '%s'", N, c.ours, c.reason, num);
    const double dex = run_time("dex", "hypercube", 1u << n, NULL, "switching=wh combining=no",
                                "time_tm_s", &tm);
    snprintf(num, sizeof num, "is %.4g x the bound", tm / bound);
    CHECK(find(figs, "twice", &c) && c.paper == 2 && close_to(c.ours, dex / bound) &&
              strstr(c.reason, num) && close_to(tm / bound, 2),
          "N=%u DEX: ours %g want %g, reason '%s' must state '%s'", N, c.ours, dex / bound,
          c.reason, num);
    /* two readings: the mu tm part is 2x the bound, the whole latency more */
    const size_t dex_hit = (size_t)(tm / bound <= 2 + 1e-9) + (size_t)(dex / bound <= 2 + 1e-9);
    CHECK(c.hit == dex_hit && c.of == 2 && !strcmp(c.verdict, dex_hit == 1 ? "partly" : "holds"),
          "N=%u DEX twice: %s (%zu of %zu), recomputed %zu of 2", N, c.verdict, c.hit, c.of,
          dex_hit);
    /* the cycle's Lemma against our micro-permutation rounds, recomputed from runs of our own */
    const uint32_t zs[3] = {8, 12, 16}, nz = N ? 1 : 3;
    size_t lem_hit = 0;
    for (uint32_t i = 0; i < nz; i++) {
        const uint32_t zz = N ? N : zs[i];
        double rounds = NAN;
        run_time("dex-micro", "torus", zz, NULL, "switching=wh combining=no", "micro_rounds",
                 &rounds);
        const double hh = ceil(zz / 2.0), lemma = hh * hh / 2;
        lem_hit += rounds <= lemma;
        snprintf(num, sizeof num, "T(%u) %g against %g", zz, rounds, lemma);
        CHECK(find(figs, "cycle", &c) && strstr(c.reason, num), "N=%u: '%s' in '%s'", N, num,
              c.reason);
    }
    CHECK(find(figs, "cycle", &c) && c.hit == lem_hit && c.of == nz,
          "N=%u cycle Lemma: %s (%zu of %zu), recomputed %zu of %u", N, c.verdict, c.hit, c.of,
          lem_hit, nz);
    CHECK(find(figs, "interleave", &c) && c.hit == 0 && !strcmp(c.verdict, "does not hold") &&
              c.ours > c.paper,
          "N=%u interleaving: %s, %g rounds against the step bound %g", N, c.verdict, c.ours,
          c.paper);
    CHECK(find(figs, "SEX in Q_n", &c) && c.paper == n && c.ours == n, "N=%u SEX: %g %g", N,
          c.paper, c.ours);
    CHECK(find(figs, "2^(n-1)", &c) && c.paper == Nq / 2 && c.ours == Nq / 2,
          "N=%u hypercube-opt: %g %g", N, c.paper, c.ours);
    CHECK(find(figs, "congestion", &c) && c.paper == m / 2.0 && c.ours == m / 2.0,
          "N=%u DEX mesh: %g %g", N, c.paper, c.ours);
    CHECK(find(figs, "T(z,z)", &c) && c.paper == 2 * (q - 1) && c.ours == 2 * (q - 1),
          "N=%u cartesian: %g %g", N, c.paper, c.ours);
    oc_figures_free(figs);
}

static void settings(void) {
    char why[512];
    oc_claim_info c;
    oc_figures *figs = collect(7, NULL, why, sizeof why); /* prime: the 1-D torus only */
    CHECK(figs && oc_figures_claim_count(figs) == 3 && find(figs, "oriented", &c) &&
              c.paper == 6 && c.ours == 6,
          "-n 7: %s", figs ? "claims" : why);
    oc_figures_free(figs);
    figs = collect(0, "hypercube", why, sizeof why);
    CHECK(figs && oc_figures_claim_count(figs) == 4 && !find(figs, "oriented", &c),
          "-t hypercube: %s", figs ? "claims" : why);
    oc_figures_free(figs);
    figs = collect(0, "ring", why, sizeof why);
    CHECK(!figs && strstr(why, "hypercube, torus or mesh"), "-t ring: '%s'", why);
    oc_figures_free(figs);
    figs = collect(1, NULL, why, sizeof why);
    CHECK(!figs && strstr(why, "-n 1"), "-n 1: '%s'", why);
    oc_figures_free(figs);
    /* the table follows -t: only torus rows */
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    oc_reproduce_settings set = {.network = "torus", .nodes = 12};
    int rc = oc_reproduce_with("aas", &set, f, why, sizeof why);
    fclose(f);
    CHECK(rc == 0 && strstr(buf, "pipeline T(12)") && !strstr(buf, "SEX Q_") &&
              !strstr(buf, "pipeline T(5)"),
          "-t torus -n 12: rc %d %s", rc, rc ? why : "table");
    free(buf);
}

int main(void) {
    claims_at(0);
    claims_at(16);
    settings();
    return CHECK_SUMMARY();
}
