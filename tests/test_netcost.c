/*
 * test_netcost.c — what a model tells the algorithms of how it costs a round (core/netcfg.h:
 * oc__netcfg.cost, filled by the model's config hook) and of a step with nothing in it
 * (oc__model.step_fixed), checked against the model itself.
 *
 *  - The rules: the ring's rounds take their busiest link's colours over the channels, the
 *    switch's ports pay an alpha a transfer, a fat-tree path crosses at least its leaf's router
 *    (least_path_s is the router delay the user set), and the other models say nothing; the
 *    algorithms' bounds and notes that once asked the network's kind now ask these, so a model
 *    that stopped saying its rule would silently lose them (and `compare` would change).
 *  - The ring at spread=0: its bundle_step_s is the ring model's own step time for a step whose
 *    largest bundle is that many bytes (the step time of a run whose chunk is that big), and the
 *    line under it (bundle_fixed_s + bytes x bundle_per_byte_s) is never above it; at spread=1
 *    there is no bundle rule.
 *  - step_fixed: on every model, N in 1, 2, 3, 7, 12, 100 and sizes 0, 1, 1000 and 1 MiB, a
 *    model's step_fixed is bit for bit the step_time of the same network created on an empty
 *    payload, which is how the pipeline asked before the hook (one model creation of two).
 */
#include "core/netcfg.h"
#include "net/net.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static oc__netrun *make(const oc__model *model, uint32_t N, uint64_t bytes, const char *key,
                        const char *value, oc__spec *spec, oc_kv **np) {
    char why[256] = "";
    *np = oc_kv_new();
    if (!*np || (key && oc_kv_set(*np, key, value))) return NULL;
    if (oc__spec_init(spec, OC_ALLREDUCE, N, 0, bytes, 1, why, sizeof why)) return NULL;
    oc__netrun *net = NULL;
    if (oc__model_create(model, spec, *np, 0, &net, why, sizeof why)) {
        oc__spec_free(spec);
        return NULL;
    }
    return net;
}

static void release(const oc__model *model, oc__netrun *net, oc__spec *spec, oc_kv *np) {
    if (net) {
        model->destroy(net);
        oc__spec_free(spec);
    }
    oc_kv_free(np);
}

/* The rule each model says, at N = 12 and 1000 bytes. */
static void check_rules(void) {
    static const struct {
        const char *net, *key, *value;
        int link, alpha, bundle;
        double least_path_s;
    } want[] = {
        {"ring", NULL, NULL, 1, 0, 0, 0},
        {"ring", "spread", "0", 1, 0, 1, 0},
        {"ring", "wavelengths", "4", 1, 0, 0, 0},
        {"switch", NULL, NULL, 0, 1, 0, 0},
        {"fattree", NULL, NULL, 0, 0, 0, 50e-6},
        {"fattree", "router_delay_us", "7", 0, 0, 0, 7e-6},
        {"star", NULL, NULL, 0, 0, 0, 0},
        {"fabric", NULL, NULL, 0, 0, 0, 0},
        {"hypercube", NULL, NULL, 0, 0, 0, 0},
        {"torus", NULL, NULL, 0, 0, 0, 0},
        {"mesh", NULL, NULL, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const oc__model *model = oc__model_find(want[i].net);
        CHECK(model && model->config, "%s: a model with a config hook", want[i].net);
        if (!model || !model->config) continue;
        const uint32_t N = strcmp(want[i].net, "hypercube") ? 12 : 8;
        oc__spec spec;
        oc_kv *np;
        oc__netrun *net = make(model, N, 1000, want[i].key, want[i].value, &spec, &np);
        CHECK(net != NULL, "%s %s=%s: created", want[i].net, want[i].key ? want[i].key : "",
              want[i].value ? want[i].value : "");
        if (!net) {
            oc_kv_free(np);
            continue;
        }
        oc__netcfg cfg;
        memset(&cfg, 0xa5, sizeof cfg); /* garbage: the hook must fill every rule */
        model->config(net, &cfg);
        const oc__netcost *c = &cfg.cost;
        CHECK(c->steps_by_link_load == want[i].link && c->alpha_per_transfer == want[i].alpha &&
                  (c->bundle_step_s != NULL) == want[i].bundle &&
                  fabs(c->least_path_s - want[i].least_path_s) <= 1e-15,
              "%s %s: link %d alpha %d bundle %d least path %g s, want %d %d %d %g", want[i].net,
              want[i].key ? want[i].key : "", c->steps_by_link_load, c->alpha_per_transfer,
              c->bundle_step_s != NULL, c->least_path_s, want[i].link, want[i].alpha,
              want[i].bundle, want[i].least_path_s);
        release(model, net, &spec, np);
    }
}

/* The ring at spread=0: bundle_step_s(bytes) is the model's step time of a bytes chunk. */
static void check_bundle(void) {
    const oc__model *ring = oc__model_find("ring");
    static const uint64_t sizes[] = {1, 31, 32, 33, 127, 128, 129, 1000, 4096, 65537, 1u << 20};
    static const char *const nodes[] = {"2", "7", "100"};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            const uint32_t N = (uint32_t)atoi(nodes[k]);
            oc__spec spec;
            oc_kv *np;
            /* one chunk a node of `sizes[i]` bytes: an all-reduce of N chunks of that size */
            oc__netrun *net = make(ring, N, sizes[i] * N, "spread", "0", &spec, &np);
            CHECK(net != NULL, "ring spread=0 N=%u: created", N);
            if (!net) {
                oc_kv_free(np);
                continue;
            }
            oc__netcfg cfg;
            memset(&cfg, 0, sizeof cfg);
            ring->config(net, &cfg);
            const double model_step = ring->step_time(net);
            const uint64_t b = spec.chunk_bytes;
            CHECK(cfg.cost.bundle_step_s != NULL, "ring spread=0: a bundle rule");
            if (cfg.cost.bundle_step_s) {
                const double hook = cfg.cost.bundle_step_s(&cfg, b);
                CHECK(fabs(hook - model_step) <= 1e-12 * model_step,
                      "ring N=%u chunk %llu B: bundle_step_s %.17g, the model's step %.17g", N,
                      (unsigned long long)b, hook, model_step);
                const double line =
                    cfg.cost.bundle_fixed_s + (double)b * cfg.cost.bundle_per_byte_s;
                CHECK(line <= hook * (1 + 1e-12) && line > 0,
                      "ring chunk %llu B: the line %.17g above the step %.17g",
                      (unsigned long long)b, line, hook);
            }
            release(ring, net, &spec, np);
        }
}

/* step_fixed against the old way: the same network created on an empty payload. */
static void check_step_fixed(void) {
    static const uint32_t nodes[] = {1, 2, 3, 7, 12, 100};
    static const uint64_t sizes[] = {0, 1, 1000, 1u << 20};
    size_t compared = 0;
    for (size_t m = 0; m < oc_network_count(); m++) {
        const oc__model *model = oc__model_find(oc_network_at(m)->name);
        CHECK(model && model->step_fixed, "%s: a step_fixed hook", oc_network_at(m)->name);
        if (!model || !model->step_fixed) continue;
        for (size_t k = 0; k < sizeof nodes / sizeof *nodes; k++)
            for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
                oc__spec spec;
                oc_kv *np;
                oc__netrun *net = make(model, nodes[k], sizes[i], NULL, NULL, &spec, &np);
                if (!net) { /* a network that refuses N (the hypercube at 3) */
                    oc_kv_free(np);
                    continue;
                }
                const double fixed = model->step_fixed(net);
                oc__spec empty = spec;
                empty.bytes = empty.chunk_bytes = 0;
                empty.block_node = NULL;
                oc__netrun *bare = NULL;
                char why[256] = "";
                int rc = oc__model_create(model, &empty, np, 0, &bare, why, sizeof why);
                CHECK(rc == 0, "%s N=%u: the empty network: %s", model->info.name, nodes[k], why);
                if (!rc) {
                    const double old = model->step_time(bare);
                    CHECK(memcmp(&fixed, &old, sizeof old) == 0,
                          "%s N=%u %llu B: step_fixed %.17g, an empty network's step %.17g",
                          model->info.name, nodes[k], (unsigned long long)sizes[i], fixed, old);
                    model->destroy(bare);
                    compared++;
                }
                release(model, net, &spec, np);
            }
    }
    CHECK(compared >= 40, "%zu networks compared", compared);
}

int main(void) {
    check_rules();
    check_bundle();
    check_step_fixed();
    return CHECK_SUMMARY();
}
