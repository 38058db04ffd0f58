/*
 * test_repro_aas_micro.c — `reproduce aas`'s dex-micro and dex-interleave rows: the
 * notes' schedules for the cycle's direct exchange and its interleaving on the mesh are in
 * figures the text lacks, so the rows say the rounds are ours, and each reason states the round
 * count of the very run (recomputed here through oc_run) against the Lemma's reading or the step
 * bound. Before, the reproduction had no such rows.
 */
#include "core/core.h"
#include "net/net.h"
#include "report/report.h"

#include "check.h"
#include "model_map.h"
#include "repro_out.h"

static double rounds_of(const char *algo, const char *net, uint32_t N, const char *netp) {
    char why[512];
    int err;
    oc_report *rep = run_words(net, OC_ALLTOALL, algo, N, 1024, NULL, netp, 0, &err, why, sizeof why);
    CHECK(!err, "%s N=%u: %s", algo, N, why);
    const double r = rep ? num(rep, "micro_rounds") : NAN;
    oc_report_free(rep);
    return r;
}

static void check(const oc_reproduce_settings *set, const uint32_t *zs, size_t nz,
                  const uint32_t *ms, size_t nm) {
    out o;
    repro_run(&o, "aas", set);
    CHECK(o.rc == 0, "reproduce aas: %s", o.why);
    for (size_t i = 0; i < nz; i++) {
        const double h = ceil(zs[i] / 2.0), r = rounds_of("dex-micro", "torus", zs[i],
                                                        "switching=wh combining=no");
        CHECK(has(o.text, "dex-micro T(%u)", zs[i]) &&
                  has(o.text, "list-scheduled micro-permutations: %g rounds against the Lemma "
                              "read as ceil(z/2)^2/2 = %g (%+.0f%%)",
                      r, h * h / 2, (r / (h * h / 2) - 1) * 100),
              "dex-micro T(%u)", zs[i]);
    }
    for (size_t i = 0; i < nm; i++) {
        char net[96];
        snprintf(net, sizeof net, "dims=%ux%u switching=wh combining=no", ms[i], ms[i]);
        const double r = rounds_of("dex-interleave", "mesh", ms[i] * ms[i], net);
        CHECK(has(o.text, "dex-interleave M(%u,%u)", ms[i], ms[i]) &&
                  has(o.text, "our packing: %g rounds, step bound", r),
              "dex-interleave M(%u,%u)", ms[i], ms[i]);
        CHECK(!(ms[i] % 4) || has(o.text, "z not 4t: outside the notes' case"), "z = %u", ms[i]);
    }
    out_free(&o);
}

int main(void) {
    const oc_reproduce_settings paper = {0}, n36 = {.nodes = 36};
    check(&paper, (const uint32_t[]){8, 12, 16}, 3, (const uint32_t[]){4, 8}, 2);
    check(&n36, (const uint32_t[]){36}, 1, (const uint32_t[]){6}, 1);
    return CHECK_SUMMARY();
}
