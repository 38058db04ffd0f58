/*
 * test_repro_lumorph_fig3.c — `reproduce lumorph`'s Fig. 3: 8 GPUs of Lumorph as
 * SiPAC(2,3) running Flex-SiPCO (sipco), beside Lumorph-2 and -4.
 *   - the "SiPCO on Lumorph" series is computed at the reader's sizes: it equals the test's own
 *     alpha-beta (6 x 0.7 us + one 3.7 us setup + 14 chunks of ceil(n/24) bytes on 5 of 16
 *     wavelengths) at every size, and follows --sizes;
 *   - "SiPAC itself" is that series less the one setup;
 *   - the reason against Lumorph-2 states the 4 reconfigurations (14.8 us) the configuration
 *     saves, and the SiPAC shapes at the reader's -n name their circuits per GPU;
 *   - D&C is said not to be drawn, with the seed's words.
 */
#include "check.h"
#include "repro_out.h"

#include <math.h>

/* The figure "fig3"'s series k at the reader's sizes (n points), or NULL. */
static const double *series(const out *o, size_t k, const double **x, size_t *n) {
    for (size_t i = 0; i < oc_figures_count(o->figs); i++) {
        oc_figure_info fi;
        if (oc_figure_get(o->figs, i, &fi) || strcmp(fi.id, "fig3")) continue;
        const char *nm;
        const double *y;
        if (oc_figure_series_get(o->figs, i, k, &nm, n, x, &y)) return NULL;
        return y;
    }
    return NULL;
}

static void check_at(const char *sizes, uint32_t nodes, size_t expect_n) {
    out o;
    oc_reproduce_settings rs = {.nodes = nodes, .sizes = sizes};
    repro_run(&o, "lumorph", &rs);
    CHECK(o.rc == 0, "--sizes %s: %s", sizes, o.why);
    const double *x, *x2, *y, *yf;
    size_t n = 0, n2 = 0;
    y = series(&o, 0, &x, &n);
    yf = series(&o, 1, &x2, &n2);
    CHECK(y && yf && n == expect_n && n2 == n, "--sizes %s: fig3 with %zu points", sizes, n);
    for (size_t p = 0; y && yf && p < n; p++) {
        const double ab = 6 * 0.7 + 3.7 + 2 * 7 * ceil(x[p] / 24) / (5 * 18.75e9) * 1e6;
        CHECK(fabs(y[p] - ab) < 1e-6 * ab, "SiPCO at %g B: %g us, α-β %g us", x[p], y[p], ab);
        CHECK(fabs(yf[p] - (y[p] - 3.7)) < 1e-9, "SiPAC itself at %g B: %g", x[p], yf[p]);
    }
    CHECK(has(o.text, "4 reconfigurations fewer (-14.8 us)"), "reason vs Lumorph-2");
    CHECK(has(o.text, "D&C, Fig. 4(b)'s other curve, is not drawn"), "D&C");
    if (nodes == 64) {
        /* the split line states the very run's time (mzi_split=1 on the seed's switch) */
        oc_kv *kv = oc_kv_new(), *nkv = oc_kv_new();
        oc_kv_set(nkv, "mzi_split", "1");
        oc_request req = {.collective = OC_ALLREDUCE,
                          .algorithm = "sipco",
                          .network = "fabric",
                          .nodes = 64,
                          .bytes = 1024,
                          .params = kv,
                          .net_params = nkv,
                          .skip_data_check = 1};
        oc_report *rep = NULL;
        char why[256];
        const int err = oc_run(&req, &rep, why, sizeof why);
        const char *r = rep ? oc_report_param(rep, "r") : "?", *l = rep ? oc_report_param(rep, "l") : "?";
        CHECK(!err && has(o.text, "(mzi_split=1): SiPAC(%s,%s) %.2f us at 1 KiB", r, l,
                          oc_report_time(rep) * 1e6),
              "split line at 64: %s", err ? why : "");
        oc_report_free(rep);
        oc_kv_free(kv);
        oc_kv_free(nkv);
    }
    if (nodes == 64)
        CHECK(has(o.text, "SiPAC at 64 GPUs, circuits per GPU: SiPAC(2,6) 6; SiPAC(4,3) 9; "
                          "SiPAC(8,2) 14; SiPAC(64,1) 63; none within"),
              "shapes at 64");
    if (nodes == 27)
        CHECK(has(o.text, "SiPAC at 27 GPUs, circuits per GPU: SiPAC(3,3) 6; SiPAC(27,1) 26;"),
              "shapes at 27");
    out_free(&o);
}

int main(void) {
    check_at("1KiB,1MiB", 64, 2);
    check_at("4KiB,64KiB,16MiB", 27, 3);
    return CHECK_SUMMARY();
}
