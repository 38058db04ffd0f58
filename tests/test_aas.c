/*
 * test_aas.c — tests of the electrical direct networks (src/net/direct.c: hypercube, torus, mesh)
 * and of the all-to-all algorithms of the all-to-all-scatter notes that run on them.
 *
 * Model tests map hand-made rounds and compare with times computed here from ts, tm and td:
 * store-and-forward refuses non-neighbours, wormhole pays per hop, 1-port serialises a node's
 * messages, half duplex serialises the two directions of a link, combining merges a round's
 * transfers between one pair, the torus takes the shorter way (the positive one on a tie), and
 * the independent check rejects a placement that breaks a port or link limit.
 *
 * Every test asserts a result a wrong implementation would get wrong. The harness prints one line
 * per failure and ends with "N passed, M failed".
 */
#include "core/core.h"
#include "net/direct.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

static const double TS = 1e-6, TM = 1e-9, TD = 0.05e-6; /* the defaults */

static void clear(oc__round *r, size_t n) {
    for (size_t i = 0; i < n; i++)
        r[i].count = 0;
}

static void test_model_basics(void) {
    char why[256] = "";
    int err;
    oc__round r[2] = {{0}};
    const oc__model *H = &oc__model_hypercube, *T = &oc__model_torus, *M = &oc__model_mesh;
    /* One neighbour message on Q3: ts + 1000 tm, one step. */
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 0, 1);
    oc_report *rep = map_on(H, 8, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), TS + 1000 * TM) && oc_report_steps(rep) == 1,
          "neighbour: %s", why);
    oc_report_free(rep);
    /* Two transfers 0 -> 1 in one round: combined into one message of 2000 bytes ... */
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 8, 1);
    rep = map_on(H, 8, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), TS + 2000 * TM) && oc_report_steps(rep) == 1,
          "combined: %s", why);
    oc_report_free(rep);
    /* ... or two packets, two steps, two start-ups when not combining. */
    rep = map_on(H, 8, 1000, "combining=no", r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 2 * (TS + 1000 * TM)) && oc_report_steps(rep) == 2,
          "not combined: %s", why);
    oc_report_free(rep);
    /* A smaller packet size mu splits every chunk: 1000 B in packets of 300 -> 4 packets each. */
    rep = map_on(H, 8, 1000, "combining=no mu=300", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 8 && close_to(oc_report_time(rep), 8 * (TS + 300 * TM)),
          "mu=300: %s", why);
    oc_report_free(rep);
    /* 1-port: node 0 sends to 1 and 2 -> two steps; all-port: one. */
    clear(r, 1);
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 8, 1);
    oc__round_push(&r[0], 0, 2, OC_OP_COPY, 16, 1);
    rep = map_on(H, 8, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2 && close_to(oc_report_time(rep), 2 * (TS + 1000 * TM)),
          "1-port: %s", why);
    oc_report_free(rep);
    rep = map_on(H, 8, 1000, "ports=all", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 1, "all-port: %s", why);
    oc_report_free(rep);
    /* Half duplex: 0 -> 1 and 1 -> 0 share the link. */
    clear(r, 1);
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 8, 1);
    oc__round_push(&r[0], 1, 0, OC_OP_COPY, 1, 1);
    rep = map_on(H, 8, 1000, "duplex=half", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2, "half duplex: %s", why);
    oc_report_free(rep);
    rep = map_on(H, 8, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 1, "full duplex: %s", why);
    oc_report_free(rep);
    /* Store-and-forward refuses non-neighbours; wormhole pays td per hop (0 -> 3: 2 hops). */
    clear(r, 1);
    oc__round_push(&r[0], 0, 3, OC_OP_COPY, 24, 1);
    rep = map_on(H, 8, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP && strstr(why, "2 hops"), "SF non-neighbour: %s", why);
    rep = map_on(H, 8, 1000, "switching=wh", r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), TS + 2 * TD + 1000 * TM), "WH: %s", why);
    oc_report_free(rep);
    /* The torus takes the shorter way round: on T(5), 0 -> 4 is one hop (the wrap link). */
    clear(r, 1);
    oc__round_push(&r[0], 0, 4, OC_OP_COPY, 4 * 5, 1);
    rep = map_on(T, 5, 1000, NULL, r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 1, "torus wrap: %s", why);
    oc_report_free(rep);
    rep = map_on(M, 5, 1000, "dims=5", r, 1, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP, "mesh has no wrap link: %s", why);
    /* On T(4) the tie 0 -> 2 goes the positive way (0, 1, 2): it shares link 1 -> 2 with the
     * message 1 -> 2 (two steps, all-port WH); the negative way would not. */
    clear(r, 1);
    oc__round_push(&r[0], 0, 2, OC_OP_COPY, 2 * 4, 1);
    oc__round_push(&r[0], 1, 2, OC_OP_COPY, 2 * 4 + 1, 1);
    rep = map_on(T, 4, 1000, "switching=wh ports=all", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2 && num(rep, "max_link_congestion") == 2, "torus tie: %s",
          why);
    oc_report_free(rep);
    /* XY routing on M(4,2) (node = x + 4y): 0 -> 7 goes x first (0,1,2,3) then y (3 -> 7);
     * 4 -> 3 goes 4,5,6,7 then 7 -> 3: no shared link; 1 -> 3 shares 1 -> 2 with 0 -> 7. */
    clear(r, 1);
    oc__round_push(&r[0], 0, 7, OC_OP_COPY, 7 * 8, 1);
    oc__round_push(&r[0], 4, 3, OC_OP_COPY, 3 * 8 + 4, 1);
    rep = map_on(M, 8, 1000, "dims=4x2 switching=wh ports=all", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 1 &&
              close_to(oc_report_time(rep), TS + 4 * TD + 1000 * TM),
          "XY disjoint: %s", why);
    oc_report_free(rep);
    oc__round_push(&r[0], 1, 3, OC_OP_COPY, 3 * 8 + 1, 1);
    rep = map_on(M, 8, 1000, "dims=4x2 switching=wh ports=all", r, 1, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2 &&
              close_to(oc_report_time(rep), 2 * TS + (4 + 2) * TD + 2000 * TM),
          "XY shared link: %s", why);
    oc_report_free(rep);
    /* Parameters. */
    clear(r, 1);
    oc__round_push(&r[0], 0, 1, OC_OP_COPY, 8, 1);
    rep = map_on(H, 8, 1000, "ts_us=3 tm_ns=0.5", r, 1, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3e-6 + 500e-9), "ts, tm: %s", why);
    oc_report_free(rep);
    oc__round_free(&r[0]);
    oc__round_free(&r[1]);
}

static void test_model_refusals(void) {
    char why[256] = "";
    int err;
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 6, 1);
    static const struct {
        const oc__model *m;
        uint32_t N;
        const char *p, *text;
        int code;
    } bad[] = {
        {&oc__model_hypercube, 6, NULL, "power of two", OC_ENOTSUP},
        {&oc__model_hypercube, 8, "dim=4", "16 nodes, not 8", OC_ENOTSUP},
        {&oc__model_hypercube, 8, "dims=2x4", "dim=n", OC_EINVAL},
        {&oc__model_torus, 8, "dims=3x3", "9 nodes, not 8", OC_ENOTSUP},
        {&oc__model_torus, 8, "dims=4x", "ends with", OC_EINVAL},
        {&oc__model_mesh, 8, "dims=4xx2", "8x8", OC_EINVAL},
        {&oc__model_mesh, 8, "dims=0x8", "side length", OC_EINVAL},
        {&oc__model_torus, 8, "switching=ct", "sf or wh", OC_EINVAL},
        {&oc__model_torus, 8, "ports=2", "1 or all", OC_EINVAL},
        {&oc__model_torus, 8, "duplex=simplex", "half or full", OC_EINVAL},
        {&oc__model_torus, 8, "ts_us=-1", "ts_us", OC_ERANGE},
        {&oc__model_torus, 8, "mu=0", "mu", OC_ERANGE},
        {&oc__model_mesh, 8, "wavelengths=4", "wavelengths", OC_EINVAL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        oc_report *rep = map_on(bad[i].m, bad[i].N, 100, bad[i].p, &r, 1, &err, why, sizeof why);
        CHECK(!rep && err && strstr(why, bad[i].text), "%s N=%u %s: err %d, '%s'",
              bad[i].m->info.name, bad[i].N, bad[i].p ? bad[i].p : "", err, why);
        oc_report_free(rep);
    }
    oc__round_free(&r);
}

/* The independent check, fed placements the model would never make. */
static void test_checker(void) {
    char why[256] = "";
    oc__direct_cfg cfg;
    oc_kv *kv = oc_kv_new();
    oc_kv_set_pair(kv, "switching=wh");
    int rc = oc__direct_cfg_parse(OC_DIRECT_MESH, 8, kv, &cfg, why, sizeof why);
    CHECK(rc == 0 && cfg.ndims == 2 && cfg.dims[0] == 4 && cfg.dims[1] == 2, "mesh 4x2: %s", why);
    oc__direct_checker *c = NULL;
    CHECK(oc__direct_checker_new(&c) == 0, "checker");
    oc__round r = {0};
    oc__round_push(&r, 0, 3, OC_OP_COPY, 3 * 8, 1);
    oc__round_push(&r, 1, 2, OC_OP_COPY, 2 * 8 + 1, 1);
    /* 0 -> 3 and 1 -> 2 share link 1 -> 2: in the same step that is a conflict (and the two
     * messages also break nothing else: ports differ). */
    oc__direct_msg bad[2] = {{0, 3, 0, 1, 100}, {1, 2, 0, 1, 100}};
    oc__direct_claim claim = {
        .msgs = bad, .nmsgs = 2, .steps = 1, .crit_msgs = 1, .crit_hops = 3, .crit_bytes = 100};
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "link 1-2"), "shared link: %s", why);
    /* In two steps it is fine. */
    bad[1].step = 1;
    claim.steps = 2;
    claim.crit_msgs = 2;
    claim.crit_hops = 4;
    claim.crit_bytes = 200;
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == 0, "two steps: %s", why);
    /* A wrong time or step count is caught. */
    claim.crit_hops = 3;
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "model counted"), "time: %s", why);
    claim.crit_hops = 4;
    claim.steps = 3;
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "steps"), "steps: %s", why);
    /* A message that does not carry its transfer. */
    claim.steps = 2;
    bad[1].dst = 6;
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "carry"), "coverage: %s", why);
    bad[1].dst = 2;
    /* 1-port: two messages injected by one node in one step. */
    cfg.allport = 0;
    oc__round r2 = {0};
    oc__round_push(&r2, 0, 1, OC_OP_COPY, 8, 1);
    oc__round_push(&r2, 0, 4, OC_OP_COPY, 4 * 8, 1);
    oc__direct_msg two[2] = {{0, 1, 0, 1, 100}, {0, 4, 0, 1, 100}};
    oc__direct_claim c2 = {
        .msgs = two, .nmsgs = 2, .steps = 1, .crit_msgs = 1, .crit_hops = 1, .crit_bytes = 100};
    rc = oc__direct_check(c, &cfg, 0, &r2, 100, &c2, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "send port of node 0"), "1-port: %s", why);
    /* Store-and-forward: a two-hop message is refused by the check too. */
    cfg.wormhole = 0;
    claim.crit_hops = 0;
    rc = oc__direct_check(c, &cfg, 0, &r, 100, &claim, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && strstr(why, "store-and-forward"), "SF: %s", why);
    /* Non-combining with mu=10: a 100-byte transfer is 10 packets of 10 bytes, whatever the
     * model claims. One packet of 1 byte (consistent in steps and time) must be refused. */
    oc__direct_cfg nc;
    oc_kv *kv2 = oc_kv_new();
    oc_kv_set_pair(kv2, "switching=wh");
    oc_kv_set_pair(kv2, "combining=no");
    oc_kv_set_pair(kv2, "mu=10");
    rc = oc__direct_cfg_parse(OC_DIRECT_MESH, 8, kv2, &nc, why, sizeof why);
    CHECK(rc == 0 && !nc.combining && nc.mu == 10, "combining=no mu=10: %s", why);
    oc__round r3 = {0};
    oc__round_push(&r3, 0, 1, OC_OP_COPY, 8, 1);
    oc__direct_msg tiny[1] = {{0, 1, 0, 1, 1}};
    oc__direct_claim c3 = {
        .msgs = tiny, .nmsgs = 1, .steps = 1, .crit_msgs = 1, .crit_hops = 1, .crit_bytes = 1};
    rc = oc__direct_check(c, &nc, 0, &r3, 100, &c3, why, sizeof why);
    CHECK(rc == OC_ERESOURCE, "1 packet of 1 byte for 100 bytes at mu=10 refused: %s", why);
    /* The honest claim, 10 packets of 10 bytes in 10 steps, passes. */
    tiny[0] = (oc__direct_msg){0, 1, 0, 10, 10};
    c3 = (oc__direct_claim){
        .msgs = tiny, .nmsgs = 1, .steps = 10, .crit_msgs = 10, .crit_hops = 10, .crit_bytes = 100};
    rc = oc__direct_check(c, &nc, 0, &r3, 100, &c3, why, sizeof why);
    CHECK(rc == 0, "10 packets of 10 bytes: %s", why);
    /* 10 packets of the wrong size (100 bytes each) are refused too. */
    tiny[0].pkt_bytes = 100;
    c3.crit_bytes = 1000;
    rc = oc__direct_check(c, &nc, 0, &r3, 100, &c3, why, sizeof why);
    CHECK(rc == OC_ERESOURCE, "10 packets of 100 bytes at mu=10 refused: %s", why);
    oc__round_free(&r3);
    oc_kv_free(kv2);
    oc__round_free(&r);
    oc__round_free(&r2);
    oc__direct_checker_free(c);
    oc_kv_free(kv);
}

/* The notes' Lemma, evaluated here: T(z1,..): ceil(z1/2) floor(z1/2) P / 2 packets per channel. */
static void test_lower_bound(void) {
    char why[256] = "";
    int err;
    oc__round r = {0};
    oc__round_push(&r, 0, 1, OC_OP_COPY, 8, 1);
    /* T(8), full duplex, not combining: 4*4/2 = 8 packets per channel; 7 per 1-port node. */
    oc_report *rep = map_on(&oc__model_torus, 8, 100, "combining=no", &r, 1, &err, why, sizeof why);
    uint64_t lb = 0;
    CHECK(rep && num(rep, "bisection_packets_per_channel") == 8 &&
              oc_report_steps_lower_bound(rep, &lb) && lb == 8 &&
              close_to(num(rep, "time_lower_bound_s"), 8 * TS),
          "T(8) bound: %s", why);
    oc_report_free(rep);
    /* T(5,3): 3*2*9/(2*3) = 9 packets per channel; half duplex doubles it. */
    clear(&r, 1);
    oc__round_push(&r, 0, 1, OC_OP_COPY, 15, 1);
    rep = map_on(&oc__model_torus, 15, 100, "dims=5x3 duplex=half", &r, 1, &err, why, sizeof why);
    CHECK(rep && num(rep, "bisection_packets_per_channel") == 18, "T(5,3) half: %s", why);
    oc_report_free(rep);
    /* Q4 = M(2,2,2,2): 2^3 packets per channel; mesh M(4,4): 2*2*16/4 = 16. */
    rep = map_on(&oc__model_hypercube, 16, 100, NULL, &r, 1, &err, why, sizeof why);
    CHECK(rep && num(rep, "bisection_packets_per_channel") == 8 &&
              oc_report_steps_lower_bound(rep, &lb) && lb == 4,
          "Q4 bound (combining SF: the diameter): %s", why);
    oc_report_free(rep);
    rep = map_on(&oc__model_mesh, 16, 100, NULL, &r, 1, &err, why, sizeof why);
    CHECK(rep && num(rep, "bisection_packets_per_channel") == 16, "M(4,4) bound: %s", why);
    oc_report_free(rep);
    oc__round_free(&r);
}

/* ---- the algorithms, through the whole pipeline ---------------------------------------------- */

static const double MU = 1000; /* bytes of a packet (SIZE) */

/* Runs alltoall ALGO on NET with N nodes and up to 4 parameters each ("k=v", NULL to end). */
static oc_report *run(const char *algo, const char *net, uint32_t N, const char *const *params,
                      const char *const *nets, int *err, char *why, size_t len) {
    oc_kv *p = oc_kv_new(), *q = oc_kv_new();
    for (size_t i = 0; params && params[i]; i++)
        oc_kv_set_pair(p, params[i]);
    for (size_t i = 0; nets && nets[i]; i++)
        oc_kv_set_pair(q, nets[i]);
    oc_request req = {.collective = OC_ALLTOALL,
                      .algorithm = algo,
                      .network = net,
                      .nodes = N,
                      .bytes = (uint64_t)MU,
                      .params = p,
                      .net_params = q};
    oc_report *rep = NULL;
    *err = oc_run(&req, &rep, why, len);
    oc_kv_free(p);
    oc_kv_free(q);
    return rep;
}

static double formula_time(const oc_report *rep) {
    return rep->has_time_formula ? rep->time_formula_s : NAN;
}

static void test_sex(void) {
    char why[256] = "";
    int err;
    for (uint32_t n = 0; n <= 7; n++) {
        const uint32_t N = 1u << n;
        const double want = n * (TS + MU * TM * (N / 2));
        oc_report *rep = run("sex", "hypercube", N, NULL, NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == n &&
                  close_to(oc_report_time(rep), want) && close_to(formula_time(rep), want) &&
                  rep->steps_formula == n,
              "sex n=%u: %s", n, why);
        oc_report_free(rep);
        /* wormhole: one hop per round adds td; half duplex: the two directions take turns */
        static const char *const wh[] = {"switching=wh", NULL}, *const half[] = {"duplex=half",
                                                                                 NULL};
        rep = run("sex", "hypercube", N, NULL, wh, &err, why, sizeof why);
        CHECK(rep && close_to(oc_report_time(rep), want + n * TD), "sex wh n=%u: %s", n, why);
        oc_report_free(rep);
        rep = run("sex", "hypercube", N, NULL, half, &err, why, sizeof why);
        CHECK(rep && oc_report_steps(rep) == 2 * n, "sex half duplex n=%u: %s", n, why);
        oc_report_free(rep);
    }
    static const uint32_t bad[] = {3, 6, 12, 100};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        oc_report *rep = run("sex", "hypercube", bad[i], NULL, NULL, &err, why, sizeof why);
        CHECK(!rep && err == OC_ENOTSUP && strstr(why, "power of two"), "sex N=%u: %s", bad[i],
              why);
    }
    oc_report *rep = run("sex", "torus", 8, NULL, NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP, "sex on a torus: %s", why);
}

static void test_pipeline(void) {
    char why[256] = "";
    int err;
    static const uint32_t zs[] = {1, 2, 3, 5, 7, 12, 16};
    static const char *const one[] = {"directions=1", NULL}, *const two[] = {"directions=2", NULL};
    static const char *const half[] = {"duplex=half", NULL}, *const allfull[] = {
                                                                 "ports=all", "duplex=full", NULL};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        const uint32_t z = zs[i];
        const double Z = z;
        /* 1-port half duplex: (ts + mu tm z/2)(z-1), z-1 steps */
        const double t1 = (TS + MU * TM * Z / 2) * (Z - 1);
        oc_report *rep = run("pipeline", "torus", z, one, half, &err, why, sizeof why);
        if (z == 2) /* T(2) has one link: half duplex, 0 -> 1 and 1 -> 0 take turns */
            CHECK(rep && oc_report_steps(rep) == 2 && close_to(oc_report_time(rep), 2 * t1),
                  "pipeline z=2 half duplex: %s", why);
        else
            CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == z - 1 &&
                      close_to(oc_report_time(rep), t1) && close_to(formula_time(rep), t1),
                  "pipeline z=%u: %s", z, why);
        oc_report_free(rep);
        rep = run("pipeline", "torus", z, one, NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_steps(rep) == z - 1 && close_to(oc_report_time(rep), t1),
              "pipeline full duplex z=%u: %s", z, why);
        oc_report_free(rep);
        /* all-port full duplex, both ways: R = floor(z/2) rounds, R ts + mu tm R(R+1)/2; for z
         * odd that is the notes' sum, ts (z-1)/2 + mu tm (z^2-1)/8 */
        const double R = z / 2;
        const double t2 = R * TS + MU * TM * R * (R + 1) / 2;
        rep = run("pipeline", "torus", z, two, allfull, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == z / 2 &&
                  close_to(oc_report_time(rep), t2) && close_to(formula_time(rep), t2),
              "pipeline both ways z=%u: %s", z, why);
        if (rep && z % 2)
            CHECK(close_to(t2, TS * (Z - 1) / 2 + MU * TM * (Z * Z - 1) / 8) &&
                      close_to(num(rep, "notes_simplified_time_s"), t2 + MU * TM / 8),
                  "notes' simplification z=%u", z);
        oc_report_free(rep);
        /* both ways on 1-port nodes: a node's two messages serialise (two steps a round but the
         * last when z is even: the left pipeline is one round shorter) */
        rep = run("pipeline", "torus", z, two, NULL, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) &&
                  oc_report_steps(rep) == (z % 2 ? 2 * (z / 2)
                                           : z   ? 2 * (z / 2) - 1
                                                 : 0),
              "pipeline both ways, 1-port z=%u: %llu %s", z,
              rep ? (unsigned long long)oc_report_steps(rep) : 0ull, why);
        oc_report_free(rep);
    }
    static const char *const three[] = {"directions=3", NULL}, *const grid[] = {"dims=4x4", NULL};
    oc_report *rep = run("pipeline", "torus", 8, three, NULL, &err, why, sizeof why);
    CHECK(!rep && err && strstr(why, "directions"), "directions=3: %s", why);
    rep = run("pipeline", "torus", 16, NULL, grid, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP && strstr(why, "neighbours"), "pipeline on a 2-D torus: %s",
          why);
}

static void test_cartesian(void) {
    char why[256] = "";
    int err;
    static const uint32_t sides[][2] = {{4, 4}, {5, 5},  {3, 3}, {2, 2}, {3, 5},
                                        {7, 3}, {12, 1}, {1, 5}, {8, 8}, {6, 4}};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        const uint32_t A = sides[i][0], B = sides[i][1];
        char d[32], nd[40];
        snprintf(d, sizeof d, "dims=%ux%u", A, B);
        snprintf(nd, sizeof nd, "dims=%ux%u", A, B);
        const char *const p[] = {d, NULL}, *const q[] = {nd, NULL};
        const double a = A, b = B;
        const double want = (a + b - 2) * TS + MU * TM * a * b * (a + b - 2) / 2;
        oc_report *rep = run("cartesian", "torus", A * B, p, q, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == A + B - 2 &&
                  close_to(oc_report_time(rep), want) && close_to(formula_time(rep), want),
              "cartesian %ux%u: %s", A, B, why);
        if (rep && A == B) /* the notes' T(z,z) form */
            CHECK(close_to(oc_report_time(rep), (2 * TS + MU * TM * a * a) * (a - 1)),
                  "notes' T(z,z) form %u", A);
        oc_report_free(rep);
    }
    /* Default dims: the most square A x B on both sides (16 = 4x4 for the algorithm); the
     * torus's default is 1-D, so the algorithm's rows are not the network's. */
    static const char *const q44[] = {"dims=4x4", NULL}, *const p28[] = {"dims=2x8", NULL},
                             *const p35[] = {"dims=3x5", NULL};
    oc_report *rep = run("cartesian", "torus", 16, NULL, q44, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 6, "cartesian default dims: %s", why);
    oc_report_free(rep);
    rep = run("cartesian", "torus", 16, p28, q44, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP && strstr(why, "torus dims=4x4") && strstr(why, "-p dims=2x8"),
          "cartesian dims not the network's, both named: %s", why);
    /* Under wormhole the mismatched schedule runs, but no closed form is claimed for it. */
    static const char *const q44wh[] = {"dims=4x4", "switching=wh", NULL};
    rep = run("cartesian", "torus", 16, p28, q44wh, &err, why, sizeof why);
    int named = 0;
    for (size_t i = 0; rep && i < rep->nnotes; i++)
        named |=
            strstr(rep->notes[i], "-p dims=2x8, which differs from the network's dims=4x4") != NULL;
    CHECK(rep && oc_report_verified(rep) && !rep->has_time_formula && named,
          "cartesian 2x8 on a 4x4 wormhole torus: a note, no closed form: %s", why);
    oc_report_free(rep);
    rep = run("cartesian", "torus", 16, p35, q44, &err, why, sizeof why);
    CHECK(!rep && err && strstr(why, "15 nodes, not 16"), "cartesian dims product: %s", why);
}

static void test_dex(void) {
    char why[256] = "";
    int err;
    static const char *const wh[] = {"switching=wh", "combining=no", NULL};
    for (uint32_t n = 0; n <= 7; n++) {
        const uint32_t N = 1u << n;
        const double exact = (N - 1) * (TS + MU * TM) + n * (N / 2.0) * TD;
        const double notes = (N - 1) * (TS + n * TD / 2 + MU * TM);
        oc_report *rep = run("dex", "hypercube", N, NULL, wh, &err, why, sizeof why);
        CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == N - 1 &&
                  close_to(oc_report_time(rep), exact) && close_to(formula_time(rep), notes) &&
                  close_to(oc_report_time(rep) - formula_time(rep) + 1, n * TD / 2 + 1) &&
                  num(rep, "max_link_congestion") == (N > 1),
              "dex n=%u: %s", n, why);
        oc_report_free(rep);
    }
    /* Meshes with binary addresses: XY routing congests links up to max(z1,z2)/2. */
    static const uint32_t sides[][2] = {{2, 4}, {4, 2}, {4, 4}, {8, 8}, {2, 8}, {16, 1}};
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        const uint32_t A = sides[i][0], B = sides[i][1];
        char d[32];
        snprintf(d, sizeof d, "dims=%ux%u", A, B);
        const char *const q[] = {d, "switching=wh", "combining=no", NULL};
        oc_report *rep = run("dex", "mesh", A * B, NULL, q, &err, why, sizeof why);
        const uint32_t big = A > B ? A : B;
        uint64_t lb = 0;
        CHECK(rep && oc_report_verified(rep) && num(rep, "max_link_congestion") == big / 2 &&
                  oc_report_steps(rep) >= A * B - 1 && oc_report_steps_lower_bound(rep, &lb) &&
                  oc_report_steps(rep) >= lb,
              "dex mesh %ux%u: congestion %g, %s", A, B, rep ? num(rep, "max_link_congestion") : 0,
              why);
        oc_report_free(rep);
    }
    oc_report *rep = run("dex", "hypercube", 8, NULL, NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP && strstr(why, "store-and-forward"), "dex on SF: %s", why);
    rep = run("dex", "mesh", 12, NULL, wh, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP && strstr(why, "power of two"), "dex N=12: %s", why);
}

static void test_dex_torus(void) {
    char why[256] = "";
    int err;
    static const uint32_t zs[] = {1, 2, 3, 5, 7, 8, 12, 16, 33};
    static const char *const wh[] = {"switching=wh", "combining=no", NULL};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++) {
        const uint32_t z = zs[i];
        oc_report *rep = run("dex-torus", "torus", z, NULL, wh, &err, why, sizeof why);
        uint64_t lb = 0;
        const double h = ceil(z / 2.0);
        CHECK(rep && oc_report_verified(rep) && oc_report_rounds(rep) == z / 2 &&
                  oc_report_steps_lower_bound(rep, &lb) && oc_report_steps(rep) >= lb &&
                  rep->steps_formula == h * h / 2,
              "dex-torus z=%u: %s", z, why);
        oc_report_free(rep);
    }
    oc_report *rep = run("dex-torus", "torus", 8, NULL, NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP, "dex-torus on SF: %s", why);
}

/* Every algorithm on every option of its network: verified (semantics and the independent
 * resource check), never below the lower bound, and never faster than the same schedule on the
 * richer network (all-port, full duplex, combining). */
static void test_option_matrix(void) {
    char why[256] = "";
    int err;
    static const struct {
        const char *algo, *net;
        uint32_t N;
        const char *param, *dims;
        int wh_only;
    } cases[] = {
        {"sex", "hypercube", 8, NULL, NULL, 0},
        {"sex", "hypercube", 32, NULL, NULL, 0},
        {"pipeline", "torus", 7, "directions=1", NULL, 0},
        {"pipeline", "torus", 12, "directions=2", NULL, 0},
        {"cartesian", "torus", 15, "dims=5x3", "dims=5x3", 0},
        {"cartesian", "torus", 12, "dims=3x4", "dims=3x4", 0},
        {"dex", "hypercube", 16, NULL, NULL, 1},
        {"dex", "mesh", 8, NULL, "dims=2x4", 1},
        {"dex", "torus", 16, NULL, "dims=4x4", 1},
        {"dex-torus", "torus", 12, NULL, NULL, 1},
        {"dex-torus", "torus", 7, NULL, NULL, 1},
    };
    static const char *const sw[] = {"switching=sf", "switching=wh"},
                             *const po[] = {"ports=1", "ports=all"},
                             *const du[] = {"duplex=half", "duplex=full"},
                             *const co[] = {"combining=no", "combining=yes"};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int w = cases[k].wh_only; w < 2; w++) {
            for (int o = 0; o < 8; o++) {
                const char *const p[] = {cases[k].param, NULL};
                const char *const q[] = {sw[w],      po[o & 1],     du[(o >> 1) & 1],
                                         co[o >> 2], cases[k].dims, NULL};
                oc_report *rep =
                    run(cases[k].algo, cases[k].net, cases[k].N, p, q, &err, why, sizeof why);
                uint64_t lb = 0;
                CHECK(rep && oc_report_verified(rep) && oc_report_steps_lower_bound(rep, &lb) &&
                          oc_report_steps(rep) >= lb &&
                          oc_report_time(rep) + 1e-15 >= num(rep, "time_lower_bound_s"),
                      "%s on %s N=%u %s %s %s %s: %s", cases[k].algo, cases[k].net, cases[k].N,
                      q[0], q[1], q[2], q[3], why);
                if (rep && o < 7) {
                    const double t = oc_report_time(rep);
                    oc_report_free(rep);
                    /* the same schedule on all-port, full-duplex, combining nodes */
                    const char *const q7[] = {sw[w], po[1], du[1], co[1], cases[k].dims, NULL};
                    oc_report *r7 =
                        run(cases[k].algo, cases[k].net, cases[k].N, p, q7, &err, why, sizeof why);
                    CHECK(r7 && t + 1e-15 >= oc_report_time(r7), "%s %s option %d faster",
                          cases[k].algo, cases[k].net, o);
                    oc_report_free(r7);
                    continue;
                }
                oc_report_free(rep);
            }
        }
    }
}

/* The mesh M(5,3) (node x + 5y): XY routes and the Lemma's bound on a side that is not a power of
 * two. 0 -> 14 is (0,0) -> (4,2): 4 hops in x then 2 in y. */
static void test_mesh_35(void) {
    char why[256] = "";
    int err;
    oc__round r = {0};
    oc__round_push(&r, 0, 14, OC_OP_COPY, 14 * 15, 1);
    oc__round_push(&r, 10, 4, OC_OP_COPY, 4 * 15 + 10, 1); /* (0,2) -> (4,0): x along row 2 */
    oc_report *rep = map_on(&oc__model_mesh, 15, 1000, "dims=5x3 switching=wh ports=all", &r, 1,
                            &err, why, sizeof why);
    /* 0 -> 14 uses row 0 then column 4 upwards; 10 -> 4 uses row 2 then column 4 downwards:
     * different directed links, one step */
    CHECK(rep && oc_report_steps(rep) == 1 &&
              close_to(oc_report_time(rep), TS + 6 * TD + 1000 * TM) &&
              num(rep, "bisection_packets_per_channel") == 2 * 3 * 9 / 3.0,
          "M(5,3): %s", why);
    oc_report_free(rep);
    rep = map_on(&oc__model_mesh, 15, 1000, "dims=5x3 switching=wh duplex=half", &r, 1, &err, why,
                 sizeof why);
    CHECK(rep && oc_report_steps(rep) == 2, "M(5,3) half duplex shares column 4: %s", why);
    oc_report_free(rep);
    oc__round_free(&r);
}

int main(void) {
    test_model_basics();
    test_model_refusals();
    test_checker();
    test_lower_bound();
    test_sex();
    test_pipeline();
    test_cartesian();
    test_dex();
    test_dex_torus();
    test_option_matrix();
    test_mesh_35();
    return CHECK_SUMMARY();
}
