/*
 * test_orbit.c — orbit reductions (verify.c, issue 31 item 2): an all-reduce whose spec states a
 * symmetry (oc__spec.orbit_*: hring's, node n to n + g with every label turned by one inside its
 * part of G = N / g) is verified on the cells of g nodes instead of N, and must give exactly what
 * the N x C cells give.
 *
 *  1. H-Ring's schedule (the three phases of allreduce_hring.c, written here afresh so that it
 *     can be broken) on N in {2, 3, 5, 6, 7, 12, 30, 64, 100, 105} for every group size g that
 *     divides N, whole and broken nine ways: a round left out, a round twice, a reduce turned
 *     into a copy in every group (symmetric), the same in the last group alone (the symmetry
 *     broken), a ring across turned by one place too many, a transfer added to a round, the
 *     rings across going two groups at a time, a copy of phase 3 before phase 2, a copy and a
 *     reduce into one cell in a round (every group). Each with the symmetry stated and not,
 *     with and without the real-data run, on the switch and the ring: the return code, the
 *     reason, rounds, transfers, chunk-transfers, steps and time must be the same.
 *  2. The orbit state is the one used: a verifier given a share of the budget below the N x C
 *     cells but above the g x C (which refuses the N x C up front) verifies hring at N = 1000,
 *     g = 40 and N = 210, g = 7, and finds a round twice in it.
 * A verifier that took a round as symmetric without checking it, skipped the double count or
 * turned the labels the wrong way fails here.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "net/net.h"
#include "run/pipeline.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hsched {
    uint32_t N, g;
    int kind;
} hsched;

/* One ring round over the n nodes P[k] = base + k * stride: P[k] sends block (k - shift) mod n,
 * labels first + block * width, width of them, to P[(k + hop) mod n]. */
static int ring(oc__emit *e, uint32_t base, uint32_t stride, uint32_t n, uint32_t hop,
                uint32_t shift, uint32_t first, uint32_t width, oc__op op) {
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t b = (k + n - shift % n) % n, to = (k + hop) % n;
        int rc = oc__emit_transfer(e, base + k * stride, base + to * stride, op, first + b * width,
                                   width);
        if (rc) return rc;
    }
    return 0;
}

/* The kinds of break (0: the schedule whole). */
enum { WHOLE, SHORT, TWICE, COPY_ALL, COPY_ONE, TURNED, EXTRA, HOP2, EARLY, DOUBLE, KINDS };

static int source(void *arg, oc__emit *e) {
    const hsched *h = arg;
    const uint32_t N = h->N, g = h->g, G = N / g;
    int rc = 0;
    uint64_t round = 0;
    /* the rounds in order: (1) g - 1 reduce-scatter rounds in the groups, (2) G - 1 reduce-scatter
     * and G - 1 all-gather rounds across, (3) g - 1 all-gather rounds in the groups */
    const uint32_t r1 = g - 1, r2 = G - 1, total = 2 * r1 + 2 * r2;
    for (uint32_t step = 0; step < total + (h->kind == TWICE) && !rc; step++) {
        uint32_t at = step;
        if (h->kind == TWICE && step > 0) at = step - 1; /* round 0 again as round 1 */
        if (h->kind == SHORT && at + 1 == total) break;
        if (h->kind == EARLY && r2 && r1) { /* phase 3's first round before phase 2 */
            if (at == r1)
                at = r1 + 2 * r2;
            else if (at > r1 && at <= r1 + 2 * r2)
                at--;
        }
        if (at < r1 || at >= r1 + 2 * r2) { /* a round in the groups */
            const int rs = at < r1;
            const uint32_t r = rs ? at : at - r1 - 2 * r2;
            for (uint32_t a = 0; a < G && !rc; a++) {
                oc__op op = rs ? OC_OP_REDUCE : OC_OP_COPY;
                if (rs && r == 0 && (h->kind == COPY_ALL || (h->kind == COPY_ONE && a + 1 == G)))
                    op = OC_OP_COPY;
                rc = ring(e, a * g, 1, g, 1, rs ? r + 1 : r, 0, G, op);
                if (!rc && rs && r == 0 && h->kind == DOUBLE && g >= 4) {
                    /* node 2 of every group copies node 0's part into node 1 as well (two
                     * writes of one cell in a round, one a copy) instead of its own to 3 */
                    oc__transfer *t = &e->cur.xfers[e->cur.count - g + 2];
                    t->dst = a * g + 1;
                    t->first = (g - 1) * G;
                    t->op = OC_OP_COPY;
                }
            }
        } else { /* a round across: part j among the j-th nodes of the groups */
            const int rs = at < r1 + r2;
            const uint32_t r = rs ? at - r1 : at - r1 - r2;
            const uint32_t hop = h->kind == HOP2 ? 2 : 1;
            uint32_t shift = rs ? r + 1 : r;
            if (h->kind == TURNED && r == 0) shift++;
            for (uint32_t j = 0; j < g && !rc; j++)
                rc = ring(e, j, g, G, hop % G, shift, j * G, 1, rs ? OC_OP_REDUCE : OC_OP_COPY);
        }
        if (!rc && h->kind == EXTRA && step == total / 2)
            rc = oc__emit_transfer(e, 0, N - 1, OC_OP_REDUCE, 0, 1);
        if (!rc) rc = oc__emit_round(e);
        round++;
    }
    return rc;
}

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, transfers, units, steps;
    double time;
} outcome;

static outcome run(const char *net, uint32_t N, uint32_t g, int kind, int data, int orbit) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    if (oc__spec_init(&spec, OC_ALLREDUCE, N, 0, (uint64_t)N * 64, N, o.why, sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    if (orbit) spec.orbit_stride = g, spec.orbit_part = N / g, spec.orbit_turn = 1;
    oc_report *rep = oc__report_new();
    const hsched h = {N, g, kind};
    o.rc = oc__run_schedule(&spec, source, (void *)&h, oc__model_find(net), NULL, data, NULL, rep,
                            o.why, sizeof o.why);
    if (!o.rc) {
        o.rounds = rep->rounds;
        o.transfers = rep->transfers;
        o.units = rep->units;
        o.steps = oc_report_steps(rep);
        o.time = oc_report_time(rep);
    }
    oc_report_free(rep);
    oc__spec_free(&spec);
    return o;
}

static int same(const outcome *a, const outcome *b) {
    return a->rc == b->rc && !strcmp(a->why, b->why) && a->rounds == b->rounds &&
           a->transfers == b->transfers && a->units == b->units && a->steps == b->steps &&
           a->time == b->time;
}

static void orbit_as_cells(void) {
    static const uint32_t sizes[] = {2, 3, 5, 6, 7, 12, 30, 64, 100, 105};
    static const char *const nets[] = {"switch", "ring"};
    int fails = 0, passes = 0;
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        const uint32_t N = sizes[a];
        for (uint32_t g = 1; g < N; g++) {
            if (N % g) continue;
            for (int kind = 0; kind < KINDS; kind++)
                for (size_t k = 0; k < 2; k++)
                    for (int data = 0; data <= 1; data++) {
                        if (k == 1 && (data || N > 30)) continue; /* the ring: a few */
                        const outcome w = run(nets[k], N, g, kind, data, 1);
                        const outcome p = run(nets[k], N, g, kind, data, 0);
                        CHECK(same(&w, &p),
                              "%s N=%u g=%u kind %d data %d: orbit rc %d '%s' rounds %llu steps "
                              "%llu, cells rc %d '%s' rounds %llu steps %llu",
                              nets[k], N, g, kind, data, w.rc, w.why, (unsigned long long)w.rounds,
                              (unsigned long long)w.steps, p.rc, p.why,
                              (unsigned long long)p.rounds, (unsigned long long)p.steps);
                        if (kind == WHOLE)
                            CHECK(w.rc == 0, "N=%u g=%u whole: rc %d '%s'", N, g, w.rc, w.why);
                        if (w.rc)
                            fails++;
                        else
                            passes++;
                    }
        }
    }
    /* both kinds of verdict were compared, not only passes */
    CHECK(fails > 300 && passes > 150, "%d failing and %d passing schedules", fails, passes);
    /* what the breaks that must fail name */
    outcome w = run("switch", 30, 5, TWICE, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "twice"), "a round twice: rc %d '%s'", w.rc, w.why);
    w = run("switch", 30, 5, SHORT, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "at the end: node"), "a round short: rc %d '%s'",
          w.rc, w.why);
}

/* Runs hring's own generator into a lone verifier whose share fits the orbit's cells only. */
static int lone(uint32_t N, uint32_t g, int kind, char *why, size_t len) {
    oc__spec spec;
    int rc = oc__spec_init(&spec, OC_ALLREDUCE, N, 0, (uint64_t)N * 64, N, why, len);
    if (rc) return rc;
    spec.orbit_stride = g, spec.orbit_part = N / g, spec.orbit_turn = 1;
    /* the orbit's cells, and a round's staging as the plain path counts it (N G chunks, up to
     * 64 bytes each) */
    const uint64_t share = 2 * oc__verifier_orbit_bytes(&spec) + (uint64_t)N * (N / g) * 64;
    oc__verifier *v = NULL;
    if (share >= oc__verifier_state_bytes(&spec, N))
        rc = oc__fail(why, len, OC_EINVAL, "the share %llu fits the N x C cells",
                      (unsigned long long)share);
    if (!rc) rc = oc__verifier_new_window(&spec, 0, N, share, &v, why, len);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &spec, oc__verifier_sink(v), why, len);
        const hsched h = {N, g, kind};
        rc = source((void *)&h, &e);
        if (!rc) rc = oc__verifier_finish(v, why, len);
        oc__emit_free(&e);
    }
    oc__verifier_free(v);
    oc__spec_free(&spec);
    return rc;
}

static void orbit_state_used(void) {
    char why[512] = "";
    int rc = lone(1000, 40, WHOLE, why, sizeof why);
    CHECK(rc == 0, "N=1000 g=40: rc %d '%s'", rc, why);
    rc = lone(210, 7, WHOLE, why, sizeof why);
    CHECK(rc == 0, "N=210 g=7: rc %d '%s'", rc, why);
    /* a round twice: the orbit finds it, and writing the cells out is over the share */
    rc = lone(210, 7, TWICE, why, sizeof why);
    CHECK(rc == OC_ETOOBIG, "N=210 g=7, a round twice: rc %d '%s'", rc, why);
    /* without the orbit, the same share refuses the cells up front */
    oc__spec spec;
    oc__verifier *v = NULL;
    rc = oc__spec_init(&spec, OC_ALLREDUCE, 1000, 0, 64000, 1000, why, sizeof why);
    CHECK(rc == 0, "spec: %s", why);
    spec.orbit_stride = 40, spec.orbit_part = 25, spec.orbit_turn = 1;
    const uint64_t share = 2 * oc__verifier_orbit_bytes(&spec) + 1000 * 25 * 64;
    spec.orbit_stride = 0;
    rc = oc__verifier_new_window(&spec, 0, 1000, share, &v, why, sizeof why);
    CHECK(rc == OC_ETOOBIG, "no orbit, the same share: rc %d", rc);
    oc__verifier_free(v);
    oc__spec_free(&spec);
    /* hring's plan states the symmetry it has */
    const oc__algo *h = oc__algo_find(OC_ALLREDUCE, "hring");
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    oc_kv *params = oc_kv_new();
    oc_kv_set(params, "g", "12");
    rc = h->plan(&plan, OC_ALLREDUCE, 60, 0, 1 << 20, params, why, sizeof why);
    CHECK(rc == 0 && plan.spec.orbit_stride == 12 && plan.spec.orbit_part == 5 &&
              plan.spec.orbit_turn == 1,
          "hring's plan: rc %d stride %u part %u turn %u", rc, plan.spec.orbit_stride,
          plan.spec.orbit_part, plan.spec.orbit_turn);
    oc__plan_free(h, &plan);
    oc_kv_free(params);
}

/* ---- all-gathers: neighbour exchange (stride 2) and the ring of plain transfers (any stride) */

typedef struct csched {
    uint32_t N, q;
    int ne;   /* 1: neighbour exchange; 0: the ring all-gather, one transfer a node */
    int kind; /* the break, as below */
} csched;

enum { C_WHOLE, C_SHORT, C_TWICE, C_LAST_WRONG, C_SHIFTED, C_EXTRA, C_HOP2, C_KINDS };

static int csource(void *arg, oc__emit *e) {
    const csched *c = arg;
    const uint32_t N = c->N, q = c->q, rounds = c->ne ? N / 2 : N - 1;
    uint32_t *last = calloc(N, sizeof *last), *next = calloc(N, sizeof *next);
    int rc = last && next ? 0 : OC_ENOMEM;
    for (uint32_t step = 0; step < rounds + (c->kind == C_TWICE) && !rc; step++) {
        const uint32_t r = c->kind == C_TWICE && step > 0 ? step - 1 : step;
        if (c->kind == C_SHORT && r + 1 == rounds) break;
        for (uint32_t i = 0; i < N && !rc; i++) {
            uint32_t to, first, count;
            if (c->ne && r == 0) {
                to = i ^ 1u, first = i, count = 1;
                next[to] = i & ~1u;
                last[i] = i & ~1u;
            } else if (c->ne) {
                const int left = (r % 2 == 1) == (i % 2 == 0);
                to = left ? (i + N - 1) % N : (i + 1) % N, first = last[i], count = 2;
                if (c->kind == C_SHIFTED && r == 1) first = (first + 2) % N;
                next[to] = last[i];
            } else {
                to = (i + (c->kind == C_HOP2 ? 2 : 1)) % N;
                first = (i + N - r % N + (c->kind == C_SHIFTED && r == 1)) % N, count = 1;
            }
            if (c->kind == C_LAST_WRONG && r == 1 && i + 1 == N) first = (first + 2) % N;
            rc = oc__emit_transfer(e, i, to, OC_OP_COPY, first * q, count * q);
        }
        if (!rc && c->kind == C_EXTRA && r == 1)
            rc = oc__emit_transfer(e, 0, N - 1, OC_OP_COPY, 0, q);
        if (!rc) rc = oc__emit_round(e);
        if (c->ne && r > 0) {
            uint32_t *t = last;
            last = next;
            next = t;
        }
    }
    free(last);
    free(next);
    return rc;
}

typedef struct coutcome {
    outcome o;
    uint64_t redundant;
} coutcome;

static coutcome crun(const char *net, const csched *c, uint32_t stride, int data) {
    coutcome r;
    memset(&r, 0, sizeof r);
    oc__spec spec;
    if (oc__spec_init(&spec, OC_ALLGATHER, c->N, 0, (uint64_t)c->q * 1024, c->q, r.o.why,
                      sizeof r.o.why)) {
        r.o.rc = -1000;
        return r;
    }
    if (stride) spec.orbit_stride = stride, spec.orbit_part = c->N * c->q;
    spec.orbit_turn = stride * c->q;
    oc_report *rep = oc__report_new();
    r.o.rc = oc__run_schedule(&spec, csource, (void *)c, oc__model_find(net), NULL, data, NULL, rep,
                              r.o.why, sizeof r.o.why);
    if (!r.o.rc) {
        r.o.rounds = rep->rounds;
        r.o.transfers = rep->transfers;
        r.o.units = rep->units;
        r.o.steps = oc_report_steps(rep);
        r.o.time = oc_report_time(rep);
        r.redundant = rep->redundant;
    }
    oc_report_free(rep);
    oc__spec_free(&spec);
    return r;
}

static void orbit_as_sets(void) {
    static const uint32_t ne_sizes[] = {2, 4, 6, 10, 12, 14, 22, 34, 64, 100};
    static const uint32_t ring_sizes[] = {7, 13, 15, 21, 30};
    static const char *const nets[] = {"ring", "switch"};
    int fails = 0, passes = 0;
    for (int ne = 1; ne >= 0; ne--) {
        const size_t count = ne ? sizeof ne_sizes / sizeof *ne_sizes : sizeof ring_sizes / 4;
        for (size_t a = 0; a < count; a++) {
            const uint32_t N = ne ? ne_sizes[a] : ring_sizes[a];
            for (uint32_t stride = ne ? 2 : 1; stride < N; stride++) {
                if (N % stride || (ne && stride != 2)) continue;
                for (uint32_t q = 1; q <= 2; q++)
                    for (int kind = 0; kind < C_KINDS; kind++)
                        for (size_t k = 0; k < 2; k++)
                            for (int data = 0; data <= 1; data++) {
                                const csched c = {N, q, ne, kind};
                                const coutcome w = crun(nets[k], &c, stride, data);
                                const coutcome p = crun(nets[k], &c, 0, data);
                                CHECK(same(&w.o, &p.o) && w.redundant == p.redundant,
                                      "%s %s N=%u q=%u stride %u kind %d data %d: orbit rc %d "
                                      "'%s' redundant %llu, sets rc %d '%s' redundant %llu",
                                      ne ? "ne" : "ring", nets[k], N, q, stride, kind, data, w.o.rc,
                                      w.o.why, (unsigned long long)w.redundant, p.o.rc, p.o.why,
                                      (unsigned long long)p.redundant);
                                if (kind == C_WHOLE)
                                    CHECK(w.o.rc == 0, "N=%u whole: rc %d '%s'", N, w.o.rc,
                                          w.o.why);
                                if (w.o.rc)
                                    fails++;
                                else
                                    passes++;
                            }
            }
        }
    }
    CHECK(fails > 200 && passes > 200, "%d failing and %d passing all-gathers", fails, passes);
    /* a round twice: redundant deliveries counted for every node, N / stride times the orbit's */
    const csched twice = {15, 2, 0, C_TWICE};
    const coutcome w = crun("switch", &twice, 3, 0);
    CHECK(w.o.rc == 0 && w.redundant == 15 * 2,
          "ring N=15 stride 3, a round twice: rc %d '%s' "
          "redundant %llu",
          w.o.rc, w.o.why, (unsigned long long)w.redundant);
    /* neighbour exchange's plan states its symmetry */
    const oc__algo *h = oc__algo_find(OC_ALLGATHER, "ne");
    oc__plan plan;
    memset(&plan, 0, sizeof plan);
    char why[256];
    int rc = h->plan(&plan, OC_ALLGATHER, 12, 0, 1 << 20, NULL, why, sizeof why);
    CHECK(rc == 0 && plan.spec.orbit_stride == 2 && plan.spec.orbit_part == 12 &&
              plan.spec.orbit_turn == 2,
          "ne's plan: rc %d stride %u part %u turn %u", rc, plan.spec.orbit_stride,
          plan.spec.orbit_part, plan.spec.orbit_turn);
    oc__plan_free(h, &plan);
}

int main(void) {
    orbit_as_cells();
    orbit_state_used();
    orbit_as_sets();
    return CHECK_SUMMARY();
}
