/*
 * test_search_ring_levels.c — the ring bound rhd's search (src/algo/rhd.c) leaves unmapped: a
 * level of radix r at place value w whose groups (r w consecutive nodes) are at most half the
 * ring is costed at ceil(w^2 floor(r^2 / 4) / (F w)) steps per round, the busiest link's exact
 * load, and never mapped. That is right only if (a) no link carries more (else the bound is
 * not a bound) and (b) the ring model's colouring meets the load on such rounds (else the search
 * would map more than it says, though it would still be right). This test maps each such level's
 * round alone on the ring model, through the algorithm's own generator (rd all-gather with the
 * radices W x r x N/(rW), whose second round is the level), and asserts the model's steps equal
 * the formula, for every such (r, w) on N up to 120 and 720, three ring settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run/pipeline.h"

/* A sink that maps each round alone on a fresh ring and keeps the steps of round `want`. */
typedef struct alone_sink {
    oc__sink sink;
    const oc__model *model;
    const oc__spec *spec;
    const oc_kv *net_params;
    uint64_t want, steps;
    int rc;
} alone_sink;

static int alone_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    alone_sink *a = (alone_sink *)self;
    if (index != a->want) return 0;
    oc__netrun *net = NULL;
    int rc = oc__model_create(a->model, a->spec, a->net_params, 1, &net, why, len);
    if (rc) return rc;
    oc__sink *s = a->model->sink(net);
    rc = s->round(s, index, r, why, len);
    oc_report *rep = oc__report_new();
    if (!rc) rc = a->model->finish(net, rep, why, len);
    a->steps = rep->steps;
    oc_report_free(rep);
    a->model->destroy(net);
    return rc;
}

static uint64_t checks_done;

static void level(uint32_t N, uint32_t W, uint32_t r, const char *net_text, uint64_t channels) {
    const oc__algo *rd = oc__algo_find(OC_ALLGATHER, "rd");
    const oc__model *ring = oc__model_find("ring");
    char radices[64];
    /* most significant first: N/(rW), r, W (factors of 1 left out) */
    const uint32_t top = N / (r * W);
    int at = 0;
    if (top > 1) at += snprintf(radices + at, sizeof radices - at, "%ux", top);
    at += snprintf(radices + at, sizeof radices - at, "%u", r);
    if (W > 1) snprintf(radices + at, sizeof radices - at, "x%u", W);
    oc_kv *p = oc_kv_new(), *np = oc_kv_new();
    oc_kv_set(p, "radices", radices);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", net_text);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        oc_kv_set_pair(np, tok);
    oc__plan plan = {0};
    char why[256] = "";
    int rc = rd->plan(&plan, OC_ALLGATHER, N, 0, 4096, p, why, sizeof why);
    alone_sink a = {.sink = {.round = alone_round},
                    .model = ring,
                    .spec = &plan.spec,
                    .net_params = np,
                    .want = W > 1 ? 1 : 0};
    if (!rc) {
        oc__emit e;
        oc__emit_init(&e, &plan.spec, &a.sink, why, sizeof why);
        rc = rd->generate(&plan, &e);
        oc__emit_free(&e);
    }
    const uint64_t load = (uint64_t)W * W * ((uint64_t)r * r / 4);
    const uint64_t expect = (load + channels - 1) / channels;
    CHECK(rc == 0 && a.steps == expect,
          "N=%u radices=%s (%s): level r=%u w=%u mapped alone %llu steps, the bound says %llu "
          "(rc %d %s)",
          N, radices, net_text, r, W, (unsigned long long)a.steps, (unsigned long long)expect, rc,
          why);
    checks_done++;
    oc__plan_free(rd, &plan);
    oc_kv_free(p);
    oc_kv_free(np);
}

/* Every group-local level (r w divides N, 2 r w <= N) of N. */
static void levels(uint32_t N, const char *net_text, uint64_t channels) {
    for (uint32_t W = 1; W <= N; W++)
        for (uint32_t r = 2; N % W == 0 && (uint64_t)2 * r * W <= N; r++)
            if ((N / W) % r == 0) level(N, W, r, net_text, channels);
}

int main(void) {
    static const struct {
        const char *text;
        uint64_t channels;
    } nets[] = {{"", 64}, {"wavelengths=2", 2}, {"wavelengths=3 fibres=2", 6}};
    for (size_t k = 0; k < sizeof nets / sizeof *nets; k++) {
        for (uint32_t N = 2; N <= 120; N++)
            levels(N, nets[k].text, nets[k].channels);
        levels(720, nets[k].text, nets[k].channels);
    }
    printf("%llu group-local levels mapped alone\n", (unsigned long long)checks_done);
    CHECK(checks_done > 1000, "only %llu levels", (unsigned long long)checks_done);
    return CHECK_SUMMARY();
}
