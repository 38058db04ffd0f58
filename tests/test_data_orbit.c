/*
 * test_data_orbit.c — the real-data run's orbit state (data.c, "The orbit"): a schedule whose
 * rounds are invariant under the ring's rotation (node + 1, labels + C / N) is run on node 0's
 * chunks alone. The orbit is a fast path, so it must stay a real check: every broken schedule it
 * runs must fail, with the verdict and message of the N x C state, and every whole one pass.
 *
 * Schedules, on N in {1, 2, 3, 5, 7, 12, 100} with blocks of q = 1 and 3 labels:
 *   - the ring reduce-scatter, all-gather and all-reduce as families (node k sends block
 *     (k - shift) to k + 1), and the same rounds written out as transfers (rotation rounds);
 *   - the same rounds with each node's block sent as two transfers (its first label, the rest;
 *     q = 3): pieces of 2 N, each transfer's image two further on;
 *   - the same rounds with the nodes in reverse order (no piece: the test by node 0's transfers
 *     moved, in any order, SiPCO's rounds' case);
 *   - the bidirectional ring all-gather (each round every node sends to k + 1 and k - 1), its
 *     transfers interleaved (a piece of 2 N) or one direction after the other (two pieces of N),
 *     the circulant all-gather's shape.
 * Broken on purpose, each a way a schedule goes wrong that the orbit keeps (the round stays
 * invariant, so the fast path is the one that must catch it) or breaks:
 *   TWICE     a round run twice: a sum counted twice (reductions), or a copy repeated (harmless
 *             for copies: the all-gather passes, as in the N x C state);
 *   SKIP      a round left out: a chunk missing, or a contribution missing;
 *   SHIFT     one round's blocks off by one: the wrong chunk sent (wrong contribution summed);
 *   OPSWAP    a reduce written as a copy: a partial sum overwritten, contributions lost;
 *   ASYM      one transfer of one round moved to another block (the round is no longer
 *             invariant: the run leaves the orbit for the N x C state there).
 * Each is run three ways: families or transfers with the orbit, and with the orbit turned off
 * (oc__datacheck_orbit_off: the N x C state from the start, the path that was there before).
 * Asserted: the same return code and message in all three; a whole schedule passes and (N >= 2)
 * every round of it went through the orbit; every reduction kind but ASYM, and SKIP, SHIFT for
 * all-gathers too, fails in the orbit with all its rounds taken there (the fast path caught it);
 * ASYM fails, having left the orbit. The order of a reduction is not a fault the check can see:
 * its sums are of small integers, exact in any order (the data.c essay).
 * Last, the orbit alone (the N x C state past the budget): a whole schedule is checked to the end
 * (no skip), a broken invariant one fails, and an ASYM one says it was skipped (no verdict).
 *
 * The digit orbit (an all-reduce stating oc__spec.digit_*, rhd's): mixed-radix recursive halving
 * then doubling written out here (level p: node z sends the aligned block of its labels with digit
 * p = j to the node whose digit p is j), radices 2, 3, 5, 7, 2x2x3, 4x5x5 and 2x4x2 (N = 2 .. 100;
 * powers of two take the digit masks' path), whole
 * and broken the same ways (SHIFT: the block of digit j + 1 sent to the node of digit j), with the
 * orbit and without: the same verdicts and messages, every round of a whole or invariantly broken
 * schedule taken in the orbit, every broken one caught; and one transfer of no label (ZERO).
 */
#include "check.h"
#include "core/core.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WHOLE, TWICE, SKIP, SHIFT, OPSWAP, ASYM, KINDS, ZERO = KINDS };
static const char *const kind_name[] = {"whole",  "twice", "skip", "shift",
                                        "opswap", "asym",  "zero"};
enum { SHAPE_RING, SHAPE_HALVES, SHAPE_REVERSED, SHAPE_BIDI_MIXED, SHAPE_BIDI_SPLIT, SHAPES };
enum { AS_FAMILIES, AS_TRANSFERS, ORBIT_OFF, WAYS };

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t orbit_rounds, rounds;
    int skipped;
} outcome;

/* One step of the schedule: a reduce or copy step s of the ring (node k sends block (k - s - 1)
 * for a reduce, (k - s) for a copy, to k + 1) and, bidirectional, its mirror (node k sends block
 * (k + s + 1) or (k + s) to k - 1); as a family when it can be and `as_family`. */
static int step(oc__sink *sink, uint64_t index, uint32_t N, uint32_t q, int shape, int reduce,
                uint32_t s, int kind, int broken_here, int as_family, char *why, size_t len) {
    oc__op op = reduce ? OC_OP_REDUCE : OC_OP_COPY;
    if (kind == OPSWAP && broken_here && reduce) op = OC_OP_COPY;
    uint32_t back = (reduce ? s + 1 : s) % N; /* block k - back goes forward */
    if (kind == SHIFT && broken_here) back = (back + 1) % N;
    const uint32_t hop = 1 % N;
    oc__round r;
    memset(&r, 0, sizeof r);
    if (shape == SHAPE_RING && as_family && !(kind == ASYM && broken_here)) {
        r.is_family = 1;
        r.family = (oc__family){N, hop, back, 0, q, op};
        r.count = N;
        return sink->round(sink, index, &r, why, len);
    }
    int rc = 0;
    /* forward transfers of node k, then (bidirectional) backward ones */
    for (uint32_t pass = 0; pass < (shape == SHAPE_BIDI_SPLIT ? 2u : 1u) && !rc; pass++)
        for (uint32_t kk = 0; kk < N && !rc; kk++) {
            const uint32_t k = shape == SHAPE_REVERSED ? N - 1 - kk : kk;
            const int fwd = shape < SHAPE_BIDI_MIXED || shape == SHAPE_BIDI_MIXED || pass == 0;
            const int bwd = (shape == SHAPE_BIDI_MIXED || (shape == SHAPE_BIDI_SPLIT && pass == 1));
            if (fwd) {
                uint32_t b = (k + N - back) % N;
                if (kind == ASYM && broken_here && k == N / 2) b = (b + 1) % N;
                if (shape == SHAPE_HALVES) {
                    rc = oc__round_push(&r, k, (k + hop) % N, op, b * q, 1);
                    if (!rc) rc = oc__round_push(&r, k, (k + hop) % N, op, b * q + 1, q - 1);
                } else {
                    rc = oc__round_push(&r, k, (k + hop) % N, op, b * q, q);
                }
            }
            if (!rc && bwd)
                rc = oc__round_push(&r, k, (k + N - hop) % N, op, (k + back) % N * q, q);
        }
    if (!rc) rc = sink->round(sink, index, &r, why, len);
    oc__round_free(&r);
    return rc;
}

static outcome run(oc_collective coll, uint32_t N, uint32_t q, int shape, int kind, int way,
                   uint64_t budget) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    if (oc__spec_init(&spec, coll, N, 0, (uint64_t)N * q * 64, coll == OC_ALLREDUCE ? N * q : q,
                      o.why, sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    oc__datacheck *d = NULL;
    o.rc = oc__datacheck_new(&spec, budget, &d, o.why, sizeof o.why);
    if (o.rc || !d) {
        if (!o.rc) o.rc = -1001;
        oc__spec_free(&spec);
        return o;
    }
    oc__datacheck_orbit_off(d, way == ORBIT_OFF);
    oc__sink *sink = oc__datacheck_sink(d);
    sink->next = NULL;
    /* the bidirectional ring needs ceil((N - 1) / 2) steps a phase; the ring N - 1 */
    const uint32_t steps = shape == SHAPE_BIDI_MIXED || shape == SHAPE_BIDI_SPLIT ? N / 2 : N - 1;
    const int rs = coll != OC_ALLGATHER, ag = coll != OC_REDUCESCATTER;
    const uint32_t rounds = (uint32_t)(rs + ag) * steps;
    const uint32_t broken = rs ? steps / 2 : rounds / 2; /* the round a kind breaks: a reduce */
    uint64_t index = 0;
    int rc = 0;
    /* N = 1: no round, so a round of the one node's own chunks into itself stands for the kinds
     * (a reduce of itself counts its contribution twice) */
    if (N == 1 && kind != WHOLE && kind != SKIP) {
        oc__round r;
        memset(&r, 0, sizeof r);
        rc = oc__round_push(&r, 0, 0, coll == OC_ALLGATHER ? OC_OP_COPY : OC_OP_REDUCE, 0, q);
        if (!rc) rc = sink->round(sink, index++, &r, o.why, sizeof o.why);
        oc__round_free(&r);
    }
    for (uint32_t i = 0; i < rounds && !rc; i++) {
        if (kind == SKIP && i == broken) continue;
        const int reduce = rs && i < steps;
        const uint32_t s = reduce || !rs ? i : i - steps;
        for (int again = 0; again <= (kind == TWICE && i == broken) && !rc; again++)
            rc = step(sink, index++, N, q, shape, reduce, s, kind, i == broken, way == AS_FAMILIES,
                      o.why, sizeof o.why);
    }
    if (!rc) rc = oc__datacheck_finish(d, o.why, sizeof o.why);
    o.rc = rc;
    o.rounds = index;
    o.orbit_rounds = oc__datacheck_orbit_rounds(d);
    o.skipped = oc__datacheck_skipped(d) != NULL;
    oc__datacheck_free(d);
    oc__spec_free(&spec);
    return o;
}

/* Mixed-radix rhd all-reduce on prod(radix) nodes, broken by `kind` in its middle reduce level. */
static outcome run_digits(const uint32_t *radix, uint32_t k, int kind, int orbit_off) {
    outcome o;
    memset(&o, 0, sizeof o);
    uint32_t w[33] = {1};
    for (uint32_t p = 0; p < k; p++)
        w[p + 1] = w[p] * radix[p];
    const uint32_t N = w[k];
    oc__spec spec;
    if (oc__spec_init(&spec, OC_ALLREDUCE, N, 0, (uint64_t)N * 64, N, o.why, sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    spec.digit_levels = k;
    for (uint32_t p = 0; p < k; p++)
        spec.digit_radix[p] = radix[p];
    oc__datacheck *d = NULL;
    o.rc = oc__datacheck_new(&spec, UINT64_C(1) << 30, &d, o.why, sizeof o.why);
    if (o.rc || !d) {
        if (!o.rc) o.rc = -1001;
        oc__spec_free(&spec);
        return o;
    }
    oc__datacheck_orbit_off(d, orbit_off);
    oc__sink *sink = oc__datacheck_sink(d);
    sink->next = NULL;
    int rc = 0;
    uint64_t index = 0;
    /* levels: reduce p = k - 1 .. 0, then copy p = 0 .. k - 1; the broken one is reduce k / 2 */
    for (uint32_t L = 0; L < 2 * k && !rc; L++) {
        const int reduce = L < k;
        const uint32_t p = reduce ? k - 1 - L : L - k;
        const int here = reduce && p == k / 2;
        if (kind == SKIP && here) continue;
        for (int again = 0; again <= (kind == TWICE && here) && !rc; again++) {
            oc__round r;
            memset(&r, 0, sizeof r);
            for (uint32_t z = 0; z < N && !rc; z++) {
                const uint32_t zp = z / w[p] % radix[p], above = z / w[p + 1] * w[p + 1];
                for (uint32_t j = 0; j < radix[p] && !rc; j++) {
                    if (j == zp) continue;
                    const uint32_t to =
                        z + (j - zp) * w[p]; /* z with digit p = j (may wrap down) */
                    /* reduce: the labels with digits above p as z's and digit p = j; copy: z's
                     * block, digits p and above as z's */
                    uint32_t block = reduce ? j : zp;
                    if (kind == SHIFT && here) block = (block + 1) % radix[p];
                    uint32_t first = above + block * w[p];
                    if (kind == ASYM && here && z == N / 2) first = above + zp * w[p];
                    oc__op op = reduce && !(kind == OPSWAP && here) ? OC_OP_REDUCE : OC_OP_COPY;
                    /* ZERO: one transfer of no label, where the test divides by a count */
                    const uint32_t count = kind == ZERO && here && z == N - 1 ? 0 : w[p];
                    rc = oc__round_push(&r, z, to, op, first, count);
                }
            }
            if (!rc) rc = sink->round(sink, index++, &r, o.why, sizeof o.why);
            oc__round_free(&r);
        }
    }
    if (!rc) rc = oc__datacheck_finish(d, o.why, sizeof o.why);
    o.rc = rc;
    o.rounds = index;
    o.orbit_rounds = oc__datacheck_orbit_rounds(d);
    oc__datacheck_free(d);
    oc__spec_free(&spec);
    return o;
}

static void digits(void) {
    static const uint32_t radices[][3] = {{2}, {3}, {5}, {7}, {2, 2, 3}, {4, 5, 5}, {2, 4, 2}};
    static const uint32_t levels[] = {1, 1, 1, 1, 3, 3, 3};
    for (size_t a = 0; a < sizeof levels / sizeof *levels; a++)
        for (int kind = 0; kind <= ZERO; kind++) {
            const outcome on = run_digits(radices[a], levels[a], kind, 0);
            const outcome off = run_digits(radices[a], levels[a], kind, 1);
            const char *kn = kind_name[kind];
            CHECK(on.rc == off.rc && !strcmp(on.why, off.why),
                  "digits %zu %s: orbit rc %d '%s', off rc %d '%s'", a, kn, on.rc, on.why, off.rc,
                  off.why);
            CHECK(off.orbit_rounds == 0, "digits %zu %s: off took %llu", a, kn,
                  (unsigned long long)off.orbit_rounds);
            if (kind == WHOLE)
                CHECK(on.rc == 0, "digits %zu whole: rc %d '%s'", a, on.rc, on.why);
            else
                CHECK(on.rc == OC_EVERIFY && !strncmp(on.why, "data check: node ", 17),
                      "digits %zu %s not caught: rc %d '%s'", a, kn, on.rc, on.why);
            CHECK(kind >= ASYM ? on.orbit_rounds < on.rounds : on.orbit_rounds == on.rounds,
                  "digits %zu %s: %llu of %llu rounds in the orbit", a, kn,
                  (unsigned long long)on.orbit_rounds, (unsigned long long)on.rounds);
        }
}

int main(void) {
    digits();
    static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};
    static const oc_collective colls[] = {OC_ALLGATHER, OC_REDUCESCATTER, OC_ALLREDUCE};
    const uint64_t big = UINT64_C(1) << 30;
    int caught = 0;
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
        for (size_t c = 0; c < 3; c++)
            for (int shape = 0; shape < SHAPES; shape++)
                for (uint32_t q = 1; q <= 3; q += 2)
                    for (int kind = 0; kind < KINDS; kind++) {
                        const uint32_t N = sizes[a];
                        const oc_collective coll = colls[c];
                        /* the bidirectional ring is an all-gather's; halves need q > 1 */
                        if (shape >= SHAPE_BIDI_MIXED && coll != OC_ALLGATHER) continue;
                        if (shape == SHAPE_HALVES && q == 1) continue;
                        if (N == 1 &&
                            (shape != SHAPE_RING || kind == ASYM || kind == SHIFT || kind == SKIP))
                            continue;
                        const char *cn = oc_collective_name(coll), *kn = kind_name[kind];
                        outcome o[WAYS];
                        for (int w = 0; w < WAYS; w++)
                            o[w] = run(coll, N, q, shape, kind, w, big);
                        for (int w = 1; w < WAYS; w++)
                            CHECK(o[w].rc == o[0].rc && !strcmp(o[w].why, o[0].why),
                                  "%s N=%u q=%u shape %d %s: rc %d '%s', way %d rc %d '%s'", cn, N,
                                  q, shape, kn, o[0].rc, o[0].why, w, o[w].rc, o[w].why);
                        CHECK(o[ORBIT_OFF].orbit_rounds == 0, "%s N=%u: orbit off took %llu", cn, N,
                              (unsigned long long)o[ORBIT_OFF].orbit_rounds);
                        const int harmless = kind == WHOLE || (coll == OC_ALLGATHER &&
                                                               (kind == TWICE || kind == OPSWAP));
                        if (harmless) {
                            CHECK(o[0].rc == 0, "%s N=%u q=%u shape %d %s: rc %d '%s'", cn, N, q,
                                  shape, kn, o[0].rc, o[0].why);
                        } else {
                            CHECK(o[0].rc == OC_EVERIFY &&
                                      strncmp(o[0].why, "data check: node ", 17) == 0,
                                  "%s N=%u q=%u shape %d %s not caught: rc %d '%s'", cn, N, q,
                                  shape, kn, o[0].rc, o[0].why);
                            caught += o[0].rc == OC_EVERIFY;
                        }
                        /* the fast path ran every round (or, ASYM, left the orbit) */
                        for (int w = 0; w < ORBIT_OFF; w++) {
                            const int all = kind != ASYM;
                            CHECK(all ? o[w].orbit_rounds == o[w].rounds
                                      : kind != ASYM || o[w].orbit_rounds < o[w].rounds,
                                  "%s N=%u q=%u shape %d %s way %d: %llu of %llu rounds in the "
                                  "orbit",
                                  cn, N, q, shape, kn, w, (unsigned long long)o[w].orbit_rounds,
                                  (unsigned long long)o[w].rounds);
                        }
                        /* the orbit alone: the N x C state past the budget, the orbit's not */
                        const uint32_t C = N * q;
                        const uint64_t slot = coll == OC_ALLGATHER ? 4 : 8;
                        if (N < 3) continue; /* budget between C and N C slots */
                        const outcome alone =
                            run(coll, N, q, shape, kind, AS_TRANSFERS, (uint64_t)C * slot * 2);
                        if (kind == ASYM) {
                            CHECK(alone.rc == 0 && alone.skipped,
                                  "%s N=%u q=%u shape %d asym alone: rc %d skipped %d '%s'", cn, N,
                                  q, shape, alone.rc, alone.skipped, alone.why);
                        } else {
                            CHECK(!alone.skipped && alone.rc == o[0].rc &&
                                      !strcmp(alone.why, o[0].why),
                                  "%s N=%u q=%u shape %d %s alone: rc %d skipped %d '%s'", cn, N, q,
                                  shape, kn, alone.rc, alone.skipped, alone.why);
                        }
                    }
    CHECK(caught > 200, "%d broken schedules caught", caught);
    return CHECK_SUMMARY();
}
