/*
 * test_ne_closed.c — neighbour exchange's rounds in closed form (allgather_ne.c): the generator
 * writes round r's labels as node i plus an offset of r and i's parity, not from the pairs the
 * round before delivered. Here the rounds are made by the recursion the seed states (round 0:
 * 2i and 2i + 1 swap; round r: every node forwards the pair it received in round r - 1 to its
 * other neighbour) and compared, transfer for transfer (ends, labels, count, op, order), with the
 * generator's on every even N from 2 to 130 and on 1000, 1002 and 4096; and the all-gather is
 * verified. An offset off by one place, a parity swapped or a wrap at N taken the wrong way
 * fails here.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "opticoll.h"

#include <stdlib.h>
#include <string.h>

/* The generator's rounds into *st. */
static int generated(uint32_t N, oc__store *st, char *why, size_t len) {
    const oc__algo *a = oc__algo_find(OC_ALLGATHER, "ne");
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    oc__store_init(st);
    int rc = a ? a->plan(&plan, OC_ALLGATHER, N, 0, 64, NULL, why, len) : OC_ENOENT;
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &st->sink, why, len);
        rc = a->generate(&plan, &e);
        oc__emit_free(&e);
    }
    if (a) oc__plan_free(a, &plan);
    return rc;
}

/* Compares the stored rounds with the recursion's; the number of mismatching transfers. */
static uint64_t mismatches(uint32_t N, const oc__store *st) {
    uint64_t bad = 0;
    if (st->count != N / 2) return 1;
    uint32_t *last = malloc(N * sizeof *last), *next = malloc(N * sizeof *next);
    if (!last || !next) {
        free(last);
        free(next);
        return 1;
    }
    for (uint32_t r = 0; r < N / 2; r++) {
        const oc__round *got = &st->rounds[r];
        if (got->count != N) {
            bad++;
            continue;
        }
        for (uint32_t i = 0; i < N; i++) {
            oc__transfer want;
            if (r == 0) {
                want = (oc__transfer){i, i ^ 1u, i, 1, OC_OP_COPY};
                next[i ^ 1u] = i & ~1u;
            } else {
                const int left = (r % 2 == 1) == (i % 2 == 0);
                const uint32_t to = left ? (i + N - 1) % N : (i + 1) % N;
                want = (oc__transfer){i, to, last[i], 2, OC_OP_COPY};
                next[to] = last[i];
            }
            const oc__transfer *t = &got->xfers[i];
            bad += t->src != want.src || t->dst != want.dst || t->first != want.first ||
                   t->count != want.count || t->op != want.op;
        }
        uint32_t *swap = last;
        last = next;
        next = swap;
    }
    free(last);
    free(next);
    return bad;
}

int main(void) {
    char why[256];
    static const uint32_t big[] = {1000, 1002, 4096};
    for (uint32_t k = 0; k < 64 + 3; k++) {
        const uint32_t N = k < 64 ? 2 * (k + 1) : big[k - 64];
        oc__store st;
        int rc = generated(N, &st, why, sizeof why);
        CHECK(rc == 0, "N=%u: rc %d %s", N, rc, why);
        if (!rc) {
            const uint64_t bad = mismatches(N, &st);
            CHECK(bad == 0, "N=%u: %llu transfers differ from the recursion", N,
                  (unsigned long long)bad);
        }
        oc__store_free(&st);
    }
    /* and the schedule is an all-gather, through the pipeline (prime halves: 2 x 61) */
    static const uint32_t verified[] = {2, 4, 6, 12, 100, 122};
    for (size_t i = 0; i < sizeof verified / sizeof *verified; i++) {
        const oc_request q = {.collective = OC_ALLGATHER,
                              .algorithm = "ne",
                              .network = "ring",
                              .nodes = verified[i],
                              .bytes = 4096};
        oc_report *rep = NULL;
        int rc = oc_run(&q, &rep, why, sizeof why);
        CHECK(rc == 0 && rep && oc_report_verified(rep), "ne N=%u: rc %d %s", verified[i], rc, why);
        oc_report_free(rep);
    }
    return CHECK_SUMMARY();
}
