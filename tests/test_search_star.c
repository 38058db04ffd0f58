/*
 * test_search_star.c — the parameter search of the passive optical star's algorithms
 * against the pinned space enumerated here, through the public oc_run, independently of the
 * algorithms' own search code.
 *
 *  - Any P: for the network's k = 1..4 and every P = 1..64, the tcp1 scatter, gather and broadcast
 *    and the tcp2 gossip and all-to-all run at the network's k (pinned) in at most h =
 * ceil(log_{k+1} P) steps and at most the messages of padding to (k+1)^h with dummy nodes (section
 * 4), the gossip at exactly ceil((P-1)/k) messages; every run is verified by oc_run.
 *  - The default (nothing pinned) has exactly the least time over every pinned k = 1..network's k
 *    (ties: no more steps), for D = 1 and D = 40.
 *  - tcp1-split: for the network's k = 1..8, several P (odd, prime, powers and not), D and m, the
 *    default has the least time over every pinned (k, h', dummies) with h' = 0..h and (k+1)^h'
 *    dividing m, dummies = groups or fold.
 *  - tcp1-split at h' = 0 is tcp1: the same transfers, steps and time.
 *  - The issue's cases: k = 1, P = 1000 gossip in 10 steps and at most 1023 messages, all-to-all at
 *    most 5120 messages; k = 3, P = 200, m = 1024, D = 5: the default at most 1463 (h' = 3).
 *  - Bad pins (h' > h, k above the network's, m not a multiple of (k+1)^h') are refused with the
 *    valid range named.
 */
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static uint64_t bcast_m(uint32_t P, uint32_t k);

/* One run on the star with network k and D; pins as "key=value" strings (NULL-terminated). The
 * seed's m is the workload, not a parameter: a pin "m=X" here is the run's size, X messages of
 * the star's L = 1 byte; without one a broadcast carries (k+1)^h messages, the others one. */
static oc_report *run(oc_collective coll, const char *algo, uint32_t P, uint32_t knet, double D,
                      const char *const *pins, int *rc, char *why, size_t len) {
    char net[64], par[256] = "";
    uint64_t bytes = coll == OC_BROADCAST ? bcast_m(P, knet) : 1;
    snprintf(net, sizeof net, "k=%u D=%g", knet, D);
    for (size_t i = 0, at = 0; pins && pins[i] && at < sizeof par; i++)
        if (!strncmp(pins[i], "m=", 2))
            bytes = strtoull(pins[i] + 2, NULL, 10);
        else
            at += (size_t)snprintf(par + at, sizeof par - at, "%s%s", at ? " " : "", pins[i]);
    return run_words("star", coll, algo, P, bytes, par, net, 0, rc, why, len);
}

static uint64_t upow(uint64_t b, uint32_t e) {
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

static uint32_t steps_of(uint32_t P, uint32_t k) {
    uint32_t h = 0;
    for (uint64_t v = 1; v < P; v *= k + 1)
        h++;
    return h;
}

/* The seed's m of a broadcast, (k+1)^h (section 3.2; the library caps it at 2^16). */
static uint64_t bcast_m(uint32_t P, uint32_t k) {
    uint64_t m = 1;
    while (m < P && m <= 65536 / (k + 1))
        m *= k + 1;
    return m;
}

typedef struct coll_case {
    oc_collective coll;
    const char *algo;
} coll_case;

static const coll_case colls[] = {{OC_SCATTER, "tcp1"},
                                  {OC_GATHER, "tcp1"},
                                  {OC_BROADCAST, "tcp1"},
                                  {OC_GOSSIP, "tcp2"},
                                  {OC_ALLTOALL, "tcp2"}};

/* Section 3's messages at Pv = (k+1)^h: what padding with dummy nodes costs. */
static double padding_messages(oc_collective coll, uint32_t P, uint32_t k, double m) {
    const uint32_t h = steps_of(P, k);
    const double Pv = (double)upow(k + 1, h);
    switch (coll) {
    case OC_BROADCAST:
        return h * m;
    case OC_ALLTOALL:
        return h * Pv / (k + 1) * m;
    default:
        return (Pv - 1) / k * m;
    }
}

/* The best of the pinned space, compared with the default. */
typedef struct best {
    double time;
    uint64_t steps;
    char what[128];
} best;

static void consider(best *b, const oc_report *r, const char *what) {
    double t = oc_report_time(r);
    uint64_t st = oc_report_steps(r);
    int same = fabs(t - b->time) <= 1e-9 * fmax(fabs(t), fabs(b->time));
    if (b->time < 0 || (!same && t < b->time) || (same && st < b->steps)) {
        b->time = t;
        b->steps = st;
        snprintf(b->what, sizeof b->what, "%s", what);
    }
}

static void check_default(const oc_report *def, const best *b, const char *label) {
    double t = oc_report_time(def);
    int same = fabs(t - b->time) <= 1e-9 * fmax(fabs(t), fabs(b->time));
    CHECK(same && oc_report_steps(def) <= b->steps,
          "%s: the default (%s) takes %.9g in %llu steps; pinned %s takes %.9g in %llu", label,
          oc_report_param(def, "k"), t, (unsigned long long)oc_report_steps(def), b->what, b->time,
          (unsigned long long)b->steps);
}

/* The tcp1 / tcp2 algorithms at every P up to 64: the construction at the network's k against
 * padding, the default against every pinned k. */
static void any_p(uint32_t knet, double D, int padding) {
    char why[512], label[160], pk[32], pm[48], what[64];
    for (size_t c = 0; c < sizeof colls / sizeof colls[0]; c++)
        for (uint32_t P = 1; P <= 64; P++) {
            const coll_case *cc = &colls[c];
            const uint64_t m = cc->coll == OC_BROADCAST ? bcast_m(P, knet) : 1;
            const uint32_t h = steps_of(P, knet);
            snprintf(label, sizeof label, "%s %s P=%u k=%u D=%g", oc_collective_name(cc->coll),
                     cc->algo, P, knet, D);
            snprintf(pm, sizeof pm, "m=%llu", (unsigned long long)m);
            int rc;
            best b = {.time = -1};
            for (uint32_t k = 1; k <= knet; k++) {
                snprintf(pk, sizeof pk, "k=%u", k);
                const char *pins[] = {pk, pm, NULL};
                oc_report *r = run(cc->coll, cc->algo, P, knet, D, pins, &rc, why, sizeof why);
                CHECK(!rc && r && oc_report_verified(r), "%s pinned %s: %s", label, pk, why);
                if (!r) continue;
                snprintf(what, sizeof what, "%s", pk);
                consider(&b, r, what);
                if (k == knet && padding) {
                    double msg = num(r, "communication_messages");
                    double pad = padding_messages(cc->coll, P, knet, (double)m);
                    CHECK(oc_report_steps(r) <= h, "%s: %llu steps, padding takes h = %u", label,
                          (unsigned long long)oc_report_steps(r), h);
                    CHECK(msg <= pad, "%s: %g messages, padding takes %g", label, msg, pad);
                    if (cc->coll == OC_GOSSIP)
                        CHECK(msg == ceil((P - 1.0) / knet), "%s: %g messages, the bound is %g",
                              label, msg, ceil((P - 1.0) / knet));
                }
                oc_report_free(r);
            }
            oc_report *def = run(cc->coll, cc->algo, P, knet, D, NULL, &rc, why, sizeof why);
            CHECK(!rc && def && oc_report_verified(def), "%s default: %s", label, why);
            if (def && b.time >= 0) check_default(def, &b, label);
            oc_report_free(def);
        }
}

/* tcp1-split: the default against every pinned (k, h'). */
static void split_case(uint32_t P, uint32_t knet, double D, uint64_t m) {
    char why[512], label[160], pk[32], ph[32], pm[48], what[128];
    int rc;
    snprintf(label, sizeof label, "tcp1-split P=%u k=%u D=%g m=%llu", P, knet, D,
             (unsigned long long)m);
    snprintf(pm, sizeof pm, "m=%llu", (unsigned long long)m);
    best b = {.time = -1};
    for (uint32_t k = 1; k <= knet; k++) {
        const uint32_t h = steps_of(P, k);
        for (uint32_t hp = 0; hp <= h && m % upow(k + 1, hp) == 0; hp++)
            for (int way = 0; way < 2; way++) { /* the two ways with the dummy nodes */
                const char *dm = way ? "dummies=fold" : "dummies=groups";
                snprintf(pk, sizeof pk, "k=%u", k);
                snprintf(ph, sizeof ph, "hp=%u", hp);
                const char *pins[] = {pk, ph, pm, dm, NULL};
                oc_report *r =
                    run(OC_BROADCAST, "tcp1-split", P, knet, D, pins, &rc, why, sizeof why);
                if (rc && strstr(why, "too large")) continue; /* (k+1)^h over the limit */
                CHECK(!rc && r && oc_report_verified(r), "%s pinned %s %s %s: %s", label, pk, ph,
                      dm, why);
                if (!r) continue;
                snprintf(what, sizeof what, "%s %s %s", pk, ph, dm);
                consider(&b, r, what);
                oc_report_free(r);
            }
    }
    const char *pins[] = {pm, NULL};
    oc_report *def = run(OC_BROADCAST, "tcp1-split", P, knet, D, pins, &rc, why, sizeof why);
    CHECK(!rc && def, "%s default: %s", label, why);
    if (def && b.time >= 0) check_default(def, &b, label);
    oc_report_free(def);
}

/* The quick part: P <= 27 at D = 0.2; the slow part the rest. */
static void split_grid(int slow) {
    static const uint32_t Ps[] = {2, 3, 7, 12, 27, 64, 100};
    static const double Ds[] = {0.2, 5, 100};
    for (uint32_t knet = 1; knet <= 8; knet++)
        for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++)
            for (size_t j = 0; j < sizeof Ds / sizeof Ds[0]; j++) {
                if (slow == (Ps[i] <= 27 && j == 0)) continue;
                split_case(Ps[i], knet, Ds[j], bcast_m(Ps[i], knet));
                if (Ps[i] <= 27) split_case(Ps[i], knet, Ds[j], 720720); /* many divisors */
            }
    if (!slow) split_case(200, 3, 5, 1024); /* the issue's case */
}

/* tcp1-split at h' = 0 is tcp1: transfers, steps and time. */
static void split_zero_is_tcp1(void) {
    char why[512], pk[32];
    for (uint32_t k = 1; k <= 5; k++)
        for (uint32_t P = 1; P <= 40; P++) {
            int rc1, rc2;
            snprintf(pk, sizeof pk, "k=%u", k);
            const char *p1[] = {pk, NULL}, *p2[] = {pk, "hp=0", NULL};
            oc_report *a = run(OC_BROADCAST, "tcp1", P, k, 1, p1, &rc1, why, sizeof why);
            oc_report *b = run(OC_BROADCAST, "tcp1-split", P, k, 1, p2, &rc2, why, sizeof why);
            CHECK(!rc1 && !rc2 && a && b, "P=%u k=%u: %s", P, k, why);
            if (a && b) {
                CHECK(a->transfers == b->transfers && a->rounds == b->rounds &&
                          oc_report_steps(a) == oc_report_steps(b) &&
                          oc_report_time(a) == oc_report_time(b),
                      "P=%u k=%u: tcp1 %llu transfers %llu steps %g, tcp1-split h'=0 %llu "
                      "transfers %llu steps %g",
                      P, k, (unsigned long long)a->transfers,
                      (unsigned long long)oc_report_steps(a), oc_report_time(a),
                      (unsigned long long)b->transfers, (unsigned long long)oc_report_steps(b),
                      oc_report_time(b));
            }
            oc_report_free(a);
            oc_report_free(b);
        }
}

static void issue_cases(void) {
    char why[512];
    int rc;
    oc_report *r = run(OC_GOSSIP, "tcp2", 1000, 1, 1, NULL, &rc, why, sizeof why);
    CHECK(!rc && r && oc_report_steps(r) <= 10 && num(r, "communication_messages") <= 1023,
          "gossip k=1 P=1000: %llu steps, %g messages (padding: 10, 1023) %s",
          r ? (unsigned long long)oc_report_steps(r) : 0ULL,
          r ? num(r, "communication_messages") : NAN, why);
    oc_report_free(r);
    r = run(OC_ALLTOALL, "tcp2", 1000, 1, 1, NULL, &rc, why, sizeof why);
    CHECK(!rc && r && oc_report_steps(r) <= 10 && num(r, "communication_messages") <= 5120,
          "all-to-all k=1 P=1000: %llu steps, %g messages (padding: 10, 5120) %s",
          r ? (unsigned long long)oc_report_steps(r) : 0ULL,
          r ? num(r, "communication_messages") : NAN, why);
    oc_report_free(r);
    const char *pins[] = {"m=1024", NULL};
    r = run(OC_BROADCAST, "tcp1-split", 200, 3, 5, pins, &rc, why, sizeof why);
    CHECK(!rc && r && oc_report_time(r) <= 1463, "tcp1-split k=3 P=200 m=1024 D=5: %g (h'=3: 1463)",
          r ? oc_report_time(r) : NAN);
    oc_report_free(r);
}

static void refused(oc_collective coll, const char *algo, uint32_t P, uint32_t knet,
                    const char *const *pins, const char *range) {
    char why[512] = "";
    int rc;
    oc_report *r = run(coll, algo, P, knet, 1, pins, &rc, why, sizeof why);
    CHECK(rc && !r && strstr(why, range) && !strchr(why, '\n'),
          "%s P=%u k=%u %s: rc %d, \"%s\" should name %s", algo, P, knet, pins[0], rc, why, range);
    oc_report_free(r);
}

static void bad_input(void) {
    const char *hp[] = {"hp=4", NULL}, *k4[] = {"k=4", NULL}, *m[] = {"m=10", "hp=2", NULL};
    refused(OC_BROADCAST, "tcp1-split", 64, 3, hp, "from 0 to 3");
    refused(OC_BROADCAST, "tcp1-split", 64, 3, k4, "from 1 to 3");
    refused(OC_BROADCAST, "tcp1-split", 64, 3, m, "multiple of 16");
    refused(OC_GOSSIP, "tcp2", 30, 3, k4, "from 1 to 3");
    refused(OC_SCATTER, "tcp1", 30, 2, k4, "from 1 to 2");
    /* m is the workload (SIZE / L), never a choice: a pin is refused, and -s changes the time */
    char why[512] = "";
    int rc;
    oc_report *r = run_words("star", OC_SCATTER, "tcp1", 30, 64, "m=1", "k=3", 0, &rc, why, sizeof why);
    CHECK(rc && !r && strstr(why, "SIZE / L") && !strchr(why, '\n'),
          "scatter tcp1 -p m=1: rc %d, \"%s\" should refuse m as the workload", rc, why);
    oc_report_free(r);
    double t[2];
    for (int i = 0; i < 2; i++) {
        r = run_words("star", OC_SCATTER, "tcp1", 30, i ? 640 : 64, NULL, "k=3", 0, &rc, why,
                      sizeof why);
        t[i] = r ? oc_report_time(r) : NAN;
        CHECK(!rc && r && !strcmp(oc_report_param(r, "m"), i ? "640" : "64"),
              "scatter tcp1 -s %d: m should be SIZE / L = %d (%s)", i ? 640 : 64, i ? 640 : 64, why);
        oc_report_free(r);
    }
    /* 30 processors at k = 3 (padded to 64): h = 3 steps of D = 1; the largest streams carry
     * the subtrees of 7 (processor 1: 1, 7-9, 19-21), 3 (4: 4, 28, 29) and 1 real processors, m
     * messages each: 3 + 11 m tau (the padding's (P-1)m/k would be 21 m) */
    CHECK(t[0] == 3 + 11 * 64.0 && t[1] == 3 + 11 * 640.0,
          "scatter tcp1 P=30: -s 64 takes %g tau, -s 640 %g (3 + 11 m)", t[0], t[1]);
}

/* No argument: the cheap part (also under the sanitizers); "slow": the rest of the grid. */
int main(int argc, char **argv) {
    const int slow = argc > 1 && !strcmp(argv[1], "slow");
    if (!slow) {
        bad_input();
        split_zero_is_tcp1();
        issue_cases();
        for (uint32_t k = 1; k <= 4; k++)
            any_p(k, 1, 1);
    } else {
        for (uint32_t k = 1; k <= 4; k++)
            any_p(k, 40, 0);
    }
    split_grid(slow);
    return CHECK_SUMMARY();
}
