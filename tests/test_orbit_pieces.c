/*
 * test_orbit_pieces.c — the orbit state's rounds of several pieces (verify.c, "rounds of several
 * pieces"; issue 26 item 4, issue 31 item 1): an all-reduce whose spec states a symmetry takes a
 * round of p transfers a node whole when its transfers fall into chains, each transfer the one
 * k before moved by the symmetry, and must give exactly what the plain path gives.
 *
 *  1. The bidirectional ring all-reduce (reduce-scatter then all-gather, two transfers a node a
 *     round, one each way; stride.c at stride 1, written here afresh so that it can be broken),
 *     its transfers in sender order (one piece of k = 2: a node's two together) or one direction
 *     after the other (two pieces of k = 1), on N = 1, 2, 3, 5, 7, 12, 100, whole and broken
 *     eight ways: the last round left out, a round twice, one node's counter-clockwise label
 *     moved (the symmetry broken), a transfer added, a transfer dropped, every counter-clockwise
 *     label turned by one (still symmetric, wrong), two reduces into one cell in a round (every
 *     node: symmetric) and a copy and a copy into one cell. Each goes through a verifier with the
 *     symmetry stated and the path on, the same with the path off (oc__verifier_pieces_off) and
 *     one without the symmetry (the plain cells from the start): the return code and the reason
 *     must be the same, a break must fail, and the path must have taken every round of the
 *     whole schedules (a path that never fires would pass the rest).
 *  2. The stride all-reduce's own plan states its symmetry when L divides N (stride.c), and its
 *     own generator's rounds are then all taken whole, at N = 12 (L = 1, 2, 3, 4), 100 (L = 1,
 *     2, 4, 5, 10, 20, 25) and 210 (L = 7, 15), and verify; at L not dividing N nothing is
 *     stated; bistride's the same at odd L, and nothing at even L (its split rounds).
 * A path that read a chain without checking every transfer, took a round with a cell written
 * twice, or turned the labels the wrong way fails here.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/core.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WHOLE, SHORT, TWICE, ONE_MOVED, EXTRA, DROPPED, TURNED, DOUBLE_REDUCE, DOUBLE_COPY, KINDS };

typedef struct bsched {
    uint32_t N;
    int by_direction; /* 1: every clockwise transfer, then every counter-clockwise one */
    int kind;
} bsched;

/* All-gather round r of the bidirectional ring: node i sends block i - r to i + 1 (r < u) and
 * block i + r to i - 1 (r < l), u = ceil((N-1)/2), l = floor((N-1)/2). The reduce-scatter is it
 * backwards: all-gather round u - 1 - r with every transfer reversed and made a reduce. */
static int emit_round(const bsched *b, oc__emit *e, uint32_t ag_round, int rs, int break_here) {
    const uint32_t N = b->N, u = N / 2, l = (N - 1) / 2, r = ag_round;
    const oc__op op = rs ? OC_OP_REDUCE : OC_OP_COPY;
    int rc = 0;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        for (uint32_t i = 0; i < N && !rc; i++) {
            for (int dir = 0; dir < 2 && !rc; dir++) {
                if (b->by_direction && dir != pass) continue;
                if (!b->by_direction && pass) continue;
                if ((dir == 0 && r >= u) || (dir == 1 && r >= l)) continue;
                uint32_t from = i, to = dir == 0 ? (i + 1) % N : (i + N - 1) % N;
                uint32_t label = dir == 0 ? (i + N - r % N) % N : (i + r) % N;
                if (break_here && dir == 1) {
                    if (b->kind == ONE_MOVED && i == N / 2) label = (label + 1) % N;
                    if (b->kind == TURNED) label = (label + 1) % N;
                    /* the receiver's other transfer brings the same label */
                    if (b->kind == DOUBLE_REDUCE || b->kind == DOUBLE_COPY)
                        label = (i + 2 * N - 2 - r % N) % N;
                    if (b->kind == DROPPED && i == N - 1) continue;
                }
                if (rs) {
                    const uint32_t t = from;
                    from = to;
                    to = t;
                }
                rc = oc__emit_transfer(e, from, to, op, label, 1);
            }
        }
    }
    if (!rc && break_here && b->kind == EXTRA) rc = oc__emit_transfer(e, 0, N - 1, op, 0, 1);
    return rc ? rc : oc__emit_round(e);
}

static int source(const bsched *b, oc__emit *e) {
    const uint32_t N = b->N, u = N / 2;
    int rc = 0;
    const uint32_t total = 2 * u, broken = u / 2; /* the broken round: in the reduce-scatter */
    for (uint32_t k = 0; k < total + (b->kind == TWICE) && !rc; k++) {
        uint32_t at = b->kind == TWICE && k > broken ? k - 1 : k;
        if (b->kind == SHORT && at + 1 == total) break;
        const int rs = at < u;
        int break_here = at == broken && k == at;
        if (b->kind == DOUBLE_COPY) break_here = at == u && k == at; /* the first copy round */
        rc = emit_round(b, e, rs ? u - 1 - at : at - u, rs, break_here);
    }
    return rc;
}

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t pieces;
} outcome;

/* mode 0: the symmetry stated, the path on; 1: stated, the path off; 2: not stated. */
static outcome run(const bsched *b, int mode) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    const uint32_t N = b->N;
    o.rc = oc__spec_init(&spec, OC_ALLREDUCE, N, 0, (uint64_t)N * 64, N, o.why, sizeof o.why);
    if (o.rc) return o;
    if (mode < 2) spec.orbit_stride = 1, spec.orbit_part = N, spec.orbit_turn = 1;
    oc__verifier *v = NULL;
    o.rc = oc__verifier_new(&spec, &v, o.why, sizeof o.why);
    if (!o.rc) {
        oc__verifier_pieces_off(v, mode == 1);
        oc__emit e;
        oc__emit_init(&e, &spec, oc__verifier_sink(v), o.why, sizeof o.why);
        o.rc = source(b, &e);
        if (!o.rc) o.rc = oc__verifier_finish(v, o.why, sizeof o.why);
        o.pieces = oc__verifier_orbit_rounds(v);
        oc__emit_free(&e);
    }
    oc__verifier_free(v);
    oc__spec_free(&spec);
    return o;
}

static void bidir_pieces(void) {
    static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 100};
    int fails = 0, passes = 0;
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        const uint32_t N = sizes[a];
        for (int by = 0; by <= 1; by++)
            for (int kind = 0; kind < KINDS; kind++) {
                const bsched b = {N, by, kind};
                const outcome on = run(&b, 0), off = run(&b, 1), plain = run(&b, 2);
                CHECK(on.rc == off.rc && !strcmp(on.why, off.why) && on.rc == plain.rc &&
                          !strcmp(on.why, plain.why),
                      "N=%u by direction %d kind %d: on rc %d '%s', off rc %d '%s', plain rc %d "
                      "'%s'",
                      N, by, kind, on.rc, on.why, off.rc, off.why, plain.rc, plain.why);
                const uint64_t total = N >= 2 ? 2 * (uint64_t)(N / 2) : 0;
                CHECK(N < 3 || off.pieces < total,
                      "N=%u kind %d: %llu orbit rounds with the path off", N, kind,
                      (unsigned long long)off.pieces);
                if (kind == WHOLE) {
                    CHECK(on.rc == 0, "N=%u by direction %d whole: rc %d '%s'", N, by, on.rc,
                          on.why);
                    /* every round taken whole */
                    CHECK(on.pieces == total, "N=%u by direction %d: %llu orbit rounds, not %llu",
                          N, by, (unsigned long long)on.pieces, (unsigned long long)total);
                } else if (N >= 3 && kind != TWICE && kind != DOUBLE_REDUCE && kind != EXTRA) {
                    /* must fail: a break that loses or misplaces a contribution (a round twice,
                     * two reduces into one cell or a transfer added may be harmless on a few
                     * nodes: node 0's partial of label 0 added into node N - 1 before N - 1's
                     * own goes on is legal at N = 3, 5) */
                    CHECK(on.rc == OC_EVERIFY, "N=%u by direction %d kind %d: rc %d '%s'", N, by,
                          kind, on.rc, on.why);
                }
                if (on.rc)
                    fails++;
                else
                    passes++;
            }
    }
    CHECK(fails >= 70 && passes >= 14, "%d failing and %d passing schedules", fails, passes);
    /* what two breaks name */
    bsched b = {12, 0, DOUBLE_COPY};
    outcome o = run(&b, 0);
    CHECK(o.rc == OC_EVERIFY && strstr(o.why, "a copy and another write"), "a double copy: '%s'",
          o.why);
    b.kind = TWICE;
    o = run(&b, 0);
    CHECK(o.rc == OC_EVERIFY && strstr(o.why, "twice"), "a round twice: rc %d '%s'", o.rc, o.why);
}

/* The stride all-reduce's own plan and generator into a lone verifier. */
static void stride_own(const char *name, uint32_t N, uint32_t L) {
    const oc__algo *alg = oc__algo_find(OC_ALLREDUCE, name);
    CHECK(alg != NULL, "no stride all-reduce");
    if (!alg) return;
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    oc_kv *params = oc_kv_new();
    char value[16], why[512] = "";
    snprintf(value, sizeof value, "%u", L);
    oc_kv_set(params, "stride", value);
    int rc = alg->plan(&plan, OC_ALLREDUCE, N, 0, (uint64_t)N << 10, params, why, sizeof why);
    CHECK(rc == 0, "%s N=%u L=%u plan: rc %d '%s'", name, N, L, rc, why);
    /* bistride at even L: the split's half windows wrap their part at some senders only (two
     * transfers there, one elsewhere), so its rounds are not whole pieces: not stated */
    const int stated = N % L == 0 && (strcmp(name, "bistride") != 0 || L % 2);
    CHECK(!rc && (stated ? plan.spec.orbit_stride == L && plan.spec.orbit_part == N / L &&
                               plan.spec.orbit_turn == 1
                         : plan.spec.orbit_stride == 0),
          "%s N=%u L=%u: orbit stride %u part %u turn %u", name, N, L, plan.spec.orbit_stride,
          plan.spec.orbit_part, plan.spec.orbit_turn);
    oc__verifier *v = NULL;
    if (!rc) rc = oc__verifier_new(&plan.spec, &v, why, sizeof why);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, oc__verifier_sink(v), why, sizeof why);
        rc = alg->generate(&plan, &e);
        if (!rc) rc = oc__verifier_finish(v, why, sizeof why);
        CHECK(rc == 0, "%s N=%u L=%u: rc %d '%s'", name, N, L, rc, why);
        /* every round taken whole by the orbit state */
        if (stated)
            CHECK(oc__verifier_orbit_rounds(v) == plan.rounds,
                  "%s N=%u L=%u: %llu of %llu rounds taken whole", name, N, L,
                  (unsigned long long)oc__verifier_orbit_rounds(v),
                  (unsigned long long)plan.rounds);
        oc__emit_free(&e);
    }
    oc__verifier_free(v);
    oc__plan_free(alg, &plan);
    oc_kv_free(params);
}

int main(void) {
    bidir_pieces();
    static const uint32_t cases[][2] = {{12, 1},   {12, 2},   {12, 3},  {12, 4},  {12, 5},
                                        {100, 1},  {100, 2},  {100, 4}, {100, 5}, {100, 10},
                                        {100, 20}, {100, 25}, {100, 7}, {210, 7}, {210, 15}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        stride_own("stride", cases[i][0], cases[i][1]);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        stride_own("bistride", cases[i][0], cases[i][1]);
    return CHECK_SUMMARY();
}
