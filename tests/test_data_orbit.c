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
 */
#include "check.h"
#include "core/core.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WHOLE, TWICE, SKIP, SHIFT, OPSWAP, ASYM, KINDS };
static const char *const kind_name[] = {"whole", "twice", "skip", "shift", "opswap", "asym"};
enum { SHAPE_RING, SHAPE_HALVES, SHAPE_BIDI_MIXED, SHAPE_BIDI_SPLIT, SHAPES };
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
        for (uint32_t k = 0; k < N && !rc; k++) {
            const int fwd = shape == SHAPE_RING || shape == SHAPE_BIDI_MIXED || pass == 0;
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
            if (!rc && bwd) rc = oc__round_push(&r, k, (k + N - hop) % N, op, (k + back) % N * q, q);
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

int main(void) {
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
                        if (N == 1 && (shape != SHAPE_RING || kind == ASYM || kind == SHIFT ||
                                       kind == SKIP))
                            continue;
                        const char *cn = oc_collective_name(coll), *kn = kind_name[kind];
                        outcome o[WAYS];
                        for (int w = 0; w < WAYS; w++)
                            o[w] = run(coll, N, q, shape, kind, w, big);
                        for (int w = 1; w < WAYS; w++)
                            CHECK(o[w].rc == o[0].rc && !strcmp(o[w].why, o[0].why),
                                  "%s N=%u q=%u shape %d %s: rc %d '%s', way %d rc %d '%s'", cn, N,
                                  q, shape, kn, o[0].rc, o[0].why, w, o[w].rc, o[w].why);
                        CHECK(o[ORBIT_OFF].orbit_rounds == 0, "%s N=%u: orbit off took %llu", cn,
                              N, (unsigned long long)o[ORBIT_OFF].orbit_rounds);
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
                                  "%s N=%u q=%u shape %d %s alone: rc %d skipped %d '%s'", cn, N,
                                  q, shape, kn, alone.rc, alone.skipped, alone.why);
                        }
                    }
    CHECK(caught > 200, "%d broken schedules caught", caught);
    return CHECK_SUMMARY();
}
