/*
 * test_ring_order.c — the ring model's interval order found group by group (ring_order.c) is the
 * order of a plain stable sort, and the model's colouring does not depend on which way the order
 * was found nor on whether the run keeps its fragments.
 *
 * 1. oc__ring_groups / oc__ring_order_groups against qsort by (start, key, index) on rounds of
 *    every shape at N = 1, 2, 3, 5, 7, 12, 100 and 64, 256, 1024: a node's partners at
 *    increasing distance (the all-to-all's two ascending runs), strided partners (recursive
 *    doubling's levels), keys descending, all equal (ties: the intervals' own order), random
 *    with ties, one group, groups of one; and starts that do not come in groups, which
 *    oc__ring_groups must refuse.
 * 2. The model, end to end: rounds of distinct (source, destination) pairs with random counts
 *    and no transfer at exactly N/2 (no tie to route by transfer order), so that the colouring's
 *    order, (start, longest first), is the same whatever order the transfers come in. Listed by
 *    source (each start's intervals together: the group path) and shuffled (the counting sorts
 *    wherever the shuffle leaves some start's intervals apart, which is all but the tiniest),
 *    each mapped on a checked run (the independent check passes) and on an unchecked one (no
 *    fragments written through the cut): the four step counts must be equal.
 */
#include "core/core.h"
#include "net/net.h"
#include "net/ring_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(uint32_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

typedef struct item {
    uint32_t start, key, index;
} item;

static int by_order(const void *a, const void *b) {
    const item *x = a, *y = b;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

enum { SHAPES = 8 };

/* Intervals of shape k on N positions into start[], key[] (n of them, at most cap). */
static size_t make_shape(int k, uint32_t N, uint32_t *start, uint32_t *key, size_t cap) {
    size_t n = 0;
    const uint32_t stride = N > 8 ? N / 8 : 1;
    for (uint32_t s0 = 0; s0 < N && n < cap; s0++) {
        const uint32_t s = (s0 + N / 3) % N; /* groups start anywhere: the cut */
        uint32_t g = k == 5 ? 1 : 1 + next_rand(N < 40 ? N : 40);
        if (k == 6 && s0) break; /* one group */
        if (k == 6) g = (uint32_t)cap;
        for (uint32_t j = 0; j < g && n < cap; j++) {
            uint32_t len;
            switch (k) {
            case 0: /* partners at increasing distance from the node's own position: two runs */
                len = 1 + (j + s) % (N > 1 ? N - 1 : 1);
                break;
            case 1: /* strided partners */
                len = 1 + (j * stride + s) % N;
                break;
            case 2: /* descending keys: ascending lengths */
                len = 1 + j % N;
                break;
            case 3: /* all equal: the order is the intervals' own */
                len = 1 + s % N;
                break;
            case 4: /* random, with ties */
                len = 1 + next_rand(N < 4 ? N : 4);
                break;
            default:
                len = 1 + next_rand(N);
            }
            start[n] = s;
            key[n] = N - (len > N ? N : len);
            n++;
        }
    }
    return n;
}

static void order_case(uint32_t N, int k) {
    enum { CAP = 6000 };
    static uint32_t start[CAP], key[CAP], id[CAP], out[CAP], first[1100], len[1100], b[CAP + 1];
    static uint64_t v[CAP], t[CAP];
    static item ref[CAP];
    const size_t n = make_shape(k, N, start, key, CAP);
    for (size_t i = 0; i < n; i++) {
        id[i] = (uint32_t)(3 * i + 1); /* increasing, not the index */
        ref[i] = (item){start[i], key[i], (uint32_t)i};
    }
    qsort(ref, n, sizeof *ref, by_order);
    size_t most = 0;
    int grouped = oc__ring_groups(N, n, start, first, len, &most);
    CHECK(grouped, "N=%u shape %d: %zu intervals listed by start not taken as groups", N, k, n);
    if (!grouped) return;
    CHECK(most <= n, "N=%u shape %d: largest group %zu of %zu", N, k, most, n);
    oc__ring_order_groups(N, first, len, key, id, out, v, t, b);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (out[i] != id[ref[i].index]) bad = i;
    CHECK(bad == n, "N=%u shape %d: place %zu of %zu holds id %u, a stable sort puts %u there", N,
          k, bad, n, bad < n ? out[bad] : 0, bad < n ? id[ref[bad].index] : 0);
    /* a group split in two (its second interval moved to another start): not groups */
    if (n >= 3 && N > 1 && start[0] == start[1] && start[1] == start[2]) {
        const uint32_t keep = start[1];
        start[1] = (start[0] + 1) % N;
        CHECK(!oc__ring_groups(N, n, start, first, len, &most),
              "N=%u shape %d: a start whose intervals are apart taken as one group", N, k);
        start[1] = keep;
    }
}

/* Steps of round r mapped alone on a ring of N nodes, w wavelengths, checked or not. */
static uint64_t steps_of(uint32_t N, const char *w, int check, const oc__round *r) {
    const oc__model *model = oc__model_find("ring");
    char why[512] = "";
    oc_kv *net = oc_kv_new();
    oc__spec spec;
    oc__netrun *run = NULL;
    uint64_t steps = UINT64_MAX;
    int rc = oc__spec_init(&spec, OC_ALLGATHER, N, 0, 4096, 8, why, sizeof why);
    const int have_spec = rc == 0;
    if (!rc && net) oc_kv_set(net, "wavelengths", w);
    if (!rc) rc = oc__model_create(model, &spec, net, check, &run, why, sizeof why);
    oc__sink *sink = rc ? NULL : model->sink(run);
    if (!rc) rc = sink->round(sink, 0, r, why, sizeof why);
    CHECK(rc == 0, "N=%u w=%s check=%d: %s", N, w, check, why);
    if (!rc) steps = model->steps(run);
    if (run) model->destroy(run);
    if (have_spec) oc__spec_free(&spec);
    oc_kv_free(net);
    return steps;
}

static void model_case(uint32_t N, const char *w, int dense) {
    oc__round by_source = {0}, shuffled = {0};
    int rc = 0;
    for (uint32_t a = 0; a < N && !rc; a++)
        for (uint32_t b = 0; b < N && !rc; b++) {
            const uint32_t cw = (b + N - a) % N;
            if (a == b || 2 * cw == N || (!dense && next_rand(4))) continue;
            rc = oc__round_push(&by_source, a, b, OC_OP_COPY, a, 1 + next_rand(5));
        }
    CHECK(rc == 0, "out of memory");
    for (size_t i = 0; !rc && i < by_source.count; i++) {
        const oc__transfer *t = &by_source.xfers[i];
        rc = oc__round_push(&shuffled, t->src, t->dst, (oc__op)t->op, t->first, t->count);
    }
    for (size_t i = shuffled.count; i > 1; i--) { /* Fisher-Yates */
        const size_t j = next_rand((uint32_t)i);
        oc__transfer x = shuffled.xfers[i - 1];
        shuffled.xfers[i - 1] = shuffled.xfers[j];
        shuffled.xfers[j] = x;
    }
    if (!rc && by_source.count) {
        const uint64_t s[4] = {steps_of(N, w, 1, &by_source), steps_of(N, w, 0, &by_source),
                               steps_of(N, w, 1, &shuffled), steps_of(N, w, 0, &shuffled)};
        CHECK(s[0] == s[1] && s[0] == s[2] && s[0] == s[3],
              "N=%u w=%s %s: steps %llu checked, %llu unchecked by source; %llu, %llu shuffled", N,
              w, dense ? "all-to-all" : "sparse", (unsigned long long)s[0],
              (unsigned long long)s[1], (unsigned long long)s[2], (unsigned long long)s[3]);
    }
    oc__round_free(&by_source);
    oc__round_free(&shuffled);
}

int main(void) {
    const uint32_t Ns[] = {1, 2, 3, 5, 7, 12, 100, 64, 256, 1024};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (int k = 0; k < SHAPES; k++)
            order_case(Ns[i], k);
    const uint32_t Ms[] = {2, 3, 5, 7, 12, 100, 64, 128};
    const char *ws[] = {"1", "3", "64"};
    for (size_t i = 0; i < sizeof Ms / sizeof *Ms; i++)
        for (size_t j = 0; j < sizeof ws / sizeof *ws; j++)
            for (int dense = 0; dense < 2; dense++)
                model_case(Ms[i], ws[j], dense);
    return CHECK_SUMMARY();
}
