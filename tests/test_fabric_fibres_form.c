/*
 * test_fabric_fibres_form.c — the fabric's closed form under scarce fibres and split rounds
 *. The closed form ("seed formula") gives every circuit its tile's share of
 * wavelengths; where the fibres between servers are too few the model shares them or adds passes,
 * so the form is then labelled the unshared bound (formula_unshared_bound = 1) and a note states
 * the mapped bandwidth, the form's, and their ratio, recomputed here from the report's own
 * figures; with the default 32 fibres nothing is said. Where mzi_split ran rounds in passes the
 * note says the form counts them unsplit, with the ratio of the times. Before, the form was
 * printed beside the mapped time with no word (rhd radix 2, 256 GPUs, 1 MiB, 4 fibres: 73.7 us
 * against 116.5 us).
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static int has_note(const oc_report *rep, const char *want) {
    for (size_t i = 0; rep && i < rep->nnotes; i++)
        if (strstr(rep->notes[i], want)) return 1;
    printf("  missing note: \"%s\"\n", want);
    return 0;
}

static void fibres(const char *net, int scarce) {
    char why[512], want[256];
    int err;
    oc_report *rep = run_words("fabric", OC_ALLREDUCE, "rhd", 256, 1 << 20, "radix=2", net, 0, &err,
                               why, sizeof why);
    CHECK(!err && rep, "%s: %s", net, why);
    if (!rep) return;
    const double bw = num(rep, "time_bandwidth_s"), fbw = num(rep, "formula_bandwidth_s");
    if (scarce) {
        snprintf(want, sizeof want,
                 "%.0f circuits shared their server pair's fibres and %.0f passes were added, so "
                 "the mapped bandwidth is %.6g us against the form's %.6g us (%.2fx) and the time "
                 "%.2fx the form",
                 num(rep, "fibre_shared_circuits"), num(rep, "fibre_extra_steps"), bw * 1e6,
                 fbw * 1e6, bw / fbw, oc_report_time(rep) / rep->time_formula_s);
        CHECK(num(rep, "formula_unshared_bound") == 1 && has_note(rep, "the unshared bound") &&
                  has_note(rep, want) && oc_report_time(rep) > rep->time_formula_s,
              "%s: labelled", net);
    } else {
        CHECK(isnan(num(rep, "formula_unshared_bound")) && fabs(bw - fbw) < 1e-12,
              "%s: no label where the fibres suffice", net ? net : "default");
    }
    oc_report_free(rep);
}

static void split(void) {
    char why[512], want[256];
    int err;
    oc_report *rep = run_words("fabric", OC_ALLREDUCE, "rhd", 64, 1 << 20, "radix=8",
                               "mzi_split=1", 0, &err, why, sizeof why);
    CHECK(!err && rep, "split: %s", why);
    if (!rep) return;
    snprintf(want, sizeof want,
             "in %.0f more steps, each its own alpha and reconfiguration (mapped %.6g us, the "
             "form %.6g us: %.2fx)",
             num(rep, "mzi_extra_steps"), oc_report_time(rep) * 1e6, rep->time_formula_s * 1e6,
             oc_report_time(rep) / rep->time_formula_s);
    CHECK(has_note(rep, "counts the rounds unsplit") && has_note(rep, want), "split note");
    oc_report_free(rep);
}

int main(void) {
    fibres(NULL, 0);
    fibres("fibres_between_servers=4", 1);
    fibres("fibres_between_servers=1", 1);
    split();
    return CHECK_SUMMARY();
}
