/*
 * test_rack.c — tests of the multi-tenant rack allocator (src/studies/rack.c; lumorph seed,
 * section 3 and Fig. 2a):
 *   - Fig. 2a: with the free chips split 2 + 2 over two servers, lumorph places User 4's 4 chips
 *     and both fixed-slice racks (TPU-like, SiPAC(2,4)) reject them; oc__rack_fig2a says so;
 *   - fibres: a tenant spanning servers reserves min(c_a, c_b) fibres per ordered pair for rhd,
 *     falls back to the ring's one fibre per hop when those are short, and is rejected without;
 *   - slices: requests round up to aligned blocks (8 for 5 on tpu, 9 for 4 on SiPAC(3,2)), a
 *     request above the largest slice is rejected;
 *   - accounting, by code independent of the allocator: placed + rejected = arrivals, no GPU given
 *     twice, free count right after every leave, utilisation + rounding + idle = 1, and
 *     oc__rack_check after every step of a random sequence on racks of 1x7, 3x5, 5x12 and 7x3;
 *   - algorithm choice: ring for g = 6, rhd for g = 8, and for g = 16 the faster radix (compared
 *     with oc_run directly);
 *   - determinism: the same seed gives byte-identical JSON;
 *   - trace files: every malformed line is OC_EPARSE naming source:line;
 *   - stopping: the shape's progress callback is told of every event of the three passes (done
 *     never going back, ending at 3 x events) without changing the result, and a callback that
 *     answers "stop" ends the replay with OC_ECANCELED and no result (Python's Ctrl-C).
 */
#include "core/progress.h"
#include "studies/rack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static oc__rack_shape shape(uint32_t servers, uint32_t tiles, uint32_t fibres) {
    oc__rack_shape s = {servers, tiles, fibres, 4, 4, UINT64_C(1) << 20, NULL, NULL, NULL};
    return s;
}

/* Replays t on s into r and checks it worked; on failure frees t and returns nonzero (a failed
 * replay returns no result to free). */
static int replayed_or_freed(const oc__rack_shape *s, oc__rack_trace *t, oc__rack_result *r,
                             char *why, size_t len) {
    const int rc = oc__rack_replay(s, t, r, why, len);
    CHECK(!rc, "%s", why);
    if (rc) oc__rack_trace_free(t);
    return rc;
}

/* Output of a writer into a malloc'd string. */
static char *capture(int (*fn)(const oc__rack_result *, FILE *), const oc__rack_result *r) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fn(r, f);
    fclose(f);
    return buf;
}

static void test_fig2a(void) {
    char why[256] = "";
    const oc__rack_shape s = {2, 8, 2, 2, 4, UINT64_C(64) << 20, NULL, NULL, NULL};
    int placed[OC__RACK_ARCHS];
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        oc__rack *r;
        CHECK(!oc__rack_new(&s, (oc__rack_arch)a, 4, &r, why, sizeof why), "%s", why);
        CHECK(!oc__rack_occupy(r, 0, 0, 6, why, sizeof why), "%s", why);
        CHECK(!oc__rack_occupy(r, 1, 8, 4, why, sizeof why), "%s", why);
        CHECK(!oc__rack_occupy(r, 2, 12, 2, why, sizeof why), "%s", why);
        CHECK(oc__rack_free_gpus(r) == 4, "free %u", oc__rack_free_gpus(r));
        oc__rack_place p;
        placed[a] = oc__rack_place_tenant(r, 3, 4, &p, why, sizeof why);
        if (a == OC__RACK_LUMORPH && placed[a] == 1) {
            CHECK(p.servers == 2 && p.max_per_server == 2, "servers %u max %u", p.servers,
                  p.max_per_server);
            CHECK(p.rhd_circuits == 1 && p.fibres == 4, "rhd %d fibres %u", p.rhd_circuits,
                  p.fibres);
            for (uint32_t i = 6; i < 16; i += 8) /* tiles 6, 7 and 14, 15 */
                CHECK(oc__rack_owner(r, i) == 3 && oc__rack_owner(r, i + 1) == 3, "tile %u", i);
        }
        CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
        oc__rack_free(r);
    }
    CHECK(placed[OC__RACK_LUMORPH] == 1, "lumorph %d", placed[OC__RACK_LUMORPH]);
    CHECK(placed[OC__RACK_TPU] == 0, "tpu %d", placed[OC__RACK_TPU]);
    CHECK(placed[OC__RACK_SIPAC] == 0, "sipac %d", placed[OC__RACK_SIPAC]);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && !oc__rack_fig2a(f, NULL, why, sizeof why), "%s", why);
    if (f) fclose(f);
    CHECK(buf && strstr(buf, "agrees with the paper"), "%s", buf ? buf : "");
    CHECK(buf && strstr(buf, "tpu          rejected"), "%s", buf ? buf : "");
    free(buf);
}

static void test_fibres(void) {
    char why[256] = "";
    oc__rack_shape s = shape(2, 4, 1);
    oc__rack *r;
    oc__rack_place p;
    CHECK(!oc__rack_new(&s, OC__RACK_LUMORPH, 8, &r, why, sizeof why), "%s", why);
    /* best fit: a and b share server 0, c goes to server 1 */
    CHECK(oc__rack_place_tenant(r, 0, 2, &p, why, sizeof why) == 1 && p.servers == 1, "a");
    CHECK(oc__rack_place_tenant(r, 1, 2, &p, why, sizeof why) == 1 && p.servers == 1, "b");
    CHECK(oc__rack_owner(r, 0) == 0 && oc__rack_owner(r, 2) == 1, "best fit: b on server 0 too");
    CHECK(oc__rack_place_tenant(r, 2, 2, &p, why, sizeof why) == 1 && p.first == 4, "c");
    CHECK(oc__rack_release(r, 0) == 0, "release a");
    /* free: server 0 tiles 0-1, server 1 tiles 6-7: 4 GPUs = rhd needs 2 fibres each way, only 1 */
    CHECK(oc__rack_place_tenant(r, 3, 4, &p, why, sizeof why) == 1, "%s", why);
    CHECK(p.servers == 2 && p.rhd_circuits == 0 && p.fibres == 2, "ring fallback: rhd %d fibres %u",
          p.rhd_circuits, p.fibres);
    CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
    /* free now: server 0 tiles 2-3, server 1 tiles 4-5; the ring tenant holds the only fibre
     * each way, so a request that must span both servers is rejected although 4 GPUs are free */
    CHECK(oc__rack_release(r, 1) == 0 && oc__rack_release(r, 2) == 0, "release b, c");
    CHECK(oc__rack_place_tenant(r, 4, 3, &p, why, sizeof why) == 0, "spans, fibres taken");
    CHECK(strstr(why, "fibre") != NULL, "%s", why);
    CHECK(oc__rack_largest(r) == 2, "largest %u", oc__rack_largest(r));
    CHECK(oc__rack_release(r, 3) == 0, "release the ring tenant: its fibres come back");
    CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
    CHECK(oc__rack_largest(r) == 8, "largest %u", oc__rack_largest(r));
    oc__rack_free(r);

    /* no fibres at all: a request spanning servers is rejected although GPUs are free */
    s = shape(2, 4, 0);
    CHECK(!oc__rack_new(&s, OC__RACK_LUMORPH, 4, &r, why, sizeof why), "%s", why);
    CHECK(oc__rack_place_tenant(r, 0, 3, &p, why, sizeof why) == 1, "a");
    CHECK(oc__rack_place_tenant(r, 1, 3, &p, why, sizeof why) == 1, "b");
    CHECK(oc__rack_place_tenant(r, 2, 2, &p, why, sizeof why) == 0, "c spans and has no fibre");
    CHECK(strstr(why, "fibre") != NULL, "%s", why);
    CHECK(oc__rack_largest(r) == 1, "largest %u", oc__rack_largest(r));
    oc__rack_free(r);
}

static void test_slices(void) {
    char why[256] = "";
    oc__rack_shape s = shape(3, 4, 0); /* 12 chips: tpu blocks up to 8 */
    oc__rack *r;
    oc__rack_place p;
    CHECK(!oc__rack_new(&s, OC__RACK_TPU, 8, &r, why, sizeof why), "%s", why);
    CHECK(oc__rack_place_tenant(r, 0, 5, &p, why, sizeof why) == 1, "%s", why);
    CHECK(p.allocated == 8 && p.first == 0, "5 -> 8 at 0: %u at %u", p.allocated, p.first);
    CHECK(oc__rack_place_tenant(r, 1, 3, &p, why, sizeof why) == 1, "%s", why);
    CHECK(p.allocated == 4 && p.first == 8, "3 -> 4 at 8: %u at %u", p.allocated, p.first);
    CHECK(oc__rack_place_tenant(r, 2, 1, &p, why, sizeof why) == 0, "full");
    CHECK(oc__rack_release(r, 0) == 0, "release");
    CHECK(oc__rack_place_tenant(r, 3, 9, &p, why, sizeof why) == 0, "9 -> 16 > 12");
    CHECK(strstr(why, "largest") != NULL, "%s", why);
    CHECK(oc__rack_place_tenant(r, 4, 2, &p, why, sizeof why) == 1 && p.first == 0, "2 at 0");
    /* buddy rule: the next 2 goes beside it (fuller parent), not at 4 */
    CHECK(oc__rack_place_tenant(r, 5, 2, &p, why, sizeof why) == 1 && p.first == 2, "2 at %u",
          p.first);
    CHECK(oc__rack_largest(r) == 4, "largest %u", oc__rack_largest(r));
    CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
    oc__rack_free(r);

    s = shape(3, 5, 0); /* 15 GPUs, SiPAC(3,2): slices 1, 3, 9 */
    s.sipac_r = 3;
    s.sipac_l = 2;
    CHECK(!oc__rack_new(&s, OC__RACK_SIPAC, 8, &r, why, sizeof why), "%s", why);
    CHECK(oc__rack_place_tenant(r, 0, 4, &p, why, sizeof why) == 1, "%s", why);
    CHECK(p.allocated == 9 && p.first == 0, "4 -> 9: %u at %u", p.allocated, p.first);
    CHECK(oc__rack_place_tenant(r, 1, 2, &p, why, sizeof why) == 1, "%s", why);
    CHECK(p.allocated == 3 && p.first == 9, "2 -> 3 at 9: %u at %u", p.allocated, p.first);
    CHECK(oc__rack_place_tenant(r, 2, 10, &p, why, sizeof why) == 0, "10 > 9 = r^l");
    CHECK(oc__rack_place_tenant(r, 3, 3, &p, why, sizeof why) == 1 && p.first == 12, "3 at 12");
    CHECK(oc__rack_free_gpus(r) == 0, "free %u", oc__rack_free_gpus(r));
    CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
    oc__rack_free(r);
}

/* A random sequence of places and releases, with the bookkeeping re-derived by this test. */
static void test_invariants(void) {
    static const uint32_t shapes[][3] = {{1, 7, 0}, {3, 5, 1}, {5, 12, 2}, {7, 3, 1}};
    char why[256] = "";
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        oc__rack_shape s = shape(shapes[k][0], shapes[k][1], shapes[k][2]);
        s.sipac_r = 3;
        s.sipac_l = 3;
        const uint32_t N = s.servers * s.tiles, M = 200;
        for (int a = 0; a < OC__RACK_ARCHS; a++) {
            oc__rack *r;
            CHECK(!oc__rack_new(&s, (oc__rack_arch)a, M, &r, why, sizeof why), "%s", why);
            uint32_t *held = calloc(M, sizeof *held), *asked = calloc(M, sizeof *asked);
            uint64_t x = 12345 + k;
            uint32_t placed = 0, rejected = 0, arrivals = 0, bad = 0;
            for (uint32_t t = 0; t < M; t++) {
                x = x * 6364136223846793005u + 1442695040888963407u;
                const uint32_t g = 1 + (uint32_t)((x >> 33) % (N < 20 ? N : 20));
                oc__rack_place p;
                arrivals++;
                int rc = oc__rack_place_tenant(r, t, g, &p, why, sizeof why);
                if (rc == 1) {
                    placed++;
                    held[t] = p.allocated;
                    asked[t] = g;
                    if (p.allocated < g || (a == OC__RACK_LUMORPH && p.allocated != g)) bad++;
                } else {
                    rejected += rc == 0;
                }
                /* release an earlier tenant every other step */
                if (t % 2 && held[t / 2]) {
                    CHECK(!oc__rack_release(r, t / 2), "release");
                    held[t / 2] = 0;
                }
                /* this test's own count: every GPU has at most one owner (the owner array), the
                 * owners' counts equal what each tenant was given, the rest is free */
                uint32_t *count = calloc(M, sizeof *count), nfree = 0;
                for (uint32_t i = 0; i < N; i++) {
                    int64_t o = oc__rack_owner(r, i);
                    if (o < 0)
                        nfree++;
                    else if ((uint32_t)o < M)
                        count[o]++;
                }
                for (uint32_t u = 0; u < M; u++)
                    if (count[u] != held[u]) bad++;
                if (nfree != oc__rack_free_gpus(r)) bad++;
                free(count);
                if (oc__rack_check(r, why, sizeof why)) bad++;
            }
            CHECK(placed + rejected == arrivals, "%s %ux%u: %u + %u != %u",
                  oc__rack_arch_name((oc__rack_arch)a), s.servers, s.tiles, placed, rejected,
                  arrivals);
            CHECK(bad == 0, "%s %ux%u: %u inconsistencies (%s)",
                  oc__rack_arch_name((oc__rack_arch)a), s.servers, s.tiles, bad, why);
            CHECK(placed > 0 && rejected > 0, "%s %ux%u: placed %u rejected %u",
                  oc__rack_arch_name((oc__rack_arch)a), s.servers, s.tiles, placed, rejected);
            /* after every tenant leaves, the whole rack is free again */
            for (uint32_t t = 0; t < M; t++)
                if (held[t]) oc__rack_release(r, t);
            CHECK(oc__rack_free_gpus(r) == N && oc__rack_largest(r) > 0, "all free");
            CHECK(!oc__rack_check(r, why, sizeof why), "%s", why);
            free(held);
            free(asked);
            oc__rack_free(r);
        }
    }
}

static void test_replay(void) {
    char why[256] = "";
    static const uint32_t shapes[][3] = {{5, 12, 2}, {7, 3, 1}, {1, 7, 0}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        oc__rack_shape s = shape(shapes[k][0], shapes[k][1], shapes[k][2]);
        oc__rack_trace t;
        oc__rack_result r1, r2;
        CHECK(!oc__rack_trace_random(42, 60, s.servers * s.tiles, &t, why, sizeof why), "%s", why);
        const int rc1 = oc__rack_replay(&s, &t, &r1, why, sizeof why);
        CHECK(!rc1, "%s", why);
        const int rc2 = oc__rack_replay(&s, &t, &r2, why, sizeof why);
        CHECK(!rc2, "%s", why);
        if (rc1 || rc2) { /* nothing to compare (a failed replay returns nothing) */
            oc__rack_result_free(&r1);
            oc__rack_result_free(&r2);
            oc__rack_trace_free(&t);
            continue;
        }
        for (int a = 0; a < OC__RACK_ARCHS; a++) {
            const oc__rack_arch_result *x = &r1.arch[a];
            CHECK(x->arrivals == 60 && x->placed + x->rejected == x->arrivals, "%llu + %llu",
                  (unsigned long long)x->placed, (unsigned long long)x->rejected);
            CHECK(fabs(x->utilisation + x->rounding + x->idle - 1) < 1e-9, "sum %g",
                  x->utilisation + x->rounding + x->idle);
            CHECK(x->stranded >= 0 && x->stranded <= x->idle + 1e-12, "stranded %g idle %g",
                  x->stranded, x->idle);
            if (a == OC__RACK_LUMORPH) CHECK(x->rounding == 0, "lumorph rounds %g", x->rounding);
        }
        char *j1 = capture(oc__rack_write_json, &r1), *j2 = capture(oc__rack_write_json, &r2);
        CHECK(j1 && j2 && !strcmp(j1, j2), "same trace, same JSON");
        free(j1);
        free(j2);
        oc__rack_result_free(&r1);
        oc__rack_result_free(&r2);
        oc__rack_trace_free(&t);
    }
    /* another seed gives another trace */
    oc__rack_trace a, b;
    CHECK(!oc__rack_trace_random(1, 50, 256, &a, why, sizeof why), "%s", why);
    CHECK(!oc__rack_trace_random(2, 50, 256, &b, why, sizeof why), "%s", why);
    int same = 1;
    for (size_t i = 0; i < 50; i++)
        same &= a.tenants[i].gpus == b.tenants[i].gpus;
    CHECK(!same, "seeds 1 and 2 give the same sizes");
    oc__rack_trace_free(&a);
    oc__rack_trace_free(&b);
}

static double run_time(const char *algo, const char *radix, const char *net, uint32_t n,
                       const char *tps) {
    oc_kv *p = oc_kv_new(), *k = oc_kv_new();
    if (radix) oc_kv_set(p, "radix", radix);
    if (tps) oc_kv_set(k, "tiles_per_server", tps);
    oc_request req = {.collective = OC_ALLREDUCE,
                      .algorithm = algo,
                      .network = net,
                      .nodes = n,
                      .bytes = UINT64_C(1) << 20,
                      .params = p,
                      .net_params = k,
                      .skip_data_check = 1};
    oc_report *rep = NULL;
    char why[256];
    double t = NAN;
    if (!oc_run(&req, &rep, why, sizeof why)) t = oc_report_time(rep);
    oc_report_free(rep);
    oc_kv_free(p);
    oc_kv_free(k);
    return t;
}

static void test_algorithms(void) {
    static const char trace[] = "# a trace\n"
                                "0 arrive six 6\n"
                                "0 arrive eight 8\n"
                                "1 arrive sixteen 16\n"
                                "2 leave six\n"
                                "3 leave eight 8\n";
    char why[256] = "";
    oc__rack_shape s = shape(2, 16, 8);
    s.sipac_r = 2; /* SiPAC(2,5): slices 8, 8, 16 fit the 32 GPUs */
    s.sipac_l = 5;
    oc__rack_trace t;
    oc__rack_result r;
    CHECK(!oc__rack_trace_parse(trace, sizeof trace - 1, "t.trace", 32, &t, why, sizeof why), "%s",
          why);
    CHECK(t.ntenants == 3 && t.nevents == 5 && t.tenants[2].leave < 0, "%zu tenants", t.ntenants);
    if (replayed_or_freed(&s, &t, &r, why, sizeof why)) return;
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        const oc__rack_tenant_result *y = r.tenant[a];
        CHECK(y[0].placed && !strcmp(y[0].ar.algo, "ring"), "%s: g=6 runs %s",
              oc__rack_arch_name((oc__rack_arch)a), y[0].ar.algo);
        CHECK(y[1].placed && !strcmp(y[1].ar.algo, "rhd"), "%s: g=8 runs %s",
              oc__rack_arch_name((oc__rack_arch)a), y[1].ar.algo);
        CHECK(y[1].ar.radix == 2, "g=8 is not a power of 4: radix %u", y[1].ar.radix);
        CHECK(y[2].placed && !strcmp(y[2].ar.algo, "rhd"), "g=16 %s", y[2].ar.algo);
    }
    /* g = 16 on one server of the switch: the faster of radix 2 and 4, as oc_run says */
    const double t2 = run_time("rhd", "2", "switch", 16, NULL),
                 t4 = run_time("rhd", "4", "switch", 16, NULL);
    const oc__rack_tenant_result *y = &r.tenant[OC__RACK_TPU][2];
    CHECK(y->ar.radix == (t4 < t2 ? 4u : 2u) && y->ar.time_s == fmin(t2, t4),
          "radix %u time %g (r2 %g r4 %g)", y->ar.radix, y->ar.time_s, t2, t4);
    const double f6 = run_time("ring", NULL, "fabric", 6, "6");
    CHECK(r.tenant[OC__RACK_LUMORPH][0].ar.time_s == f6, "lumorph g=6: %g vs %g",
          r.tenant[OC__RACK_LUMORPH][0].ar.time_s, f6);
    oc__rack_result_free(&r);
    oc__rack_trace_free(&t);
}

static void test_trace_errors(void) {
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"0 arrive a 4\n1 arrive b\n", "x:2:"},
        {"0 arrive a 4\n1 sit a 4\n", "x:2:"},
        {"0 leave a\n", "x:1: leave of 'a'"},
        {"0 arrive a 4\n1 leave a\n2 leave a\n", "x:3: leave of 'a'"},
        {"0 arrive a 0\n", "x:1: a tenant needs at least 1 GPU"},
        {"0 arrive a 33\n", "x:1: 33 GPUs asked, the rack has 32"},
        {"-1 arrive a 4\n", "x:1: time '-1'"},
        {"0 arrive a -3\n", "x:1: GPUS '-3' is negative"},
        {"0 arrive a 4x\n", "x:1: GPUS '4x'"},
        {"zero arrive a 4\n", "x:1: time 'zero' is not a number"},
        {"5 arrive a 4\n4 arrive b 4\n", "x:2: time 4 is earlier"},
        {"0 arrive a 4\n1 arrive a 2\n",
         "x:2: tenant 'a' is already in the rack (arrived on line 1)"},
        {"0 arrive a 4\n1 leave a 5\n", "x:2: leave of 'a' says 5 GPUs"},
        {"0 arrive a 4 extra\n", "x:1: expected"},
        {"# nothing\n\n", "x: no arrivals"},
        {"", "x: no arrivals"},
        {"0 arrive aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 4\n", "x:1: id"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[256] = "";
        oc__rack_trace t;
        int rc = oc__rack_trace_parse(cases[i].text, strlen(cases[i].text), "x", 32, &t, why,
                                      sizeof why);
        CHECK(rc == OC_EPARSE && strstr(why, cases[i].want), "case %zu: rc %d why '%s'", i, rc,
              why);
        CHECK(t.tenants == NULL && t.events == NULL, "case %zu: nothing returned", i);
    }
    /* a valid one: the id can come back after it left; no trailing newline */
    char why[256] = "";
    oc__rack_trace t;
    static const char ok[] = "0 arrive a 4\n1.5 leave a\n2 arrive a 3 # again\n3\tleave\ta";
    CHECK(!oc__rack_trace_parse(ok, sizeof ok - 1, "x", 32, &t, why, sizeof why), "%s", why);
    CHECK(t.ntenants == 2 && t.nevents == 4 && t.tenants[1].gpus == 3 && t.tenants[1].leave == 3,
          "%zu tenants", t.ntenants);
    oc__rack_trace_free(&t);
}

/* Figures worked by hand: 8 GPUs (2 x 4); a asks 3, b asks 1, both for 10 time units. tpu and
 * SiPAC(2,3) give a 4 at 0 and b 1 at 4: utilisation 4/8, rounding 1/8, idle 3/8, and of the 3
 * free GPUs (5, 6, 7) only the aligned pair 6-7 is placeable, so 1/8 is stranded. Lumorph puts
 * both on server 0 (best fit) and leaves server 1 whole: idle 4/8, nothing stranded. */
static void test_figures(void) {
    static const char trace[] = "0 arrive a 3\n0 arrive b 1\n10 leave a\n10 leave b\n";
    char why[256] = "";
    oc__rack_shape s = shape(2, 4, 1);
    s.sipac_r = 2;
    s.sipac_l = 3;
    oc__rack_trace t;
    oc__rack_result r;
    CHECK(!oc__rack_trace_parse(trace, sizeof trace - 1, "f", 8, &t, why, sizeof why), "%s", why);
    if (replayed_or_freed(&s, &t, &r, why, sizeof why)) return;
    for (int a = 0; a < OC__RACK_ARCHS; a++) {
        const oc__rack_arch_result *x = &r.arch[a];
        const int lum = a == OC__RACK_LUMORPH;
        CHECK(x->placed == 2 && x->rejected == 0, "%s placed %llu", oc__rack_arch_name(a),
              (unsigned long long)x->placed);
        CHECK(x->utilisation == 0.5, "%s utilisation %g", oc__rack_arch_name(a), x->utilisation);
        CHECK(x->rounding == (lum ? 0 : 0.125), "%s rounding %g", oc__rack_arch_name(a),
              x->rounding);
        CHECK(x->idle == (lum ? 0.5 : 0.375), "%s idle %g", oc__rack_arch_name(a), x->idle);
        CHECK(x->stranded == (lum ? 0 : 0.125), "%s stranded %g", oc__rack_arch_name(a),
              x->stranded);
    }
    CHECK(r.tenant[OC__RACK_TPU][0].where.allocated == 4 &&
              r.tenant[OC__RACK_TPU][1].where.first == 4,
          "tpu: a %u, b at %u", r.tenant[OC__RACK_TPU][0].where.allocated,
          r.tenant[OC__RACK_TPU][1].where.first);
    oc__rack_result_free(&r);
    oc__rack_trace_free(&t);
}

/* What the replay told its progress callback; stop_at: the call that answers "stop" (0: none). */
typedef struct heard {
    uint64_t calls, last_done, last_total, stop_at;
    int went_back, wrong_unit;
} heard;

static int listen(void *ctx, const char *what, uint64_t done, uint64_t total) {
    heard *h = ctx;
    h->calls++;
    if (strcmp(what, "events")) h->wrong_unit = 1;
    if (done < h->last_done) h->went_back = 1;
    h->last_done = done, h->last_total = total;
    return h->stop_at && h->calls >= h->stop_at;
}

static void test_stop(void) {
    char why[256] = "";
    oc__rack_shape s = shape(5, 12, 2);
    oc__rack_trace t;
    oc__rack_result plain, told, stopped;
    CHECK(!oc__rack_trace_random(11, 40, s.servers * s.tiles, &t, why, sizeof why), "%s", why);
    if (replayed_or_freed(&s, &t, &plain, why, sizeof why)) return;
    oc__progress_every_step(1); /* every event reports: the count is checked at each */
    heard h = {0};
    s.progress = listen, s.progress_ctx = &h;
    int rc = oc__rack_replay(&s, &t, &told, why, sizeof why);
    CHECK(!rc, "%s", why);
    const uint64_t events = 3 * (uint64_t)t.nevents;
    CHECK(h.calls >= events && !h.went_back && !h.wrong_unit, "%llu calls for %llu events",
          (unsigned long long)h.calls, (unsigned long long)events);
    CHECK(h.last_done == events && h.last_total == events, "ended at %llu of %llu (want %llu)",
          (unsigned long long)h.last_done, (unsigned long long)h.last_total,
          (unsigned long long)events);
    if (!rc) {
        char *a = capture(oc__rack_write_json, &plain), *b = capture(oc__rack_write_json, &told);
        CHECK(a && b && !strcmp(a, b), "a replay told of its events gives the same JSON");
        free(a);
        free(b);
        oc__rack_result_free(&told);
    }
    /* "stop" in the second pass (tpu's): OC_ECANCELED, nothing returned */
    h = (heard){.stop_at = t.nevents + 3};
    memset(&stopped, 0xA5, sizeof stopped);
    rc = oc__rack_replay(&s, &t, &stopped, why, sizeof why);
    CHECK(rc == OC_ECANCELED && strstr(why, "cancelled") && strstr(why, "tpu"), "rc %d: %s", rc,
          why);
    /* the answer's call, then only oc__progress_end's last report (its answer is not read) */
    CHECK(h.calls == h.stop_at + 1, "the replay went on after the stop: %llu calls, stop at %llu",
          (unsigned long long)h.calls, (unsigned long long)h.stop_at);
    CHECK(!stopped.tenant[0] && !stopped.tenant[1] && !stopped.tenant[2],
          "a stopped replay returns no result");
    if (!rc) oc__rack_result_free(&stopped);
    oc__progress_every_step(0);
    oc__rack_result_free(&plain);
    oc__rack_trace_free(&t);
}

int main(void) {
    test_stop();
    test_figures();
    test_fig2a();
    test_fibres();
    test_slices();
    test_invariants();
    test_replay();
    test_algorithms();
    test_trace_errors();
    return CHECK_SUMMARY();
}
