/*
 * test_ring_layout.c — the ring model (src/net/ring.c, ring_check.c) gives the same wavelengths,
 * steps, time and verdicts whatever the layout of its working memory.
 *
 * The golden values in ring_layout_golden.h were written by this test's `print` mode on the
 * model as it was before its per-lightpath state was made small (the layout of 2026-11-25: seven
 * arrays a transfer, a deadline a colour), and rewritten once since (the header says why). Every case is a 64-bit FNV-1a hash of everything the
 * model says about it:
 *  1. every algorithm that runs on the ring, N in {1, 2, 3, 5, 7, 12, 100}, at the default 64
 *     wavelengths and at 2 wavelengths on 2 fibres (more steps, fragments, colours that cross
 *     the cut): the Chrome trace (every lightpath's step, direction, fibre, wavelengths and
 *     links, timed) and the run's return code, reason, steps, lower bound and time;
 *  2. random rounds (any ends, bundles of 1 to 9 chunks, ties at N/2, some rounds with a
 *     transfer repeated) mapped on the model directly with an observer: every use, the steps and
 *     the lower bound.
 *  3. colours past 2^32 (big bundles: Bruck's last rounds on 2^20 nodes need 2^37): a round of
 *     three 2^31-chunk lightpaths over one link maps to 3 x 2^31 colours and passes the check,
 *     which sorts such a direction's ranges by comparison; an assignment that reuses a colour
 *     past 2^32 is refused there with the conflict named.
 * Run `test_ring_layout print` to see the hashes.
 */
#include "check.h"
#include "core/result.h"
#include "net/net.h"
#include "net/ring.h"
#include "opticoll.h"

#include "model_map.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct golden {
    const char *coll, *algo;
    uint32_t N;
    int net; /* index into nets[] */
    uint64_t hash;
} golden;

typedef struct golden_random {
    uint32_t N, seed;
    uint64_t hash;
} golden_random;

#include "ring_layout_golden.h"

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};
static const char *const nets[] = {"", "wavelengths=2 fibres=2"};

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_text(uint64_t h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static uint64_t fnv_text(uint64_t h, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return fnv(h, buf, n > 0 ? (size_t)n : 0);
}

/* Part 1: one algorithm at one N on one of nets[]. */
static uint64_t algo_case(const oc_algorithm_info *a, uint32_t N, int net) {
    oc_kv *nkv = oc_kv_new();
    kv_add_words(nkv, nets[net], " ");
    oc_request req = {.collective = a->collective,
                      .algorithm = a->name,
                      .network = "ring",
                      .nodes = N,
                      .bytes = 4096,
                      .net_params = nkv,
                      .skip_data_check = 1};
    char why[512] = "", *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    CHECK(mem != NULL, "memstream");
    int rc = oc_export_chrome(&req, mem, why, sizeof why);
    fclose(mem);
    uint64_t h = fnv(0xcbf29ce484222325ull, text, len);
    free(text);
    h = fnv_text(h, "export %d %s", rc, rc ? why : "");
    oc_report *rep = NULL;
    why[0] = 0;
    rc = oc_run(&req, &rep, why, sizeof why);
    h = fnv_text(h, "run %d %s", rc, rc ? why : "");
    if (!rc)
        h = fnv_text(h, " %" PRIu64 " %.17g %.17g %.17g", oc_report_steps(rep),
                     num(rep, "steps_lower_bound"), oc_report_time(rep),
                     num(rep, "worst_round_ratio"));
    oc_report_free(rep);
    oc_kv_free(nkv);
    return h;
}

/* Part 2: an observer that hashes every step and use. */
typedef struct hasher {
    oc__observer obs;
    uint64_t h;
} hasher;

static int hash_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps,
                     double start_s, double dur_s, char *why, size_t whylen) {
    (void)why, (void)whylen;
    hasher *k = (hasher *)o;
    k->h = fnv_text(k->h, "s %" PRIu64 " %" PRIu64 " %" PRIu64 " %.17g %.17g", round, step, nsteps,
                    start_s, dur_s);
    return 0;
}

static int hash_use(oc__observer *o, const oc__use *u, char *why, size_t whylen) {
    (void)why, (void)whylen;
    hasher *k = (hasher *)o;
    k->h = fnv_text(k->h, "u %" PRIu64 " %" PRIu64 " %u>%u %u %u %u %u %u %u %s", u->round, u->step,
                    u->t->src, u->t->dst, u->cls0, u->cls1, u->seg, u->seglen, u->pos0, u->npos,
                    u->resource);
    return 0;
}

static uint32_t rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* Eight random rounds of up to 3N transfers on N nodes at w wavelengths, 1 fibre. */
static uint64_t random_case(uint32_t N, uint32_t seed) {
    uint64_t s = seed;
    const uint32_t w = 1 + seed % 3;
    oc__round r[8];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 8; i++) {
        uint32_t n = 1 + rnd(&s) % (3 * N);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t a = rnd(&s) % N, b = rnd(&s) % N;
            if (i % 3 == 1 && k % 4 == 0) b = (a + N / 2) % N; /* ties */
            if (a == b) b = (a + 1) % N;
            uint32_t c = 1 + rnd(&s) % 9;
            CHECK(oc__round_push(&r[i], a, b, OC_OP_COPY, 0, c) == 0, "push");
            if (i == 5 && k % 7 == 0) /* the same lightpath twice */
                CHECK(oc__round_push(&r[i], a, b, OC_OP_COPY, 0, c) == 0, "push");
        }
    }
    oc__spec spec;
    char why[512] = "";
    oc__netrun *run = NULL;
    oc_kv *kv = oc_kv_new();
    char wl[32];
    snprintf(wl, sizeof wl, "%u", w);
    oc_kv_set(kv, "wavelengths", wl);
    hasher k = {{hash_step, hash_use}, 0xcbf29ce484222325ull};
    oc__grid grid;
    int rc = oc__spec_init(&spec, OC_ALLTOALL, N, 0, 4096, 1, why, sizeof why);
    CHECK(rc == 0, "spec: %s", why);
    rc = oc__model_create(&oc__model_ring, &spec, kv, 1, &run, why, sizeof why);
    CHECK(rc == 0, "create: %s", why);
    rc = oc__model_ring.observe(run, &k.obs, &grid, why, sizeof why);
    CHECK(rc == 0, "observe: %s", why);
    oc__sink *sink = oc__model_ring.sink(run);
    for (int i = 0; i < 8 && !rc; i++)
        rc = sink->round(sink, (uint64_t)i, &r[i], why, sizeof why);
    k.h = fnv_text(k.h, "rc %d %s", rc, rc ? why : "");
    if (!rc) {
        oc_report *rep = oc__report_new();
        rc = oc__model_ring.finish(run, rep, why, sizeof why);
        CHECK(rc == 0, "finish: %s", why);
        k.h = fnv_text(k.h, " %" PRIu64 " %.17g %.17g", oc_report_steps(rep),
                       num(rep, "steps_lower_bound"), oc_report_time(rep));
        oc_report_free(rep);
    }
    oc__model_ring.destroy(run);
    oc__spec_free(&spec);
    oc_kv_free(kv);
    for (int i = 0; i < 8; i++)
        oc__round_free(&r[i]);
    return k.h;
}

static const uint32_t random_sizes[] = {2, 3, 5, 7, 12, 100, 257};

/* Part 3: colours past 2^32. */
static void big_colours(void) {
    const uint32_t big = UINT32_C(1) << 31;
    oc__round r = {0};
    /* 0 -> 2, 1 -> 3 and 0 -> 3 on 8 nodes all cross link 1->2 clockwise */
    CHECK(oc__round_push(&r, 0, 2, OC_OP_COPY, 0, big) == 0 &&
              oc__round_push(&r, 1, 3, OC_OP_COPY, 0, big) == 0 &&
              oc__round_push(&r, 0, 3, OC_OP_COPY, 0, big) == 0,
          "push");
    int err = 0;
    char why[512] = "";
    oc_report *rep =
        map_on(&oc__model_ring, 8, 4096, "wavelengths=64", &r, 1, &err, why, sizeof why);
    CHECK(err == 0 && rep, "three 2^31-chunk lightpaths: %s", why);
    uint64_t lb = 0;
    if (rep)
        CHECK(oc_report_steps(rep) == 3 * (uint64_t)big / 64 &&
                  oc_report_steps_lower_bound(rep, &lb) == 1 && lb == 3 * (uint64_t)big / 64,
              "3 x 2^31 colours on one link, 64 a step: %llu steps",
              (unsigned long long)oc_report_steps(rep));
    oc_report_free(rep);
    /* The check, by hand: the third reuses the first's colours past 2^32. */
    oc__ring_checker *c = NULL;
    CHECK(oc__ring_checker_new(8, &c) == 0, "checker");
    uint64_t dir[1] = {0};
    const uint64_t hi = UINT64_C(1) << 32;
    oc__ring_frag f[3] = {{.c0 = hi, .xfer = 0, .n = big},
                          {.c0 = hi + big, .xfer = 1, .n = big},
                          {.c0 = 0, .xfer = 2, .n = big}};
    oc__ring_assignment a = {
        .dir = dir, .frags = {f, NULL}, .nfrags = {3, 0}, .colours = {hi + 2 * (uint64_t)big, 0}};
    CHECK(oc__ring_check(c, 4, &r, &a, 1, 64, why, sizeof why) == 0, "distinct colours: %s", why);
    f[2].c0 = hi + big - 1; /* one colour shared with transfer 0 on links 0->1, 1->2 */
    f[2].n = 1;
    f[1].n = big;
    r.xfers[2].count = 1;
    CHECK(oc__ring_check(c, 4, &r, &a, 1, 64, why, sizeof why) == OC_ERESOURCE &&
              strstr(why, "round 4, step 100663295") && strstr(why, "0->2 cw") &&
              strstr(why, "0->3 cw") && strstr(why, "wavelength 63 on link 0->1"),
          "conflict past 2^32: %s", why);
    oc__ring_checker_free(c);
    oc__round_free(&r);
}

int main(int argc, char **argv) {
    const int print = argc > 1 && !strcmp(argv[1], "print");
    size_t g = 0;
    for (size_t i = 0; i < oc_algorithm_count(); i++) {
        const oc_algorithm_info *a = oc_algorithm_at(i);
        if (!oc_algorithm_runs_on(a, "ring")) continue;
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int net = 0; net < 2; net++) {
                const uint64_t h = algo_case(a, sizes[s], net);
                const char *coll = oc_collective_name(a->collective);
                if (print) {
                    printf("    {\"%s\", \"%s\", %u, %d, 0x%016" PRIx64 "ull},\n", coll, a->name,
                           sizes[s], net, h);
                    continue;
                }
                CHECK(g < sizeof golden_algos / sizeof *golden_algos, "more cases than golden");
                if (g >= sizeof golden_algos / sizeof *golden_algos) continue;
                const golden *e = &golden_algos[g++];
                CHECK(!strcmp(e->coll, coll) && !strcmp(e->algo, a->name) && e->N == sizes[s] &&
                          e->net == net,
                      "case %zu is %s %s N=%u net %d, golden has %s %s N=%u net %d", g - 1, coll,
                      a->name, sizes[s], net, e->coll, e->algo, e->N, e->net);
                CHECK(h == e->hash, "%s %s N=%u '%s': the ring model's output changed", coll,
                      a->name, sizes[s], nets[net]);
            }
    }
    if (!print) CHECK(g == sizeof golden_algos / sizeof *golden_algos, "fewer cases than golden");
    if (print) printf("\n");
    g = 0;
    for (size_t s = 0; s < sizeof random_sizes / sizeof *random_sizes; s++)
        for (uint32_t seed = 1; seed <= 6; seed++) {
            const uint64_t h = random_case(random_sizes[s], seed);
            if (print) {
                printf("    {%u, %u, 0x%016" PRIx64 "ull},\n", random_sizes[s], seed, h);
                continue;
            }
            const golden_random *e = &golden_random_rounds[g++];
            CHECK(e->N == random_sizes[s] && e->seed == seed, "random case %zu", g - 1);
            CHECK(h == e->hash, "random rounds N=%u seed %u: the ring model's output changed",
                  random_sizes[s], seed);
        }
    if (!print) big_colours();
    return CHECK_SUMMARY();
}
