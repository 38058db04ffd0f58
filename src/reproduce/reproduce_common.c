/*
 * reproduce_common.c — the cells and reasons every reproduction shares, on top of the text tables
 * (src/report/table.c) and the batch of verified runs (src/run/batch.c).
 */
#include "reproduce/reproduce_common.h"
#include "core/quote.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oc__sim_steps_cell(char *buf, size_t len, const oc__sim *s) {
    if (s->ok)
        oc__cellf(buf, len, "%" PRIu64, s->steps);
    else
        oc__cellf(buf, len, "not simulated: %s", s->note);
}

void oc__reason_mapping(char *buf, size_t len, const oc__sim *s) {
    if (!s->ok || !s->has_lb) return;
    if (s->steps > s->lb)
        oc__reason_add(buf, len,
                       "mapped %" PRIu64 " = %.3f x the heaviest-link load bound %" PRIu64
                       " (circular-arc colouring above the load)",
                       s->steps, (double)s->steps / (double)s->lb, s->lb);
}

void oc__reason_library(char *buf, size_t len, const oc__sim *s, double ours, double exact) {
    if (!s->ok || !s->has_lib_formula || fabs(s->lib_formula - ours) < 0.5) return;
    if (!isnan(exact) && fabs(exact - round(exact)) < 1e-9 && fabs(s->lib_formula - ours - 1) < 0.5)
        oc__reason_add(buf, len,
                       "the library's closed form says %.0f, not %.0f: the formula's value is "
                       "exactly %.0f and the library's ceil() of a pow() result rounds it up once "
                       "more",
                       s->lib_formula, ours, ours);
    else
        oc__reason_add(buf, len, "the library's closed form says %.0f, not %.0f", s->lib_formula,
                       ours);
}

/* ---- a paper's context (struct oc__repro; reproduce.c fills it) -------------------------------
 */

const oc_reproduce_settings *oc__repro_settings(const oc__repro *r) {
    return &r->set;
}

int oc__claim(oc__repro *r, const oc__claim_in *c) {
    return oc__claims_add(&r->claims, c);
}


/* ---- the ring network, as the runs used it ----------------------------------------------------
 */

void oc__print_ring_network(FILE *f, const oc_report *rep, uint64_t block, const char *example) {
    double oeo_ns = strtod(oc__net_param(rep, "oeo_ns_per_flit"), NULL);
    fprintf(
        f,
        "\nNetwork: the ring model, preset %s: a bidirectional WDM ring with %s wavelengths per "
        "fibre\n"
        "  (%s uses the paper's 2) and %s fibre(s) per direction; %s Gb/s per wavelength;\n"
        "  %s us MRR reconfiguration per step; O/E/O %s ns per %s B flit (the paper's \"one "
        "cycle per\n"
        "  flit\" at an assumed %.3g GHz clock); %s B packets.\n",
        oc__net_param(rep, "preset"), oc__net_param(rep, "wavelengths"), example,
        oc__net_param(rep, "fibres"), oc__net_param(rep, "bandwidth_gbps"),
        oc__net_param(rep, "reconfig_us"), oc__net_param(rep, "oeo_ns_per_flit"),
        oc__net_param(rep, "flit_bytes"), oeo_ns > 0 ? 1 / oeo_ns : 0.0,
        oc__net_param(rep, "packet_bytes"));
    double step = 0, reconf = 0, oeo = 0, tx = 0;
    if (oc_report_number(rep, "step_time_s", &step) &&
        oc_report_number(rep, "step_reconfig_s", &reconf) &&
        oc_report_number(rep, "step_oeo_s", &oeo) &&
        oc_report_number(rep, "step_transmission_s", &tx))
        fprintf(f,
                "  One step moves one block of %" PRIu64
                " bytes on every lightpath: %.3f us reconfiguration\n"
                "  + %.3f us O/E/O + %.3f us transmission = %.3f us (the paper's d/B + a).\n",
                block, reconf * 1e6, oeo * 1e6, tx * 1e6, step * 1e6);
}

int oc__repro_sizes(const char *paper, const char *text, uint64_t *out, size_t max, size_t *n,
                    char *why, size_t whylen) {
    int rc = oc_parse_list(text, 1, out, max, n);
    if (rc == OC_ENOMEM) return oc__fail(why, whylen, rc, "out of memory");
    if (rc == OC_ERANGE)
        return oc__fail(why, whylen, OC_EINVAL, "reproduce %s: --sizes %s: at most %zu sizes",
                        paper, OC_Q(text), max);
    if (rc || out[0] == 0)
        return oc__fail(why, whylen, OC_EINVAL,
                        "reproduce %s: --sizes %s: expected sizes of at least 1 byte (e.g. "
                        "4KiB,1MiB or 1MiB..64MiB:*4)",
                        paper, OC_Q(text));
    return 0;
}
