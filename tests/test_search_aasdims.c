/*
 * test_search_aasdims.c — the dims searches of the all-to-all algorithms bex, cartesian and qex
 * under the search contract: where dims is not pinned, the default must be the best mapped time
 * (ties: fewer steps) over every shape the user could pin.
 *
 * The test enumerates the shapes itself through oc_run with dims pinned, not through the
 * algorithms' search code: bex every 2^a x 2^b = N (N = 2..64) on meshes of every 2-D shape of N
 * (and the 1-D mesh), store-and-forward and wormhole, combining or not, and on the switch;
 * cartesian every A x B = N (N = 2..36) on the torus of every shape (and the default 1-D torus),
 * store-and-forward and wormhole; qex has one shape, sqrt(N) x sqrt(N), which must be the default,
 * and any other pin is refused naming it. Every mapped candidate's bound must be below its
 * mapped cost. Then the issue's case: bex on a non-square mesh given only by --net dims.
 */
#include "search_cases.h"

#include <stdlib.h>

/* net: "dims=8x2 switching=wh ..." (space-separated key=value pairs) */
static cost run(const char *algo, const char *network, uint32_t N, const char *dims,
                const char *net, oc_report **keep, char *why, size_t len) {
    oc_kv *par = oc_kv_new(), *np = oc_kv_new();
    kv_words(np, net);
    if (dims) oc_kv_set(par, "dims", dims);
    oc_request req = {.collective = OC_ALLTOALL,
                      .algorithm = algo,
                      .network = network,
                      .nodes = N,
                      .bytes = 256,
                      .params = par,
                      .net_params = np,
                      .skip_data_check = 1,
                      .explain = 1};
    cost c = cost_of(&req, keep, why, len);
    oc_kv_free(par);
    oc_kv_free(np);
    return c;
}

static int better(cost a, cost b) {
    if (!b.ok) return a.ok;
    if (!a.ok) return 0;
    if (!same_time(a.time, b.time)) return a.time < b.time;
    return a.steps < b.steps;
}

/* The default against every shape in dims[0..n); at least one must map. */
static void against(const char *algo, const char *network, uint32_t N, char dims[][24], size_t n,
                    const char *net) {
    char why[512], what[200], best_dims[24] = "";
    cost best = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        cost c = run(algo, network, N, dims[i], net, NULL, why, sizeof why);
        if (better(c, best)) {
            best = c;
            snprintf(best_dims, sizeof best_dims, "%s", dims[i]);
        }
    }
    snprintf(what, sizeof what, "%s on %s N=%u %s", algo, network, N, net);
    oc_report *rep = NULL;
    cost d = run(algo, network, N, NULL, net, &rep, why, sizeof why);
    if (!best.ok) { /* nothing maps (e.g. store-and-forward everywhere): the default fails too */
        CHECK(!d.ok, "%s: the default maps where no pinned dims does", what);
        oc_report_free(rep);
        return;
    }
    CHECK(d.ok, "%s: the default failed: %s", what, why);
    if (d.ok) {
        CHECK(same_time(d.time, best.time) && d.steps <= best.steps,
              "%s: default dims=%s %.9g s %llu steps; best pinned dims=%s %.9g s %llu steps", what,
              oc_report_param(rep, "dims"), d.time, (unsigned long long)d.steps, best_dims,
              best.time, (unsigned long long)best.steps);
        check_bounds(rep, what);
    }
    oc_report_free(rep);
}

/* Every ordered A x B = N (pow2: powers of two only). */
static size_t shapes(uint32_t N, int pow2, char out[][24]) {
    size_t n = 0;
    for (uint32_t A = 1; A <= N; A++)
        if (N % A == 0 && (!pow2 || (A & (A - 1)) == 0))
            snprintf(out[n++], 24, "%ux%u", A, N / A);
    return n;
}

static void bex_grid(void) {
    static const char *const modes[] = {"switching=sf", "switching=wh",
                                        "switching=wh combining=no", "switching=wh ports=all",
                                        "switching=sf duplex=half"};
    char dims[64][24], net[160];
    for (uint32_t N = 2; N <= 64; N *= 2) {
        size_t n = shapes(N, 1, dims);
        for (size_t k = 0; k < n; k++) /* the mesh's own shape */
            for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
                snprintf(net, sizeof net, "dims=%.23s %s", dims[k], modes[m]);
                against("bex", "mesh", N, dims, n, net);
            }
        against("bex", "mesh", N, dims, n, "switching=wh"); /* the mesh's default shape */
        against("bex", "switch", N, dims, n, "");
    }
}

static void cartesian_grid(void) {
    static const char *const modes[] = {"switching=sf", "switching=wh", "switching=wh combining=no"};
    char dims[64][24], net[160];
    for (uint32_t N = 2; N <= 36; N++) {
        size_t n = shapes(N, 0, dims);
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
            against("cartesian", "torus", N, dims, n, modes[m]); /* the default 1-D torus */
            for (size_t k = 0; k < n; k++) {
                snprintf(net, sizeof net, "dims=%.23s %s", dims[k], modes[m]);
                against("cartesian", "torus", N, dims, n, net);
            }
        }
    }
}

static void qex_grid(void) {
    char why[512];
    for (uint32_t s = 2; s <= 8; s *= 2) {
        const uint32_t N = s * s;
        char only[1][24], bad[24];
        snprintf(only[0], 24, "%ux%u", s, s);
        against("qex", "mesh", N, only, 1, "switching=wh");
        against("qex", "switch", N, only, 1, "");
        snprintf(bad, sizeof bad, "%ux%u", 2 * s, s / 2);
        cost c = run("qex", "mesh", N, bad, "switching=wh", NULL, why, sizeof why);
        CHECK(!c.ok && strstr(why, only[0]) && !strchr(why, '\n'),
              "qex N=%u dims=%s: expected one line naming %s, got '%s'", N, bad, only[0], why);
    }
}

/* Bad pins name the valid shapes. */
static void bad_pins(void) {
    char why[512];
    cost c = run("bex", "mesh", 16, "3x5", "switching=wh", NULL, why, sizeof why);
    CHECK(!c.ok && strstr(why, "16x1") && strstr(why, "4x4"), "bex dims=3x5: '%s'", why);
    c = run("bex", "mesh", 16, "8x4", "switching=wh", NULL, why, sizeof why);
    CHECK(!c.ok && strstr(why, "2x8"), "bex dims=8x4: '%s'", why);
    c = run("cartesian", "torus", 12, "5x2", "switching=wh", NULL, why, sizeof why);
    CHECK(!c.ok && strstr(why, "4x3") && strstr(why, "1x12"), "cartesian dims=5x2: '%s'", why);
}

/* The issue: bex with only --net dims non-square took the squarest -p dims (28-32% slower). */
static void issue_case(void) {
    char why[512];
    static const char *const nets[] = {"dims=16x4 switching=wh", "dims=32x2 switching=wh",
                                       "dims=64x16 switching=wh"};
    static const char *const own[] = {"16x4", "32x2", "64x16"};
    static const uint32_t Ns[] = {64, 64, 1024};
    for (int i = 0; i < 3; i++) {
        oc_report *rep = NULL;
        cost d = run("bex", "mesh", Ns[i], NULL, nets[i], &rep, why, sizeof why);
        cost o = run("bex", "mesh", Ns[i], own[i], nets[i], NULL, why, sizeof why);
        CHECK(d.ok && o.ok && !better(o, d), "bex N=%u %s: default %s %.9g s against dims=%s %.9g s",
              Ns[i], nets[i], d.ok ? oc_report_param(rep, "dims") : "?", d.time, own[i], o.time);
        oc_report_free(rep);
    }
}

/* pipeline's directions (1 or 2) on the 1-D torus, under every port and duplex setting: the
 * default must equal the better pinned run (the test pins both through oc_run itself). */
static void pipeline_grid(void) {
    static const char *const nets[] = {"", "ports=all", "duplex=half", "ports=all duplex=full",
                                       "switching=wh", "switching=wh ports=all"};
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++)
        for (uint32_t N = 1; N <= 24; N++) {
            char net[96], why[512], what[160];
            snprintf(net, sizeof net, "dims=%u %s", N, nets[ni]);
            oc_kv *np = oc_kv_new();
            kv_words(np, net);
            cost best = {0, 0, 0};
            const char *best_dir = "";
            static const char *const dirs[] = {"1", "2"};
            for (size_t d = 0; d < 2; d++) {
                oc_kv *par = oc_kv_new();
                oc_kv_set(par, "directions", dirs[d]);
                oc_request req = {.collective = OC_ALLTOALL,
                                  .algorithm = "pipeline",
                                  .network = "torus",
                                  .nodes = N,
                                  .bytes = 256,
                                  .params = par,
                                  .net_params = np,
                                  .skip_data_check = 1};
                cost c = cost_of(&req, NULL, why, sizeof why);
                if (better(c, best)) {
                    best = c;
                    best_dir = dirs[d];
                }
                oc_kv_free(par);
            }
            oc_request req = {.collective = OC_ALLTOALL,
                              .algorithm = "pipeline",
                              .network = "torus",
                              .nodes = N,
                              .bytes = 256,
                              .net_params = np,
                              .skip_data_check = 1};
            cost d = cost_of(&req, NULL, why, sizeof why);
            snprintf(what, sizeof what, "pipeline on torus N=%u %s", N, net);
            CHECK(d.ok == best.ok, "%s: the default %s where the best pin %s", what,
                  d.ok ? "maps" : "fails", best.ok ? "maps" : "fails");
            if (d.ok && best.ok)
                CHECK(same_time(d.time, best.time) && d.steps <= best.steps,
                      "%s: default %.9g s %llu steps; directions=%s %.9g s %llu steps", what,
                      d.time, (unsigned long long)d.steps, best_dir, best.time,
                      (unsigned long long)best.steps);
            oc_kv_free(np);
        }
}

int main(void) {
    bex_grid();
    cartesian_grid();
    qex_grid();
    bad_pins();
    issue_case();
    pipeline_grid();
    return CHECK_SUMMARY();
}
