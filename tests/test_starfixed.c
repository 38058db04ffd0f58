/*
 * test_starfixed.c — the star's fixed-digraph schedules (src/algo/star_fixed.c): the gather and
 * the broadcast on a d-ary tree (`ktree`), gossip and the all-to-all on a generalised Kautz or
 * de Bruijn digraph (`kautz`), and the all-to-all's raised bound (src/bounds/bounds_star.c).
 *
 *  (a) verified with real data at P = 1, 2, 3, 5, 7, 9, 12, 31, 100 on three star settings, by
 *      default and pinned (both families, degree 2), every run at or above the physical bound;
 *      every round one step (the degree is at most k), and the filters tuned in the first step
 *      only (gather, gossip, all-to-all: D once on the critical path) or at each depth's first
 *      reception (broadcast: S D, S the tree's height): a schedule that left an arc idle, moved a
 *      sender to another laser, or gave a processor more than k partners is caught here;
 *  (b) where the seed's algorithms left the gap (D = 100, one message, P = 100, k = 3: TCP1's
 *      gather 3.29, TCP2's all-to-all 3.89 and gossip 3.26 times the bound; TCP1-split's
 *      broadcast 2.79 at P = 9, 1 KiB): the gather meets the bound, gossip within 1.2, the
 *      all-to-all within 1.5 of its raised bound, the broadcast within 2.5;
 *  (c) the search: the default is at least as fast as every pinnable degree and family (the
 *      contract) at P = 5, 7, 12, 17;
 *  (d) bad input: degree 0 or 65, an unknown family or parameter, P past the kautz cap.
 */
#include "core/core.h"
#include "run/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

typedef struct algo_case {
    oc_collective coll;
    const char *algo;
} algo_case;

static const algo_case algos[] = {
    {OC_GATHER, "ktree"}, {OC_BROADCAST, "ktree"}, {OC_GOSSIP, "kautz"}, {OC_ALLTOALL, "kautz"}};

/* The tree's height: the least S with 1 + d + ... + d^S >= P (P - 1 at d = 1). */
static uint64_t height(uint64_t P, uint64_t d) {
    if (P <= 1) return 0;
    if (d == 1) return P - 1;
    uint64_t S = 0, reach = 1, layer = 1;
    while (reach < P) {
        layer *= d;
        reach += layer;
        S++;
    }
    return S;
}

static double net_D(const char *np) {
    const char *p = strstr(np, "D=");
    return p ? atof(p + 2) : 1;
}

static oc_report *checked(const algo_case *a, uint32_t P, const char *np, uint64_t bytes,
                          const char *params) {
    char why[512] = "";
    int err = 0;
    oc_report *rep =
        run_words("star", a->coll, a->algo, P, bytes, params, np, 1, &err, why, sizeof why);
    const char *cn = oc_collective_name(a->coll);
    CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
          "%s %s P=%u %s %s: %s", cn, a->algo, P, np, params ? params : "(default)",
          err ? why : "not verified");
    if (err || !rep) {
        oc_report_free(rep);
        return NULL;
    }
    /* one step a round: every processor keeps to at most k partners each way */
    CHECK(oc_report_steps(rep) == oc_report_rounds(rep),
          "%s %s P=%u %s %s: %llu steps, %llu rounds", cn, a->algo, P, np, params ? params : "",
          (unsigned long long)oc_report_steps(rep), (unsigned long long)oc_report_rounds(rep));
    const double D = net_D(np), tuned = num(rep, "tuning_cost_critical_path");
    const char *ds = oc_report_param(rep, "degree");
    const uint64_t d = ds ? strtoull(ds, NULL, 10) : 0;
    double want = P > 1 ? D : 0;
    if (a->coll == OC_BROADCAST) want = (double)height(P, d) * D;
    CHECK(d >= 1 && fabs(tuned - want) <= 1e-9 * (want + 1),
          "%s %s P=%u %s %s: tuned steps cost %.9g, wanted %.9g (degree %s)", cn, a->algo, P, np,
          params ? params : "", tuned, want, ds ? ds : "?");
    oc_physical_bound_info pb = {0};
    if (oc_report_physical_bound(rep, &pb) == 1)
        CHECK(oc_report_steps(rep) >= pb.steps && oc_report_time(rep) >= pb.time_s * (1 - 1e-12),
              "%s %s P=%u %s: %.9g below the physical bound %.9g", cn, a->algo, P, np,
              oc_report_time(rep), pb.time_s);
    return rep;
}

static void test_verified(void) {
    static const uint32_t Ps[] = {1, 2, 3, 5, 7, 9, 12, 31, 100};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++)
        for (size_t j = 0; j < sizeof algos / sizeof *algos; j++) {
            const algo_case *a = &algos[j];
            oc_report_free(checked(a, Ps[i], "k=3 D=100", 1, NULL));
            oc_report_free(checked(a, Ps[i], "k=1 D=1", 1000, NULL));
            oc_report_free(checked(a, Ps[i], "k=4 D=1", 1024, NULL));
            if (Ps[i] < 3) continue;
            if (a->coll == OC_GOSSIP || a->coll == OC_ALLTOALL) {
                oc_report_free(checked(a, Ps[i], "k=3 D=5", 7, "degree=2 family=debruijn"));
                oc_report_free(checked(a, Ps[i], "k=3 D=5", 7, "degree=3 family=kautz"));
            } else {
                oc_report_free(checked(a, Ps[i], "k=3 D=5", 7,
                                       a->coll == OC_BROADCAST ? "degree=2 pieces=3" : "degree=2"));
            }
        }
}

static void test_gap(void) {
    static const struct {
        oc_collective coll;
        const char *algo;
        uint32_t P;
        uint64_t bytes;
        double most;
    } cases[] = {{OC_GATHER, "ktree", 100, 1, 1.0},
                 {OC_GOSSIP, "kautz", 100, 1, 1.2},
                 {OC_ALLTOALL, "kautz", 100, 1, 1.5},
                 {OC_BROADCAST, "ktree", 9, 1024, 2.5}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const algo_case a = {cases[i].coll, cases[i].algo};
        oc_report *rep = checked(&a, cases[i].P, "k=3 D=100", cases[i].bytes, NULL);
        oc_physical_bound_info pb = {0};
        CHECK(rep && oc_report_physical_bound(rep, &pb) == 1 &&
                  oc_report_time(rep) <= cases[i].most * pb.time_s * (1 + 1e-12),
              "%s %s P=%u D=100: %.9g, the bound %.9g (at most %.2f times)",
              oc_collective_name(cases[i].coll), cases[i].algo, cases[i].P,
              rep ? oc_report_time(rep) : 0, pb.time_s, cases[i].most);
        oc_report_free(rep);
    }
}

/* The default against every pinnable degree (and family) on k = 3: never slower. */
static void test_search(void) {
    static const uint32_t Ps[] = {5, 7, 12, 17};
    static const char *const fams[] = {"kautz", "debruijn"};
    for (size_t i = 0; i < sizeof Ps / sizeof *Ps; i++)
        for (size_t j = 0; j < sizeof algos / sizeof *algos; j++) {
            const algo_case *a = &algos[j];
            const uint64_t bytes = a->coll == OC_BROADCAST ? 64 : 3;
            char why[512] = "";
            int err = 0;
            oc_report *def = run_words("star", a->coll, a->algo, Ps[i], bytes, NULL, "k=3 D=20", 0,
                                       &err, why, sizeof why);
            CHECK(def && !err, "default %s P=%u: %s", a->algo, Ps[i], why);
            if (!def) continue;
            for (unsigned d = 1; d <= 3; d++)
                for (size_t f = 0; f < 2; f++) {
                    char pins[64];
                    if (a->coll == OC_GOSSIP || a->coll == OC_ALLTOALL)
                        snprintf(pins, sizeof pins, "degree=%u family=%s", d, fams[f]);
                    else if (f == 0)
                        snprintf(pins, sizeof pins, "degree=%u", d);
                    else
                        continue;
                    for (unsigned q = 1; q <= (a->coll == OC_BROADCAST ? 64u : 1u); q *= 2) {
                        char all[96];
                        if (a->coll == OC_BROADCAST)
                            snprintf(all, sizeof all, "%s pieces=%u", pins, q);
                        else
                            snprintf(all, sizeof all, "%s", pins);
                        oc_report *pin = run_words("star", a->coll, a->algo, Ps[i], bytes, all,
                                                   "k=3 D=20", 0, &err, why, sizeof why);
                        CHECK(pin && !err &&
                                  oc_report_time(def) <= oc_report_time(pin) * (1 + 1e-12),
                              "%s %s P=%u: default %.9g, %s %.9g", oc_collective_name(a->coll),
                              a->algo, Ps[i], oc_report_time(def), all,
                              pin ? oc_report_time(pin) : 0);
                        oc_report_free(pin);
                    }
                }
            oc_report_free(def);
        }
}

static void refused(oc_collective c, const char *algo, uint32_t P, const char *params, int want,
                    const char *text) {
    char why[512] = "";
    int err = 0;
    oc_report *rep = run_words("star", c, algo, P, 8, params, "k=3", 0, &err, why, sizeof why);
    CHECK(err == want && !rep && strstr(why, text) && !strchr(why, '\n'),
          "%s P=%u %s: %d (%s), wanted %d and \"%s\"", algo, P, params, err, why, want, text);
    oc_report_free(rep);
}

static void test_bad_input(void) {
    refused(OC_GOSSIP, "kautz", 12, "degree=0", OC_ERANGE, "degree=0");
    refused(OC_ALLTOALL, "kautz", 12, "degree=65", OC_ERANGE, "degree=65");
    refused(OC_GOSSIP, "kautz", 12, "family=moore", OC_EINVAL, "expected kautz or debruijn");
    refused(OC_GATHER, "ktree", 12, "family=kautz", OC_ENOENT, "unknown ktree parameter");
    refused(OC_BROADCAST, "ktree", 12, "pieces=0", OC_ERANGE, "pieces=0");
    refused(OC_GOSSIP, "kautz", 1025, "degree=3 family=kautz", OC_ETOOBIG, "at most 1024");
}

int main(void) {
    test_verified();
    test_gap();
    test_search();
    test_bad_input();
    return CHECK_SUMMARY();
}
