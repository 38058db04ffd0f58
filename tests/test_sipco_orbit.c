/*
 * test_sipco_orbit.c — Flex-SiPCO's rounds written whole and its digit symmetry
 * (src/algo/allreduce_sipco.c; docs/search-speed.md, "compare -c allreduce at N = 4096").
 *
 * SiPCO's whole rounds (an emitter without a window: the search's candidates, the final run's
 * cost pass) are written in place (level_whole), and at l = 1 (r = N, the all-to-all twice: the
 * winner of `compare -c allreduce -n 4096 -s 4MiB`) its plan states the digit symmetry of one
 * digit of radix N, so that the verifier holds node 0's cells (verify.c, "Digit orbit
 * reductions") instead of N x N. What must hold:
 *  1. The whole rounds are, transfer for transfer (ends, op, labels, in order), the essay's
 *     definition enumerated here afresh: GPU x, part j, digit v != x_d along d = (j + p) mod l,
 *     the range at j N + prefix + (v or x_d) span, with divisions, at N = r^l for every r of N in
 *     {2, 3, 4, 5, 7, 8, 9, 12, 16, 25, 27, 64, 81, 100, 125, 1000}.
 *  2. The plan states the symmetry exactly at l = 1: one digit, radix N; none at l > 1 (its l N
 *     labels are not one digit's).
 *  3. It is used: a lone verifier given a share of the budget above node 0's cells but below the
 *     N x N cells verifies SiPCO r = N at N = 1000 and 1024, and the same share refuses the run
 *     with the symmetry left out (the share tells the two paths apart).
 *  4. The verdict is the N x N cells' own: at N = 2, 3, 5, 7, 12, 100 (r = N) on the ring (w = 1,
 *     8, 64) and the switch, whole and broken (a halving round twice, the doubling left out, one
 *     transfer dropped, one transfer a copy instead of a reduce, one receiver moved), with the
 *     symmetry stated and left out: the same return code, reason, rounds, transfers,
 *     chunk-transfers, steps, time and redundant deliveries.
 * A level written whole with a transfer moved, dropped or out of order fails 1; a plan that
 * states the symmetry at l > 1, or another radix, fails 2 (and 4 where the verifier then takes
 * a wrong round as symmetric); a plan that stops stating it fails 3.
 */
#include "algo/algos.h"
#include "check.h"
#include "core/result.h"
#include "keep_rounds.h"
#include "net/net.h"
#include "run/pipeline.h"
#include "settings_now.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {2, 3, 4, 5, 7, 8, 9, 12, 16, 25, 27, 64, 81, 100, 125, 1000};

/* l with r^l = n, or 0. */
static uint32_t levels_of(uint32_t n, uint32_t r) {
    uint32_t l = 0;
    uint64_t P = 1;
    while (P < n) {
        P *= r;
        l++;
    }
    return P == n ? l : 0;
}

static uint32_t power(uint32_t r, uint32_t e) {
    uint32_t p = 1;
    while (e--)
        p *= r;
    return p;
}

/* Plans sipco r on n nodes (the switch, 1 MiB). */
static int plan_sipco(uint32_t n, uint32_t r, const oc__algo **algo, oc__plan *plan, char *why,
                      size_t len) {
    char param[32];
    snprintf(param, sizeof param, "r=%u", r);
    return keep_plan(OC_ALLREDUCE, "sipco", n, param, algo, plan, why, len);
}

/* 1. The whole rounds against the essay's definition. */
static size_t rounds_checked;

static void whole_rounds(uint32_t n, uint32_t r) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (plan_sipco(n, r, &algo, &plan, why, sizeof why)) {
        CHECK(0, "sipco N=%u r=%u: %s", n, r, why);
        return;
    }
    keep whole;
    keep_init(&whole);
    int rc = oc__generate(algo, &plan, &whole.sink, why, sizeof why);
    CHECK(rc == 0, "sipco N=%u r=%u: %s", n, r, why);
    const uint32_t l = levels_of(n, r);
    CHECK(whole.st.count == 2 * l, "sipco N=%u r=%u: %zu rounds, not %u", n, r, whole.st.count,
          2 * l);
    for (uint32_t t = 0; !rc && t < 2 * l && t < whole.st.count; t++) {
        const int halving = t < l;
        const uint32_t p = halving ? t : 2 * l - 1 - t, span = power(r, l - 1 - p);
        const oc__round *got = &whole.st.rounds[t];
        size_t k = 0, bad = 0;
        for (uint32_t x = 0; x < n; x++)
            for (uint32_t j = 0; j < l; j++) {
                uint32_t prefix = 0;
                for (uint32_t i = 0; i < p; i++)
                    prefix += x / power(r, (j + i) % l) % r * power(r, l - 1 - i);
                const uint32_t d = (j + p) % l, xd = x / power(r, d) % r;
                for (uint32_t v = 0; v < r; v++) {
                    if (v == xd) continue;
                    const uint32_t y = x - xd * power(r, d) + v * power(r, d);
                    const oc__transfer want = {
                        x, y, j * n + prefix + (halving ? v : xd) * span, span,
                        (uint32_t)(halving ? OC_OP_REDUCE : OC_OP_COPY)};
                    if (k >= got->count || memcmp(&got->xfers[k], &want, sizeof want)) bad++;
                    k++;
                }
            }
        CHECK(bad == 0 && k == got->count,
              "sipco N=%u r=%u round %u: %zu of %zu transfers differ from the definition, %zu "
              "made",
              n, r, t, bad, k, got->count);
        rounds_checked++;
    }
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

/* 2. The symmetry stated exactly at l = 1. */
static void plan_states_it(uint32_t n, uint32_t r) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (plan_sipco(n, r, &algo, &plan, why, sizeof why)) {
        CHECK(0, "sipco N=%u r=%u: %s", n, r, why);
        return;
    }
    if (levels_of(n, r) == 1)
        CHECK(plan.spec.digit_levels == 1 && plan.spec.digit_radix[0] == n &&
                  plan.spec.chunks == n,
              "sipco N=%u r=%u: digit levels %u radix %u chunks %u, not one digit of radix N", n,
              r, plan.spec.digit_levels, plan.spec.digit_radix[0], plan.spec.chunks);
    else
        CHECK(plan.spec.digit_levels == 0, "sipco N=%u r=%u (l = %u): %u digit levels stated", n,
              r, levels_of(n, r), plan.spec.digit_levels);
    oc__plan_free(algo, &plan);
}

/* A stored schedule replayed, broken as `kind` says. */
enum { WHOLE, TWICE, SHORT, DROP, COPY_ONE, MOVE_ONE, KINDS };

typedef struct replay {
    const oc__store *st;
    int kind;
} replay;

static int emit_round(oc__emit *e, const oc__round *r, int kind, int first_round) {
    for (size_t i = 0; i < r->count; i++) {
        oc__transfer t = r->xfers[i];
        const int marked = first_round && i == r->count / 2;
        if (marked && kind == DROP) continue;
        if (marked && kind == COPY_ONE) t.op = OC_OP_COPY;
        if (marked && kind == MOVE_ONE) t.dst = t.dst + 1 == e->spec->nodes ? 0 : t.dst + 1;
        if (t.dst == t.src) t.dst = t.dst + 1 == e->spec->nodes ? 0 : t.dst + 1;
        int rc = oc__emit_transfer(e, t.src, t.dst, (oc__op)t.op, t.first, t.count);
        if (rc) return rc;
    }
    return oc__emit_round(e);
}

static int replay_source(void *arg, oc__emit *e) {
    const replay *p = arg;
    const size_t n = p->st->count, half = n / 2;
    int rc = 0;
    for (size_t t = 0; t < n && !rc; t++) {
        if (p->kind == SHORT && t >= half) break;
        rc = emit_round(e, &p->st->rounds[t], p->kind, t == 0);
        if (!rc && p->kind == TWICE && t == 0) rc = emit_round(e, &p->st->rounds[t], WHOLE, 0);
    }
    return rc;
}

typedef struct outcome {
    int rc;
    char why[512];
    uint64_t rounds, transfers, units, steps, redundant;
    double time;
} outcome;

static outcome run(const char *net, uint32_t w, const oc__plan *plan, const oc__store *st,
                   int kind, int symmetric) {
    outcome o;
    memset(&o, 0, sizeof o);
    oc__spec spec = plan->spec;
    spec.block_node = NULL;
    if (!symmetric) spec.digit_levels = 0;
    oc_kv *kv = oc_kv_new();
    char wl[32];
    snprintf(wl, sizeof wl, "wavelengths=%u", w);
    if (!kv || (w && oc_kv_set_pair(kv, wl))) {
        oc_kv_free(kv);
        o.rc = OC_ENOMEM;
        return o;
    }
    oc_report *rep = oc__report_new();
    replay p = {st, kind};
    o.rc = rep ? oc__run_schedule(&spec, replay_source, &p, oc__model_find(net), kv, 1, NULL, rep,
                                  o.why, sizeof o.why)
               : OC_ENOMEM;
    if (!o.rc) {
        o.rounds = rep->rounds;
        o.transfers = rep->transfers;
        o.units = rep->units;
        o.steps = oc_report_steps(rep);
        o.time = oc_report_time(rep);
        o.redundant = rep->redundant;
    }
    oc_report_free(rep);
    oc_kv_free(kv);
    return o;
}

static int same(const outcome *a, const outcome *b) {
    return a->rc == b->rc && !strcmp(a->why, b->why) && a->rounds == b->rounds &&
           a->transfers == b->transfers && a->units == b->units && a->steps == b->steps &&
           a->time == b->time && a->redundant == b->redundant;
}

/* 4. The same verdict with the symmetry and without. */
static int fails, passes;

static void same_verdict(uint32_t n) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    char why[512] = "";
    if (plan_sipco(n, n, &algo, &plan, why, sizeof why)) {
        CHECK(0, "sipco N=%u r=N: %s", n, why);
        return;
    }
    keep whole;
    keep_init(&whole);
    CHECK(oc__generate(algo, &plan, &whole.sink, why, sizeof why) == 0, "sipco N=%u: %s", n, why);
    static const struct {
        const char *net;
        uint32_t w;
    } nets[] = {{"ring", 1}, {"ring", 8}, {"ring", 64}, {"switch", 0}};
    for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
        for (int kind = 0; kind < KINDS; kind++) {
            if (n == 2 && (kind == MOVE_ONE)) continue; /* one peer: nowhere else to move */
            const outcome a = run(nets[k].net, nets[k].w, &plan, &whole.st, kind, 1);
            const outcome b = run(nets[k].net, nets[k].w, &plan, &whole.st, kind, 0);
            CHECK(same(&a, &b),
                  "sipco N=%u %s w=%u kind %d: symmetric rc %d '%s' %llu steps %llu units, cells "
                  "rc %d '%s' %llu steps %llu units",
                  n, nets[k].net, nets[k].w, kind, a.rc, a.why, (unsigned long long)a.steps,
                  (unsigned long long)a.units, b.rc, b.why, (unsigned long long)b.steps,
                  (unsigned long long)b.units);
            if (kind == WHOLE)
                CHECK(a.rc == 0, "sipco N=%u %s w=%u whole: rc %d '%s'", n, nets[k].net,
                      nets[k].w, a.rc, a.why);
            else if (n > 2 || kind != COPY_ONE)
                CHECK(a.rc != 0, "sipco N=%u %s w=%u kind %d: a broken schedule passed", n,
                      nets[k].net, nets[k].w, kind);
            if (a.rc)
                fails++;
            else
                passes++;
        }
    keep_free(&whole);
    oc__plan_free(algo, &plan);
}

/* 3. A lone verifier whose share holds node 0's cells but not N x N. */
static int lone(uint32_t n, int symmetric, char *why, size_t len) {
    const oc__algo *algo = NULL;
    oc__plan plan;
    int rc = plan_sipco(n, n, &algo, &plan, why, len);
    if (rc) return rc;
    oc__spec spec = plan.spec;
    spec.block_node = NULL;
    oc__spec stated = spec;
    if (!symmetric) spec.digit_levels = 0;
    const uint64_t share = 4 * oc__verifier_orbit_bytes(&stated);
    oc__verifier *v = NULL;
    if (share >= oc__verifier_state_bytes(&spec, n))
        rc = oc__fail(why, len, OC_EINVAL, "the share %llu holds the N x C cells",
                      (unsigned long long)share);
    if (!rc) rc = oc__verifier_new_window(&spec, 0, n, share, &v, why, len);
    if (!rc) rc = oc__generate(algo, &plan, oc__verifier_sink(v), why, len);
    if (!rc) rc = oc__verifier_finish(v, why, len);
    oc__verifier_free(v);
    oc__plan_free(algo, &plan);
    return rc;
}

static void orbit_used(void) {
    static const uint32_t ns[] = {1000, 1024};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        char why[512] = "";
        int rc = lone(ns[i], 1, why, sizeof why);
        CHECK(rc == 0, "sipco N=%u r=N in node 0's cells: rc %d '%s'", ns[i], rc, why);
        rc = lone(ns[i], 0, why, sizeof why);
        CHECK(rc == OC_ETOOBIG, "sipco N=%u r=N without the symmetry in the same share: rc %d '%s'",
              ns[i], rc, why);
    }
}

int main(void) {
    test_settings_enter();
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (uint32_t r = 2; r <= sizes[i]; r++) {
            if (!levels_of(sizes[i], r)) continue;
            whole_rounds(sizes[i], r);
            plan_states_it(sizes[i], r);
        }
    printf("%zu rounds checked against the definition\n", rounds_checked);
    CHECK(rounds_checked > 60, "only %zu rounds checked", rounds_checked);
    orbit_used();
    static const uint32_t verdicts[] = {2, 3, 5, 7, 12, 100};
    for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++)
        same_verdict(verdicts[i]);
    CHECK(fails > 100 && passes >= 24, "%d failing and %d passing runs", fails, passes);
    return CHECK_SUMMARY();
}
