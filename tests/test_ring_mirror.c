/*
 * test_ring_mirror.c — the ring model's mirror (ring.c, "the other direction's mirror image"):
 * in a run that reads no fragments (the search's), a round whose counter-clockwise direction is
 * its clockwise one mirrored and turned takes the clockwise direction's colour count instead of a
 * sweep of its own. The count must be the one the sweep gives, whatever the round.
 *
 * Rounds, at N = 2, 3, 5, 7, 12, 100, 64, 257 and w = 1, 3, 64:
 *   - rotation-invariant rounds (every node x sends to x + delta for every delta of a set D, with
 *     units u(delta)) whose D and u are symmetric (delta and N - delta alike): the two
 *     directions mirror each other, and the mirror must be taken (N >= 5: there are arcs
 *     through the cut); the all-to-all and rd's levels of radix r at place value W (x to
 *     x + j W, W units) are such rounds;
 *   - the same with u(N - delta) != u(delta) for one delta, or one transfer's units changed, or
 *     one transfer left out: the directions differ and the mirror must not change the count;
 *   - random rounds and a symmetric round shuffled (the crossing arcs of one end in another
 *     order, the ties at N / 2 routed otherwise).
 * Each is mapped unchecked and checked (the run keeps its fragments, and direction 1's are then
 * the image of direction 0's, which the independent check must pass), each with the mirror on and
 * off: the four step counts must be equal, and the checked run takes the mirror where the
 * unchecked one does. Broken on purpose (the units left out of the comparison, or the crossing
 * arcs compared by end alone), the broken rounds take the mirror with a count that is not theirs
 * and the steps differ; with the crossing arcs' colours not matched (each given the colours of
 * direction 0's arc in its place by end), the check finds two lightpaths on one wavelength.
 */
#include "core/core.h"
#include "net/net.h"
#include "net/ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t next_rand(uint32_t n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return n ? (uint32_t)(rng % n) : 0;
}

/* Round r mapped alone on a ring of N nodes with w wavelengths: its steps, and in *taken how
 * many directions took the mirror. check: a checked run; off: the mirror off. */
static uint64_t steps_of(uint32_t N, const char *w, int check, int off, const oc__round *r,
                         uint64_t *taken) {
    const oc__model *model = oc__model_find("ring");
    char why[512] = "";
    oc_kv *net = oc_kv_new();
    oc__spec spec;
    oc__netrun *run = NULL;
    uint64_t steps = UINT64_MAX;
    *taken = 0;
    int rc = oc__spec_init(&spec, OC_ALLGATHER, N, 0, 4096, 8, why, sizeof why);
    const int have_spec = rc == 0;
    if (!rc && net) oc_kv_set(net, "wavelengths", w);
    if (!rc) rc = oc__model_create(model, &spec, net, check, &run, why, sizeof why);
    if (!rc) oc__ring_mirror_off(run, off);
    oc__sink *sink = rc ? NULL : model->sink(run);
    if (!rc) rc = sink->round(sink, 0, r, why, sizeof why);
    CHECK(rc == 0, "N=%u w=%s check=%d: %s", N, w, check, why);
    if (!rc) {
        steps = model->steps(run);
        *taken = oc__ring_mirrored(run);
    }
    if (run) model->destroy(run);
    if (have_spec) oc__spec_free(&spec);
    oc_kv_free(net);
    return steps;
}

/* Maps r three ways; the steps must agree. *taken: whether the unchecked run with the mirror on
 * took it. */
static void same_steps(uint32_t N, const char *w, const char *what, const oc__round *r,
                       int *taken) {
    *taken = 0;
    if (!r->count) return; /* nothing to colour (a small N's random set may be empty) */
    uint64_t t_on, t_off, t_chk, t_chk_off;
    const uint64_t on = steps_of(N, w, 0, 0, r, &t_on);
    const uint64_t off = steps_of(N, w, 0, 1, r, &t_off);
    const uint64_t chk = steps_of(N, w, 1, 0, r, &t_chk); /* steps_of: its check passed */
    const uint64_t chk_off = steps_of(N, w, 1, 1, r, &t_chk_off);
    CHECK(on == off && on == chk && on == chk_off,
          "N=%u w=%s %s: %llu steps with the mirror (taken %llu), %llu without, %llu checked "
          "(taken %llu), %llu checked without", N, w, what, (unsigned long long)on,
          (unsigned long long)t_on, (unsigned long long)off, (unsigned long long)chk,
          (unsigned long long)t_chk, (unsigned long long)chk_off);
    CHECK(t_off == 0 && t_chk_off == 0 && t_chk == t_on,
          "N=%u w=%s %s: the mirror taken while off (%llu, %llu checked), or taken %llu times "
          "checked against %llu unchecked", N, w, what, (unsigned long long)t_off,
          (unsigned long long)t_chk_off, (unsigned long long)t_chk, (unsigned long long)t_on);
    *taken = t_on > 0;
}

/* Every node x sends to x + delta for delta in 1 .. N-1 with units[delta] > 0, in node order
 * (x outer); a units[] entry 0 leaves delta out. */
static int rotation_round(uint32_t N, const uint32_t *units, oc__round *r) {
    r->count = 0;
    for (uint32_t x = 0; x < N; x++)
        for (uint32_t d = 1; d < N; d++)
            if (units[d]) {
                int rc = oc__round_push(r, x, (x + d) % N, OC_OP_COPY, x, units[d]);
                if (rc) return rc;
            }
    return 0;
}

static void cases(uint32_t N, const char *w) {
    uint32_t *u = calloc(N + 1, sizeof *u);
    oc__round r = {0};
    int taken, symmetric_taken = 0, rc = 0;
    char what[160];
    if (!u) {
        CHECK(0, "out of memory");
        return;
    }
    /* 1. the all-to-all, and rd's levels of radix N / W at place value W (W | N) */
    for (uint32_t W = 1; W < N && !rc; W++) {
        if (N % W) continue;
        memset(u, 0, (N + 1) * sizeof *u);
        for (uint32_t d = W; d < N; d += W)
            u[d] = W;
        if ((rc = rotation_round(N, u, &r))) break;
        snprintf(what, sizeof what, "level radix %u at place value %u", N / W, W);
        same_steps(N, w, what, &r, &taken);
        if (W == 1 && N >= 5) CHECK(taken, "N=%u w=%s: the all-to-all did not take the mirror", N, w);
    }
    /* 2. symmetric random sets and units, 3. one delta's units unequal, 4. one transfer's
     * units changed, 5. one transfer left out, 6. shuffled */
    for (int trial = 0; trial < 6 && !rc; trial++) {
        memset(u, 0, (N + 1) * sizeof *u);
        for (uint32_t d = 1; 2 * d <= N; d++)
            if (next_rand(3)) u[d] = u[N - d] = 1 + next_rand(6);
        if ((rc = rotation_round(N, u, &r))) break;
        snprintf(what, sizeof what, "symmetric set, trial %d", trial);
        same_steps(N, w, what, &r, &taken);
        symmetric_taken += taken;
        /* two counter-clockwise transfers into one node swap their units: the same intervals,
         * the same units in all, the same ends, only which start has which units differs (when
         * both pass the cut, only the crossing arcs' comparison can tell) */
        for (int swap = 0; swap < 8 && N >= 5; swap++) {
            const uint32_t z = next_rand(N), d1 = N / 2 + 1 + next_rand((N - 1) / 2),
                           d2 = N / 2 + 1 + next_rand((N - 1) / 2);
            if (d1 >= N || d2 >= N || u[d1] == u[d2] || !u[d1] || !u[d2]) continue;
            size_t i1 = SIZE_MAX, i2 = SIZE_MAX;
            for (size_t i = 0; i < r.count; i++) {
                if (r.xfers[i].dst != z) continue;
                if (r.xfers[i].src == (z + N - d1) % N) i1 = i;
                if (r.xfers[i].src == (z + N - d2) % N) i2 = i;
            }
            if (i1 == SIZE_MAX || i2 == SIZE_MAX) continue;
            r.xfers[i1].count = u[d2];
            r.xfers[i2].count = u[d1];
            snprintf(what, sizeof what, "units of %u and %u into %u swapped, trial %d", d1, d2, z,
                     trial);
            same_steps(N, w, what, &r, &taken);
            r.xfers[i1].count = u[d1];
            r.xfers[i2].count = u[d2];
        }
        uint32_t d0 = 1 + next_rand(N / 2 > 1 ? N / 2 - 1 : 1); /* delta < N / 2 */
        if (2 * d0 < N && u[d0]) {
            u[N - d0] = u[d0] + 1 + next_rand(3);
            if ((rc = rotation_round(N, u, &r))) break;
            snprintf(what, sizeof what, "units of %u and %u unequal, trial %d", d0, N - d0, trial);
            same_steps(N, w, what, &r, &taken);
            u[N - d0] = u[d0];
            if ((rc = rotation_round(N, u, &r))) break;
        }
        if (r.count) {
            const size_t at = next_rand((uint32_t)r.count);
            r.xfers[at].count += 1 + next_rand(3);
            snprintf(what, sizeof what, "one transfer's units changed, trial %d", trial);
            same_steps(N, w, what, &r, &taken);
            r.xfers[at] = r.xfers[r.count - 1]; /* the last moved into its place */
            r.count--;
            snprintf(what, sizeof what, "one transfer left out, trial %d", trial);
            same_steps(N, w, what, &r, &taken);
        }
        if ((rc = rotation_round(N, u, &r))) break;
        for (size_t i = r.count; i > 1; i--) { /* Fisher-Yates */
            const size_t j = next_rand((uint32_t)i);
            const oc__transfer t = r.xfers[i - 1];
            r.xfers[i - 1] = r.xfers[j];
            r.xfers[j] = t;
        }
        snprintf(what, sizeof what, "symmetric set shuffled, trial %d", trial);
        same_steps(N, w, what, &r, &taken);
    }
    /* the symmetric sets have arcs through the cut from N = 5 on (units 1 to 4, a third left
     * out): most take the mirror */
    if (N >= 12) CHECK(symmetric_taken >= 3, "N=%u w=%s: %d of 6 symmetric sets took the mirror",
                       N, w, symmetric_taken);
    /* 7. random rounds: any pairs, any units */
    for (int trial = 0; trial < 4 && !rc; trial++) {
        r.count = 0;
        for (uint32_t a = 0; a < N && !rc; a++)
            for (uint32_t b = 0; b < N && !rc; b++)
                if (a != b && !next_rand(3))
                    rc = oc__round_push(&r, a, b, OC_OP_COPY, a, 1 + next_rand(4));
        snprintf(what, sizeof what, "random round, trial %d", trial);
        if (!rc && r.count) same_steps(N, w, what, &r, &taken);
    }
    CHECK(rc == 0, "N=%u: out of memory", N);
    oc__round_free(&r);
    free(u);
}

int main(void) {
    const uint32_t Ns[] = {2, 3, 5, 7, 12, 100, 64, 257};
    const char *ws[] = {"1", "3", "64"};
    for (size_t i = 0; i < sizeof Ns / sizeof *Ns; i++)
        for (size_t j = 0; j < sizeof ws / sizeof *ws; j++)
            cases(Ns[i], ws[j]);
    return CHECK_SUMMARY();
}
