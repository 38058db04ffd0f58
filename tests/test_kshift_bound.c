/*
 * test_kshift_bound.c — the kshift all-to-all's search bound on the star (alltoall_kshift.c, its
 * essay: ceil(g_r / k) steps a round, each a tuning and one chunk's messages).
 *
 * On the star with k = 1, 2, 3 and 5 filters, tuning D = 1, 10 and 100 (in L tau), blocks of
 * 1 KiB, 64 KiB and 4 MiB (one to 4096 messages of L = 1 KiB), P = 3, 4, 5, 7, 12, 13, 31 and
 * 64: every shift count g = 1 .. min(P - 1, 64) run pinned, then the search with nothing pinned.
 * Every candidate the search logs, mapped or pruned, must have a bound (time and steps) at most
 * the cost of that g run pinned: a bound one step a round too many, or a step charged a message
 * more, fails here (it would prune the best g). The search's answer must be the best pinned run
 * (least time, then fewest steps, then the smaller g: the simpler choice). And the bound must
 * prune: over the grid, more candidates pruned than mapped (the old bound, rounds x D, pruned
 * none at P = 64). The same on the photonic fabric (the bound of every pass: alpha, a
 * reconfiguration and a chunk over floor(W / k) lanes), with mzi_split=0 (g above the MZI degree
 * refused) and mzi_split=1 (passes of D circuits), degrees 1, 3 and 5, 16 and 7 wavelengths,
 * servers of 4 tiles with one fibre between two (circuits sharing a fibre's lanes) and the
 * default 32; a bound one reconfiguration a round too many, or a pass charged a lane too few,
 * fails here.
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

enum { MOST_SHIFTS = 64 };

typedef struct pinned {
    double time;
    uint64_t steps;
} pinned;

/* A run pinned to `param` (NULL: searched); with `refused`, a refusal by the network's
 * resources is no failure (NULL back, *refused set). */
static oc_report *run(const char *network, uint32_t P, uint64_t bytes, const char *param,
                      const char *net, int *refused) {
    char why[512];
    int err;
    oc_report *rep = run_words(network, OC_ALLTOALL, "kshift", P, bytes, param, net, 0, &err, why,
                               sizeof why);
    if (refused && err == OC_ERESOURCE) {
        *refused = 1;
        oc_report_free(rep);
        return NULL;
    }
    CHECK(err == 0 && rep, "kshift %s P=%u %llu B %s %s: %s", network, P,
          (unsigned long long)bytes, param ? param : "(searched)", net, why);
    return err ? NULL : rep;
}

static size_t mapped_total, pruned_total;

static void check_net(const char *network, uint32_t P, const char *net, uint64_t bytes) {
    const uint64_t most = P - 1 < MOST_SHIFTS ? P - 1 : MOST_SHIFTS;
    pinned cost[MOST_SHIFTS + 1];
    uint64_t best = 0;
    for (uint64_t g = 1; g <= most; g++) {
        char p[32];
        snprintf(p, sizeof p, "shifts=%llu", (unsigned long long)g);
        int refused = 0;
        oc_report *rep = run(network, P, bytes, p, net, &refused);
        cost[g] = (pinned){INFINITY, UINT64_MAX};
        if (refused) continue;
        if (!rep) return;
        cost[g] = (pinned){oc_report_time(rep), oc_report_steps(rep)};
        oc_report_free(rep);
        if (!best || cost[g].time < cost[best].time ||
            (cost[g].time == cost[best].time && cost[g].steps < cost[best].steps))
            best = g;
    }
    oc_report *rep = run(network, P, bytes, NULL, net, NULL);
    if (!rep) return;
    const char *got = oc_report_param(rep, "shifts");
    const uint64_t g_won = got ? strtoull(got, NULL, 10) : 0;
    CHECK(g_won >= 1 && g_won <= most && cost[g_won].time == cost[best].time &&
              cost[g_won].steps == cost[best].steps,
          "P=%u %s %llu B: the search chose shifts=%s (%.9g, %llu steps); the best pinned is "
          "shifts=%llu (%.9g, %llu steps)",
          P, net, (unsigned long long)bytes, got ? got : "-",
          g_won >= 1 && g_won <= most ? cost[g_won].time : -1.0,
          (unsigned long long)(g_won >= 1 && g_won <= most ? cost[g_won].steps : 0),
          (unsigned long long)best, cost[best].time, (unsigned long long)cost[best].steps);
    const oc__search_log *log = rep->search;
    for (size_t i = 0; log && i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
        if (e->status == OC__CAND_MAPPED)
            mapped_total++;
        else
            pruned_total++;
        const uint64_t g =
            strncmp(e->text, "shifts=", 7) == 0 ? strtoull(e->text + 7, NULL, 10) : 0;
        CHECK(g >= 1 && g <= most, "P=%u %s: the logged candidate %s is no shift count", P, net,
              e->text);
        if (g < 1 || g > most) continue;
        CHECK(e->bound_time_s <= cost[g].time * (1 + 1e-12) && e->bound_steps <= cost[g].steps,
              "P=%u %s %llu B: shifts=%llu (%s) bound %.9g, %llu steps above its pinned run "
              "%.9g, %llu steps",
              P, net, (unsigned long long)bytes, (unsigned long long)g,
              e->status == OC__CAND_MAPPED ? "mapped" : "pruned", e->bound_time_s,
              (unsigned long long)e->bound_steps, cost[g].time, (unsigned long long)cost[g].steps);
    }
    oc_report_free(rep);
}

static void check_case(uint32_t P, uint64_t k, double D, uint64_t bytes) {
    char net[96];
    snprintf(net, sizeof net, "k=%llu D=%g L=1024", (unsigned long long)k, D);
    check_net("star", P, net, bytes);
}

int main(void) {
    static const uint32_t Ps[] = {3, 4, 5, 7, 12, 13, 31, 64};
    static const uint64_t ks[] = {1, 2, 3, 5};
    static const double Ds[] = {1, 10, 100};
    static const uint64_t sizes[] = {1024, 64 * 1024, 4 << 20};
    for (size_t a = 0; a < sizeof Ps / sizeof *Ps; a++)
        for (size_t b = 0; b < sizeof ks / sizeof *ks; b++)
            for (size_t c = 0; c < sizeof Ds / sizeof *Ds; c++)
                for (size_t d = 0; d < sizeof sizes / sizeof *sizes; d++)
                    check_case(Ps[a], ks[b], Ds[c], sizes[d]);
    CHECK(pruned_total > mapped_total, "%zu candidates pruned, %zu mapped", pruned_total,
          mapped_total);
    /* the fabric: refused candidates (g above the degree, unsplit) are neither */
    static const char *const fabrics[] = {
        "mzi_split=0 mzi_degree=3",
        "mzi_split=1 mzi_degree=3",
        "mzi_split=1 mzi_degree=1",
        "mzi_split=1 mzi_degree=5 wavelengths_per_tile=7",
        "mzi_split=1 mzi_degree=3 tiles_per_server=4 fibres_between_servers=1",
        "mzi_split=0 mzi_degree=0 tiles_per_server=4 fibres_between_servers=1",
    };
    static const uint32_t fabric_Ps[] = {3, 4, 5, 7, 12, 13, 31, 64};
    static const uint64_t fabric_sizes[] = {1024, 4 << 20};
    mapped_total = pruned_total = 0;
    for (size_t a = 0; a < sizeof fabric_Ps / sizeof *fabric_Ps; a++)
        for (size_t b = 0; b < sizeof fabrics / sizeof *fabrics; b++)
            for (size_t d = 0; d < sizeof fabric_sizes / sizeof *fabric_sizes; d++)
                check_net("fabric", fabric_Ps[a], fabrics[b], fabric_sizes[d]);
    CHECK(pruned_total > mapped_total, "fabric: %zu candidates pruned, %zu mapped", pruned_total,
          mapped_total);
    return CHECK_SUMMARY();
}
