/*
 * test_circ_pool.c — the circulant all-reduce's search offers its candidates least second bound
 * first (src/algo/circulant_search.c, the pool): every bound it logs for a candidate it maps is
 * at most that candidate's cost run pinned; the candidates it maps come in the order of their
 * bounds (a walk by the first bound alone maps a candidate of higher exact load before a lower
 * one, which fails here); and the search's answer costs what the best pinned run of every
 * candidate it mapped costs, and no more. (A candidate pruned by its second bound is logged as
 * a family of one, without its parameters: test_circulant pins every tree and q against the
 * answer.)
 *
 * On the ring at N = 5, 7, 12, 31, 64 and 97, w = 3 and 64, 4 KiB and 1 MiB (the pieces' grid of
 * those sizes), with the real-data check off (the search is the subject).
 */
#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static size_t mapped_total, pruned_total;

static void one(uint32_t N, uint64_t w, uint64_t bytes) {
    char why[512] = "", net[32];
    snprintf(net, sizeof net, "wavelengths=%llu", (unsigned long long)w);
    int err;
    oc_report *rep =
        run_words("ring", OC_ALLREDUCE, "circulant", N, bytes, NULL, net, 0, &err, why, sizeof why);
    CHECK(!err && rep && rep->search, "N=%u w=%llu %llu B: %s", N, (unsigned long long)w,
          (unsigned long long)bytes, why);
    if (err || !rep || !rep->search) {
        oc_report_free(rep);
        return;
    }
    const double best = oc_report_time(rep);
    const uint64_t best_steps = oc_report_steps(rep);
    double least = -1, last_mapped = -1;
    const oc__search_log *log = rep->search;
    for (size_t i = 0; i < log->n; i++) {
        const oc__search_entry *e = &log->entry[i];
        if (e->status == OC__CAND_FAMILY) pruned_total += e->count;
        if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
        if (e->status == OC__CAND_MAPPED) {
            mapped_total++;
            CHECK(e->bound_time_s >= last_mapped * (1 - 1e-12),
                  "N=%u w=%llu %llu B: %s mapped with bound %.9g after one of bound %.9g", N,
                  (unsigned long long)w, (unsigned long long)bytes, e->text, e->bound_time_s,
                  last_mapped);
            last_mapped = e->bound_time_s;
        } else {
            pruned_total++;
        }
        oc_report *pin = run_words("ring", OC_ALLREDUCE, "circulant", N, bytes, e->text, net, 0,
                                   &err, why, sizeof why);
        CHECK(!err && pin, "N=%u w=%llu %llu B: %s pinned: %s", N, (unsigned long long)w,
              (unsigned long long)bytes, e->text, why);
        if (!err && pin) {
            const double t = oc_report_time(pin);
            CHECK(e->bound_time_s <= t * (1 + 1e-9) && e->bound_steps <= oc_report_steps(pin),
                  "N=%u w=%llu %llu B: %s bound %.9g s %llu steps above its pinned run %.9g s "
                  "%llu steps",
                  N, (unsigned long long)w, (unsigned long long)bytes, e->text, e->bound_time_s,
                  (unsigned long long)e->bound_steps, t, (unsigned long long)oc_report_steps(pin));
            CHECK(best <= t * (1 + 1e-9) &&
                      (best < t * (1 - 1e-9) || best_steps <= oc_report_steps(pin)),
                  "N=%u w=%llu %llu B: the search's %.9g s (%llu steps) above %s pinned, %.9g s",
                  N, (unsigned long long)w, (unsigned long long)bytes, best,
                  (unsigned long long)best_steps, e->text, t);
            if (least < 0 || t < least) least = t;
        }
        oc_report_free(pin);
    }
    CHECK(least >= 0 && best <= least * (1 + 1e-9) && best >= least * (1 - 1e-9),
          "N=%u w=%llu %llu B: the search's %.9g s, the best pinned %.9g s", N,
          (unsigned long long)w, (unsigned long long)bytes, best, least);
    oc_report_free(rep);
}

int main(void) {
    static const uint32_t Ns[] = {5, 7, 12, 31, 64, 97};
    static const uint64_t ws[] = {3, 64};
    static const uint64_t sizes[] = {4096, 1 << 20};
    for (size_t a = 0; a < sizeof Ns / sizeof *Ns; a++)
        for (size_t b = 0; b < sizeof ws / sizeof *ws; b++)
            for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++)
                one(Ns[a], ws[b], sizes[c]);
    CHECK(pruned_total > 0 && mapped_total > 0, "%zu mapped, %zu pruned", mapped_total,
          pruned_total);
    return CHECK_SUMMARY();
}
