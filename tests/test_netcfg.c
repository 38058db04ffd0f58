/*
 * test_netcfg.c — the network's settings reach the algorithms typed, as the model parsed them
 * (core/netcfg.h), and the closed forms built on them are what they were when the algorithms read
 * the settings back from the run's report.
 *
 *  - The hand-off: for the torus, the mesh and the hypercube on non-square dims (3x5, 5x3, 7x2,
 *    2x7, 1x5 ...) under every non-default switching, ports, duplex, combining, t_s, t_m, t_d and
 *    packet size, oc__net_figures (the pipeline's view of the model, what oc__formula_in carries)
 *    holds in .cfg exactly the configuration the model's own parser gives, field by field, with
 *    the packet the model cuts this run's chunks into; the ring hands on w and F (so the closed
 *    forms' `wavelengths` is the ring's w, also when only fibres or a preset is set); the other
 *    models hand on nothing typed.
 *  - Unchanged results: every all-to-all algorithm of the notes on its direct networks, over the
 *    grid of netcfg_cases.h (314 runs), gives the same closed forms, formula figures and notes, to
 *    the last bit, as the library did before this change (main at 7109072). The table below was
 *    printed by a program that runs nc_result() over nc_cases(), linked once against that commit's
 *    library and once against this one (the two printed the same table).
 *  - 0 bytes: the closed forms are given (before, the report's mu=0 did not parse back and the
 *    all-to-alls on direct networks silently gave none).
 */
#include "core/netcfg.h"
#include "net/direct.h"
#include "net/net.h"
#include "run/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "netcfg_cases.h"

/* ---- the hand-off ---- */

static void check_direct(const char *model_name, oc__direct_kind kind, uint32_t N,
                         const char *shape, const char *setting, uint64_t bytes) {
    const oc__model *model = oc__model_find(model_name);
    CHECK(model != NULL, "model %s", model_name);
    if (!model) return;
    char text[200], why[256] = "";
    snprintf(text, sizeof text, "%s%s%s", shape, *shape && *setting ? " " : "", setting);
    oc_kv *np = oc_kv_new();
    CHECK(np && nc_kv(text, np) == 0, "%s", text);
    oc__direct_cfg want;
    int rc = oc__direct_cfg_parse(kind, N, np, &want, why, sizeof why);
    CHECK(rc == 0, "%s N=%u %s: %s", model_name, N, text, why);
    oc__spec spec;
    rc = oc__spec_init(&spec, OC_ALLTOALL, N, 0, bytes, 1, why, sizeof why);
    CHECK(rc == 0, "spec: %s", why);
    oc__formula_in in;
    memset(&in, 0xa5, sizeof in); /* garbage: the figures must set every field they hand on */
    oc__netset net;
    rc = oc__netset_parse(model, np, N, &net, why, sizeof why);
    if (!rc) rc = oc__net_figures(&net, &spec, &in, why, sizeof why);
    CHECK(rc == 0, "%s N=%u %s: %s", model_name, N, text, why);
    const oc__direct_cfg *got = &in.cfg.direct;
    const uint64_t mu = want.mu && spec.chunk_bytes > want.mu ? want.mu : spec.chunk_bytes;
    CHECK(in.cfg.kind == OC_NETCFG_DIRECT, "%s %s: kind %d", model_name, text, (int)in.cfg.kind);
    CHECK(got->kind == kind && got->nodes == N && got->ndims == want.ndims,
          "%s %s: kind %d nodes %u ndims %u, want %d %u %u", model_name, text, (int)got->kind,
          got->nodes, got->ndims, (int)kind, N, want.ndims);
    for (uint32_t i = 0; i < want.ndims && i < OC_DIRECT_MAX_DIMS; i++)
        CHECK(got->dims[i] == want.dims[i], "%s %s: dims[%u] = %u, want %u", model_name, text, i,
              got->dims[i], want.dims[i]);
    CHECK(got->wormhole == want.wormhole && got->allport == want.allport &&
              got->fullduplex == want.fullduplex && got->combining == want.combining,
          "%s %s: wh %d all %d full %d comb %d", model_name, text, got->wormhole, got->allport,
          got->fullduplex, got->combining);
    CHECK(got->ts == want.ts && got->tm == want.tm && got->td == want.td,
          "%s %s: ts %.17g tm %.17g td %.17g, want %.17g %.17g %.17g", model_name, text, got->ts,
          got->tm, got->td, want.ts, want.tm, want.td);
    CHECK(got->mu == mu, "%s %s at %llu bytes: mu %llu, want %llu", model_name, text,
          (unsigned long long)bytes, (unsigned long long)got->mu, (unsigned long long)mu);
    CHECK(in.wavelengths == in.channels, "%s: wavelengths %llu", model_name,
          (unsigned long long)in.wavelengths);
    /* the dims the algorithms print are the ones the user wrote */
    char dims[160];
    oc__direct_dims_text(got, dims, sizeof dims);
    if (!strncmp(shape, "dims=", 5))
        CHECK(strcmp(dims, shape + 5) == 0, "dims text %s, want %s", dims, shape + 5);
    oc__spec_free(&spec);
    oc_kv_free(np);
}

static void test_handoff_direct(void) {
    static const struct {
        const char *model;
        oc__direct_kind kind;
        uint32_t nodes;
        const char *shape;
    } nets[] = {
        {"torus", OC_DIRECT_TORUS, 15, "dims=3x5"},
        {"torus", OC_DIRECT_TORUS, 15, "dims=5x3"},
        {"torus", OC_DIRECT_TORUS, 14, "dims=7x2"},
        {"torus", OC_DIRECT_TORUS, 14, "dims=2x7"},
        {"torus", OC_DIRECT_TORUS, 7, ""},
        {"torus", OC_DIRECT_TORUS, 30, "dims=2x3x5"},
        {"mesh", OC_DIRECT_MESH, 15, "dims=3x5"},
        {"mesh", OC_DIRECT_MESH, 14, "dims=7x2"},
        {"mesh", OC_DIRECT_MESH, 5, "dims=1x5"},
        {"mesh", OC_DIRECT_MESH, 12, ""},
        {"mesh", OC_DIRECT_MESH, 7, ""},
        {"mesh", OC_DIRECT_MESH, 1, ""},
        {"hypercube", OC_DIRECT_HYPERCUBE, 8, ""},
        {"hypercube", OC_DIRECT_HYPERCUBE, 1, ""},
        {"hypercube", OC_DIRECT_HYPERCUBE, 32, "dim=5"},
    };
    static const char *const more[] = {"mu=5", "mu=1000 ts_us=0.1 tm_ns=0.3 td_us=7",
                                       "ts_us=0 tm_ns=0 td_us=0"};
    static const uint64_t sizes[] = {1, 7, 100, 4096};
    for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++)
        for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) {
            for (size_t s = 0; s < NC_SETTINGS; s++)
                check_direct(nets[n].model, nets[n].kind, nets[n].nodes, nets[n].shape,
                             nc_settings[s], sizes[b]);
            for (size_t s = 0; s < sizeof more / sizeof more[0]; s++)
                check_direct(nets[n].model, nets[n].kind, nets[n].nodes, nets[n].shape, more[s],
                             sizes[b]);
        }
}

/* The ring hands on w and F; the closed forms' wavelengths is w (not the pipeline's reading of
 * the parameters); the fat-tree its leaf size (w below) and packet bytes (F below), packet and
 * router times; the switch its alpha and beta, the fabric its wavelengths (w) and tiles (F), the
 * star its k (w below): what the physical bounds (src/bounds) read. */
static void test_handoff_others(void) {
    static const struct {
        const char *model, *params;
        uint32_t nodes;
        oc__netcfg_kind kind;
        uint64_t w, F;
    } cases[] = {
        {"ring", "", 5, OC_NETCFG_RING, 64, 1},
        {"ring", "fibres=2", 7, OC_NETCFG_RING, 64, 2},
        {"ring", "preset=terarack", 12, OC_NETCFG_RING, 64, 2},
        {"ring", "wavelengths=3 fibres=2", 12, OC_NETCFG_RING, 3, 2},
        {"ring", "wavelengths=1 fibres=5", 3, OC_NETCFG_RING, 1, 5},
        {"switch", "", 5, OC_NETCFG_SWITCH, 0, 0},
        {"fattree", "", 12, OC_NETCFG_FATTREE, 16, 64},
        {"fattree", "leaf_down=3 packet_bytes=100 router_delay_us=7 bandwidth_gbps=10", 13,
         OC_NETCFG_FATTREE, 3, 100},
        {"fabric", "", 8, OC_NETCFG_FABRIC, 16, 32},
        {"fabric", "wavelengths_per_tile=4 tiles_per_server=2", 8, OC_NETCFG_FABRIC, 4, 2},
        {"star", "k=3", 7, OC_NETCFG_STAR, 3, 0},
        {"star", "k=5", 7, OC_NETCFG_STAR, 5, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const oc__model *model = oc__model_find(cases[i].model);
        char why[256] = "";
        oc_kv *np = oc_kv_new();
        oc__spec spec;
        CHECK(model && np && nc_kv(cases[i].params, np) == 0, "%s", cases[i].model);
        int rc = oc__spec_init(&spec, OC_ALLGATHER, cases[i].nodes, 0, 1000, 1, why, sizeof why);
        CHECK(rc == 0, "spec: %s", why);
        oc__formula_in in;
        memset(&in, 0xa5, sizeof in);
        oc__netset net;
        rc = model ? oc__netset_parse(model, np, cases[i].nodes, &net, why, sizeof why) : -1;
        if (!rc) rc = oc__net_figures(&net, &spec, &in, why, sizeof why);
        CHECK(rc == 0, "%s %s: %s", cases[i].model, cases[i].params, why);
        CHECK(in.cfg.kind == cases[i].kind, "%s %s: kind %d, want %d", cases[i].model,
              cases[i].params, (int)in.cfg.kind, (int)cases[i].kind);
        if (cases[i].kind == OC_NETCFG_RING) {
            CHECK(in.cfg.ring.wavelengths == cases[i].w && in.cfg.ring.fibres == cases[i].F,
                  "ring %s: w %llu F %llu", cases[i].params,
                  (unsigned long long)in.cfg.ring.wavelengths,
                  (unsigned long long)in.cfg.ring.fibres);
            CHECK(in.wavelengths == cases[i].w && in.channels == cases[i].w * cases[i].F,
                  "ring %s: wavelengths %llu channels %llu", cases[i].params,
                  (unsigned long long)in.wavelengths, (unsigned long long)in.channels);
        } else if (cases[i].kind == OC_NETCFG_FATTREE) {
            const oc__fattree_cfg *f = &in.cfg.fattree;
            const int seed = !cases[i].params[0]; /* the seed's 25 Gb/s and 50 us, else 10, 7 */
            const double packet = (double)cases[i].F * 8 / ((seed ? 25 : 10) * 1e9),
                         router = (seed ? 50 : 7) * 1e-6;
            CHECK(f->leaf_down == cases[i].w && f->packet_bytes == cases[i].F &&
                      fabs(f->packet_s - packet) <= 1e-12 * packet &&
                      fabs(f->router_s - router) <= 1e-12 * router,
                  "fattree %s: leaf_down %llu packet_bytes %llu packet_s %g router_s %g",
                  cases[i].params, (unsigned long long)f->leaf_down,
                  (unsigned long long)f->packet_bytes, f->packet_s, f->router_s);
        } else if (cases[i].kind == OC_NETCFG_SWITCH) {
            CHECK(fabs(in.cfg.sw.alpha_s - 0.7e-6) < 1e-18 && fabs(in.cfg.sw.beta_s - 1 / 300e9) < 1e-24,
                  "switch: alpha %g beta %g", in.cfg.sw.alpha_s, in.cfg.sw.beta_s);
        } else if (cases[i].kind == OC_NETCFG_FABRIC) {
            CHECK(in.cfg.fabric.wavelengths == cases[i].w &&
                      in.cfg.fabric.tiles_per_server == cases[i].F &&
                      in.cfg.fabric.mzi_degree == 3 && fabs(in.cfg.fabric.bytes_per_s - 300e9) < 1,
                  "fabric %s: W %llu tiles %llu", cases[i].params,
                  (unsigned long long)in.cfg.fabric.wavelengths,
                  (unsigned long long)in.cfg.fabric.tiles_per_server);
        } else if (cases[i].kind == OC_NETCFG_STAR) {
            CHECK(in.cfg.star.k == cases[i].w && in.cfg.star.D == 1 && in.cfg.star.tau == 1,
                  "star %s: k %llu", cases[i].params, (unsigned long long)in.cfg.star.k);
        }
        if (cases[i].kind != OC_NETCFG_RING && cases[i].kind != OC_NETCFG_FATTREE) {
            CHECK(in.wavelengths == in.channels, "%s: wavelengths %llu, channels %llu",
                  cases[i].model, (unsigned long long)in.wavelengths,
                  (unsigned long long)in.channels);
        }
        oc__spec_free(&spec);
        oc_kv_free(np);
    }
}

/* ---- unchanged results ---- */

/* nc_result() over nc_cases(), as the library gave it before the change (see the essay). */
static const char *const golden[] = {
    "rc=0 steps=6 time=6.3150000000000005e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=1.5220499999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=4.6499999999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 12): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 192): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=6 time=2.4450000000000003e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=0.00013650000000000004 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=1.5220499999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=4.6499999999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=6 time=6.3150000000000005e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 12): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=6 time=5.1000000000000006e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 192): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=6 time=2.4450000000000003e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=6 time=0.00013650000000000004 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=1.77401e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.1799999999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | z1 != z2: the notes treat T(z,z); "
    "the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | z1 != z2: the notes treat T(z,z); "
    "the z1 x z2 sums are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | 6 rounds needed more than one step (port or link "
    "shared; largest link congestion 12): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | 6 rounds needed more than one step (port or link "
    "shared; largest link congestion 192): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=2.779e-06 | 1 rounds needed more than one step (port or link shared; "
    "largest link congestion 2): split by first fit | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=0.00014875000000000001 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | z1 != z2: the notes "
    "treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=1.77401e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.1799999999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | z1 != z2: the notes treat T(z,z); "
    "the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | z1 != z2: the notes treat T(z,z); "
    "the z1 x z2 sums are ours",
    "rc=0 steps=7 time=7.3429999999999998e-06 | 6 rounds needed more than one step (port or link "
    "shared; largest link congestion 12): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=5.6000000000000006e-05 | 6 rounds needed more than one step (port or link "
    "shared; largest link congestion 192): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=7 time=2.779e-06 | 1 rounds needed more than one step (port or link shared; "
    "largest link congestion 2): split by first fit | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=7 time=0.00014875000000000001 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | z1 != z2: the notes "
    "treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=5 time=5.2099999999999992e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=3.5000000000000004e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=5.2099999999999992e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=5 time=3.5000000000000004e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=5 time=1.2646999999999999e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=3.3500000000000001e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=5.2099999999999992e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=3.5000000000000004e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=5 time=5.2099999999999992e-06 | 4 rounds needed more than one step (port or link "
    "shared; largest link congestion 9): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=5 time=3.5000000000000004e-05 | 4 rounds needed more than one step (port or link "
    "shared; largest link congestion 144): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=5 time=1.88e-06 | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are "
    "ours",
    "rc=0 steps=5 time=9.1250000000000022e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 2 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | cartesian was planned for -p dims=5x3, which differs from "
    "the network's dims=3x5: no closed form applies",
    "rc=0 steps=-1 time=-1 | 2 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | cartesian was planned for -p dims=5x3, which differs from "
    "the network's dims=3x5: no closed form applies",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | cartesian was planned for -p dims=5x3, which differs from "
    "the network's dims=3x5: no closed form applies",
    "rc=0 steps=-1 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | cartesian was planned for -p dims=5x3, which differs from "
    "the network's dims=3x5: no closed form applies",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 1 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | cartesian was planned for -p dims=7x2, which differs from "
    "the network's dims=2x7: no closed form applies",
    "rc=0 steps=-1 time=-1 | 1 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | cartesian was planned for -p dims=7x2, which differs from "
    "the network's dims=2x7: no closed form applies",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | cartesian was planned for -p dims=7x2, which differs from "
    "the network's dims=2x7: no closed form applies",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | cartesian was planned for -p dims=7x2, which differs from "
    "the network's dims=2x7: no closed form applies",
    "rc=0 steps=4 time=4.07e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=1.4000000000000001e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=4 time=4.07e-06 | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are "
    "ours",
    "rc=0 steps=4 time=1.4000000000000001e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=4 time=1.0049e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=1.7e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=4.07e-06 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=1.4000000000000001e-05 | z1 != z2: the notes treat T(z,z); the z1 x z2 sums "
    "are ours",
    "rc=0 steps=4 time=4.07e-06 | 3 rounds needed more than one step (port or link shared; largest "
    "link congestion 4): split by first fit | the notes' formula is for the combining model | z1 "
    "!= z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=1.4000000000000001e-05 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 64): split by first fit | the notes' formula is for the "
    "combining model | z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours",
    "rc=0 steps=4 time=1.2100000000000001e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=4 time=3.1000000000000001e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop) | z1 != z2: the notes treat T(z,z); the z1 x "
    "z2 sums are ours",
    "rc=0 steps=4 time=4.07e-06",
    "rc=0 steps=4 time=1.4000000000000001e-05",
    "rc=0 steps=4 time=4.07e-06 | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop)",
    "rc=0 steps=4 time=1.4000000000000001e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=4 time=1.0049e-05",
    "rc=0 steps=4 time=1.7e-05",
    "rc=0 steps=4 time=4.07e-06",
    "rc=0 steps=4 time=1.4000000000000001e-05",
    "rc=0 steps=4 time=4.07e-06 | 3 rounds needed more than one step (port or link shared; largest "
    "link congestion 4): split by first fit | the notes' formula is for the combining model",
    "rc=0 steps=4 time=1.4000000000000001e-05 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 64): split by first fit | the notes' formula is for the "
    "combining model",
    "rc=0 steps=4 time=1.2100000000000001e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=4 time=3.1000000000000001e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=3 time=3.0420000000000003e-06 notes_simplified_time_s=3.0428750000000001e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 1): split by "
    "first fit | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more "
    "than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=9.0000000000000019e-06 notes_simplified_time_s=9.1250000000000016e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 1): split by "
    "first fit | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more "
    "than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=3.0420000000000003e-06 notes_simplified_time_s=3.0428750000000001e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 1): split by "
    "first fit | the notes' formula is for store-and-forward switching; this network is wormhole "
    "(td per hop) | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more "
    "than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=9.0000000000000019e-06 notes_simplified_time_s=9.1250000000000016e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 1): split by "
    "first fit | the notes' formula is for store-and-forward switching; this network is wormhole "
    "(td per hop) | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more "
    "than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=7.5293999999999994e-06 notes_simplified_time_s=7.5300124999999991e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 1): split by "
    "first fit | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more "
    "than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=1.17e-05 notes_simplified_time_s=1.1787499999999999e-05 | 3 rounds needed "
    "more than one step (port or link shared; largest link congestion 1): split by first fit | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise) | "
    "the notes simplify the sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself "
    "(z^2-1)/8 (reported)",
    "rc=0 steps=3 time=3.0420000000000003e-06 notes_simplified_time_s=3.0428750000000001e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 2): split by "
    "first fit | the notes' formula is for full-duplex links | the notes simplify the sum to ts "
    "(z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=9.0000000000000019e-06 notes_simplified_time_s=9.1250000000000016e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 2): split by "
    "first fit | the notes' formula is for full-duplex links | the notes simplify the sum to ts "
    "(z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=3.0420000000000003e-06 notes_simplified_time_s=3.0428750000000001e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 3): split by "
    "first fit | the notes' formula is for the combining model | the notes' formula is for "
    "all-port nodes; this network is 1-port (a node's messages serialise) | the notes simplify the "
    "sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=9.0000000000000019e-06 notes_simplified_time_s=9.1250000000000016e-06 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 48): split by "
    "first fit | the notes' formula is for the combining model | the notes' formula is for "
    "all-port nodes; this network is 1-port (a node's messages serialise) | the notes simplify the "
    "sum to ts (z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=8.7600000000000006e-07 notes_simplified_time_s=8.7862499999999999e-07 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 2): split by "
    "first fit | the notes' formula is for store-and-forward switching; this network is wormhole "
    "(td per hop) | the notes' formula is for full-duplex links | the notes simplify the sum to ts "
    "(z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=3 time=1.8750000000000005e-05 notes_simplified_time_s=1.9125000000000004e-05 | 3 "
    "rounds needed more than one step (port or link shared; largest link congestion 2): split by "
    "first fit | the notes' formula is for store-and-forward switching; this network is wormhole "
    "(td per hop) | the notes' formula is for full-duplex links | the notes simplify the sum to ts "
    "(z-1)/2 + mu tm z^2/8, mu tm/8 more than the sum itself (z^2-1)/8 (reported)",
    "rc=0 steps=11 time=1.1462e-05",
    "rc=0 steps=11 time=7.7000000000000001e-05",
    "rc=0 steps=11 time=1.1462e-05 | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop)",
    "rc=0 steps=11 time=7.7000000000000001e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=11 time=2.7823399999999999e-05",
    "rc=0 steps=11 time=7.3699999999999989e-05",
    "rc=0 steps=11 time=1.1462e-05",
    "rc=0 steps=11 time=7.7000000000000001e-05",
    "rc=0 steps=11 time=1.1462e-05 | 10 rounds needed more than one step (port or link shared; "
    "largest link congestion 11): split by first fit | the notes' formula is for the combining "
    "model",
    "rc=0 steps=11 time=7.7000000000000001e-05 | 10 rounds needed more than one step (port or link "
    "shared; largest link congestion 176): split by first fit | the notes' formula is for the "
    "combining model",
    "rc=0 steps=11 time=4.1359999999999999e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=11 time=0.00020075000000000003 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=6 time=6.1470000000000006e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for all-port "
    "nodes; this network is 1-port (a node's messages serialise) | z even: the notes give no "
    "formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=2.7000000000000002e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for all-port "
    "nodes; this network is 1-port (a node's messages serialise) | z even: the notes give no "
    "formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=6.1470000000000006e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for all-port nodes; this network is 1-port (a node's messages serialise) | z even: the notes "
    "give no formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=2.7000000000000002e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for all-port nodes; this network is 1-port (a node's messages serialise) | z even: the notes "
    "give no formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=1.5102899999999999e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for all-port "
    "nodes; this network is 1-port (a node's messages serialise) | z even: the notes give no "
    "formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=2.9699999999999997e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 1): split by first fit | the notes' formula is for all-port "
    "nodes; this network is 1-port (a node's messages serialise) | z even: the notes give no "
    "formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 is ours",
    "rc=0 steps=6 time=6.1470000000000006e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 "
    "is ours",
    "rc=0 steps=6 time=2.7000000000000002e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R (R+1)/2 "
    "is ours",
    "rc=0 steps=6 time=6.1470000000000006e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 6): split by first fit | the notes' formula is for the "
    "combining model | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R "
    "(R+1)/2 is ours",
    "rc=0 steps=6 time=2.7000000000000002e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 96): split by first fit | the notes' formula is for the "
    "combining model | the notes' formula is for all-port nodes; this network is 1-port (a node's "
    "messages serialise) | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R "
    "(R+1)/2 is ours",
    "rc=0 steps=6 time=1.9410000000000001e-06 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R "
    "(R+1)/2 is ours",
    "rc=0 steps=6 time=6.4500000000000009e-05 | 5 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links | z even: the notes give no formula; R = z/2 rounds, R ts + mu tm R "
    "(R+1)/2 is ours",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=8 time=-1 | 3 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model",
    "rc=0 steps=8 time=-1 | 3 rounds needed more than one step (port or link shared; largest link "
    "congestion 3): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=8 time=-1 | 3 rounds needed more than one step (port or link shared; largest link "
    "congestion 6): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model | the notes' formula is for 1-port nodes; this network is all-port",
    "rc=0 steps=8 time=-1 | 3 rounds needed more than one step (port or link shared; largest link "
    "congestion 6): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model | the notes' formula is for 1-port nodes; this network is all-port",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=18 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 6): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model",
    "rc=0 steps=18 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 6): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=18 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 10): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model | the notes' formula is for 1-port nodes; this network is all-port",
    "rc=0 steps=18 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 10): split by first fit | Lemma read as (1/2) ceil(z/2)^2 rounds (the printed "
    "'2[z/2]2' is garbled); no time formula in the notes | the notes' formula is for the "
    "non-combining model | the notes' formula is for 1-port nodes; this network is all-port",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=0 steps=-1 time=-1 | 6 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 4 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=0 steps=-1 time=-1 | 4 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=0 steps=-1 time=-1 | 7 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | XY routing of the XOR permutations: the notes expect link "
    "congestion up to max(z1,z2)/2 and give no closed form",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=7 time=1.0199e-05 exact_time_s=1.0649000000000001e-05 | the notes count n/2 hops "
    "in every round; the mates' hops sum to n 2^(n-1), n td/2 more (exact_time_s) | the notes' "
    "formula is for the non-combining model",
    "rc=0 steps=7 time=1.7150000000000004e-05 exact_time_s=1.7600000000000001e-05 | the notes "
    "count n/2 hops in every round; the mates' hops sum to n 2^(n-1), n td/2 more (exact_time_s) | "
    "the notes' formula is for the non-combining model",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=7 time=3.2094999999999999e-06 exact_time_s=3.3969999999999998e-06 | 7 rounds "
    "needed more than one step (port or link shared; largest link congestion 2): split by first "
    "fit | the notes count n/2 hops in every round; the mates' hops sum to n 2^(n-1), n td/2 more "
    "(exact_time_s) | the notes' formula is for the non-combining model | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=7 time=2.4062500000000002e-05 exact_time_s=2.4250000000000003e-05 | 7 rounds "
    "needed more than one step (port or link shared; largest link congestion 2): split by first "
    "fit | the notes count n/2 hops in every round; the mates' hops sum to n 2^(n-1), n td/2 more "
    "(exact_time_s) | the notes' formula is for the non-combining model | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=1 time=1.0070000000000001e-06",
    "rc=0 steps=1 time=2.0000000000000003e-06",
    "rc=0 steps=1 time=1.0070000000000001e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=1 time=2.0000000000000003e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=1 time=2.5048999999999999e-06",
    "rc=0 steps=1 time=3.1999999999999999e-06",
    "rc=0 steps=1 time=1.0070000000000001e-06 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links",
    "rc=0 steps=1 time=2.0000000000000003e-06 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links",
    "rc=0 steps=1 time=1.0070000000000001e-06 | the notes' formula is for the combining model",
    "rc=0 steps=1 time=2.0000000000000003e-06 | the notes' formula is for the combining model",
    "rc=0 steps=1 time=2.7099999999999998e-07 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=1 time=3.2500000000000006e-06 | 1 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=3 time=3.0839999999999996e-06",
    "rc=0 steps=3 time=1.5000000000000002e-05",
    "rc=0 steps=3 time=3.0839999999999996e-06 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=3 time=1.5000000000000002e-05 | the notes' formula is for store-and-forward "
    "switching; this network is wormhole (td per hop)",
    "rc=0 steps=3 time=7.5587999999999995e-06",
    "rc=0 steps=3 time=1.59e-05",
    "rc=0 steps=3 time=3.0839999999999996e-06 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links",
    "rc=0 steps=3 time=1.5000000000000002e-05 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links",
    "rc=0 steps=3 time=3.0839999999999996e-06 | 2 rounds needed more than one step (port or link "
    "shared; largest link congestion 4): split by first fit | the notes' formula is for the "
    "combining model",
    "rc=0 steps=3 time=1.5000000000000002e-05 | 2 rounds needed more than one step (port or link "
    "shared; largest link congestion 64): split by first fit | the notes' formula is for the "
    "combining model",
    "rc=0 steps=3 time=1.0019999999999999e-06 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=3 time=3.6750000000000006e-05 | 3 rounds needed more than one step (port or link "
    "shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "store-and-forward switching; this network is wormhole (td per hop) | the notes' formula is "
    "for full-duplex links",
    "rc=0 steps=4 time=-1 time_closed_form_s=4.0280000000000002e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=8.0000000000000013e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=4.0280000000000002e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=8.0000000000000013e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=1.00196e-05 | 4 rounds needed more than one step "
    "(port or link shared; largest link congestion 1): split by first fit | hypercube-opt: the "
    "notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = 2^(n-1) (ts + mu tm) "
    "is ours | the notes' formula is for the non-combining model | the notes' formula is for "
    "all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=1.2799999999999999e-05 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=4.0280000000000002e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=4 time=-1 time_closed_form_s=8.0000000000000013e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=4 time=-1 time_closed_form_s=4.0280000000000002e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for all-port nodes; this network is "
    "1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=8.0000000000000013e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 16): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for all-port nodes; this network is "
    "1-port (a node's messages serialise)",
    "rc=0 steps=4 time=-1 time_closed_form_s=1.0839999999999999e-06 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=4 time=-1 time_closed_form_s=1.3000000000000003e-05 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 4, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=8 time=-1 time_closed_form_s=8.0560000000000005e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=1.6000000000000003e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=8.0560000000000005e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=1.6000000000000003e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=2.0039199999999999e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=2.5599999999999999e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for all-port nodes; this network is 1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=8.0560000000000005e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=8 time=-1 time_closed_form_s=1.6000000000000003e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=8 time=-1 time_closed_form_s=8.0560000000000005e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 1): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for all-port nodes; this network is "
    "1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=1.6000000000000003e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 16): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for all-port nodes; this network is "
    "1-port (a node's messages serialise)",
    "rc=0 steps=8 time=-1 time_closed_form_s=2.1679999999999998e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=0 steps=8 time=-1 time_closed_form_s=2.6000000000000005e-05 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | "
    "hypercube-opt: the notes give the rounds, 2^(n-1) = 8, and no time; time_closed_form_s = "
    "2^(n-1) (ts + mu tm) is ours | the notes' formula is for store-and-forward switching; this "
    "network is wormhole (td per hop) | the notes' formula is for the non-combining model | the "
    "notes' formula is for full-duplex links",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=5.9119999999999995e-06",
    "rc=0 steps=-1 time=-1 time_closed_form_s=2.1800000000000001e-05",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=2.086e-06 | 4 rounds needed more than one step (port "
    "or link shared; largest link congestion 2): split by first fit | the notes' formula is for "
    "full-duplex links",
    "rc=0 steps=-1 time=-1 time_closed_form_s=4.975000000000001e-05 | 4 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | the notes' "
    "formula is for full-duplex links",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=1.5047999999999999e-05",
    "rc=0 steps=-1 time=-1 time_closed_form_s=7.8600000000000013e-05",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=6.0940000000000004e-06 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | the notes' "
    "formula is for full-duplex links",
    "rc=0 steps=-1 time=-1 time_closed_form_s=0.00019675000000000004 | 8 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | the notes' "
    "formula is for full-duplex links",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 1 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | bex was planned for a 8x2 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=0 steps=-1 time=-1 | 1 rounds needed more than one step (port or link shared; largest link "
    "congestion 2): split by first fit | bex was planned for a 8x2 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 8 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | bex was planned for a 8x2 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=0 steps=-1 time=-1 | 8 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | bex was planned for a 8x2 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=1.5252000000000001e-05 | qex: the notes give no "
    "formula; time_closed_form_s is ours: 3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt N - 1) N mu "
    "tm",
    "rc=0 steps=-1 time=-1 time_closed_form_s=5.1e-05 | qex: the notes give no formula; "
    "time_closed_form_s is ours: 3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt N - 1) N mu tm",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 time_closed_form_s=5.5060000000000003e-06 | 9 rounds needed more than "
    "one step (port or link shared; largest link congestion 2): split by first fit | qex: the "
    "notes give no formula; time_closed_form_s is ours: 3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt "
    "N - 1) N mu tm | the notes' formula is for full-duplex links",
    "rc=0 steps=-1 time=-1 time_closed_form_s=0.00011275 | 9 rounds needed more than one step "
    "(port or link shared; largest link congestion 2): split by first fit | qex: the notes give no "
    "formula; time_closed_form_s is ours: 3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt N - 1) N mu "
    "tm | the notes' formula is for full-duplex links",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 2 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | qex was planned for a 4x4 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=0 steps=-1 time=-1 | 2 rounds needed more than one step (port or link shared; largest link "
    "congestion 4): split by first fit | qex was planned for a 4x4 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=-5",
    "rc=0 steps=-1 time=-1 | 9 rounds needed more than one step (port or link shared; largest link "
    "congestion 8): split by first fit | qex was planned for a 4x4 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=0 steps=-1 time=-1 | 9 rounds needed more than one step (port or link shared; largest link "
    "congestion 8): split by first fit | qex was planned for a 4x4 mesh (-p dims) but ran on a "
    "different one (--net dims): its rounds are not contention-free there and no closed form "
    "applies",
    "rc=0 steps=4 time=2.8133333333333332e-06 | 4 rounds have a node sending or receiving up to 3 "
    "transfers: its port serialises them (one step each) | hypercube-opt: the notes' 2^(n-1) = 4 "
    "rounds are for the all-port hypercube; one port per node serialises the n sends of a round",
    "rc=0 steps=-1 time=-1 | 4 rounds have a node sending or receiving up to 8 transfers: its port "
    "serialises them (one step each)",
};

static void test_unchanged(void) {
    const size_t n = nc_cases(NULL, 0);
    CHECK(n == sizeof golden / sizeof golden[0], "%zu cases, %zu golden lines", n,
          sizeof golden / sizeof golden[0]);
    nc_case *cases = calloc(n, sizeof *cases);
    CHECK(cases != NULL, "out of memory");
    if (!cases) return;
    nc_cases(cases, n);
    size_t differ = 0;
    for (size_t i = 0; i < n && i < sizeof golden / sizeof golden[0]; i++) {
        char line[4096];
        CHECK(nc_result(&cases[i], line, sizeof line) == 0, "case %zu: the test failed", i);
        const nc_case *c = &cases[i];
        CHECK(strcmp(line, golden[i]) == 0,
              "%s on %s, N=%u, %llu bytes, --net %s, -p %s:\n  now    %s\n  before %s", c->algo,
              c->net, c->nodes, (unsigned long long)c->bytes, c->net_params, c->params, line,
              golden[i]);
        differ += strcmp(line, golden[i]) != 0;
    }
    printf("unchanged: %zu of %zu runs as before\n", n - differ, n);
    free(cases);
}

/* ---- 0 bytes ---- */

static void test_zero_bytes(void) {
    static const struct {
        const char *algo, *net;
        uint32_t nodes;
        const char *net_params, *params;
        double steps, time_s;
    } cases[] = {
        /* SEX on Q_3: n rounds of ts + 0 */
        {"sex", "hypercube", 8, "ts_us=2", "", 3, 6e-6},
        /* cartesian on T(3,5): A + B - 2 rounds of ts */
        {"cartesian", "torus", 15, "dims=3x5", "dims=3x5", 6, 6e-6},
        {"cartesian", "torus", 14, "dims=7x2 ts_us=0.5", "dims=7x2", 7, 3.5e-6},
        /* pipeline one way on T(5): z - 1 rounds */
        {"pipeline", "torus", 5, "", "directions=1", 4, 4e-6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nc_case c = {.algo = cases[i].algo, .net = cases[i].net, .nodes = cases[i].nodes};
        snprintf(c.net_params, sizeof c.net_params, "%s", cases[i].net_params);
        snprintf(c.params, sizeof c.params, "%s", cases[i].params);
        char line[4096], want[128];
        CHECK(nc_result(&c, line, sizeof line) == 0, "%s: the test failed", c.algo);
        snprintf(want, sizeof want, "rc=0 steps=%.17g time=%.17g", cases[i].steps, cases[i].time_s);
        CHECK(strncmp(line, want, strlen(want)) == 0, "%s on %s at 0 bytes: %s, want %s", c.algo,
              c.net, line, want);
    }
}

int main(void) {
    test_handoff_direct();
    test_handoff_others();
    test_unchanged();
    test_zero_bytes();
    return CHECK_SUMMARY();
}
