/*
 * test_free_colours.c — the ring model's free colours (src/net/free_colours.c) answer as the
 * sorted array of coalesced ranges they replace did, and move at most about a page of ranges an
 * operation on the round that made that array quadratic.
 *
 *  1. Random rounds of gives and takes, as colour_intervals makes them (takes of 1 to 9 or 1 to
 *     1000 colours, a new colour past the highest when none is free; any held piece given back,
 *     in runs, so that thousands of ranges pile up over several pages), against a plain
 *     reference: the sorted, coalesced array, written here as simply as it can be. Every take
 *     must give the same colours.
 *  2. The adversarial round: 200k long arcs hold the even colours, and 200k short ones give the
 *     odd colours back in decreasing order, each a range of its own (a gap below and above).
 *     The array inserted every one at its front: 2e10 range moves. The pages' moves (counted by
 *     the structure) must stay within two pages' worth an operation, here and with the returns
 *     in increasing order. Then every odd colour is taken back from the top, one at a time,
 *     highest first. And 200k ranges given back in a scattered order, then the gaps between them
 *     in another (every gap joins two ranges: pages thin out and are repacked), down to one run.
 *  3. The same round on the ring model (400k lightpaths on 800004 nodes): it maps in exactly
 *     its load's colours, 2 x 200k, one step per 64 of them, and passes the model's own check.
 */
#include "check.h"
#include "core/core.h"
#include "core/result.h"
#include "net/free_colours.h"
#include "net/net.h"
#include "opticoll.h"

#include "model_map.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plain reference: one sorted array of disjoint, non-adjacent ranges ---- */

typedef struct ref {
    oc__fc_range *iv;
    size_t n, cap;
} ref;

static int ref_add(ref *r, uint64_t lo, uint64_t hi) {
    size_t a = 0;
    while (a < r->n && r->iv[a].lo < lo)
        a++;
    if (a > 0 && r->iv[a - 1].hi == lo) {
        r->iv[a - 1].hi = hi;
        if (a < r->n && r->iv[a].lo == hi) {
            r->iv[a - 1].hi = r->iv[a].hi;
            memmove(&r->iv[a], &r->iv[a + 1], (r->n - a - 1) * sizeof *r->iv);
            r->n--;
        }
        return 0;
    }
    if (a < r->n && r->iv[a].lo == hi) {
        r->iv[a].lo = lo;
        return 0;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        oc__fc_range *p = realloc(r->iv, cap * sizeof *p);
        if (!p) return -1;
        r->iv = p;
        r->cap = cap;
    }
    memmove(&r->iv[a + 1], &r->iv[a], (r->n - a) * sizeof *r->iv);
    r->iv[a] = (oc__fc_range){lo, hi};
    r->n++;
    return 0;
}

static uint64_t ref_take(ref *r, uint64_t need, uint64_t *c0) {
    if (!r->n) return 0;
    oc__fc_range *top = &r->iv[r->n - 1];
    const uint64_t have = top->hi - top->lo, take = have < need ? have : need;
    *c0 = top->hi - take;
    top->hi = *c0;
    if (top->hi == top->lo) r->n--;
    return take;
}

/* ---- 1. random rounds against the reference ---- */

static uint64_t rng_state;
static uint64_t rnd(uint64_t n) {
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (rng_state >> 33) % n;
}

static void random_round(uint32_t seed, size_t ops, uint64_t max_need, size_t min_pages) {
    rng_state = seed;
    oc__free_colours fc;
    oc__fc_init(&fc);
    ref r = {0};
    oc__fc_range *held = NULL; /* pieces taken, not yet given back */
    size_t nheld = 0, cap = 0, mismatches = 0, pages = 0;
    uint64_t next_new = 0, takes = 0;
    for (size_t op = 0; op < ops && !mismatches; op++) {
        if (fc.npages > pages) pages = fc.npages;
        /* takes and returns in runs, so that the free ranges pile up and are used up in turn */
        if (nheld && (op / (ops / 4)) % 2 == 1 && rnd(4) < 3) { /* an interval ends: a piece comes back */
            const size_t k = rnd(nheld);
            const oc__fc_range g = held[k];
            held[k] = held[--nheld];
            if (oc__fc_add(&fc, g.lo, g.hi) || ref_add(&r, g.lo, g.hi)) {
                CHECK(0, "out of memory");
                break;
            }
            continue;
        }
        uint64_t need = 1 + rnd(max_need);
        while (need) { /* an interval starts: colours from the top, new ones past them */
            uint64_t a = 0, b = 0;
            const uint64_t ta = oc__fc_take(&fc, need, &a), tb = ref_take(&r, need, &b);
            takes++;
            if (ta != tb || (ta && a != b)) {
                mismatches++;
                CHECK(0, "seed %u op %zu: the pages took %llu at %llu, the array %llu at %llu", seed,
                      op, (unsigned long long)ta, (unsigned long long)a, (unsigned long long)tb,
                      (unsigned long long)b);
                break;
            }
            uint64_t t = ta;
            if (!t) {
                a = next_new;
                t = need;
                next_new += need;
            }
            if (nheld == cap && oc__grow((void **)&held, &cap, nheld + 1, sizeof *held)) {
                CHECK(0, "out of memory");
                mismatches++;
                break;
            }
            held[nheld++] = (oc__fc_range){a, a + t};
            need -= t;
        }
    }
    CHECK(mismatches == 0 && takes > ops / 2 && pages >= min_pages,
          "seed %u: %llu takes, at most %zu pages (expected %zu)", seed, (unsigned long long)takes,
          pages, min_pages);
    free(held);
    free(r.iv);
    oc__fc_free(&fc);
}

/* ---- 2. the adversarial round ---- */

enum { M = 200000 };

/* At most two pages' worth of moves an operation. */
static void bounded(const oc__free_colours *fc, uint64_t before, uint64_t ops, const char *what) {
    CHECK(fc->moves - before <= 2 * (uint64_t)OC_FC_PAGE * ops,
          "%s: %llu moves for %llu operations, more than %u an operation", what,
          (unsigned long long)(fc->moves - before), (unsigned long long)ops, 2 * OC_FC_PAGE);
}

static void adversarial(int increasing) {
    oc__free_colours fc;
    oc__fc_init(&fc);
    uint64_t c0 = 0;
    /* every colour is new: nothing is free while the 2M arcs start */
    CHECK(oc__fc_take(&fc, 1, &c0) == 0, "nothing free at the start");
    int rc = 0;
    for (uint32_t k = 0; k < M && !rc; k++) {
        const uint64_t odd = 2 * (uint64_t)(increasing ? k : M - 1 - k) + 1;
        rc = oc__fc_add(&fc, odd, odd + 1);
    }
    CHECK(rc == 0, "out of memory");
    CHECK(fc.n == M, "%zu ranges held, expected %u (each odd colour its own)", fc.n, (unsigned)M);
    bounded(&fc, 0, M, increasing ? "increasing returns" : "decreasing returns");
    const uint64_t before = fc.moves;
    size_t wrong = 0;
    for (uint32_t k = 0; k < M; k++) { /* the odd colours come back from the top, one at a time */
        const uint64_t t = oc__fc_take(&fc, 1, &c0);
        if (t != 1 || c0 != 2 * (uint64_t)(M - 1 - k) + 1) wrong++;
    }
    CHECK(wrong == 0 && fc.n == 0 && fc.npages <= 1, "%zu takes out of order, %zu ranges left",
          wrong, fc.n);
    bounded(&fc, before, M, "takes");
    oc__fc_free(&fc);
}

/* Ranges [2k, 2k+1) in one scattered order, then the gaps [2k+1, 2k+2) in another: every gap
 * joins the ranges on both sides, so the pages empty from the middle. */
static void scattered_joins(void) {
    oc__free_colours fc;
    oc__fc_init(&fc);
    int rc = 0;
    const uint64_t a = 7919, b = 104729; /* primes that do not divide M: k -> a k mod M is onto */
    for (uint64_t k = 0; k < M && !rc; k++)
        rc = oc__fc_add(&fc, 2 * (a * k % M), 2 * (a * k % M) + 1);
    CHECK(rc == 0 && fc.n == M, "%zu ranges held, expected %u", fc.n, (unsigned)M);
    uint64_t ops = M;
    for (uint64_t k = 0; k < M && !rc; k++) {
        const uint64_t g = b * k % M;
        if (g + 1 == M) continue; /* no range above the last gap's place */
        rc = oc__fc_add(&fc, 2 * g + 1, 2 * g + 2);
        ops++;
        if (!rc && fc.n != 0 && fc.npages > 4 + 4 * fc.n / OC_FC_PAGE + 4) rc = -1;
    }
    CHECK(rc == 0 && fc.n == 1, "rc %d: %zu ranges left (%zu pages), expected one", rc, fc.n,
          fc.npages);
    bounded(&fc, 0, ops, "scattered joins");
    uint64_t c0 = 1;
    CHECK(oc__fc_take(&fc, UINT64_MAX, &c0) == 2 * (uint64_t)M - 1 && c0 == 0 && fc.n == 0,
          "one run [0, %llu) at the end", 2 * (unsigned long long)M - 1);
    oc__fc_free(&fc);
}

/* ---- 3. the adversarial round on the ring model ---- */

static void ring_round(void) {
    const uint32_t N = 4 * M + 4; /* every arc shorter than N/2: all go clockwise */
    oc__round r = {0};
    int err = 0;
    for (uint32_t i = 0; i < M && !err; i++) {
        err = oc__round_push(&r, i, 2 * M + 1, OC_OP_COPY, 0, 1); /* long: holds colour 2i */
        if (!err) err = oc__round_push(&r, i, 2 * M - i, OC_OP_COPY, 0, 1); /* short: 2i + 1 */
    }
    CHECK(err == 0, "out of memory");
    char why[512] = "";
    oc_report *rep = err ? NULL : map_coll_on(oc__model_find("ring"), OC_ALLGATHER, N, 4096, NULL, &r,
                                              1, &err, why, sizeof why);
    const uint64_t steps = (2 * (uint64_t)M + 63) / 64;
    CHECK(rep && err == 0 && rep->steps == steps && rep->steps_lb == steps,
          "ring, %u nodes: rc %d (%s), %llu steps, lower bound %llu, expected %llu", N, err, why,
          rep ? (unsigned long long)rep->steps : 0, rep ? (unsigned long long)rep->steps_lb : 0,
          (unsigned long long)steps);
    oc_report_free(rep);
    oc__round_free(&r);
}

int main(void) {
    const uint32_t seeds[] = {1, 2, 3, 5, 7, 12, 100};
    for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++) {
        random_round(seeds[s], 20000, 9, 3);
        random_round(seeds[s] + 1000, 10000, 1000, 3);
    }
    adversarial(0);
    adversarial(1);
    scattered_joins();
    ring_round();
    return CHECK_SUMMARY();
}
