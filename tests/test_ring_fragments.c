/*
 * test_ring_fragments.c — the ring model keeps a lightpath in one fragment or a few.
 *
 * OpTree's uneven trees (more tree positions than nodes) send bundles of slightly different sizes
 * in every stage after the first; where no lightpath crosses the cut, the model's colouring took
 * free colours from a stack that those sizes split into ever smaller ranges, so a late stage's
 * bundle came out in hundreds of fragments (N = 2^20: 257 M fragments for one round of 2.1 M
 * lightpaths, out of memory). The observer sees every fragment cut at step boundaries, so the
 * uses of a transfer of b chunks on C channels grow with its fragments beyond ceil(b / C) + 1:
 * the total must stay within sum(ceil(b / C) + 1) + 5 x transfers. Measured: at N = 4099,
 * radices 3^8, 718014 uses for 92666 transfers (the allowance 887216); before, 3452110. N odd,
 * prime and not powers, with lists of V > N.
 */
#include "algo/algos.h"
#include "core/core.h"
#include "net/net.h"
#include "run/pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct counter {
    oc__observer obs;
    uint64_t uses;
} counter;

static int count_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps,
                      double start_s, double dur_s, char *why, size_t len) {
    (void)o, (void)round, (void)step, (void)nsteps, (void)start_s, (void)dur_s, (void)why,
        (void)len;
    return 0;
}

static int count_use(oc__observer *o, const oc__use *u, char *why, size_t len) {
    (void)u, (void)why, (void)len;
    ((counter *)o)->uses++;
    return 0;
}

/* Sums each transfer's allowance before the model sees the round. */
typedef struct allowance {
    oc__sink sink;
    uint64_t C, transfers, allowed;
} allowance;

static int allow_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    allowance *a = (allowance *)self;
    for (size_t i = 0; i < r->count; i++)
        a->allowed += (r->xfers[i].count + a->C - 1) / a->C + 1 + 5;
    a->transfers += r->count;
    return a->sink.next->round(a->sink.next, index, r, why, len);
}

static void one(uint32_t N, const char *radices) {
    const oc__algo *algo = oc__algo_find(OC_ALLGATHER, "optree");
    const oc__model *model = oc__model_find("ring");
    char why[512] = "";
    oc_kv *params = oc_kv_new(), *net = oc_kv_new();
    oc__plan plan = {0};
    oc__netrun *run = NULL;
    CHECK(algo && model && params && net, "setup");
    if (!algo || !model || !params || !net) goto out;
    oc_kv_set(params, "radices", radices);
    int rc = algo->plan(&plan, OC_ALLGATHER, N, 0, 4096, params, why, sizeof why);
    CHECK(rc == 0, "N=%u radices=%s: plan: %s", N, radices, why);
    if (rc) goto out;
    rc = oc__model_create(model, &plan.spec, net, 1, &run, why, sizeof why);
    CHECK(rc == 0, "N=%u: ring: %s", N, why);
    if (rc) goto out;
    counter c = {.obs = {.step = count_step, .use = count_use}};
    oc__grid grid;
    rc = model->observe(run, &c.obs, &grid, why, sizeof why);
    CHECK(rc == 0, "N=%u: observe: %s", N, why);
    if (rc) goto out;
    allowance a = {.sink = {.round = allow_round, .next = model->sink(run)}, .C = 64};
    a.sink.next->next = NULL;
    rc = oc__generate(algo, &plan, &a.sink, why, sizeof why);
    CHECK(rc == 0, "N=%u radices=%s: mapping: %s", N, radices, why);
    CHECK(c.uses <= a.allowed,
          "N=%u radices=%s: %llu lightpath uses for %llu transfers, more than %llu (five fragments "
          "a transfer)",
          N, radices, (unsigned long long)c.uses, (unsigned long long)a.transfers,
          (unsigned long long)a.allowed);
out:
    if (run) model->destroy(run);
    oc__plan_free(algo, &plan);
    oc_kv_free(params);
    oc_kv_free(net);
}

int main(void) {
    one(7, "2x2x2");
    one(100, "5x3x3x3");
    one(1000, "5x3x3x3x3x3");
    one(1000, "2x2x2x2x2x2x2x2x2x2");
    one(4099, "3x3x3x3x3x3x3x3");
    one(4099, "2x3x3x3x3x3x3x3");
    return CHECK_SUMMARY();
}
