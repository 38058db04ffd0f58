/*
 * test_data_layout.c — the real-data run's states (data.c): a schedule of ring families runs in
 * the orbit state (node 0's chunks) while its rounds are invariant under the ring's rotation and
 * node by node after; handed over as families or as transfers, it must give the same verdict and
 * name the same node and chunk (tests/test_data_orbit.c holds the orbit against the N x C state).
 * (The modes below still say "offset layout", the state this test was written for, since replaced.)
 *
 * The ring all-gather, reduce-scatter and all-reduce (a family a round: node k sends block
 * (k - shift) mod N to k + hop) on N in {2, 3, 5, 7, 12, 16, 31, 64, 97, 100} with blocks of
 * q = 1, 2 and 3 labels, whole and broken ten ways (a round left out, a round twice, a shift off by
 * one, a hop of two, a copy for a reduce, a reduce for a copy, a plain transfer added after the
 * first round, the last round written out as plain transfers with one label wrong, node 0's own
 * block overwritten by a node that does not hold it, node N - 1's own block overwritten the same
 * way in the second copy round, when its row is viewed by another row turned), each run through the
 * data check alone three ways: every round handed over as a family (the offset layout), every round
 * written out as transfers (node by node), and the first round written out, the rest families (node
 * by node, families taken whole there). The return code and the message must be the same in all
 * three. A layout whose rows were turned the wrong way, whose offsets were off by a block, or whose
 * final check skipped a row fails here; so does one whose write into a row reaches the other rows
 * viewing its buffer (SHARED_LOST: node N - 1's block N - 1 is then wrong at node 0 as well, and
 * node order names node 0), or whose final check takes a row for right by a turn that does not put
 * the right words at the right nodes.
 */
#include "check.h"
#include "core/core.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    WHOLE,
    SHORT,
    TWICE,
    SHIFT,
    HOP2,
    OPSWAP_R,
    OPSWAP_C,
    EXTRA,
    LAST_PLAIN_WRONG,
    OWN_LOST,
    SHARED_LOST,
    KINDS
};
enum { ALL_FAMILIES, ALL_PLAIN, FIRST_PLAIN, MODES };

typedef struct outcome {
    int rc;
    char why[512];
} outcome;

/* Hands the round (a family f, or its transfers, with `extra` appended) to the sink. */
static int hand(oc__sink *sink, uint64_t index, const oc__family *f, int as_family,
                const oc__transfer *extra, int wrong_last, char *why, size_t len) {
    oc__round r;
    memset(&r, 0, sizeof r);
    int rc = 0;
    if (as_family && !extra && !wrong_last) {
        r.is_family = 1;
        r.family = *f;
        r.count = f->n;
        return sink->round(sink, index, &r, why, len);
    }
    for (uint32_t k = 0; k < f->n && !rc; k++) {
        oc__transfer t = oc__family_at(f, k);
        if (wrong_last && k + 1 == f->n) t.first = (t.first + f->width) % (f->n * f->width);
        rc = oc__round_push(&r, t.src, t.dst, (oc__op)t.op, t.first, t.count);
    }
    if (!rc && extra)
        rc = oc__round_push(&r, extra->src, extra->dst, (oc__op)extra->op, extra->first,
                            extra->count);
    if (!rc) rc = sink->round(sink, index, &r, why, len);
    oc__round_free(&r);
    return rc;
}

static outcome run(oc_collective coll, uint32_t N, uint32_t q, int kind, int mode) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    if (oc__spec_init(&spec, coll, N, 0, (uint64_t)N * q * 64, coll == OC_ALLREDUCE ? N * q : q,
                      o.why, sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    oc__datacheck *d = NULL;
    o.rc = oc__datacheck_new(&spec, UINT64_C(1) << 30, &d, o.why, sizeof o.why);
    if (o.rc || !d) {
        if (!o.rc) o.rc = -1001;
        oc__spec_free(&spec);
        return o;
    }
    oc__sink *sink = oc__datacheck_sink(d);
    sink->next = NULL;
    /* the rounds: reduce-scatter N - 1 reduces, all-gather N - 1 copies, all-reduce both */
    const int rs = coll != OC_ALLGATHER, ag = coll != OC_REDUCESCATTER;
    const uint32_t rounds = (rs + ag) * (N - 1);
    uint64_t index = 0;
    int rc = 0;
    for (uint32_t i = 0; i < rounds + (kind == TWICE) && !rc; i++) {
        uint32_t r = kind == TWICE && i > 0 ? i - 1 : i;
        if (kind == SHORT && r + 1 == rounds) break;
        const int reduce = rs && r < N - 1;
        const uint32_t step = reduce || !rs ? r : r - (N - 1);
        /* reduce-scatter step s: k adds block (k - s - 1) into k + 1 (node j ends with block j);
         * all-gather step s: k copies block (k - s) to k + 1 */
        uint32_t shift = reduce ? (step + 1) % N : step % N;
        uint32_t hop = 1 % N;
        oc__op op = reduce ? OC_OP_REDUCE : OC_OP_COPY;
        if (kind == SHIFT && r == 1) shift = (shift + 1) % N;
        if (kind == HOP2 && r == 1 && N > 2) hop = 2;
        if (kind == OPSWAP_R && reduce && r == 1) op = OC_OP_COPY;
        if (kind == OPSWAP_C && !reduce && step == 1) op = OC_OP_REDUCE;
        const oc__family f = {N, hop, shift, 0, q, op};
        /* EXTRA: node 0's block to node N - 1; OWN_LOST: node 2's slots of block 0, which it
         * does not hold yet, over node 0's own (the only wrong slots are then node 0's own:
         * offset 0 alone in the offset layout) */
        const oc__transfer extra = kind == OWN_LOST ? (oc__transfer){2 % N, 0, 0, q, OC_OP_COPY}
                                                    : (oc__transfer){0, N - 1, 0, q, OC_OP_COPY};
        /* SHARED_LOST: node 1's slots of block N - 1 (not yet whole there) over node N - 1's,
         * in the second copy round: the row of node N - 1's block N - 1 is then viewed by the
         * row the first copy round turned it into */
        const uint32_t second_copy = rs && ag ? N : 1;
        const oc__transfer shared = {1, N - 1, (N - 1) * q, q, OC_OP_COPY};
        const int with_shared = kind == SHARED_LOST && N >= 3 && i == second_copy;
        const int with_extra =
            with_shared || ((kind == EXTRA || (kind == OWN_LOST && N >= 3)) && i == 1);
        const int as_family = mode == ALL_FAMILIES || (mode == FIRST_PLAIN && i > 0);
        rc = hand(sink, index++, &f, as_family,
                  with_shared  ? &shared
                  : with_extra ? &extra
                               : NULL,
                  kind == LAST_PLAIN_WRONG && i + 1 == rounds, o.why, sizeof o.why);
    }
    if (!rc) rc = oc__datacheck_finish(d, o.why, sizeof o.why);
    o.rc = rc;
    oc__datacheck_free(d);
    oc__spec_free(&spec);
    return o;
}

int main(void) {
    static const uint32_t sizes[] = {2, 3, 5, 7, 12, 16, 31, 64, 97, 100};
    static const oc_collective colls[] = {OC_ALLGATHER, OC_REDUCESCATTER, OC_ALLREDUCE};
    int fails = 0, passes = 0;
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
        for (size_t c = 0; c < 3; c++)
            for (uint32_t q = 1; q <= 3; q++)
                for (int kind = 0; kind < KINDS; kind++) {
                    const uint32_t N = sizes[a];
                    outcome o[MODES];
                    for (int m = 0; m < MODES; m++)
                        o[m] = run(colls[c], N, q, kind, m);
                    for (int m = 1; m < MODES; m++)
                        CHECK(o[m].rc == o[0].rc && !strcmp(o[m].why, o[0].why),
                              "%s N=%u q=%u kind %d: families rc %d '%s', mode %d rc %d '%s'",
                              oc_collective_name(colls[c]), N, q, kind, o[0].rc, o[0].why, m,
                              o[m].rc, o[m].why);
                    if (kind == SHARED_LOST && N >= 3) { /* node N - 1 alone is wrong */
                        char want[64];
                        snprintf(want, sizeof want, "data check: node %u ", N - 1);
                        CHECK(o[0].rc == OC_EVERIFY && !strncmp(o[0].why, want, strlen(want)),
                              "%s N=%u q=%u shared lost: rc %d '%s'", oc_collective_name(colls[c]),
                              N, q, o[0].rc, o[0].why);
                    }
                    if (kind == WHOLE)
                        CHECK(o[0].rc == 0, "%s N=%u q=%u whole: rc %d '%s'",
                              oc_collective_name(colls[c]), N, q, o[0].rc, o[0].why);
                    if (o[0].rc)
                        fails++;
                    else
                        passes++;
                }
    /* both verdicts were compared, and failures with their messages */
    CHECK(fails > 300 && passes > 100, "%d failing and %d passing", fails, passes);
    return CHECK_SUMMARY();
}
