/*
 * test_net_models.c — the lifecycle every network model shares (src/net/model_common.c), tried
 * on every model of the registry at once: a run is created, maps rounds, counts them, finishes
 * and is freed (the ASan build sees any buffer the shared free misses); a transfer to itself or
 * out of range and one too large to count are refused with the round named; the observer's
 * steps come in order, tile the run's time and add up to its steps; and a run whose buffers do
 * not fit the memory budget is refused with the model named before anything is allocated.
 * Also the star check's rule of one stream per laser and per filter in a step, whose two loops
 * became one.
 */
#include "core/result.h"
#include "net/net.h"
#include "net/star.h"

#include "check.h"
#include "model_map.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t sizes[] = {1, 2, 3, 5, 7, 12, 16, 100};

/* The network parameters that let every model carry a one-hop shift (i -> i+1) between any two
 * nodes: the direct networks switch by wormhole, so non-neighbours are reachable. */
static const char *net_params(const char *name) {
    if (!strcmp(name, "hypercube") || !strcmp(name, "torus") || !strcmp(name, "mesh"))
        return "switching=wh";
    return NULL;
}

static oc_kv *kv_of(const char *text) {
    oc_kv *kv = oc_kv_new();
    kv_add_words(kv, text, " ");
    return kv;
}

/* An observer that checks the steps it is told of: consecutive indices, each starting when the
 * one before ended; it sums their count and their time. */
typedef struct tiler {
    oc__observer obs;
    uint64_t next_step, steps, uses;
    double end;
    int gaps;
} tiler;

static int tiler_step(oc__observer *o, uint64_t round, uint64_t step, uint64_t nsteps,
                      double start_s, double dur_s, char *why, size_t len) {
    tiler *t = (tiler *)o;
    (void)round, (void)why, (void)len;
    if (step != t->next_step || !close_to(start_s, t->end)) t->gaps++;
    t->next_step = step + nsteps;
    t->steps += nsteps;
    t->end = start_s + dur_s;
    return 0;
}

static int tiler_use(oc__observer *o, const oc__use *u, char *why, size_t len) {
    (void)u, (void)why, (void)len;
    ((tiler *)o)->uses++;
    return 0;
}

/* Maps `rounds` shift rounds (node i sends one chunk to i+1) of an all-gather on N nodes of the
 * model, watched by an observer, and checks the run's figures against what the observer saw. */
static void shift_rounds(const oc__model *model, uint32_t N, int check, uint32_t rounds) {
    char why[512] = "";
    const char *name = model->info.name;
    oc__spec spec;
    CHECK(oc__spec_init(&spec, OC_ALLGATHER, N, 0, 4096, 1, why, sizeof why) == 0, "spec: %s", why);
    oc_kv *kv = kv_of(net_params(name));
    oc__netrun *run = NULL;
    int rc = oc__model_create(model, &spec, kv, check, &run, why, sizeof why);
    if (rc == OC_ENOTSUP) { /* the hypercube at N not a power of two */
        CHECK(run == NULL, "%s N=%u: refused, yet a run came back", name, N);
        goto out;
    }
    CHECK(rc == 0 && run, "%s N=%u check=%d: create: %s", name, N, check, why);
    if (rc) goto out;
    tiler t = {.obs = {.step = tiler_step, .use = tiler_use}};
    oc__grid grid;
    CHECK(model->observe(run, &t.obs, &grid, why, sizeof why) == 0, "%s: observe: %s", name, why);
    oc__sink *sink = model->sink(run);
    oc__transfer *x = calloc(N, sizeof *x);
    for (uint32_t i = 0; i < N; i++)
        x[i] = (oc__transfer){.src = i, .dst = (i + 1) % N, .op = OC_OP_COPY, .count = 1};
    const oc__round r = {.xfers = x, .count = N};
    /* a single node has nothing to send: the pipeline hands a model no empty round */
    for (uint32_t k = 0; k < rounds && N > 1 && !rc; k++)
        rc = sink->round(sink, k, &r, why, sizeof why);
    CHECK(rc == 0, "%s N=%u: round: %s", name, N, why);
    oc_report *rep = oc__report_new();
    CHECK(model->finish(run, rep, why, sizeof why) == 0, "%s N=%u: finish: %s", name, N, why);
    const uint64_t steps = model->steps(run);
    CHECK(rep->steps == steps, "%s N=%u: the report has %llu steps, the run %llu", name, N,
          (unsigned long long)rep->steps, (unsigned long long)steps);
    CHECK(N == 1 ? steps == 0 : steps >= rounds, "%s N=%u: %llu steps for %u rounds", name, N,
          (unsigned long long)steps, rounds);
    CHECK(!rep->has_lb || rep->steps_lb <= rep->steps, "%s N=%u: bound %llu above %llu steps", name,
          N, (unsigned long long)rep->steps_lb, (unsigned long long)rep->steps);
    CHECK(t.steps == steps && t.gaps == 0 && (N == 1 || t.uses >= N),
          "%s N=%u: the observer saw %llu steps (%d gaps, %llu uses), the run has %llu", name, N,
          (unsigned long long)t.steps, t.gaps, (unsigned long long)t.uses,
          (unsigned long long)steps);
    CHECK(close_to(t.end, rep->time_s), "%s N=%u: the observed steps end at %.17g, time %.17g",
          name, N, t.end, rep->time_s);
    CHECK(oc_kv_count(rep->net_params) > 0, "%s N=%u: no parameters reported", name, N);
    oc_report_free(rep);
    free(x);
out:
    if (run) model->destroy(run);
    oc_kv_free(kv);
    oc__spec_free(&spec);
}

/* One round holding transfer x on N nodes (chunks of `bytes`): the error and why. */
static int one_transfer(const oc__model *model, uint32_t N, uint64_t bytes, oc__transfer x,
                        char *why, size_t len) {
    oc__spec spec;
    int rc = oc__spec_init(&spec, OC_ALLGATHER, N, 0, bytes, 1, why, len);
    CHECK(rc == 0, "spec: %s", why);
    oc_kv *kv = kv_of(net_params(model->info.name));
    oc__netrun *run = NULL;
    if (!rc) rc = oc__model_create(model, &spec, kv, 1, &run, why, len);
    if (!rc) {
        oc__sink *sink = model->sink(run);
        const oc__round r = {.xfers = &x, .count = 1};
        rc = sink->round(sink, 7, &r, why, len);
    }
    if (run) model->destroy(run);
    oc_kv_free(kv);
    oc__spec_free(&spec);
    return rc;
}

static void bad_transfers(const oc__model *model) {
    const char *name = model->info.name;
    char why[512];
    const uint32_t N = 8; /* a power of two: the hypercube too */
    const oc__transfer bad[] = {{.src = 3, .dst = 3, .count = 1},
                                {.src = 2, .dst = N, .count = 1},
                                {.src = N + 5, .dst = 0, .count = 1}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char want[64];
        snprintf(want, sizeof want, "round 7: transfer %u -> %u ", bad[i].src, bad[i].dst);
        int rc = one_transfer(model, N, 64, bad[i], why, sizeof why);
        CHECK(rc == OC_EINVAL && strncmp(why, want, strlen(want)) == 0,
              "%s: %u -> %u: rc %d, why [%s]", name, bad[i].src, bad[i].dst, rc, why);
    }
    /* 2^32 - 1 chunks of 2^50 bytes: more bytes than 64 bits count. The ring and the star
     * count chunks, not bytes, and take it. */
    const oc__transfer huge = {.src = 1, .dst = 2, .count = UINT32_MAX};
    int rc = one_transfer(model, N, OC_MAX_BYTES, huge, why, sizeof why);
    if (!strcmp(name, "switch") || !strcmp(name, "fabric") || !strcmp(name, "fattree"))
        CHECK(rc == OC_ETOOBIG && !strcmp(why, "round 7: transfer 1 -> 2 is too large"),
              "%s: a transfer too large: rc %d, why [%s]", name, rc, why);
    else
        CHECK(rc != OC_ENOMEM, "%s: a transfer too large: out of memory (%s)", name, why);
}

/* At 1 MiB of budget every model's buffers for 2^17 nodes are too many: refused, naming the
 * model, with nothing handed out. */
static void over_budget(const oc__model *model) {
    const char *name = model->info.name;
    char why[512] = "", want[64];
    oc__spec spec;
    CHECK(oc__spec_init(&spec, OC_ALLGATHER, OC_MAX_NODES, 0, 64, 1, why, sizeof why) == 0,
          "spec: %s", why);
    oc_kv *kv = kv_of(net_params(name));
    oc__netrun *run = (oc__netrun *)&spec; /* create must clear it */
    const oc_settings small = {.memory_budget = UINT64_C(1) << 20};
    const oc_settings *prev = oc__settings_enter(&small); /* as a run's call makes them */
    int rc = oc__model_create(model, &spec, kv, 1, &run, why, sizeof why);
    snprintf(want, sizeof want, "the %s model needs ", name);
    CHECK(rc == OC_ETOOBIG && run == NULL && strstr(why, want) &&
              strstr(why, "more than the memory budget of 1 MiB"),
          "%s at N=%u over a 1 MiB budget: rc %d, why [%s]", name, OC_MAX_NODES, rc, why);
    if (!rc && run) model->destroy(run);
    oc__settings_leave(prev);
    /* and under the default budget the same run is made */
    run = NULL;
    rc = oc__model_create(model, &spec, kv, 1, &run, why, sizeof why);
    CHECK(rc == 0 && run, "%s at N=%u: %s", name, OC_MAX_NODES, why);
    if (run) model->destroy(run);
    oc_kv_free(kv);
    oc__spec_free(&spec);
}

/* Two streams of round 0 (src0 -> dst0, src1 -> dst1) on ports (tx0, rx0) and (tx1, rx1), all
 * in one step, on their lasers' wavelengths: the star check's verdict and why. */
static int star_claims(uint32_t src0, uint32_t dst0, uint32_t tx0, uint32_t rx0, uint32_t src1,
                       uint32_t dst1, uint32_t tx1, uint32_t rx1, char *why, size_t len) {
    const uint32_t k = 2;
    oc__round r = {0};
    if (oc__round_push(&r, src0, dst0, OC_OP_COPY, 0, 1) ||
        oc__round_push(&r, src1, dst1, OC_OP_COPY, 1, 1))
        abort();
    oc__star_claim cl[2] = {{.src = src0,
                             .dst = dst0,
                             .tx_port = tx0,
                             .rx_port = rx0,
                             .wavelength = (uint64_t)src0 * k + tx0,
                             .messages = 1,
                             .retuned = 1},
                            {.src = src1,
                             .dst = dst1,
                             .tx_port = tx1,
                             .rx_port = rx1,
                             .wavelength = (uint64_t)src1 * k + tx1,
                             .messages = 1,
                             .retuned = 1}};
    oc__star_checker *c = NULL;
    if (oc__star_checker_new(5, k, 0, 1, &c)) abort();
    uint64_t steps, retunes, messages;
    why[0] = 0;
    int rc = oc__star_check(c, 0, 5, &r, cl, 2, &steps, &retunes, &messages, why, len);
    oc__star_checker_free(c);
    oc__round_free(&r);
    return rc;
}

static void star_devices(void) {
    char why[512];
    CHECK(star_claims(0, 2, 0, 0, 1, 3, 1, 1, why, sizeof why) == 0, "a valid step: %s", why);
    CHECK(star_claims(0, 2, 0, 0, 0, 3, 1, 1, why, sizeof why) == 0, "two lasers of 0: %s", why);
    CHECK(star_claims(0, 2, 0, 0, 1, 2, 1, 1, why, sizeof why) == 0, "two filters of 2: %s", why);
    /* processor 0 on laser 1 twice; processor 4 on filter 0 twice (either stream named first) */
    int rc = star_claims(0, 2, 1, 0, 0, 3, 1, 1, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && (!strcmp(why, "step 5: processor 0 sends to 2 and 3 on the same "
                                              "laser 1") ||
                                 !strcmp(why, "step 5: processor 0 sends to 3 and 2 on the same "
                                              "laser 1")),
          "one laser twice: rc %d, why [%s]", rc, why);
    rc = star_claims(1, 4, 0, 0, 3, 4, 1, 0, why, sizeof why);
    CHECK(rc == OC_ERESOURCE && (!strcmp(why, "step 5: processor 4 receives from 1 and 3 on the "
                                              "same filter 0") ||
                                 !strcmp(why, "step 5: processor 4 receives from 3 and 1 on the "
                                              "same filter 0")),
          "one filter twice: rc %d, why [%s]", rc, why);
}

int main(void) {
    star_devices();
    for (size_t i = 0; i < oc_network_count(); i++) {
        const oc__model *model = oc__model_find(oc_network_at(i)->name);
        CHECK(model != NULL, "network %zu not found", i);
        if (!model) continue;
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            shift_rounds(model, sizes[k], 1, 3);
            shift_rounds(model, sizes[k], 0, 2);
        }
        bad_transfers(model);
        over_budget(model);
    }
    return CHECK_SUMMARY();
}
