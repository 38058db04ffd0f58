/*
 * test_verify_progressions.c — the reduction verifier's periodic sets (src/verify/progression.c,
 * verify.c) against plain recomputations:
 *
 *   - the set operations, on random and strided patterns over small N, against one bit per node:
 *     shortening a period never changes the set, a packed progression unpacks to its pattern,
 *     lifting to a common period, the smallest shared and the smallest missing node, the union;
 *   - the verifier on recursive halving / doubling schedules built here (mixed radices, folds,
 *     senders and peers in several orders, so that a radix-r level's sets pass through
 *     progressions, non-progressions and mixed periods) at N in {1, 2, 3, 5, 7, 12, 100, 1000},
 *     clean and with errors put in: a contribution counted twice inside a progression, a residue
 *     missing (a transfer dropped), a reduce between progressions of different strides that
 *     overlap, and a random extra reduce. Each schedule runs through the verifier as it is and
 *     through the same verifier keeping plain interval lists only (oc__verifier_plain_sets, the
 *     verifier before periodic sets): same return, same first failure (message and key). A clean
 *     schedule must verify and every error but the random one must be found.
 *
 * Deterministic (a fixed linear congruential generator). Asserts results, never times.
 */
#include "core/core.h"
#include "verify/progression.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t seed = 20261126;

static uint32_t rnd(uint32_t n) {
    seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)((seed >> 33) % n);
}

/* ---- the set operations ---- */

#define MAXN 96

/* The set {z < N : z mod S in iv} as one byte per node. */
static void materialize(const oc__pset *x, uint32_t N, unsigned char *bits) {
    memset(bits, 0, N);
    for (uint32_t z = 0; z < N; z++)
        for (uint32_t i = 0; i < x->n; i++)
            if (z % x->S >= x->iv[i].lo && z % x->S < x->iv[i].hi) bits[z] = 1;
}

/* A pattern over [0, S) from bits, as sorted, disjoint, non-adjacent intervals. */
static uint32_t intervals(const unsigned char *bits, uint32_t S, oc__range *iv) {
    uint32_t n = 0;
    for (uint32_t z = 0; z < S; z++)
        if (bits[z] && (z == 0 || !bits[z - 1])) {
            uint32_t e = z;
            while (e < S && bits[e])
                e++;
            iv[n++] = (oc__range){z, e};
        }
    return n;
}

/* A random pattern over [0, S): random bits, a progression of points, or a circular interval. */
static uint32_t random_pattern(uint32_t S, oc__range *iv) {
    unsigned char bits[MAXN] = {0};
    const uint32_t kind = rnd(3);
    if (kind == 0) {
        for (uint32_t z = 0; z < S; z++)
            bits[z] = rnd(3) == 0;
    } else if (kind == 1) {
        const uint32_t d = 1 + rnd(S), a = rnd(S), m = 1 + rnd(S / d);
        for (uint32_t i = 0; i < m; i++)
            bits[(a + i * d) % S] = 1;
    } else {
        const uint32_t a = rnd(S), len = 1 + rnd(S);
        for (uint32_t i = 0; i < len; i++)
            bits[(a + i) % S] = 1;
    }
    return intervals(bits, S, iv);
}

static void test_set_operations(void) {
    int reduced = 0, packed = 0, lifted = 0;
    for (int trial = 0; trial < 20000; trial++) {
        const uint32_t N = 1 + rnd(MAXN);
        /* periods: a divisor of N, any period below N, or N itself */
        uint32_t S1 = 1 + rnd(N), S2 = 1 + rnd(N);
        if (rnd(2)) {
            uint32_t f = 1 + rnd(N);
            while (N % f)
                f--;
            S1 = N / f;
        }
        if (rnd(2)) {
            const uint32_t m = 1 + rnd(3);
            S2 = S1 * m <= N ? S1 * m : S1;
        }
        oc__range p1[MAXN], p2[MAXN], buf[MAXN * MAXN], l1[MAXN * MAXN], l2[MAXN * MAXN];
        oc__pset a = {S1, p1, random_pattern(S1, p1)}, b = {S2, p2, random_pattern(S2, p2)};
        if (rnd(2)) { /* one that repeats with a shorter period T (dividing S1 unless S1 = N) */
            uint32_t T = 1 + rnd(S1);
            while (S1 < N && S1 % T)
                T--;
            const oc__pset t = {T, buf, random_pattern(T, buf)};
            a.n = oc__pset_lift(&t, S1, p1);
        }
        unsigned char xa[MAXN], xb[MAXN], got[MAXN];
        materialize(&a, N, xa);
        materialize(&b, N, xb);

        /* a shorter period, where found, is the same set */
        uint32_t S = a.S, n = a.n;
        memcpy(buf, a.iv, n * sizeof *buf);
        oc__pset_reduce(N, &S, buf, &n);
        const oc__pset r = {S, buf, n};
        materialize(&r, N, got);
        CHECK(!memcmp(got, xa, N), "N=%u: period %u reduced to %u changes the set", N, a.S, S);
        CHECK(S <= a.S && (a.S == N || a.S % S == 0), "N=%u: period %u reduced to %u", N, a.S, S);
        reduced += S < a.S;

        /* a pattern that packs unpacks to itself */
        oc__prog p;
        if (a.S < N && a.n && oc__prog_pack(a.S, a.iv, a.n, &p)) {
            const uint32_t k = oc__prog_unpack(&p, buf);
            CHECK(k == a.n && !memcmp(buf, a.iv, k * sizeof *buf),
                  "N=%u S=%u: %u intervals packed (m %u a %u x %u) unpack to %u", N, a.S, a.n, p.m,
                  p.a, p.x, k);
            packed++;
        }

        /* both over a common period: shared, missing, union */
        const uint32_t L = oc__pset_common_period(a.S, b.S, N);
        CHECK(L <= N && (L == N || (L % a.S == 0 && L % b.S == 0)),
              "N=%u: common period %u of %u, %u", N, L, a.S, b.S);
        const oc__pset la = {L, l1, oc__pset_lift(&a, L, l1)},
                       lb = {L, l2, oc__pset_lift(&b, L, l2)};
        lifted += L > a.S || L > b.S;
        materialize(&la, N, got);
        CHECK(!memcmp(got, xa, N), "N=%u: %u lifted to %u changes the set", N, a.S, L);
        uint32_t want = UINT32_MAX, miss = N;
        for (uint32_t z = N; z-- > 0;) {
            if (xa[z] && xb[z]) want = z;
            if (!xa[z]) miss = z;
        }
        CHECK(oc__pset_first_common(la.iv, la.n, lb.iv, lb.n) == want, "N=%u: first common", N);
        CHECK(oc__pset_first_missing(&a, N) == miss, "N=%u S=%u: first missing %u, want %u", N, a.S,
              oc__pset_first_missing(&a, N), miss);
        const oc__pset u = {L, buf, oc__pset_union(la.iv, la.n, lb.iv, lb.n, buf)};
        materialize(&u, N, got);
        for (uint32_t z = 0; z < N; z++)
            xa[z] |= xb[z];
        CHECK(!memcmp(got, xa, N), "N=%u: union over %u", N, L);
        for (uint32_t i = 0; i + 1 < u.n; i++)
            CHECK(u.iv[i].hi < u.iv[i + 1].lo, "N=%u: union not sorted and apart", N);
    }
    CHECK(reduced > 1000 && packed > 1000 && lifted > 1000, "reduced %d, packed %d, lifted %d",
          reduced, packed, lifted);
}

/* ---- the verifier on recursive halving / doubling ---- */

typedef struct sched {
    oc__round *r;
    uint32_t n, cap;
} sched;

static oc__round *new_round(sched *s) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->r = realloc(s->r, s->cap * sizeof *s->r);
    }
    memset(&s->r[s->n], 0, sizeof *s->r);
    return &s->r[s->n++];
}

/* A round inserted at position at (the ones after move down). */
static oc__round *insert_round(sched *s, uint32_t at) {
    new_round(s);
    memmove(&s->r[at + 1], &s->r[at], (s->n - 1 - at) * sizeof *s->r);
    memset(&s->r[at], 0, sizeof *s->r);
    return &s->r[at];
}

static void free_sched(sched *s) {
    for (uint32_t i = 0; i < s->n; i++)
        oc__round_free(&s->r[i]);
    free(s->r);
}

/* Orders 0..n-1: ascending, descending, or shuffled. */
static void order(uint32_t *o, uint32_t n, int how) {
    for (uint32_t i = 0; i < n; i++)
        o[i] = how == 1 ? n - 1 - i : i;
    if (how == 2)
        for (uint32_t i = n; i > 1; i--) {
            const uint32_t j = rnd(i), t = o[i - 1];
            o[i - 1] = o[j];
            o[j] = t;
        }
}

/* All-reduce by mixed-radix halving and doubling on P = prod(r) core nodes (r[k-1] first, as
 * rhd.c), chunk c = core node c's part; nodes P..N-1 fold onto (n - P) mod P first and get the
 * result back last. *first_level: the index of the first halving round. */
static sched halving_doubling(uint32_t N, const uint32_t *r, uint32_t k, int how,
                              uint32_t *first_level) {
    sched s = {0};
    uint32_t w[16], P = 1;
    for (uint32_t p = 0; p < k; p++) {
        w[p] = P;
        P *= r[p];
    }
    if (N > P) {
        oc__round *f = new_round(&s);
        for (uint32_t n = P; n < N; n++)
            oc__round_push(f, n, (n - P) % P, OC_OP_REDUCE, 0, P);
    }
    *first_level = s.n;
    uint32_t *xs = malloc(P * sizeof *xs), js[128];
    for (int halving = 1; halving >= 0; halving--)
        for (uint32_t q = 0; q < k; q++) {
            const uint32_t p = halving ? k - 1 - q : q, R = r[p], W = w[p];
            oc__round *rd = new_round(&s);
            order(xs, P, how);
            for (uint32_t i = 0; i < P; i++) {
                const uint32_t x = xs[i], d = (x / W) % R, g = x - x % (W * R);
                order(js, R, how);
                for (uint32_t jj = 0; jj < R; jj++) {
                    const uint32_t j = js[jj];
                    if (j == d) continue;
                    const uint32_t y = g + j * W + x % W;
                    oc__round_push(rd, x, y, halving ? OC_OP_REDUCE : OC_OP_COPY,
                                   halving ? g + j * W : x - x % W, W);
                }
            }
        }
    if (N > P) {
        oc__round *f = new_round(&s);
        for (uint32_t n = P; n < N; n++)
            oc__round_push(f, (n - P) % P, n, OC_OP_COPY, 0, P);
    }
    free(xs);
    return s;
}

typedef struct outcome {
    int rc;
    char why[512];
    oc__verify_key key;
} outcome;

static outcome verify(const sched *s, uint32_t N, uint32_t C, uint32_t lo, uint32_t hi, int plain) {
    outcome o = {0};
    oc__spec spec;
    o.rc = oc__spec_init(&spec, OC_ALLREDUCE, N, 0, 64 * (uint64_t)C, C, o.why, sizeof o.why);
    if (o.rc) return o;
    oc__verifier *v = NULL;
    o.rc = oc__verifier_new_window(&spec, lo, hi, oc__memory_budget(), &v, o.why, sizeof o.why);
    if (!o.rc) {
        if (plain) oc__verifier_plain_sets(v);
        oc__sink *sink = oc__verifier_sink(v);
        for (uint32_t i = 0; i < s->n && !o.rc; i++)
            o.rc = sink->round(sink, i, &s->r[i], o.why, sizeof o.why);
        if (!o.rc) o.rc = oc__verifier_finish(v, o.why, sizeof o.why);
        if (o.rc) o.key = oc__verifier_key(v);
    }
    oc__verifier_free(v);
    oc__spec_free(&spec);
    return o;
}

enum { CLEAN, TWICE, DROPPED, STRIDES, RANDOM, KINDS };
static const char *const kind_name[] = {"clean", "counted twice", "residue dropped",
                                        "strides overlap", "random reduce"};

/* Puts error `kind` into the schedule (levels from round l0, k of them, place values w). */
static void inject(sched *s, int kind, uint32_t N, uint32_t P, uint32_t l0, const uint32_t *r,
                   uint32_t k) {
    uint32_t w[16], W = 1;
    for (uint32_t p = 0; p < k; p++) {
        w[p] = W;
        W *= r[p];
    }
    const uint32_t q = rnd(k), p = k - 1 - q; /* a halving level: round l0 + q */
    oc__round *lv = &s->r[l0 + q];
    if (kind == TWICE) { /* a transfer of the level again, the round after: counted twice */
        const oc__transfer t = lv->xfers[rnd((uint32_t)lv->count)];
        oc__round_push(insert_round(s, l0 + q + 1), t.src, t.dst, OC_OP_REDUCE, t.first, t.count);
    } else if (kind == DROPPED) { /* a transfer of the level gone: its residues never arrive */
        const size_t i = rnd((uint32_t)lv->count);
        lv->xfers[i] = lv->xfers[--lv->count];
    } else if (kind == STRIDES) {
        /* After level p, x carries the nodes = x mod w_p in chunk c of its w_p-group; y, its
         * peer at the level, still carries those = y mod w_{p+1} there: they overlap. */
        const uint32_t x = rnd(P), R = r[p], d = (x / w[p]) % R;
        const uint32_t j = (d + 1 + rnd(R - 1)) % R, y = x - x % (w[p] * R) + j * w[p] + x % w[p];
        const uint32_t c = x - x % w[p] + rnd(w[p]);
        oc__round_push(insert_round(s, l0 + q + 1), x, y, OC_OP_REDUCE, c, 1);
    } else if (kind == RANDOM) {
        const uint32_t x = rnd(N), y = (x + 1 + rnd(N - 1)) % N;
        oc__round_push(insert_round(s, rnd(s->n + 1)), x, y, OC_OP_REDUCE, rnd(P), 1);
    }
}

static void test_halving(void) {
    /* radices (r[k-1] first, as given to rhd) per N; a fold when their product is below N */
    static const struct {
        uint32_t N, k, r[10];
    } cases[] = {
        {1, 0, {0}},
        {2, 1, {2}},
        {3, 1, {3}},
        {5, 1, {5}},
        {7, 1, {7}},
        {7, 2, {2, 2}},
        {12, 3, {2, 2, 3}},
        {12, 2, {3, 4}},
        {12, 2, {4, 3}},
        {12, 1, {12}},
        {12, 3, {2, 2, 2}},
        {12, 2, {3, 3}},
        {100, 2, {10, 10}},
        {100, 4, {2, 2, 5, 5}},
        {100, 2, {4, 25}},
        {100, 3, {5, 5, 4}},
        {100, 6, {2, 2, 2, 2, 2, 2}},
        {100, 4, {3, 3, 3, 3}},
        {1000, 3, {10, 10, 10}},
        {1000, 6, {2, 2, 2, 5, 5, 5}},
        {1000, 2, {8, 125}},
        {1000, 9, {2, 2, 2, 2, 2, 2, 2, 2, 2}},
    };
    int found[KINDS] = {0}, runs = 0;
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
        const uint32_t N = cases[ci].N, k = cases[ci].k;
        uint32_t rr[10], P = 1;
        for (uint32_t i = 0; i < k;
             i++) { /* cases list r[k-1] first; halving_doubling wants r[0] first */
            rr[i] = cases[ci].r[k - 1 - i];
            P *= rr[i];
        }
        for (int how = 0; how < 3; how++)
            for (int kind = 0; kind < KINDS; kind++) {
                if (kind != CLEAN && (k == 0 || P < 2)) continue;
                uint32_t l0;
                sched s = halving_doubling(N, rr, k, how, &l0);
                if (kind != CLEAN) inject(&s, kind, N, P, l0, rr, k);
                /* a window of a few chunks on the large N (as a shard), else all of them */
                const uint32_t width = N > 100 ? 3 : P, lo = rnd(P - width + 1);
                const outcome a = verify(&s, N, P, lo, lo + width, 0);
                const outcome b = verify(&s, N, P, lo, lo + width, 1);
                CHECK(a.rc == b.rc && !strcmp(a.why, b.why) && !oc__verify_key_cmp(&a.key, &b.key),
                      "N=%u radices %u.. order %d %s: periodic sets: %d %s; plain: %d %s", N,
                      k ? cases[ci].r[0] : 0, how, kind_name[kind], a.rc, a.rc ? a.why : "ok", b.rc,
                      b.rc ? b.why : "ok");
                if (kind == CLEAN)
                    CHECK(a.rc == 0, "N=%u order %d: clean schedule fails: %s", N, how, a.why);
                else if (kind != RANDOM && width == P)
                    CHECK(a.rc == OC_EVERIFY, "N=%u order %d: %s not found (%d)", N, how,
                          kind_name[kind], a.rc);
                found[kind] += a.rc == OC_EVERIFY;
                runs++;
                free_sched(&s);
            }
    }
    CHECK(runs > 300, "only %d runs", runs);
    CHECK(found[STRIDES] > 20 && found[TWICE] > 20 && found[DROPPED] > 20,
          "errors found: twice %d, dropped %d, strides %d", found[TWICE], found[DROPPED],
          found[STRIDES]);
}

int main(void) {
    test_set_operations();
    test_halving();
    return CHECK_SUMMARY();
}
