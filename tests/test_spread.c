/*
 * test_spread.c — the ring's spreading rule (net/ring.c, item 6; core/netcfg.h's
 * oc__ring_cfg.spread), one rule for every algorithm.
 *
 * spread=1 (the default): a transfer of b chunks may take b wavelength-slots of a step. spread=0:
 * a transfer keeps to one lightpath whatever it carries, and a step lasts as its largest bundle.
 * What is asserted, each a thing a wrong implementation gets wrong:
 *  1. H-Ring at spread=0 with every group size g of N (N = 6, 12, 30, 36, w = 64: every round
 *     one step): steps = 2(g-1) + 2(N/g - 1) and time = 2(g-1) s(N/g chunks) + 2(N/g-1) s(1
 *     chunk), s(b) the ring's step on b chunks' bytes computed here from its parameters; at
 *     spread=1 the time is the steps x s(1 chunk) it always was (the default unchanged).
 *  2. The search contract at both settings: H-Ring's default g against every divisor pinned, for
 *     N = 2, 3, 5, 7, 12, 16, 30, 36 at w = 1, 2, 64 and two sizes (1 KiB, 64 MiB); WRHT's default
 * (all-reduce, all-gather) against every (m, alltoall, pieces <= 8) pinned at spread=0 for N = 2,
 * 3, 5, 7, 8, 12 at w = 1, 2 (tests/test_search_wrht.c holds the spread=1 grid).
 *  3. Every run's physical bound (src/bounds, relay depth alone at spread=0) is at most its
 *     mapped steps and time, and every bound the search used is at most its candidate's cost.
 *  4. A transfer never spreads at spread=0: WRHT with P pieces is never faster than with one.
 *  5. OpTree, whose search bounds count one chunk a lightpath, maps every candidate at spread=0:
 *     its default is no slower than the radix lists of N = 16 pinned.
 */
#include "search_cases.h"

#include <stdlib.h>

static cost run_one(oc_collective coll, const char *algo, uint32_t N, uint32_t w, int spread,
                    uint64_t bytes, const char *params, oc_report **keep) {
    oc_kv *par = oc_kv_new(), *net = oc_kv_new();
    char buf[96];
    kv_words(par, params);
    snprintf(buf, sizeof buf, "wavelengths=%u spread=%d", w, spread);
    kv_words(net, buf);
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = "ring",
                      .nodes = N,
                      .bytes = bytes,
                      .params = par,
                      .net_params = net,
                      .skip_data_check = 1,
                      .explain = 1};
    char why[512] = "";
    oc_report *rep = NULL;
    cost c = cost_of(&req, &rep, why, sizeof why);
    if (c.ok) {
        CHECK(rep->has_pbound && rep->pbound_steps <= c.steps &&
                  rep->pbound_time_s <= c.time * (1 + 1e-12),
              "%s N=%u w=%u spread=%d %s: physical bound %llu steps %.9g s above the run's %llu "
              "steps %.9g s",
              algo, N, w, spread, params, (unsigned long long)rep->pbound_steps, rep->pbound_time_s,
              (unsigned long long)c.steps, c.time);
        if (!params[0]) check_bounds(rep, algo);
    } else {
        printf("  (refused: %s N=%u w=%u spread=%d %s: %s)\n", algo, N, w, spread, params, why);
    }
    if (keep && c.ok)
        *keep = rep;
    else
        oc_report_free(rep);
    oc_kv_free(par);
    oc_kv_free(net);
    return c;
}

/* The ring's step on `bytes` at its default rates (ring.c's step_parts): 25 us + one 1 ns cycle
 * per 32-byte flit + whole 128-byte packets at 40 Gb/s. */
static double ring_step(uint64_t bytes) {
    return 25e-6 + (double)((bytes + 31) / 32) * 1e-9 +
           (double)((bytes + 127) / 128 * 128) * 8.0 / 40e9;
}

static void hring_times(void) {
    const uint32_t Ns[] = {6, 12, 30, 36};
    const uint64_t bytes = 1 << 20;
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++) {
        const uint32_t N = Ns[i];
        const uint64_t c = (bytes + N - 1) / N;
        for (uint32_t g = 1; g <= N; g++) {
            if (N % g) continue;
            char p[32];
            snprintf(p, sizeof p, "g=%u", g);
            const uint64_t G = N / g, r1 = 2 * (g - 1), r2 = 2 * (G - 1);
            cost z = run_one(OC_ALLREDUCE, "hring", N, 64, 0, bytes, p, NULL);
            cost o = run_one(OC_ALLREDUCE, "hring", N, 64, 1, bytes, p, NULL);
            const double tz = (double)r1 * ring_step(G * c) + (double)r2 * ring_step(c);
            CHECK(z.ok && z.steps == r1 + r2 && same_time(z.time, tz),
                  "hring N=%u g=%u spread=0: %llu steps %.9g s, expected %llu steps %.9g s", N, g,
                  (unsigned long long)z.steps, z.time, (unsigned long long)(r1 + r2), tz);
            CHECK(o.ok && same_time(o.time, (double)o.steps * ring_step(c)),
                  "hring N=%u g=%u spread=1: %.9g s is not %llu steps of one chunk", N, g, o.time,
                  (unsigned long long)o.steps);
            if (G > 1 && g > 1)
                CHECK(z.ok && o.ok && z.time > o.time,
                      "hring N=%u g=%u: bundles on one lightpath (%.9g s) must be slower than "
                      "spread (%.9g s)",
                      N, g, z.time, o.time);
        }
    }
}

static void hring_search(int small) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 16, 30, 36}, ws[] = {1, 2, 64};
    const uint64_t sizes[] = {1 << 10, 64 << 20};
    for (size_t i = 0; i < (small ? 4 : sizeof Ns / sizeof *Ns); i++)
        for (size_t wi = 0; wi < 3; wi++)
            for (size_t s = 0; s < (small ? 1u : 2u); s++)
                for (int spread = 0; spread <= 1; spread++) {
                    const uint32_t N = Ns[i];
                    cost best = {0, 0, 0};
                    uint32_t bg = 0;
                    for (uint32_t g = 1; g <= N; g++) {
                        if (N % g) continue;
                        char p[32];
                        snprintf(p, sizeof p, "g=%u", g);
                        cost c =
                            run_one(OC_ALLREDUCE, "hring", N, ws[wi], spread, sizes[s], p, NULL);
                        if (c.ok &&
                            (!best.ok || (!same_time(c.time, best.time) && c.time < best.time) ||
                             (same_time(c.time, best.time) && c.steps < best.steps))) {
                            best = c;
                            bg = g;
                        }
                    }
                    cost d = run_one(OC_ALLREDUCE, "hring", N, ws[wi], spread, sizes[s], "", NULL);
                    CHECK(d.ok && best.ok && same_time(d.time, best.time) && d.steps <= best.steps,
                          "hring N=%u w=%u spread=%d bytes=%llu: default %.9g s %llu steps, best "
                          "g=%u %.9g s %llu steps",
                          N, ws[wi], spread, (unsigned long long)sizes[s], d.time,
                          (unsigned long long)d.steps, bg, best.time,
                          (unsigned long long)best.steps);
                }
}

/* WRHT at spread=0: the default against every pinned set (m, alltoall, pieces <= 8). */
static void wrht_search(oc_collective coll, uint32_t N, uint32_t w) {
    const int striped = coll == OC_ALLREDUCE;
    const uint64_t bytes = 1 << 20;
    cost best = {0, 0, 0};
    char bestp[96] = "", p[96];
    for (uint32_t m = 2; m <= (N > 2 ? N : 2); m++) {
        uint32_t a2a[64], ns = 0, c = N;
        a2a[ns++] = 1;
        while (c > 1) {
            a2a[ns++] = c;
            c = (c + m - 1) / m;
        }
        for (uint32_t s = 0; s < ns; s++) {
            cost one = {0, 0, 0}; /* pieces=1 */
            for (uint32_t P = 1; P <= (striped ? 8u : 1u); P++) {
                if (striped)
                    snprintf(p, sizeof p, "m=%u alltoall=%u pieces=%u", m, a2a[s], P);
                else
                    snprintf(p, sizeof p, "m=%u alltoall=%u", m, a2a[s]);
                cost x = run_one(coll, "wrht", N, w, 0, bytes, p, NULL);
                if (P == 1) one = x;
                if (striped && P > 1) {
                    CHECK(x.ok && one.ok && x.time >= one.time * (1 - 1e-12),
                          "wrht N=%u w=%u spread=0 %s: %.9g s, faster than one piece's %.9g s", N,
                          w, p, x.time, one.time);
                }
                if (x.ok && (!best.ok || (!same_time(x.time, best.time) && x.time < best.time) ||
                             (same_time(x.time, best.time) && x.steps < best.steps))) {
                    best = x;
                    snprintf(bestp, sizeof bestp, "%s", p);
                }
            }
        }
    }
    cost d = run_one(coll, "wrht", N, w, 0, bytes, "", NULL);
    CHECK(d.ok && best.ok && same_time(d.time, best.time) && d.steps <= best.steps,
          "wrht %s N=%u w=%u spread=0: default %.9g s %llu steps, best %s %.9g s %llu steps",
          striped ? "allreduce" : "allgather", N, w, d.time, (unsigned long long)d.steps, bestp,
          best.time, (unsigned long long)best.steps);
}

/* An algorithm whose search bounds count one chunk a lightpath (OpTree's) maps every candidate at
 * spread=0 (src/run/search.c): its default is no slower than any radix list pinned. */
static void optree_unbounded(int small) {
    static const char *const lists[] = {"radices=16",  "radices=4x4",   "radices=2x8",
                                        "radices=8x2", "radices=2x2x4", "radices=2x2x2x2"};
    for (uint32_t w = 1; w <= (small ? 1u : 2u); w++) {
        cost d = run_one(OC_ALLGATHER, "optree", 16, w, 0, 4096, "", NULL);
        for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
            cost c = run_one(OC_ALLGATHER, "optree", 16, w, 0, 4096, lists[i], NULL);
            CHECK(d.ok && (!c.ok || d.time <= c.time * (1 + 1e-9)),
                  "optree N=16 w=%u spread=0: default %.9g s, %s %.9g s", w, d.time, lists[i],
                  c.time);
        }
    }
}

int main(void) {
    /* under the sanitizers (tests/spread.cmake) the smaller N of each part */
    const int small = getenv("OC_TEST_SANITIZED") != NULL;
    optree_unbounded(small);
    hring_times();
    hring_search(small);
    static const uint32_t wN[] = {2, 3, 5, 7, 8, 12};
    for (size_t i = 0; i < (small ? 3 : sizeof wN / sizeof *wN); i++)
        for (uint32_t w = 1; w <= 2; w++) {
            const uint32_t N = wN[i];
            wrht_search(OC_ALLREDUCE, N, w);
            wrht_search(OC_ALLGATHER, N, w);
        }
    return CHECK_SUMMARY();
}
