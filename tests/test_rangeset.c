/*
 * test_rangeset.c — the verifier's range sets (src/core/rangeset.c) against the plainest model
 * there is: a bitmap of the universe, one byte a value.
 *
 * After every union the set must be the bitmap's runs exactly (sorted, each lo < hi, no two
 * intervals touching, size their sum), the overlap it reports must be the values of the batch
 * that were already present or repeated inside the batch (the batch's width minus what the set
 * grew by), and contains / first_missing must answer as the bitmap does on random queries.
 *
 * The access patterns:
 *  1. Random: universes of 1 to 1000 values, batches of 1 to 1000 ranges (so both the one-range
 *     path and the batch path, on the stack and on the heap), ranges of random width that
 *     overlap, nest and touch each other and the set, sorted by lo as the verifier sorts them.
 *  2. Interleaved: the held set of one all-to-all node (N columns, one label a block, N = 1 to
 *     300, not only powers), then its own row filled by a k-shift, `shifts` blocks a round in
 *     batches, from both directions and in a scattered order: intervals are created, extended
 *     and bridged in the middle of a long set, so every way a run of intervals shifts left,
 *     right or stays (and mixes of them in one batch) is taken.
 *  3. Growing at the front: batches that each add several new intervals below all the others
 *     and absorb some in the middle (runs shifting right, then left, then right).
 */
#include "check.h"
#include "core/rangeset.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t draw(uint32_t below) { /* uniform enough in [0, below) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return below ? (uint32_t)(rng % below) : 0;
}

typedef struct model {
    unsigned char *bit;
    uint32_t universe;
} model;

static int range_lo_cmp(const void *a, const void *b) {
    const oc__range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* 1 when s is exactly the bitmap's runs and its size their sum. */
static int same_set(const oc__rangeset *s, const model *m) {
    uint64_t size = 0;
    uint32_t k = 0;
    for (uint32_t v = 0; v < m->universe;) {
        if (!m->bit[v]) {
            v++;
            continue;
        }
        uint32_t e = v;
        while (e < m->universe && m->bit[e])
            e++;
        if (k >= s->n || s->iv[k].lo != v || s->iv[k].hi != e) return 0;
        size += e - v;
        k++;
        v = e;
    }
    return k == s->n && size == s->size;
}

/* Random queries of contains and first_missing against the bitmap. */
static int same_answers(const oc__rangeset *s, const model *m) {
    for (int q = 0; q < 20; q++) {
        uint32_t lo = draw(m->universe + 1), hi = lo + draw(m->universe + 1 - lo);
        uint32_t miss = hi;
        for (uint32_t v = lo; v < hi; v++)
            if (!m->bit[v]) {
                miss = v;
                break;
            }
        if (oc__rangeset_first_missing(s, lo, hi) != miss) return 0;
        if (oc__rangeset_contains(s, lo, hi) != (miss == hi)) return 0;
    }
    return 1;
}

/* Applies one union to both and checks them; add must be sorted by lo. Returns 1 when equal. */
static int apply(oc__rangeset *s, model *m, const oc__range *add, size_t n) {
    uint64_t width = 0, before = 0, after = 0;
    for (uint32_t v = 0; v < m->universe; v++)
        before += m->bit[v];
    for (size_t i = 0; i < n; i++) {
        width += add[i].hi - add[i].lo;
        memset(m->bit + add[i].lo, 1, add[i].hi - add[i].lo);
    }
    for (uint32_t v = 0; v < m->universe; v++)
        after += m->bit[v];
    uint64_t overlap = UINT64_MAX;
    if (oc__rangeset_union(s, add, n, &overlap)) return 0;
    return overlap == width - (after - before) && same_set(s, m) && same_answers(s, m);
}

static void test_random(void) {
    int bad = 0, runs = 0;
    oc__range *add = malloc(1000 * sizeof *add);
    for (int trial = 0; trial < 400 && add; trial++) {
        model m = {calloc(1001, 1), 1 + draw(1000)};
        oc__rangeset s = {0};
        for (int step = 0; step < 12 && m.bit; step++) {
            /* mostly small batches, now and then a large one (the heap path) */
            size_t n = 1 + (draw(4) ? draw(8) : draw(1000));
            uint32_t wide = 1 + draw(draw(2) ? 4 : m.universe);
            for (size_t i = 0; i < n; i++) {
                uint32_t lo = draw(m.universe), w = 1 + draw(wide);
                add[i] = (oc__range){lo, lo + w > m.universe ? m.universe : lo + w};
            }
            qsort(add, n, sizeof *add, range_lo_cmp);
            if (!apply(&s, &m, add, n)) bad++;
            runs++;
        }
        oc__rangeset_free(&s);
        free(m.bit);
    }
    free(add);
    CHECK(runs == 400 * 12 && bad == 0, "%d of %d random unions differ from the bitmap", bad, runs);
}

/* Node `node` of an all-to-all on N nodes: label d * N + s is the block s sends to d. It starts
 * with its column (d * N + node for every d), then receives its row (node * N + s) in the order
 * `order` gives, `shifts` a round. */
static int held_set(uint32_t N, uint32_t node, uint32_t shifts, const uint32_t *order) {
    model m = {calloc((size_t)N * N + 1, 1), N * N};
    oc__rangeset s = {0};
    oc__range *add = malloc(((size_t)N + 1) * sizeof *add);
    int ok = m.bit && add;
    for (uint32_t d = 0; d < N && ok; d++)
        add[d] = (oc__range){d * N + node, d * N + node + 1};
    if (ok) ok = apply(&s, &m, add, N);
    for (uint32_t i = 0; i < N && ok; i += shifts) {
        size_t n = 0;
        for (uint32_t j = i; j < i + shifts && j < N; j++)
            add[n++] = (oc__range){node * N + order[j], node * N + order[j] + 1};
        qsort(add, n, sizeof *add, range_lo_cmp);
        ok = apply(&s, &m, add, n);
    }
    ok = ok && oc__rangeset_contains(&s, node * N, node * N + N);
    oc__rangeset_free(&s);
    free(add);
    free(m.bit);
    return ok;
}

static void test_interleaved(void) {
    const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 16, 64, 100, 127, 300};
    int bad = 0, runs = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        const uint32_t N = sizes[k];
        uint32_t *order = malloc(N * sizeof *order);
        if (!order) {
            bad++;
            break;
        }
        const uint32_t nodes[] = {0, N / 2, N - 1, draw(N)};
        for (size_t a = 0; a < 4; a++) {
            const uint32_t node = nodes[a];
            for (uint32_t shifts = 1; shifts <= 9 && shifts <= N + 2; shifts += 2) {
                for (int way = 0; way < 3; way++) {
                    for (uint32_t j = 0; j < N; j++) /* k-shift from below, from above */
                        order[j] = way == 0 ? (node + N - j) % N : (node + j) % N;
                    if (way == 2) /* scattered */
                        for (uint32_t j = N; j > 1; j--) {
                            uint32_t r = draw(j), t = order[j - 1];
                            order[j - 1] = order[r];
                            order[r] = t;
                        }
                    if (!held_set(N, node, shifts, order)) bad++;
                    runs++;
                }
            }
        }
        free(order);
    }
    CHECK(bad == 0, "%d of %d all-to-all held sets differ from the bitmap", bad, runs);
}

static void test_front(void) {
    /* Odd values 2 * i + 1 of [0, 2000) held as 1000 intervals; each batch adds new singletons
     * below everything, bridges a stretch in the middle, and adds one past the top. */
    model m = {calloc(4001, 1), 4000};
    oc__rangeset s = {0};
    oc__range add[40];
    int ok = m.bit != NULL;
    for (uint32_t i = 0; i < 1000 && ok; i++) {
        add[0] = (oc__range){2000 + 2 * i + 1, 2000 + 2 * i + 2};
        ok = apply(&s, &m, add, 1);
    }
    for (uint32_t b = 0; b < 30 && ok; b++) {
        size_t n = 0;
        for (uint32_t f = 0; f < 4; f++) /* new, below all: runs after them shift right */
            add[n++] = (oc__range){b * 60 + 3 * f, b * 60 + 3 * f + 1};
        uint32_t mid = 2000 + 600 + 40 * b; /* absorbs 8 intervals: runs after it shift left */
        add[n++] = (oc__range){mid, mid + 16};
        add[n++] = (oc__range){mid + 25, mid + 26}; /* lands between two: a new interval */
        add[n++] = (oc__range){3990 + b / 4, 3991 + b / 4};
        qsort(add, n, sizeof *add, range_lo_cmp);
        ok = apply(&s, &m, add, n);
    }
    CHECK(ok, "batches growing at the front and shrinking in the middle differ from the bitmap");
    oc__rangeset_free(&s);
    free(m.bit);
}

int main(void) {
    test_random();
    test_interleaved();
    test_front();
    return CHECK_SUMMARY();
}
