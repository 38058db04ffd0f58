/*
 * test_star.c — tests of the passive optical star model (src/net/star.c), its independent check
 * (src/net/star_check.c) and the tcp algorithms of the passive-optical-star seed.
 *
 * For P = (k+1)^h, k = 1, 2, 3 and h = 1, 2, 3 every algorithm's simulated communication (in
 * messages) and number of retunings must equal section 3's closed forms, computed here from the
 * seed's text and not from the library: scatter and gather (P-1)/k and P-1, naive broadcast h m
 * and P-1, gossip (P-1) m / k and h P k, personalized all-to-all h P / (k+1) and h P k; h steps.
 * For P in {1, 2, 3, 5, 7, 12} (dummy nodes) every schedule must pass the verifier. The check is
 * fed two transmitters on one wavelength and must name the step, the wavelength and both
 * processors; other broken assignments must be refused too.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "net/net.h"
#include "net/star.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* One run on the star of k wavelengths per processor, with the algorithm's parameter `pin` at v
 * (real-data check). The seed's m, messages of the star's L = 1 byte, is the run's size: pin "m"
 * sets it (m is the workload, never a parameter); otherwise a run carries (k+1)^h messages, so
 * that every h' of tcp1-split cuts them evenly. */
static oc_report *run_pin(oc_collective coll, const char *algo, uint32_t P, uint32_t k,
                          const char *pin, uint32_t v, int *err, char *why, size_t len) {
    char net[32], par[48] = "";
    snprintf(net, sizeof net, "k=%u", k);
    uint64_t bytes = 1;
    while (bytes < P)
        bytes *= k + 1;
    if (!strcmp(pin, "m"))
        bytes = v;
    else
        snprintf(par, sizeof par, "%s=%u", pin, v);
    return run_net("star", coll, algo, P, bytes, par[0] ? par : NULL, net, err, why, len);
}

/* b^e: P = (k+1)^h processors make h full steps. */
static uint32_t upow(uint32_t b, uint32_t e) {
    uint32_t r = 1;
    while (e--)
        r *= b;
    return r;
}

static oc_report *run(oc_collective coll, const char *algo, uint32_t P, uint32_t k, uint32_t m,
                      int *err, char *why, size_t len) {
    return run_pin(coll, algo, P, k, "m", m, err, why, len);
}

typedef struct expect {
    oc_collective coll;
    const char *algo;
} expect;

static const expect algos[] = {{OC_SCATTER, "tcp1"},
                               {OC_GATHER, "tcp1"},
                               {OC_BROADCAST, "tcp1"},
                               {OC_GOSSIP, "tcp2"},
                               {OC_ALLTOALL, "tcp2"}};

/* Section 3's closed forms, from the seed's text. */
static void seed_forms(oc_collective c, double P, double k, double h, double m, double *comm,
                       double *tunings) {
    switch (c) {
    case OC_SCATTER:
    case OC_GATHER: /* 3.1: sum P/(k+1)^i = (P-1)/k; (P-1) D */
        *comm = m * (P - 1) / k;
        *tunings = P - 1;
        break;
    case OC_BROADCAST: /* 3.2.1: h m; (P-1) D */
        *comm = h * m;
        *tunings = P - 1;
        break;
    case OC_GOSSIP: /* 3.3: (P-1) m / k; h P k D */
        *comm = (P - 1) * m / k;
        *tunings = h * P * k;
        break;
    default: /* 3.4: h P/(k+1); h P k D */
        *comm = h * m * P / (k + 1);
        *tunings = h * P * k;
        break;
    }
}

static void test_formulas(void) {
    char why[512];
    for (uint32_t k = 1; k <= 3; k++)
        for (uint32_t h = 1; h <= 3; h++) {
            const uint32_t P = upow(k + 1, h);
            for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
                for (uint32_t m = 1; m <= 2; m++) {
                    int err = 0;
                    why[0] = 0;
                    oc_report *rep =
                        run(algos[a].coll, algos[a].algo, P, k, m, &err, why, sizeof why);
                    const char *cn = oc_collective_name(algos[a].coll);
                    CHECK(err == 0 && rep, "%s P=%u k=%u: %s", cn, P, k, why);
                    if (!rep) continue;
                    double comm, tun;
                    seed_forms(algos[a].coll, P, k, h, m, &comm, &tun);
                    CHECK(oc_report_verified(rep), "%s P=%u k=%u", cn, P, k);
                    CHECK(oc_report_steps(rep) == h, "%s P=%u k=%u: %llu steps", cn, P, k,
                          (unsigned long long)oc_report_steps(rep));
                    CHECK(num(rep, "communication_messages") == comm,
                          "%s P=%u k=%u m=%u: %g messages, seed %g", cn, P, k, m,
                          num(rep, "communication_messages"), comm);
                    CHECK(num(rep, "formula_communication_messages") == comm,
                          "%s P=%u k=%u: formula %g, seed %g", cn, P, k,
                          num(rep, "formula_communication_messages"), comm);
                    CHECK(num(rep, "retunings") == tun, "%s P=%u k=%u: %g retunings, seed %g", cn,
                          P, k, num(rep, "retunings"), tun);
                    CHECK(num(rep, "formula_retunings") == tun, "%s P=%u k=%u", cn, P, k);
                    /* D = 1: the seed's tuning cost is the retunings; the critical path pays
                     * D once per step. */
                    CHECK(num(rep, "tuning_cost_total") == tun, "%s P=%u k=%u", cn, P, k);
                    CHECK(num(rep, "tuning_cost_critical_path") == h, "%s P=%u k=%u", cn, P, k);
                    CHECK(num(rep, "rounds_split") == 0, "%s P=%u k=%u", cn, P, k);
                    /* D = L tau = 1: the closed-form critical path is comm + h, as simulated */
                    CHECK(rep->has_time_formula && rep->time_formula_s == comm + h &&
                              oc_report_time(rep) == comm + h,
                          "%s P=%u k=%u: time %g, formula %g", cn, P, k, oc_report_time(rep),
                          rep->time_formula_s);
                    oc_report_free(rep);
                }
        }
}

/* 3.2.2: every h' from 0 to h; the communication is exact; the seed counts one tuning per stream
 * ((P-1) + h'Pk), the model retunes only filters not already on the wavelength (never more). */
static void test_split(void) {
    char why[512];
    for (uint32_t k = 1; k <= 3; k++)
        for (uint32_t h = 1; h <= 3; h++) {
            const uint32_t P = upow(k + 1, h);
            for (uint32_t hp = 0; hp <= h; hp++) {
                int err;
                oc_report *rep =
                    run_pin(OC_BROADCAST, "tcp1-split", P, k, "hp", hp, &err, why, sizeof why);
                CHECK(err == 0 && rep, "P=%u k=%u h'=%u: %s", P, k, hp, why);
                if (rep) {
                    double m = P, K = k + 1.0, Khp = pow(K, hp);
                    double comm = (2.0 / k * (Khp - 1) + h - hp) * m / Khp;
                    double tun = (P - 1) + (double)hp * P * k;
                    CHECK(num(rep, "communication_messages") == comm, "P=%u k=%u h'=%u: %g vs %g",
                          P, k, hp, num(rep, "communication_messages"), comm);
                    CHECK(num(rep, "streams") == tun, "P=%u k=%u h'=%u: %g streams vs %g", P, k, hp,
                          num(rep, "streams"), tun);
                    CHECK(num(rep, "retunings") <= tun, "P=%u k=%u h'=%u", P, k, hp);
                    CHECK(oc_report_steps(rep) == h + hp, "P=%u k=%u h'=%u", P, k, hp);
                }
                oc_report_free(rep);
                for (uint32_t Pd = 2; Pd <= 12; Pd += 5) { /* dummy nodes: 2, 7, 12 */
                    rep =
                        run_pin(OC_BROADCAST, "tcp1-split", Pd, k, "hp", hp, &err, why, sizeof why);
                    uint32_t hd = 0;
                    for (uint32_t v = 1; v < Pd; v *= k + 1)
                        hd++;
                    if (hp <= hd)
                        CHECK(err == 0 && rep && oc_report_verified(rep), "P=%u k=%u h'=%u: %s", Pd,
                              k, hp, why);
                    else
                        CHECK(err != 0 && !rep, "P=%u k=%u: h'=%u > h accepted", Pd, k, hp);
                    oc_report_free(rep);
                }
            }
        }
}

static void test_dummies(void) {
    static const uint32_t Ps[] = {1, 2, 3, 5, 7, 12};
    char why[512];
    for (uint32_t k = 1; k <= 3; k++)
        for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++)
            for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
                int err = 0;
                why[0] = 0;
                oc_report *rep =
                    run(algos[a].coll, algos[a].algo, Ps[i], k, 1, &err, why, sizeof why);
                CHECK(err == 0 && rep && oc_report_verified(rep) && oc_report_data_checked(rep),
                      "%s P=%u k=%u: %s", oc_collective_name(algos[a].coll), Ps[i], k, why);
                if (rep && Ps[i] == 12 && k == 3) {
                    int noted = 0;
                    for (size_t n = 0; n < rep->nnotes; n++)
                        noted |= strstr(rep->notes[n], "4 dummy nodes") != NULL;
                    CHECK(noted, "P = 12, k = 3: the dummy nodes are not reported");
                }
                oc_report_free(rep);
            }
}

/* Mixed-radix cliques: P = 12 = 3 x 4 with k = 3 needs no dummy; gossip sends 1 + 3 messages. */
static void test_mixed(void) {
    char why[512];
    int err = 0;
    oc_report *rep = run(OC_GOSSIP, "tcp2", 12, 3, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2 && num(rep, "communication_messages") == 4 &&
              num(rep, "rounds_split") == 0,
          "gossip P = 12, k = 3: %s", why);
    oc_report_free(rep);
    rep = run(OC_ALLTOALL, "tcp2", 100, 3, 1, &err, why, sizeof why);
    /* 100 = 4 x 5 x 5 does not fit k = 3; 100 = 2 x 2 x 5 x 5 neither: dummies, but verified */
    CHECK(rep && oc_report_verified(rep), "alltoall P = 100, k = 3: %s", why);
    oc_report_free(rep);
}

/* The rounds of an algorithm, generated directly (no model). */
static int rounds_of(oc_collective c, const char *name, uint32_t P, uint32_t k, oc__store *st) {
    const oc__algo *a = oc__algo_find(c, name);
    oc_kv *par = oc_kv_new();
    char buf[16], why[256];
    snprintf(buf, sizeof buf, "%u", k);
    oc_kv_set(par, "k", buf);
    oc__plan plan;
    oc__store_init(st);
    int rc = a ? a->plan(&plan, c, P, 0, 64, par, why, sizeof why) : OC_ENOENT;
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &st->sink, why, sizeof why);
        rc = a->generate(&plan, &e);
        oc__emit_free(&e);
    }
    if (a) oc__plan_free(a, &plan);
    oc_kv_free(par);
    return rc;
}

/* Who talks to whom: TCP1 (2.1, corrected: step l, node i < (k+1)^(l-1) sends to
 * (k+1)^(l-1) + ik + j) and TCP2 (cliques of the processors differing in one base-(k+1) digit). */
static void test_numbering(void) {
    for (uint32_t k = 1; k <= 3; k++) {
        const uint32_t K = k + 1, P = K * K * K;
        oc__store st;
        CHECK(rounds_of(OC_SCATTER, "tcp1", P, k, &st) == 0 && st.count == 3, "scatter k=%u", k);
        uint32_t base = 1;
        for (size_t l = 1; l <= st.count; l++, base *= K) {
            const oc__round *r = &st.rounds[l - 1];
            int ok = r->count == (size_t)base * k;
            for (size_t t = 0; t < r->count && ok; t++) {
                uint32_t src = r->xfers[t].src, dst = r->xfers[t].dst;
                ok = src < base && dst >= base && dst < base * K && (dst - base) / k == src;
            }
            CHECK(ok, "TCP1 step %zu of P=%u k=%u is not (k+1)^(l-1) + ik + j", l, P, k);
        }
        oc__store_free(&st);
        CHECK(rounds_of(OC_GOSSIP, "tcp2", P, k, &st) == 0 && st.count == 3, "gossip k=%u", k);
        uint32_t w = 1;
        for (size_t s = 0; s < st.count; s++, w *= K) {
            const oc__round *r = &st.rounds[s];
            int ok = r->count == (size_t)P * k;
            for (size_t t = 0; t < r->count && ok; t++) {
                uint32_t a = r->xfers[t].src, b = r->xfers[t].dst;
                ok = a != b && a - a / w % K * w == b - b / w % K * w;
            }
            CHECK(ok, "TCP2 step %zu of P=%u k=%u is not the digit-%zu cliques", s, P, k, s);
        }
        oc__store_free(&st);
    }
}

/* A round of two streams 0 -> 2 and 1 -> 3 with hand-made claims. */
static int check_claims(oc__star_claim *cl, size_t n, char *why, size_t len) {
    oc__round r = {0};
    if (oc__round_push(&r, 0, 2, OC_OP_COPY, 0, 1) || oc__round_push(&r, 1, 3, OC_OP_COPY, 1, 2))
        abort();
    oc__star_checker *c = NULL;
    if (oc__star_checker_new(4, 2, 0, 1, &c)) abort();
    uint64_t steps, retunes, messages;
    int rc = oc__star_check(c, 0, 5, &r, cl, n, &steps, &retunes, &messages, why, len);
    if (rc == 0 && (steps != 1 || retunes != 2 || messages != 2)) rc = OC_EINVAL;
    oc__star_checker_free(c);
    oc__round_free(&r);
    return rc;
}

static void test_check(void) {
    char why[512];
    oc__star_claim good[2] = {{.src = 0,
                               .dst = 2,
                               .tx_port = 0,
                               .rx_port = 0,
                               .wavelength = 0,
                               .messages = 1,
                               .retuned = 1},
                              {.src = 1,
                               .dst = 3,
                               .tx_port = 0,
                               .rx_port = 1,
                               .wavelength = 2,
                               .messages = 2,
                               .retuned = 1}};
    why[0] = 0;
    CHECK(check_claims(good, 2, why, sizeof why) == 0, "a valid assignment refused: %s", why);
    /* two transmitters on wavelength 7 in step 5 */
    oc__star_claim bad[2];
    memcpy(bad, good, sizeof bad);
    bad[0].wavelength = bad[1].wavelength = 7;
    why[0] = 0;
    CHECK(check_claims(bad, 2, why, sizeof why) == OC_ERESOURCE, "two transmitters accepted");
    CHECK(strstr(why, "step 5") && strstr(why, "wavelength 7") && strstr(why, "processors 0") &&
              strstr(why, "and 1"),
          "the message does not name step, wavelength and processors: %s", why);
    /* a stream missing, a port out of range, a wrong retuning claim, a message count wrong */
    CHECK(check_claims(good, 1, why, sizeof why) == OC_ERESOURCE, "a missing stream accepted");
    memcpy(bad, good, sizeof bad);
    bad[1].tx_port = 2;
    CHECK(check_claims(bad, 2, why, sizeof why) == OC_ERESOURCE, "laser 2 of k = 2 accepted");
    memcpy(bad, good, sizeof bad);
    bad[0].retuned = 0;
    CHECK(check_claims(bad, 2, why, sizeof why) == OC_ERESOURCE, "a hidden retuning accepted");
    memcpy(bad, good, sizeof bad);
    bad[1].messages = 1;
    CHECK(check_claims(bad, 2, why, sizeof why) == OC_ERESOURCE, "a short stream accepted");
}

static void test_params(void) {
    char why[512];
    oc_kv *net = oc_kv_new();
    oc_kv_set(net, "k", "0");
    oc_report *rep = NULL;
    oc_request req = {.collective = OC_SCATTER,
                      .algorithm = "tcp1",
                      .network = "star",
                      .nodes = 16,
                      .bytes = 1, /* one message of the star's L = 1 byte (m = SIZE / L) */
                      .net_params = net,
                      .skip_data_check = 1};
    CHECK(oc_run(&req, &rep, why, sizeof why) != 0 && !rep, "k = 0 accepted");
    oc_kv_set(net, "k", "3");
    oc_kv_set(net, "D", "10");
    oc_kv_set(net, "tau", "2");
    rep = NULL;
    CHECK(oc_run(&req, &rep, why, sizeof why) == 0 && rep, "%s", why);
    if (rep) {
        /* scatter, P = 16, k = 3: steps of 4 and 1 messages, 2 x tau each; 15 retunings */
        CHECK(num(rep, "communication_cost") == 10, "%g", num(rep, "communication_cost"));
        CHECK(num(rep, "tuning_cost_total") == 150, "%g", num(rep, "tuning_cost_total"));
        CHECK(num(rep, "tuning_cost_critical_path") == 20, "%g",
              num(rep, "tuning_cost_critical_path"));
        CHECK(oc_report_time(rep) == 30, "%g", oc_report_time(rep));
    }
    oc_report_free(rep);
    oc_kv_free(net);
}

int main(void) {
    test_formulas();
    test_dummies();
    test_split();
    test_mixed();
    test_numbering();
    test_check();
    test_params();
    return CHECK_SUMMARY();
}
