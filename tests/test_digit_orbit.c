/*
 * test_digit_orbit.c — digit orbit reductions (verify.c, issue 31 item 2): an all-reduce whose
 * spec states a mixed-radix symmetry (oc__spec.digit_*: rhd's with P = N, every node and label
 * moved by a digit-wise addition) is verified on node 0's C cells instead of N x C, and must give
 * exactly what the N x C cells give.
 *
 *  1. rhd's all-reduce (the halving and the doubling of rhd.c, written here afresh so that it can
 *     be broken) on every ordered factorisation of N in {2, 3, 5, 6, 7, 8, 12, 16, 30, 36, 64}
 *     and a few of N = 100, 105, 128 (radix 2, 4 and mixed: the power-of-two digit arithmetic
 *     and the general one), whole and broken eleven ways: a round left out, a halving round
 *     twice (a double count), the first halving's reduces turned into copies everywhere
 *     (symmetric: contributions lost), the same at one node (the symmetry broken), every node
 *     sending the next part (symmetric, wrong), the doubling's levels in reverse order
 *     (symmetric, copies of partial sums), a transfer added, a transfer dropped, one transfer's
 *     labels moved, a copy and reduces into one cell (symmetric, radix >= 3), and the senders
 *     of one level moved by one node (every round still N (r - 1) transfers). With the symmetry
 *     stated and not, with and without the real-data run, on the switch and the fabric: the
 *     return code, the reason, rounds, transfers, chunk-transfers, steps and time must agree.
 *  2. The digit orbit is the state used: a lone verifier given a share of the budget below the
 *     N x C cells but above node 0's verifies rhd at N = 1000 (10x10x10) and 1024 (radix 4 and
 *     2), and a round twice in it makes it write the cells out (over the share: refused).
 *  3. rhd's plan states the symmetry for an all-reduce with P = N, and not when it folds.
 * A verifier that took a round as symmetric without checking it, skipped the double count or
 * moved a sender's set the wrong way (added where it subtracts) fails here.
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

enum {
    WHOLE,
    SHORT,
    TWICE,
    COPY_ALL,
    COPY_ONE,
    NEXT_PART,
    REVERSED,
    EXTRA,
    DROP,
    LABEL_ONE,
    CLASH,
    SHIFTED,
    KINDS
};

typedef struct dsched {
    uint32_t N, k;
    uint32_t r[32]; /* r[0] the least significant digit */
    int kind;
} dsched;

/* Level p of the halving (reduce) or the doubling (copy), broken as the kind says. */
static int level(const dsched *h, oc__emit *e, uint32_t p, int halving, int first_halving,
                 int first_doubling) {
    const uint32_t N = h->N, r = h->r[p];
    uint32_t w = 1;
    for (uint32_t i = 0; i < p; i++)
        w *= h->r[i];
    for (uint32_t x = 0; x < N; x++) {
        const uint32_t d = (x / w) % r, g = x - x % (w * r);
        for (uint32_t j = 0; j < r; j++) {
            if (j == d) continue;
            uint32_t src = x, y = g + j * w + x % w;
            uint32_t part = halving ? j : d;
            oc__op op = halving ? OC_OP_REDUCE : OC_OP_COPY;
            if (h->kind == COPY_ALL && first_halving) op = OC_OP_COPY;
            if (h->kind == COPY_ONE && first_halving && x == N / 2) op = OC_OP_COPY;
            if (h->kind == NEXT_PART && first_halving) part = (j + 1) % r;
            if (h->kind == CLASH && first_halving && r >= 3 && (j + r - d) % r == 1)
                op = OC_OP_COPY;
            if (h->kind == DROP && first_doubling && x == 1 && j == (d + 1) % r) continue;
            uint32_t lo = halving ? g + part * w : x - x % w;
            if (h->kind == LABEL_ONE && first_doubling && x == N - 1 && j == (d + 1) % r)
                lo = (lo + w) % N;
            if (h->kind == SHIFTED && first_doubling) {
                /* every transfer moved one node on (sender and receiver), labels kept */
                src = (x + 1) % N;
                y = (y + 1) % N;
                if (src == y) continue;
            }
            int rc = oc__emit_transfer(e, src, y, op, lo, w);
            if (rc) return rc;
        }
    }
    if (h->kind == EXTRA && first_doubling) {
        int rc = oc__emit_transfer(e, 0, N - 1, OC_OP_COPY, 0, 1);
        if (rc) return rc;
    }
    return oc__emit_round(e);
}

static int source(void *arg, oc__emit *e) {
    const dsched *h = arg;
    int rc = 0;
    for (uint32_t p = h->k; p > 0 && !rc; p--) {
        rc = level(h, e, p - 1, 1, p == h->k, 0);
        if (!rc && h->kind == TWICE && p == h->k) rc = level(h, e, p - 1, 1, 0, 0);
    }
    const uint32_t last = h->kind == SHORT ? h->k - 1 : h->k;
    for (uint32_t i = 0; i < last && !rc; i++) {
        const uint32_t p = h->kind == REVERSED ? h->k - 1 - i : i;
        rc = level(h, e, p, 0, 0, i == 0);
    }
    return rc;
}

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, transfers, units, steps;
    double time;
} outcome;

static outcome run(const char *net, const dsched *h, int data, int orbit) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec;
    if (oc__spec_init(&spec, OC_ALLREDUCE, h->N, 0, (uint64_t)h->N * 64, h->N, o.why,
                      sizeof o.why)) {
        o.rc = -1000;
        return o;
    }
    if (orbit) {
        spec.digit_levels = h->k;
        memcpy(spec.digit_radix, h->r, sizeof h->r);
    }
    oc_report *rep = oc__report_new();
    o.rc = oc__run_schedule(&spec, source, (void *)h, oc__model_find(net), NULL, data, NULL, rep,
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

static int fails, passes;

static void compare(const dsched *h) {
    static const char *const nets[] = {"switch", "fabric"};
    for (size_t k = 0; k < 2; k++)
        for (int data = 0; data <= 1; data++) {
            if (data && h->N > 36) continue;
            const outcome w = run(nets[k], h, data, 1);
            const outcome p = run(nets[k], h, data, 0);
            char radices[160] = "";
            for (uint32_t i = h->k; i > 0; i--)
                snprintf(radices + strlen(radices), sizeof radices - strlen(radices), "%s%u",
                         i < h->k ? "x" : "", h->r[i - 1]);
            CHECK(same(&w, &p),
                  "%s N=%u radices %s kind %d data %d: orbit rc %d '%s' rounds %llu units %llu, "
                  "cells rc %d '%s' rounds %llu units %llu",
                  nets[k], h->N, radices, h->kind, data, w.rc, w.why, (unsigned long long)w.rounds,
                  (unsigned long long)w.units, p.rc, p.why, (unsigned long long)p.rounds,
                  (unsigned long long)p.units);
            /* the fabric refuses a level of more circuits than its MZI degree: only the switch
             * must take every whole schedule */
            if (h->kind == WHOLE && k == 0)
                CHECK(w.rc == 0, "N=%u %s whole: rc %d '%s'", h->N, radices, w.rc, w.why);
            if (w.rc)
                fails++;
            else
                passes++;
        }
}

/* Every ordered factorisation of M into digits r[k..] (r[k] the next least significant). */
static void factorisations(dsched *h, uint32_t M, int all_kinds) {
    if (M == 1) {
        for (int kind = 0; kind < KINDS; kind++) {
            if (!all_kinds && kind != WHOLE && kind != TWICE && kind != SHIFTED) continue;
            h->kind = kind;
            compare(h);
        }
        return;
    }
    for (uint32_t r = 2; r <= M; r++) {
        if (M % r) continue;
        h->r[h->k++] = r;
        factorisations(h, M / r, all_kinds);
        h->k--;
    }
}

static void digit_orbit_as_cells(void) {
    static const uint32_t sizes[] = {2, 3, 5, 6, 7, 8, 12, 16, 30, 36, 64};
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        dsched h = {.N = sizes[a]};
        factorisations(&h, sizes[a], sizes[a] <= 36);
    }
    /* a few larger ones, every break: radix 2 and 4 (the power-of-two arithmetic), mixed */
    static const dsched big[] = {{.N = 100, .k = 2, .r = {10, 10}},
                                 {.N = 105, .k = 3, .r = {3, 5, 7}},
                                 {.N = 128, .k = 2, .r = {4, 32}},
                                 {.N = 128, .k = 7, .r = {2, 2, 2, 2, 2, 2, 2}}};
    for (size_t a = 0; a < sizeof big / sizeof *big; a++) {
        dsched h = big[a];
        for (int kind = 0; kind < KINDS; kind++) {
            h.kind = kind;
            compare(&h);
        }
    }
    /* both kinds of verdict were compared, not only passes */
    CHECK(fails > 1000 && passes > 400, "%d failing and %d passing schedules", fails, passes);
    /* what some breaks must be named */
    dsched h = {.N = 30, .k = 3, .r = {2, 3, 5}, .kind = TWICE};
    outcome w = run("switch", &h, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "twice"), "a round twice: rc %d '%s'", w.rc, w.why);
    h.kind = CLASH;
    w = run("switch", &h, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "a copy and another write"), "a clash: rc %d '%s'",
          w.rc, w.why);
    h.kind = SHORT;
    w = run("switch", &h, 0, 1);
    CHECK(w.rc == OC_EVERIFY && strstr(w.why, "at the end"), "a round short: rc %d '%s'", w.rc,
          w.why);
}

/* Runs the schedule into a lone verifier whose share fits node 0's cells only. */
static int lone(const dsched *h, char *why, size_t len) {
    oc__spec spec;
    int rc = oc__spec_init(&spec, OC_ALLREDUCE, h->N, 0, (uint64_t)h->N * 64, h->N, why, len);
    if (rc) return rc;
    spec.digit_levels = h->k;
    memcpy(spec.digit_radix, h->r, sizeof h->r);
    const uint64_t share = 4 * oc__verifier_orbit_bytes(&spec);
    oc__verifier *v = NULL;
    if (share >= oc__verifier_state_bytes(&spec, h->N))
        rc = oc__fail(why, len, OC_EINVAL, "the share %llu fits the N x C cells",
                      (unsigned long long)share);
    if (!rc) rc = oc__verifier_new_window(&spec, 0, h->N, share, &v, why, len);
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &spec, oc__verifier_sink(v), why, len);
        rc = source((void *)h, &e);
        if (!rc) rc = oc__verifier_finish(v, why, len);
        oc__emit_free(&e);
    }
    oc__verifier_free(v);
    oc__spec_free(&spec);
    return rc;
}

static void digit_orbit_used(void) {
    char why[512] = "";
    dsched h = {.N = 1000, .k = 3, .r = {10, 10, 10}};
    int rc = lone(&h, why, sizeof why);
    CHECK(rc == 0, "N=1000 10x10x10: rc %d '%s'", rc, why);
    dsched h4 = {.N = 1024, .k = 5, .r = {4, 4, 4, 4, 4}};
    rc = lone(&h4, why, sizeof why);
    CHECK(rc == 0, "N=1024 radix 4: rc %d '%s'", rc, why);
    dsched h2 = {.N = 1024, .k = 10, .r = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2}};
    rc = lone(&h2, why, sizeof why);
    CHECK(rc == 0, "N=1024 radix 2: rc %d '%s'", rc, why);
    /* a round twice: the orbit finds it, and writing the cells out is over the share */
    h.kind = TWICE;
    rc = lone(&h, why, sizeof why);
    CHECK(rc == OC_ETOOBIG, "N=1000, a round twice: rc %d '%s'", rc, why);
}

static void plan_states_it(void) {
    const oc__algo *a = oc__algo_find(OC_ALLREDUCE, "rhd");
    char why[256];
    static const struct {
        uint32_t N;
        const char *key, *value;
        uint32_t levels, r0;
    } cases[] = {{64, "radix", "4", 3, 4},
                 {12, "radices", "3x4", 2, 4},
                 {7, NULL, NULL, 1, 7},
                 {100, "radix", "4", 0, 0} /* folds: no symmetry */};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        oc__plan plan;
        memset(&plan, 0, sizeof plan);
        oc_kv *params = oc_kv_new();
        if (cases[i].key) oc_kv_set(params, cases[i].key, cases[i].value);
        int rc = a->plan(&plan, OC_ALLREDUCE, cases[i].N, 0, 1 << 20, params, why, sizeof why);
        CHECK(rc == 0 && plan.spec.digit_levels == cases[i].levels &&
                  (!cases[i].levels || plan.spec.digit_radix[0] == cases[i].r0),
              "rhd's plan at N=%u: rc %d levels %u radix[0] %u", cases[i].N, rc,
              plan.spec.digit_levels, plan.spec.digit_radix[0]);
        oc__plan_free(a, &plan);
        oc_kv_free(params);
    }
}

int main(void) {
    digit_orbit_as_cells();
    digit_orbit_used();
    plan_states_it();
    return CHECK_SUMMARY();
}
