/*
 * test_fattree.c — tests of the two-level fat-tree model (src/net/fattree.c) and its independent
 * check (src/net/fattree_check.c).
 *
 * Hand-made rounds are mapped on the model directly and their times compared with closed forms
 * derived here from the model's rules (wrht Table II: 25 Gb/s links, 50 us per router, 64-byte
 * packets): a transfer of b bytes alone on its route takes ceil(b / 64) x 64 x 8 / 25e9 s plus
 * 50 us inside a leaf or 150 us through a spine; k transfers sharing a link take k times the
 * transmission. Whole runs (ring and rd all-reduce, the seed's E-Ring and E-RD) go through oc_run.
 * The check is fed deliberately wrong accounts and must refuse each.
 *
 * Every test asserts a result a wrong implementation would get wrong. The harness prints one line
 * per failure and ends with "N passed, M failed".
 */
#include "core/core.h"
#include "net/fattree.h"
#include "net/net.h"
#include "report/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model_map.h"

/* Table II's terms. */
static const double PKT = 64.0 * 8.0 / 25e9; /* one 64-byte packet at 25 Gb/s */
static const double HOP = 50e-6;             /* one router */

static double tx(uint64_t bytes) {
    return (double)oc__ceil_div(bytes, 64) * PKT;
}

/* ---- one or more hand-made rounds on the model ---- */

typedef struct rounds {
    oc__round r[8];
    size_t n;
} rounds;

static void put(rounds *s, size_t round, uint32_t src, uint32_t dst, uint32_t count) {
    static uint32_t label;
    if (round >= s->n) s->n = round + 1;
    if (oc__round_push(&s->r[round], src, dst, OC_OP_COPY, label++ % 64, count)) abort();
}

static void rounds_free(rounds *s) {
    for (size_t i = 0; i < s->n; i++)
        oc__round_free(&s->r[i]);
    memset(s, 0, sizeof *s);
}

/* Maps the rounds on N nodes, chunk_bytes = bytes, network parameters "k=v k=v" (or NULL);
 * returns the report (NULL on error, with the reason in why). */
static oc_report *map(uint32_t N, uint64_t bytes, const char *net, const rounds *s, int *err,
                      char *why, size_t len) {
    return map_on(&oc__model_fattree, N, bytes, net, s->r, s->n, err, why, len);
}

static void test_single_transfers(void) {
    char why[256] = "";
    int err;
    rounds s = {0};
    /* Inside a leaf: 1000 bytes are 16 packets, one router. */
    put(&s, 0, 0, 5, 1);
    oc_report *rep = map(32, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 16 * PKT + HOP), "leaf: %s %.15g", why,
          rep ? oc_report_time(rep) : 0);
    CHECK(rep && close_to(num(rep, "time_transmission_s"), 16 * PKT) &&
              close_to(num(rep, "time_router_delay_s"), HOP),
          "leaf breakdown");
    CHECK(rep && oc_report_steps(rep) == 1 && num(rep, "max_link_sharing") == 1 &&
              num(rep, "transfers_cross_leaf") == 0,
          "leaf figures");
    oc_report_free(rep);
    /* 1025 bytes are 17 packets. */
    rep = map(32, 1025, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 17 * PKT + HOP), "1025 bytes: %.15g",
          rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
    /* Across the spine: node 0 (leaf 0) to node 20 (leaf 1): three routers. */
    put(&s, 0, 0, 20, 1);
    rep = map(32, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 16 * PKT + 3 * HOP), "spine: %s %.15g", why,
          rep ? oc_report_time(rep) : 0);
    CHECK(rep && close_to(num(rep, "time_router_delay_s"), 3 * HOP) &&
              num(rep, "transfers_cross_leaf") == 1 && num(rep, "leaves") == 2 &&
              num(rep, "spines") == 16,
          "spine figures");
    /* The lower bound: the node's 16 packets and one router. */
    CHECK(rep && close_to(num(rep, "time_lower_bound_s"), 16 * PKT + HOP), "spine bound");
    oc_report_free(rep);
    rounds_free(&s);
    /* A transfer of 3 chunks is 3000 bytes, rounded up once: 47 packets, not 48. */
    put(&s, 0, 0, 5, 3);
    rep = map(32, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 47 * PKT + HOP), "3 chunks: %.15g",
          rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
    /* Other Table II terms through parameters: 10 Gb/s, 1 us routers, 128-byte packets. */
    put(&s, 0, 0, 20, 1);
    rep = map(32, 1000, "bandwidth_gbps=10 router_delay_us=1 packet_bytes=128", &s, &err, why,
              sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 8 * 128 * 8 / 10e9 + 3e-6), "parameters: %s %.15g",
          why, rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
}

static void test_sharing(void) {
    char why[256] = "";
    int err;
    rounds s = {0};
    /* 0 -> 16 and 1 -> 32 on 48 nodes: both destinations are position 0 of their leaves, so
     * D-mod-k sends both through spine 0 and they share the link leaf 0 -> spine 0. */
    put(&s, 0, 0, 16, 1);
    put(&s, 0, 1, 32, 1);
    oc_report *rep = map(48, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 2 * 16 * PKT + 3 * HOP), "uplink: %s %.15g", why,
          rep ? oc_report_time(rep) : 0);
    CHECK(rep && num(rep, "max_link_sharing") == 2 && num(rep, "rounds_contended") == 1,
          "uplink sharing %g", rep ? num(rep, "max_link_sharing") : 0);
    /* The bound sees only the nodes' own links: 16 packets each. */
    CHECK(rep && close_to(num(rep, "time_lower_bound_s"), 16 * PKT + HOP), "uplink bound");
    oc_report_free(rep);
    rounds_free(&s);
    /* 0 -> 16 and 1 -> 17: spines 0 and 1, nothing shared. */
    put(&s, 0, 0, 16, 1);
    put(&s, 0, 1, 17, 1);
    rep = map(48, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 16 * PKT + 3 * HOP) &&
              num(rep, "max_link_sharing") == 1,
          "disjoint: %.15g", rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
    /* One node sending twice inside its leaf shares its injection link. */
    put(&s, 0, 0, 1, 1);
    put(&s, 0, 0, 2, 1);
    rep = map(16, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 2 * 16 * PKT + HOP), "injection: %.15g",
          rep ? oc_report_time(rep) : 0);
    CHECK(rep && close_to(num(rep, "time_lower_bound_s"), oc_report_time(rep)), "injection bound");
    oc_report_free(rep);
    rounds_free(&s);
    /* Incast: three senders into node 0 share its ejection link; the bound is reached. */
    for (uint32_t i = 1; i <= 3; i++)
        put(&s, 0, i, 0, 1);
    rep = map(16, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 3 * 16 * PKT + HOP) &&
              num(rep, "max_link_sharing") == 3,
          "incast: %.15g", rep ? oc_report_time(rep) : 0);
    CHECK(rep && close_to(num(rep, "time_to_lower_bound_ratio"), 1.0), "incast bound");
    oc_report_free(rep);
    rounds_free(&s);
    /* The slowest transfer, not the most loaded link, sets the round: a two-packet transfer
     * through the spine (2 x PKT + 150 us) beats a contended one inside a leaf (2 x 16 packets +
     * 50 us) when 32 packets take less than 100 us. */
    put(&s, 0, 0, 1, 1);
    put(&s, 0, 2, 1, 1);
    put(&s, 0, 3, 20, 1);
    rep = map(32, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 16 * PKT + 3 * HOP) &&
              close_to(num(rep, "time_router_delay_s"), 3 * HOP),
          "critical transfer: %.15g", rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
    /* Oversubscribed leaves (ports=8, leaf_down=6: 2 spines): 0 -> 6 and 2 -> 8 both use spine
     * (dst mod 6) mod 2 = 0, 1 -> 7 uses spine 1. */
    put(&s, 0, 0, 6, 1);
    put(&s, 0, 1, 7, 1);
    put(&s, 0, 2, 8, 1);
    rep = map(12, 1000, "ports=8 leaf_down=6", &s, &err, why, sizeof why);
    CHECK(rep && close_to(oc_report_time(rep), 2 * 16 * PKT + 3 * HOP) &&
              num(rep, "max_link_sharing") == 2 && num(rep, "oversubscription") == 3,
          "oversubscribed: %s %.15g", why, rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    rounds_free(&s);
    /* Rounds add up: the three rounds above would be mapped one after another. */
    put(&s, 0, 0, 5, 1);
    put(&s, 1, 0, 20, 1);
    put(&s, 1, 1, 36, 1);
    put(&s, 2, 7, 8, 2);
    rep = map(48, 1000, NULL, &s, &err, why, sizeof why);
    double want = (16 * PKT + HOP) + (2 * 16 * PKT + 3 * HOP) + (32 * PKT + HOP);
    CHECK(rep && oc_report_steps(rep) == 3 && close_to(oc_report_time(rep), want),
          "three rounds: %.15g, want %.15g", rep ? oc_report_time(rep) : 0, want);
    oc_report_free(rep);
    rounds_free(&s);
    /* A transfer to itself or outside the tree is refused, not mapped. */
    put(&s, 0, 3, 3, 1);
    rep = map(16, 1000, NULL, &s, &err, why, sizeof why);
    CHECK(!rep && err == OC_EINVAL && strstr(why, "3 -> 3"), "self transfer: %s", why);
    rounds_free(&s);
}

/* ---- whole runs ---- */

static oc_report *run(oc_collective coll, const char *algo, uint32_t N, uint64_t bytes,
                      const char *net, int *err, char *why, size_t len) {
    oc_kv *kv = oc_kv_new();
    if (net) {
        char buf[256], *save = NULL;
        snprintf(buf, sizeof buf, "%s", net);
        for (char *p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save))
            oc_kv_set_pair(kv, p);
    }
    oc_report *rep = NULL;
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = "fattree",
                      .nodes = N,
                      .bytes = bytes,
                      .net_params = kv};
    *err = oc_run(&req, &rep, why, len);
    oc_kv_free(kv);
    return rep;
}

static void test_ring_allreduce(void) {
    char why[256] = "";
    int err;
    /* 2(N-1) rounds; every transfer goes to the next node, so no link is ever shared and every
     * round is one chunk's transmission plus the routers of the longest route in it: 1 inside a
     * single leaf (N <= 16), 3 as soon as the ring crosses between leaves (N > 16: node 15 ->
     * 16, and the last node -> 0, in every round). Exact for every N. */
    const uint32_t sizes[] = {2, 5, 16, 17, 64, 100, 128};
    const uint64_t S = 100000000; /* 100 MB */
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint32_t N = sizes[k];
        oc_report *rep = run(OC_ALLREDUCE, "ring", N, S, NULL, &err, why, sizeof why);
        double step = tx(oc__ceil_div(S, N)) + (N > 16 ? 3 : 1) * HOP;
        double want = 2.0 * (N - 1) * step;
        CHECK(rep && oc_report_verified(rep), "ring N=%u: %s", N, why);
        CHECK(rep && oc_report_steps(rep) == 2 * (N - 1) && oc_report_rounds(rep) == 2 * (N - 1),
              "ring N=%u steps %llu", N, rep ? (unsigned long long)oc_report_steps(rep) : 0);
        CHECK(rep && close_to(oc_report_time(rep), want), "ring N=%u: %.15g s, want %.15g", N,
              rep ? oc_report_time(rep) : 0, want);
        CHECK(rep && num(rep, "max_link_sharing") == 1 && num(rep, "rounds_contended") == 0,
              "ring N=%u shares a link", N);
        double f = NAN;
        rep ? oc_report_number(rep, "step_time_s", &f) : 0;
        CHECK(rep && close_to(f, step), "ring N=%u step time %.15g", N, f);
        oc_report_free(rep);
    }
    /* The other ring collectives run on the tree too. */
    oc_report *rep = run(OC_REDUCESCATTER, "ring", 40, 4000000, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == 39 &&
              close_to(oc_report_time(rep), 39 * (tx(100000) + 3 * HOP)),
          "reducescatter ring: %s", why);
    oc_report_free(rep);
    rep = run(OC_ALLGATHER, "ring", 40, 100000, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == 39 &&
              close_to(oc_report_time(rep), 39 * (tx(100000) + 3 * HOP)),
          "allgather ring: %s", why);
    oc_report_free(rep);
}

static void test_rd_allreduce(void) {
    char why[256] = "";
    int err;
    const uint64_t S = 1000000; /* 15625 packets */
    const double T = tx(S);
    /* N = 8: three whole-vector exchanges inside one leaf. */
    oc_report *rep = run(OC_ALLREDUCE, "rd", 8, S, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == 3 &&
              close_to(oc_report_time(rep), 3 * (T + HOP)),
          "rd 8: %s %.15g", why, rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    /* N = 12: MPICH's fix-up round, three exchanges among 8, the copy back: 5 rounds, one leaf. */
    rep = run(OC_ALLREDUCE, "rd", 12, S, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == 5 &&
              close_to(oc_report_time(rep), 5 * (T + HOP)) && num(rep, "max_link_sharing") == 1,
          "rd 12: %s %.15g", why, rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
    /* N = 12 on routers of 8 ports (leaves of 4, 3 leaves, 4 spines). Nodes 0,2,4,6 fold into
     * 1,3,5,7 (inside leaves); the core is 1,3,5,7,8,9,10,11. bit 1: 1-3, 5-7, 8-9, 10-11 inside
     * leaves. bit 2: 1-5, 3-7 cross (spines 1 and 3, distinct), 8-10, 9-11 inside. bit 4: 1-8,
     * 3-9, 5-10, 7-11 all cross; going up from leaf 2, 8 -> 1 and 10 -> 5 both take spine
     * (dst mod 4) = 1, and 9 -> 3 and 11 -> 7 both spine 3: two transfers per uplink. Then the
     * copies back inside leaves. Time: 3 x (T + 50us) + (T + 150us) + (2T + 150us). */
    rep = run(OC_ALLREDUCE, "rd", 12, S, "ports=8", &err, why, sizeof why);
    double want = 3 * (T + HOP) + (T + 3 * HOP) + (2 * T + 3 * HOP);
    CHECK(rep && oc_report_verified(rep) && oc_report_steps(rep) == 5 &&
              close_to(oc_report_time(rep), want),
          "rd 12 ports=8: %s %.15g want %.15g", why, rep ? oc_report_time(rep) : 0, want);
    CHECK(rep && num(rep, "max_link_sharing") == 2 && num(rep, "rounds_contended") == 1 &&
              num(rep, "leaves") == 3 && num(rep, "spines") == 4,
          "rd 12 ports=8 figures");
    oc_report_free(rep);
    /* N = 128 (E-RD of wrht IV.C): bits 1..8 inside leaves of 16, bits 16..64 across; at full
     * bisection with D-mod-k nothing is shared. */
    rep = run(OC_ALLREDUCE, "rd", 128, S, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 7 &&
              close_to(oc_report_time(rep), 7 * T + 4 * HOP + 3 * 3 * HOP) &&
              num(rep, "max_link_sharing") == 1,
          "rd 128: %s %.15g", why, rep ? oc_report_time(rep) : 0);
    oc_report_free(rep);
}

static void test_large_and_bad(void) {
    char why[256] = "";
    int err;
    /* 1024 nodes: 64 leaves of 16, so the spines get 64 ports (spine_ports=auto). */
    oc_report *rep = run(OC_ALLREDUCE, "rd", 1024, 6400, NULL, &err, why, sizeof why);
    CHECK(rep && oc_report_steps(rep) == 10 && num(rep, "leaves") == 64 &&
              close_to(oc_report_time(rep), 10 * tx(6400) + 4 * HOP + 6 * 3 * HOP),
          "rd 1024: %s", why);
    CHECK(rep && rep->net_params && oc_kv_get(rep->net_params, "spine_ports") &&
              strcmp(oc_kv_get(rep->net_params, "spine_ports"), "64") == 0,
          "spine ports at 1024");
    oc_report_free(rep);
    /* Capped spines refuse a tree they cannot build, and say how to fix it. */
    rep = run(OC_ALLREDUCE, "rd", 1024, 6400, "spine_ports=32", &err, why, sizeof why);
    CHECK(!rep && err && strstr(why, "64 leaf routers") && strstr(why, "spine_ports=auto"),
          "capped spines: %s", why);
    oc_report_free(rep);
    /* Oversubscribed leaves fit 992 nodes under 32-port spines. */
    rep = run(OC_ALLREDUCE, "rd", 992, 6400, "spine_ports=32 leaf_down=31", &err, why, sizeof why);
    CHECK(rep && num(rep, "leaves") == 32 && num(rep, "spines") == 1 &&
              num(rep, "oversubscription") == 31,
          "oversubscribed 992: %s", why);
    oc_report_free(rep);
    struct {
        const char *net, *says;
    } bad[] = {
        {"ports=1", "ports=1: expected a whole number from 2"},
        {"bandwidth_gbps=0", "bandwidth_gbps=0"},
        {"bandwidth_gbps=-3", "bandwidth_gbps=-3"},
        {"leaf_down=32", "leaf_down=32: expected a whole number from 1 to 31"},
        {"ports=8 leaf_down=0", "leaf_down=0"},
        {"spine_ports=many", "spine_ports=many"},
        {"router_delay_us=-1", "router_delay_us=-1"},
        {"packet_bytes=0", "packet_bytes=0"},
        {"wavelengths=64", "unknown fattree network parameter 'wavelengths'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        why[0] = 0;
        rep = run(OC_ALLREDUCE, "ring", 16, 1600, bad[i].net, &err, why, sizeof why);
        CHECK(!rep && err && strstr(why, bad[i].says), "%s accepted or unclear: %s", bad[i].net,
              why);
        oc_report_free(rep);
    }
    /* Algorithms made for the optical ring only are not offered on the tree. */
    rep = run(OC_ALLREDUCE, "wrht", 16, 1600, NULL, &err, why, sizeof why);
    CHECK(!rep && err == OC_ENOTSUP, "wrht on fattree: %s", why);
    oc_report_free(rep);
}

/* ---- the independent check ---- */

static void test_check(void) {
    char why[256] = "";
    const oc__ft_topo t = {.nodes = 32, .down = 16, .up = 16, .leaves = 2};
    const oc__ft_cost cost = {
        .chunk_bytes = 1000, .packet_bytes = 64, .packet_s = PKT, .router_s = HOP};
    oc__ft_checker *c = NULL;
    CHECK(oc__ft_checker_new(&t, &c) == 0, "checker");
    /* Vertices: nodes 0..31, leaves 32, 33, spines 34..49. */
    oc__round r = {0};
    oc__round_push(&r, 0, 20, OC_OP_COPY, 0, 1); /* cross: 0 -> leaf 0 -> spine 4 -> leaf 1 -> 20 */
    oc__round_push(&r, 1, 2, OC_OP_COPY, 1, 1);  /* inside leaf 0 */
    oc__ft_path paths[2] = {{{0, 32, 38, 33, 20}, 5}, {{1, 32, 2}, 3}};
    uint64_t bottleneck[2] = {16, 16};
    oc__ft_link_load links[6] = {{0, 32, 16, 1},  {32, 38, 16, 1}, {38, 33, 16, 1},
                                 {33, 20, 16, 1}, {1, 32, 16, 1},  {32, 2, 16, 1}};
    oc__ft_assignment a = {.paths = paths,
                           .bottleneck = bottleneck,
                           .links = links,
                           .nlinks = 6,
                           .round_time = 16 * PKT + 3 * HOP};
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == 0, "right account: %s", why);
    /* A load one packet short. */
    links[2].packets = 15;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "round 4") && strstr(why, "spine 4 -> leaf 1") &&
              strstr(why, "16 packets"),
          "short load: %s", why);
    links[2].packets = 16;
    /* A wrong sharing count. */
    links[0].transfers = 2;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE, "sharing: %s", why);
    links[0].transfers = 1;
    /* A loaded link missing from the account. */
    a.nlinks = 5;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "6 links"),
          "missing link: %s", why);
    /* The same link twice (in place of another). */
    links[5] = links[4];
    a.nlinks = 6;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "twice"),
          "twice: %s", why);
    links[5] = (oc__ft_link_load){32, 2, 16, 1};
    /* A route through the spine to the wrong leaf (leaf 0 is not linked to node 20). */
    paths[0].v[3] = 32;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "leaf 0 to node 20"),
          "wrong leaf: %s", why);
    paths[0].v[3] = 33;
    /* A route that ends elsewhere. */
    paths[1].v[2] = 3;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "shortest"),
          "wrong end: %s", why);
    paths[1].v[2] = 2;
    /* A route inside a leaf that detours through a spine is not shortest. */
    oc__ft_path detour = {{1, 32, 34, 32, 2}, 5};
    paths[1] = detour;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE, "detour: %s", why);
    paths[1] = (oc__ft_path){{1, 32, 2}, 3};
    /* A node on another leaf's port. */
    paths[0].v[1] = 33;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE, "port: %s", why);
    paths[0].v[1] = 32;
    /* A wrong bottleneck, and a wrong round time. */
    bottleneck[0] = 32;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "most loaded"),
          "bottleneck: %s", why);
    bottleneck[0] = 16;
    a.round_time = 16 * PKT + HOP;
    CHECK(oc__ft_check(c, 4, &r, &a, &cost, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "slowest"),
          "round time: %s", why);
    a.round_time = 16 * PKT + 3 * HOP;
    /* And the account is right again (no state left from the refusals). */
    CHECK(oc__ft_check(c, 5, &r, &a, &cost, why, sizeof why) == 0, "right again: %s", why);
    oc__round_free(&r);
    oc__ft_checker_free(c);
}

int main(void) {
    test_single_transfers();
    test_sharing();
    test_ring_allreduce();
    test_rd_allreduce();
    test_large_and_bad();
    test_check();
    return CHECK_SUMMARY();
}
