/*
 * test_search_rhd.c — the parameter searches of rhd (all-reduce), rh (reduce-scatter), rd
 * (all-gather), hring and dbtree against the spaces they claim: for a grid
 * of small cases this test enumerates the pinned space itself, through the public oc_run with
 * each parameter set pinned (independent of the algorithms' search code), and asserts that the
 * default run, nothing pinned, has the minimum mapped time over that space (within 1e-9 relative)
 * and, among the times that tie, the fewest steps.
 *
 *   rhd / rh / rd: radices= every ordered factorisation of N into factors >= 2, and radix=r
 *     fold=1 for every r in 2..N+1 of which N is not a power (any r > N is r = N + 1's schedule); N
 * = 2..48 and 64 on the switch, the fabric (16 and 4 wavelengths per tile) and the ring (64 and 2
 * wavelengths), N <= 24 on the fat-tree. hring: g = every divisor of N, N = 2..64, ring and switch;
 * the issue's N = 720 and 2500 at w = 1 (which lost 47% and 33% to g = 1) and N = 720 w = 7.
 *   dbtree: pipeline = 1, 2, ... until C rounds of the least a round costs pass the best time
 *     found (every pipeline C has at least C rounds), on switch, fabric, ring and fat-tree.
 * Plus the issue's Lumorph-4 case (64 MiB at N = 128 and 512 on the fabric: the default must not
 * pay radix=4's folded bandwidth, and radices=4x4x4x2 must run), and the bad pins: radices whose
 * product is not N, radix 1, radix=r fold=0 on N not a power of r, g not dividing N.
 *
 * The larger grids are under the `slow` label's test (argument "slow"); the plain run keeps to
 * N <= 24 so that it also runs under the sanitizers.
 */
#include "opticoll.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct net_case {
    const char *net, *net_params; /* "k=v k=v" or "" */
    uint64_t bytes;
} net_case;

typedef struct outcome {
    int ok;
    double t;
    uint64_t steps;
} outcome;

static void set_pairs(oc_kv *kv, const char *text) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        oc_kv_set_pair(kv, tok);
}

/* One run with `params` pinned ("k=v k=v", "" for none); err gets oc_run's code. */
static outcome run(oc_collective coll, const char *algo, const net_case *nc, uint32_t N,
                   const char *params, int *err, char *why, size_t len) {
    oc_kv *p = oc_kv_new(), *np = oc_kv_new();
    set_pairs(p, params);
    set_pairs(np, nc->net_params);
    oc_request req = {.collective = coll,
                      .algorithm = algo,
                      .network = nc->net,
                      .nodes = N,
                      .bytes = nc->bytes,
                      .params = p,
                      .net_params = np,
                      .skip_data_check = 1};
    oc_report *rep = NULL;
    outcome o = {0};
    *err = oc_run(&req, &rep, why, len);
    if (!*err && rep) {
        o.ok = 1;
        o.t = oc_report_time(rep);
        o.steps = oc_report_steps(rep);
    }
    oc_report_free(rep);
    oc_kv_free(p);
    oc_kv_free(np);
    return o;
}

static int same_time(double a, double b) {
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* The exhaustive optimum of a space, kept as its runs come in. */
typedef struct optimum {
    outcome best; /* least time; among ties the fewest steps */
    char what[320];
    size_t points, mapped;
} optimum;

static void consider(optimum *o, const outcome *x, const char *what) {
    o->points++;
    if (!x->ok) return;
    o->mapped++;
    int wins = !o->best.ok || (!same_time(x->t, o->best.t) && x->t < o->best.t) ||
               (same_time(x->t, o->best.t) && x->steps < o->best.steps);
    if (wins) {
        o->best = *x;
        snprintf(o->what, sizeof o->what, "%s", what);
    }
}

/* Asserts that the default equals the optimum of the enumerated space. */
static void check_default(const optimum *o, oc_collective coll, const char *algo,
                          const net_case *nc, uint32_t N) {
    char why[512] = "";
    int err;
    outcome d = run(coll, algo, nc, N, "", &err, why, sizeof why);
    CHECK(o->mapped > 0, "%s %s N=%u: nothing in the space ran", algo, nc->net, N);
    CHECK(d.ok, "%s %s %s N=%u: default failed: %s", algo, nc->net, nc->net_params, N, why);
    if (!d.ok || !o->mapped) return;
    CHECK(same_time(d.t, o->best.t) && d.steps <= o->best.steps,
          "%s on %s %s N=%u %llu B: default %.12g s %llu steps, exhaustive best %s %.12g s %llu "
          "steps (%zu points)",
          algo, nc->net, nc->net_params, N, (unsigned long long)nc->bytes, d.t,
          (unsigned long long)d.steps, o->what, o->best.t, (unsigned long long)o->best.steps,
          o->points);
}

/* ---- rhd, rh, rd ---- */

typedef struct fac_walk {
    oc_collective coll;
    const char *algo;
    const net_case *nc;
    uint32_t N;
    optimum *o;
} fac_walk;

/* Every ordered factorisation of M into factors >= 2, appended to `prefix`. */
static void factorisations(fac_walk *f, uint32_t M, const char *prefix) {
    char pins[300], why[512];
    int err;
    if (M == 1) {
        snprintf(pins, sizeof pins, "radices=%s", prefix);
        outcome x = run(f->coll, f->algo, f->nc, f->N, pins, &err, why, sizeof why);
        CHECK(x.ok || err == OC_ERESOURCE, "%s N=%u %s: %s", f->algo, f->N, pins, why);
        consider(f->o, &x, pins);
        return;
    }
    for (uint32_t r = 2; r <= M; r++) {
        if (M % r) continue;
        char next[256];
        snprintf(next, sizeof next, "%s%s%u", prefix, *prefix ? "x" : "", r);
        factorisations(f, M / r, next);
    }
}

static void rhd_space(oc_collective coll, const char *algo, const net_case *nc, uint32_t N) {
    optimum o = {0};
    fac_walk f = {coll, algo, nc, N, &o};
    factorisations(&f, N, "");
    for (uint32_t r = 2; r <= N + 1; r++) { /* r = N + 1: every node folded onto node 0 */
        uint64_t P = 1;
        while (P * r <= N)
            P *= r;
        if (P == N) continue;
        char pins[64], why[512];
        int err;
        snprintf(pins, sizeof pins, "radix=%u fold=1", r);
        outcome x = run(coll, algo, nc, N, pins, &err, why, sizeof why);
        CHECK(x.ok || err == OC_ERESOURCE, "%s N=%u %s: %s", algo, N, pins, why);
        consider(&o, &x, pins);
    }
    check_default(&o, coll, algo, nc, N);
}

static const net_case RHD_NETS[] = {
    {"switch", "", 1 << 20},   {"switch", "", 1 << 10},
    {"fabric", "", 64u << 20}, {"fabric", "wavelengths_per_tile=4", 1 << 20},
    {"ring", "", 1 << 20},     {"ring", "wavelengths=2", 1 << 16},
};

static void test_rhd(uint32_t nmax) {
    static const struct {
        oc_collective coll;
        const char *algo;
    } A[] = {{OC_ALLREDUCE, "rhd"}, {OC_REDUCESCATTER, "rh"}, {OC_ALLGATHER, "rd"}};
    for (size_t a = 0; a < sizeof A / sizeof *A; a++) {
        for (size_t c = 0; c < sizeof RHD_NETS / sizeof *RHD_NETS; c++) {
            for (uint32_t N = 2; N <= nmax; N++)
                rhd_space(A[a].coll, A[a].algo, &RHD_NETS[c], N);
            if (nmax >= 48) rhd_space(A[a].coll, A[a].algo, &RHD_NETS[c], 64);
        }
        const net_case ft = {"fattree", "", 1 << 20};
        for (uint32_t N = 2; N <= (nmax < 24 ? nmax : 24); N++)
            rhd_space(A[a].coll, A[a].algo, &ft, N);
    }
}

/* Lumorph-4 at 64 MiB: radix=4 folds at N = 128 and 512 (4^3 = 64, 4^4 = 256) and
 * pays the whole vector twice more; the default must not, and must beat radix 2 and 4x4x4x2. */
static void test_lumorph4(void) {
    const net_case nc = {"fabric", "", 64u << 20};
    const uint32_t Ns[] = {128, 512};
    for (size_t i = 0; i < 2; i++) {
        const uint32_t N = Ns[i];
        char why[512] = "";
        int err;
        outcome d = run(OC_ALLREDUCE, "rhd", &nc, N, "", &err, why, sizeof why);
        outcome r2 = run(OC_ALLREDUCE, "rhd", &nc, N, "radix=2", &err, why, sizeof why);
        outcome r4 = run(OC_ALLREDUCE, "rhd", &nc, N, "radix=4", &err, why, sizeof why);
        outcome mix =
            run(OC_ALLREDUCE, "rhd", &nc, N, N == 128 ? "radices=4x4x4x2" : "radices=4x4x4x4x2",
                &err, why, sizeof why);
        CHECK(d.ok && r2.ok && r4.ok && mix.ok, "N=%u: %s", N, why);
        CHECK(d.t <= r2.t * (1 + 1e-9) && d.t <= mix.t * (1 + 1e-9) && d.t < 0.6 * r4.t,
              "N=%u: default %.6g s, radix 2 %.6g, mixed %.6g, radix 4 folded %.6g", N, d.t, r2.t,
              mix.t, r4.t);
    }
}

/* ---- hring ---- */

static void hring_space(const net_case *nc, uint32_t N) {
    optimum o = {0};
    for (uint32_t g = 1; g <= N; g++) {
        if (N % g) continue;
        char pins[32], why[512];
        int err;
        snprintf(pins, sizeof pins, "g=%u", g);
        outcome x = run(OC_ALLREDUCE, "hring", nc, N, pins, &err, why, sizeof why);
        CHECK(x.ok, "hring N=%u %s: %s", N, pins, why);
        consider(&o, &x, pins);
    }
    check_default(&o, OC_ALLREDUCE, "hring", nc, N);
}

static void test_hring(uint32_t nmax, int issue) {
    const net_case nets[] = {{"ring", "", 1 << 20},
                             {"ring", "wavelengths=1", 1 << 20},
                             {"ring", "wavelengths=7", 1 << 16},
                             {"switch", "", 1 << 20}};
    for (size_t c = 0; c < sizeof nets / sizeof *nets; c++)
        for (uint32_t N = 2; N <= nmax; N++)
            hring_space(&nets[c], N);
    if (!issue) return;
    /* the issue's cases: w = 1 at 720 and 2500 nodes, w = 7 at 720 */
    const net_case w1 = {"ring", "wavelengths=1", 1 << 20}, w7 = {"ring", "wavelengths=7", 1 << 20};
    hring_space(&w1, 720);
    hring_space(&w1, 2500);
    hring_space(&w7, 720);
}

/* ---- dbtree ---- */

/* pipeline = C has C - 1 + H + D >= C rounds, each at least one alpha (switch, fabric: 0.7 us),
 * one ring step (at least its 25 us reconfiguration) or one fat-tree router delay (50 us): no C
 * beyond best / that can win. */
static void dbtree_space(const net_case *nc, uint32_t N) {
    const double least = !strcmp(nc->net, "ring")      ? 25e-6
                         : !strcmp(nc->net, "fattree") ? 50e-6
                                                       : 0.7e-6;
    optimum o = {0};
    for (uint32_t C = 1; 2 * C <= nc->bytes && (!o.best.ok || C * least <= o.best.t); C++) {
        char pins[32], why[512];
        int err;
        snprintf(pins, sizeof pins, "pipeline=%u", C);
        outcome x = run(OC_ALLREDUCE, "dbtree", nc, N, pins, &err, why, sizeof why);
        CHECK(x.ok || err == OC_ERESOURCE, "dbtree N=%u %s: %s", N, pins, why);
        consider(&o, &x, pins);
    }
    check_default(&o, OC_ALLREDUCE, "dbtree", nc, N);
}

static void test_dbtree(uint32_t nmax, int slow) {
    const net_case nets[] = {
        {"switch", "", 1 << 20},  {"switch", "", 1 << 12},
        {"fabric", "", 4u << 20}, {"fabric", "wavelengths_per_tile=2", 1 << 20},
        {"ring", "", 1 << 20},    {"ring", "wavelengths=2", 1 << 16},
        {"fattree", "", 1 << 20}};
    for (size_t c = 0; c < sizeof nets / sizeof *nets; c++)
        for (uint32_t N = 2; N <= nmax; N += N < 12 ? 1 : slow ? 1 : 5)
            dbtree_space(&nets[c], N);
    if (!slow) return;
    /* the lumorph seed's 64 MiB, where the best pipeline is deep (C near 50) */
    const net_case big = {"fabric", "", 64u << 20};
    const uint32_t Ns[] = {7, 23, 40};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        dbtree_space(&big, Ns[i]);
}

/* ---- bad pins ---- */

static void bad(oc_collective coll, const char *algo, uint32_t N, const char *pins,
                const char *says) {
    const net_case nc = {"switch", "", 1 << 20};
    char why[512] = "";
    int err;
    outcome x = run(coll, algo, &nc, N, pins, &err, why, sizeof why);
    CHECK(!x.ok && err != 0 && strstr(why, says) && !strchr(why, '\n'),
          "%s N=%u %s: want an error saying '%s', got %d '%s'", algo, N, pins, says, err, why);
}

static void test_bad(void) {
    static const struct {
        oc_collective coll;
        const char *algo;
        uint32_t N;
        const char *pins, *says;
    } B[] = {
        {OC_ALLREDUCE, "rhd", 128, "radices=4x4x4", "multiply to 64, not N=128"},
        {OC_ALLREDUCE, "rhd", 12, "radices=2x2x2x2", "multiply to 16, not N=12"},
        {OC_REDUCESCATTER, "rh", 8, "radix=1", "from 2 to 1024"},
        {OC_ALLGATHER, "rd", 8, "radices=1x8", "at least 2"},
        {OC_ALLREDUCE, "rhd", 2000, "radix=2001", "from 2 to 2000"},
        {OC_ALLREDUCE, "rhd", 12, "radix=2 fold=0", "needs N a power of 2"},
        {OC_ALLREDUCE, "rhd", 12, "radices=3x4 fold=1", "give radix=r"},
        {OC_ALLREDUCE, "rhd", 12, "radices=3x4 radix=2", "not both"},
        {OC_ALLREDUCE, "rhd", 12, "fold=2", "from 0 to 1"},
        {OC_ALLREDUCE, "hring", 12, "g=5", "divisors: 1, 2, 3, 4, 6, 12"},
        {OC_ALLREDUCE, "hring", 12, "g=0", "from 1 to 12"},
        {OC_ALLREDUCE, "dbtree", 12, "pipeline=0", "from 1"},
    };
    for (size_t i = 0; i < sizeof B / sizeof *B; i++)
        bad(B[i].coll, B[i].algo, B[i].N, B[i].pins, B[i].says);
    /* the pins the search offers must plan: radix=r on N = r^k, folding radix, mixed radices */
    const net_case nc = {"switch", "", 1 << 20};
    char why[512] = "";
    int err;
    const char *good[] = {"radix=4", "radix=3 fold=1", "radices=3x5",
                          "fold=1",  "fold=0",         "radices=15"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        const uint32_t N = i == 0 ? 16 : 15;
        outcome x = run(OC_ALLREDUCE, "rhd", &nc, N, good[i], &err, why, sizeof why);
        CHECK(x.ok, "rhd N=%u %s: %s", N, good[i], why);
    }
}

int main(int argc, char **argv) {
    const int slow = argc > 1 && strcmp(argv[1], "slow") == 0;
    test_bad();
    test_lumorph4();
    test_rhd(slow ? 48 : 24);
    test_hring(slow ? 64 : 24, slow);
    test_dbtree(slow ? 40 : 24, slow);
    return CHECK_SUMMARY();
}
