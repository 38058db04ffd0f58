/*
 * test_ktrees.c — the pipelined broadcast down c fixed trees of the passive optical star
 * (src/algo/broadcast_ktrees.c).
 *
 *  (a) verified with real data at P = 1, 2, 3, 5, 7, 12, 100 and 1000 (roots 0 and P - 1) on
 *      the star (k = 1, 3 and 4; D = 100 and 1), searched and pinned, 1 KiB and 65539 bytes;
 *      every run at or above the physical bound, and every round one step (c, d <= k: a round
 *      that gives a processor more than k streams would be split);
 *  (b) the filters tune once each: pinned at c = d = 3 with pieces a multiple of 3, the run pays
 *      exactly H tuning steps (H the heap's depth: 5 at P = 100), as its essay says;
 *  (c) the search's bound: at P = 5, 7, 12, 13 and 31 (k = 3, D = 100, 1 KiB), every logged
 *      candidate, mapped or pruned, has a bound at most its own run pinned, and no such pinned
 *      run is below the physical bound;
 *  (d) the gap it closes (k = 3, D = 100, 1 KiB, L = 1 byte): within 1.2x of the physical bound at
 *      P = 100 and 31 (the best before, ktree and TCP1-split, 1.9 and 2.1x), within 1.01x at
 *      1 MiB;
 *  (e) bad input: trees above the forwarding processors, pieces not a multiple of trees, an
 *      unknown parameter.
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

static oc_report *bc(uint32_t P, const char *np, uint64_t bytes, const char *params, int data,
                     int *err, char *why, size_t len) {
    return run_words("star", OC_BROADCAST, "ktrees", P, bytes, params, np, data, err, why, len);
}

static oc_report *checked(uint32_t P, const char *np, uint64_t bytes, const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = bc(P, np, bytes, params, 1, &err, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
          "ktrees P=%u %s %s: %s", P, np, params ? params : "(searched)",
          err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    CHECK(oc_report_steps(rep) == oc_report_rounds(rep),
          "ktrees P=%u %s %s: %llu steps for %llu rounds", P, np, params ? params : "",
          (unsigned long long)oc_report_steps(rep), (unsigned long long)oc_report_rounds(rep));
    oc_physical_bound_info pb = {0};
    CHECK(oc_report_physical_bound(rep, &pb) == 1 && oc_report_steps(rep) >= pb.steps &&
              oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
          "ktrees P=%u %s %s: %.9g, %llu steps below the physical bound %.9g, %llu", P, np,
          params ? params : "", oc_report_time(rep), (unsigned long long)oc_report_steps(rep),
          pb.time_s, (unsigned long long)pb.steps);
    return rep;
}

/* A run with root P - 1 (the others use root 0): the positions wrap round the root. */
static void rooted(uint32_t P) {
    char why[512] = "";
    oc_kv *nkv = oc_kv_new();
    kv_add_words(nkv, "k=4 D=1", " ");
    oc_report *rep = NULL;
    oc_request req = {.collective = OC_BROADCAST,
                      .algorithm = "ktrees",
                      .network = "star",
                      .nodes = P,
                      .root = P - 1,
                      .bytes = 65539,
                      .net_params = nkv};
    const int err = oc_run(&req, &rep, why, sizeof why);
    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_steps(rep) == oc_report_rounds(rep),
          "ktrees P=%u root=%u k=4: %s", P, P - 1, err ? why : "not verified or split");
    oc_report_free(rep);
    oc_kv_free(nkv);
}

static void test_verified(void) {
    static const uint32_t Ps[] = {1, 2, 3, 5, 7, 12, 100, 1000};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++) {
        oc_report_free(checked(Ps[i], "k=3 D=100", 1024, NULL));
        oc_report_free(checked(Ps[i], "k=1 D=1", 1024, NULL));
        if (Ps[i] <= 100) oc_report_free(checked(Ps[i], "k=3 D=1", 65539, NULL));
        rooted(Ps[i]);
    }
    static const uint32_t pinned[] = {5, 12, 100};
    for (size_t i = 0; i < sizeof pinned / sizeof *pinned; i++) {
        oc_report_free(checked(pinned[i], "k=3 D=100", 1024, "trees=1 degree=2 pieces=7"));
        oc_report_free(checked(pinned[i], "k=3 D=100", 1024, "trees=2 degree=3 pieces=64"));
    }
}

static void test_tunings(void) {
    /* P = 100: 99 places, d = 3: depths 1 (1), 2 (3), 3 (9), 4 (27), 5 (59): H = 5 */
    static const struct {
        uint32_t P, H;
    } cases[] = {{100, 5}, {31, 4}, {5, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oc_report *rep = checked(cases[i].P, "k=3 D=100", 1024, "trees=3 degree=3 pieces=300");
        double crit = -1;
        CHECK(rep && oc_report_number(rep, "tuning_cost_critical_path", &crit) == 1 &&
                  crit == 100.0 * cases[i].H && oc_report_rounds(rep) == 100 + cases[i].H - 1,
              "ktrees P=%u trees=3 degree=3 pieces=300: tuning on the critical path %g (wanted "
              "%u D), %llu rounds",
              cases[i].P, crit, cases[i].H, rep ? (unsigned long long)oc_report_rounds(rep) : 0);
        oc_report_free(rep);
    }
}

static void test_search_bound(void) {
    static const uint32_t Ps[] = {5, 7, 12, 13, 31};
    size_t seen = 0;
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++) {
        char why[512] = "";
        int err = 0;
        oc_report *rep = bc(Ps[i], "k=3 D=100", 1024, NULL, 0, &err, why, sizeof why);
        CHECK(err == 0 && rep, "ktrees P=%u searched: %s", Ps[i], why);
        if (!rep) continue;
        const oc__search_log *log = rep->search;
        for (size_t k = 0; log && k < log->n; k++) {
            const oc__search_entry *e = &log->entry[k];
            if (e->status != OC__CAND_MAPPED && e->status != OC__CAND_PRUNED) continue;
            oc_report *one = bc(Ps[i], "k=3 D=100", 1024, e->text, 0, &err, why, sizeof why);
            CHECK(err == 0 && one, "ktrees P=%u %s pinned: %s", Ps[i], e->text, why);
            if (!one) continue;
            seen++;
            oc_physical_bound_info pb = {0};
            CHECK(oc_report_physical_bound(one, &pb) == 1 &&
                      oc_report_time(one) >= pb.time_s * (1 - 1e-12) &&
                      oc_report_steps(one) >= pb.steps,
                  "ktrees P=%u %s: %.9g below the physical bound %.9g", Ps[i], e->text,
                  oc_report_time(one), pb.time_s);
            CHECK(e->bound_time_s <= oc_report_time(one) * (1 + 1e-12) &&
                      e->bound_steps <= oc_report_steps(one),
                  "ktrees P=%u %s (%s): bound %.9g, %llu steps above its run %.9g, %llu", Ps[i],
                  e->text, e->status == OC__CAND_MAPPED ? "mapped" : "pruned", e->bound_time_s,
                  (unsigned long long)e->bound_steps, oc_report_time(one),
                  (unsigned long long)oc_report_steps(one));
            oc_report_free(one);
        }
        oc_report_free(rep);
    }
    CHECK(seen > 50, "only %zu candidates checked", seen);
}

static void test_gap(void) {
    static const struct {
        uint32_t P;
        uint64_t bytes;
        double within;
    } cases[] = {{100, 1024, 1.2}, {31, 1024, 1.2}, {100, 1 << 20, 1.01}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oc_report *rep = checked(cases[i].P, "k=3 D=100", cases[i].bytes, NULL);
        oc_physical_bound_info pb = {0};
        CHECK(rep && oc_report_physical_bound(rep, &pb) == 1 &&
                  oc_report_time(rep) <= cases[i].within * pb.time_s,
              "ktrees P=%u %llu B: %.9g, the bound %.9g (wanted within %.2fx)", cases[i].P,
              (unsigned long long)cases[i].bytes, rep ? oc_report_time(rep) : 0, pb.time_s,
              cases[i].within);
        oc_report_free(rep);
    }
}

static void refused(uint32_t P, const char *params, int want, const char *text) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = bc(P, "k=3", 1024, params, 0, &err, why, sizeof why);
    CHECK(err == want && !rep && strstr(why, text) && !strchr(why, '\n'),
          "ktrees P=%u %s: %d (%s), wanted %d and \"%s\"", P, params, err, why, want, text);
    oc_report_free(rep);
}

static void test_bad_input(void) {
    /* P = 12: 11 places, d = 3: 4 forwarding places a tree, 3 trees need 12 */
    refused(12, "trees=3 degree=3 pieces=3", OC_EINVAL, "pass the P - 1 = 11");
    refused(12, "trees=2 degree=3 pieces=5", OC_EINVAL, "a multiple of trees=2");
    refused(12, "tree=2", OC_ENOENT, "unknown ktrees parameter");
}

int main(void) {
    test_verified();
    test_tunings();
    test_search_bound();
    test_gap();
    test_bad_input();
    return CHECK_SUMMARY();
}
