/*
 * test_dbtree_split.c — dbtree's search on the fabric with mzi_split=1 (rounds above the MZI
 * degree run in passes) prunes by a bound proven for split rounds (allreduce_dbtree.c,
 * split_bound: rounds x alpha + busy x chunk at the tile's full rate), and stays exact.
 *
 * For each case the search's log is read: every pipeline it bounded (mapped, or pruned without
 * being mapped) up to pipeline 40, and the first pipelines of every family it pruned, are run
 * pinned; each bound must be at most the pinned run's time and steps, and the search's choice
 * no slower than any of them. N = 2, 3, 5, 7, 12, 24, 31, 64, 97, 100; MZI degree 1 and 3 (every
 * round split at degree 1), 2 with 7 wavelengths, 4 with servers of 4 tiles and one fibre between
 * two; 64 B, 4 KiB and 1 MiB. A bound taken from the unsplit closed form (each circuit at
 * floor(W / d) wavelengths for all d at once) fails here: a pass gives its circuits more; so
 * does the passes' bound with a reconfiguration charged to every pass (the pass after a whole
 * round that holds a part of it pays none) or every pass's payload 1 % above its lanes' share.
 */
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* The pinned run of pipeline C: its time and steps; 0 when it ran. */
static int pinned(uint32_t N, uint64_t bytes, const char *net, uint64_t C, double *t,
                  uint64_t *steps) {
    char why[512] = "", pin[48];
    snprintf(pin, sizeof pin, "pipeline=%llu", (unsigned long long)C);
    int err;
    oc_report *rep =
        run_words("fabric", OC_ALLREDUCE, "dbtree", N, bytes, pin, net, 0, &err, why, sizeof why);
    if (!err) {
        *t = oc_report_time(rep);
        *steps = oc_report_steps(rep);
    }
    oc_report_free(rep);
    return err;
}

static void check_against(uint32_t N, uint64_t bytes, const char *net, uint64_t C, double bound_t,
                          uint64_t bound_steps, double best, const char *what) {
    double t = 0;
    uint64_t steps = 0;
    if (pinned(N, bytes, net, C, &t, &steps)) return; /* refused pinned: nothing to compare */
    CHECK(bound_t <= t * (1 + 1e-9) && bound_steps <= steps,
          "N=%u %llu B %s: %s bound %.9g s %llu steps above pipeline=%llu's %.9g s %llu steps", N,
          (unsigned long long)bytes, net, what, bound_t, (unsigned long long)bound_steps,
          (unsigned long long)C, t, (unsigned long long)steps);
    CHECK(best <= t * (1 + 1e-9), "N=%u %llu B %s: the search's %.9g s above pipeline=%llu's %.9g",
          N, (unsigned long long)bytes, net, best, (unsigned long long)C, t);
}

static void one(uint32_t N, uint64_t bytes, const char *net) {
    char why[512] = "";
    int err;
    oc_report *rep =
        run_words("fabric", OC_ALLREDUCE, "dbtree", N, bytes, NULL, net, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "N=%u %llu B %s: %s", N, (unsigned long long)bytes, net, why);
    if (err || !rep || !rep->search) goto out;
    const double best = oc_report_time(rep);
    const oc__search_log *log = rep->search;
    size_t bounded = 0;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status == OC__CAND_MAPPED || e->status == OC__CAND_PRUNED) {
            const char *v = e->params ? oc_kv_get(e->params, "pipeline") : NULL;
            const uint64_t C = v ? strtoull(v, NULL, 10) : 0;
            if (!C || C > 40) continue;
            if (e->bound_name) bounded++;
            check_against(N, bytes, net, C, e->bound_time_s, e->bound_steps, best, e->text);
        } else if (e->status == OC__CAND_FAMILY && e->bound_name) {
            unsigned long long lo = 0, hi = 0;
            if (sscanf(e->text, "pipeline=%llu..%llu", &lo, &hi) != 2) continue;
            for (uint64_t C = lo; C <= hi && C < lo + 6; C++)
                check_against(N, bytes, net, C, e->bound_time_s, e->bound_steps, best, e->text);
        }
    }
    /* the bounds are used: the search no longer maps every pipeline (N = 2 has few) */
    CHECK(N < 5 || bounded > 0, "N=%u %llu B %s: no bounded candidate", N,
          (unsigned long long)bytes, net);
out:
    oc_report_free(rep);
}

int main(void) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 24, 31, 64, 97, 100};
    const uint64_t sizes[] = {64, 4096, 1 << 20};
    const char *nets[] = {"mzi_split=1 mzi_degree=1", "mzi_split=1 mzi_degree=3",
                          "mzi_split=1 mzi_degree=2 wavelengths_per_tile=7",
                          "mzi_split=1 mzi_degree=4 tiles_per_server=4 fibres_between_servers=1"};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
            for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
                one(Ns[i], sizes[j], nets[k]);
    return CHECK_SUMMARY();
}
