/*
 * reproduce_wrht.c — `opticoll reproduce wrht`: the WRHT seed's tables and figures, shown three
 * ways.
 *
 * The WRHT seed (wrht-allreduce-optical.txt; Dai, Chen, Huang, Zhang and Zhang) proposes an
 * all-reduce for a WDM optical ring: groups of m nodes along the ring collect at their middle node,
 * level after level, the last representatives exchange all-to-all when the wavelengths allow it,
 * and the result is broadcast back down. Like every reproduction ("the papers are not
 * always right") each value is shown as the paper prints it, as the paper's own formula gives it
 * (evaluated here), and as our simulation gives it — a schedule the library generated, checked with
 * its semantic verifier, mapped onto the network model, checked for resource conflicts and costed
 * (oc_run) — with one line of reason for every difference. The numbers the paper prints live only
 * in WRHT_PRINTED below.
 *
 * What is reproduced:
 *  0. Table II (the simulated architectures) against the parameters our ring and fat-tree models
 *     actually use, and the four DNN models of IV.A against data/models.tsv (the models file of
 *     `opticoll train`, read with oc_models_read; the gradient is float32, 4 bytes a parameter).
 *  1. Table I, steps at N = 1000, w = 64: Ring, H-Ring at the printed g = 5 and at our g, BT, and
 *     WRHT at the seed's m = 2w + 1 with the seed's all-to-all rule (III.C-D: the last reduce step
 *     is an all-to-all among m* = ceil(N / m^(ceil(log_m N) - 1)) representatives when
 *     ceil(m*^2 / 8) <= w), at our m, and with our full search (which may stripe the vector over
 *     spare wavelengths: ours, not the seed's); with Lemma 1's 2 ceil(log_(2w+1) N).
 *  2. The motivation example (III.B, Fig. 2): 15 nodes, 2 wavelengths, BT in 8 steps and WRHT in 3.
 *  3. Fig. 4: Ring, H-Ring, BT and WRHT on the ring (w = 64) for N = 1024 .. 4096 and the four
 *     models, normalised as the paper does, by one bar: WRHT's GoogLeNet time at the figure's
 *     first N (each N once had its own normaliser, which pinned that bar at 1 and hid
 *     the growth with N the paper describes). The paper only draws bars, so the printed column
 *     says "bar only"; a table sets the paper's words on each algorithm's trend (IV.B, IV.C)
 *     beside our time at the last N over the first, split into steps and mean step time. WRHT
 *     is the paper's own (m = 2w+1, its all-to-all rule, pieces=1); `wrht` unpinned is our
 *     striped search, shown beside it and named as such wherever the paper's numbers are.
 *     H-Ring is run three ways: our g at the ring's default rule (spread=1: its N/g chunks side
 *     by side on wavelengths), and under the paper's rule (spread=0, net/ring.c: every transfer
 *     on one wavelength, as eq. 1 costs a step) at the divisor of N nearest Table I's g = 5 and
 *     at our g. The WRHT-vs-H-Ring claim sets the paper's setup (the paper's WRHT and H-Ring at
 *     g ~ 5, both at spread=0) against our search's (striped WRHT and H-Ring at our g, both at
 *     spread=1), and names the mixed pair (the paper's WRHT against H-Ring spreading).
 *  4. Fig. 5: O-Ring and WRHT on the ring against E-Ring and E-RD (ring and recursive doubling on
 *     the `fattree` model of Table II's electrical network) for N = 128 .. 1024, normalised alike;
 *     where N < 2w + 1 the seed's WRHT is one group of all N nodes.
 *  5. The headline averages (abstract, IV.B, IV.C, conclusion): WRHT's reduction of the
 *     communication time against Ring, H-Ring and BT over Fig. 4's points and against E-Ring and
 *     E-RD over Fig. 5's, and O-Ring against E-Ring. Ours is the mean of the per-point reductions
 *     1 - T_WRHT / T_other over the 16 points (4 N x 4 models) of a figure; the reduction of the
 *     summed times is given beside it, since the paper does not say how it averages.
 *  6. Per epoch: the paper counts one epoch; an epoch is iterations x one all-reduce, with the
 *     iterations of the models file (ceil(samples / (batch x N))). The count is the same for every
 *     algorithm at one (model, N), so the reductions do not change; which normalised bars would
 *     change is listed.
 *  7. Sensitivity: the five headline reductions at the figures' first N (the mean over the
 *     models) again with one number we chose changed on the ring: the O/E/O clock (0, 0.25, 4
 *     ns a flit against our assumed 1) and two fibres a direction (TeraRack's four rings against
 *     the simulation's double ring); every cell from verified runs (SENS below).
 *
 * The claims table (printed first, reproduce.c): the five reductions of the abstract and the
 * conclusion (the introduction repeats them), ours computed as in 5, each reason built from the
 * numbers that make it: the per-point range, the points where WRHT is slower, the mechanism of
 * our model, the mean wrht's striped default gives, and the mean with O/E/O taken as a latency
 * overlapped with the transmission. Our ring charges O/E/O (one cycle per 32 B flit, at an
 * assumed 1 GHz) as a bandwidth term added to every step; Table II's row says so with its share.
 *
 * Settings (oc_reproduce_settings; `reproduce -w -n --sizes`): -w replaces the 64 wavelengths of
 * Table I and both figures, -n Table I's N and each figure's four node counts by that one N,
 * --sizes the four DNN gradients (up to MAX_MODELS sizes; the smallest normalises, as GoogLeNet,
 * the smallest gradient, does in the paper; no per-epoch section then). Table I's printed column
 * holds only at N = 1000, w = 64; the III.B example keeps its 15 nodes and 2 wavelengths.
 *
 * The paper's formula for a time is its step count times one step's time d/B + a (eq. 1 for
 * WRHT), with d/B + a taken from our model for that run (the report's step_time_s), so that the
 * formula and the simulated columns differ only where the step counts differ (on the ring) or
 * where contention and path lengths differ (on the fat-tree).
 *
 * Runtime. The runs go through oc__sim_batch (two threads). The big sweeps skip the real-data run
 * (data_check = 0; the symbolic verifier and the resource check always run); Table I and the
 * example run with it. Ring and H-Ring cut the vector into N chunks, and the library's reduction
 * verifier holds a 16-byte cell per node and chunk, O(N^2) cells: one ring all-reduce on 4096
 * nodes takes ~2 s and ~330 MB, so every figure point is simulated. Above RECOST_ABOVE nodes (none
 * of the seed's figures) these two would be simulated once per N, at
 * GoogLeNet's gradient (the normaliser), and the other models are re-costed: the same verified
 * schedule's mapped steps (they do not depend on the vector size when the chunk count is fixed)
 * times the ring model's time for one step moving that model's chunk, ceil(bytes / N), read from a
 * one-step probe run (all-gather on 2 nodes with that block). The ring model costs every step
 * alike (time = steps x step time, checked on every run re-costing relies on), the probe's step
 * time must equal the verified GoogLeNet run's at its own chunk (checked), and at N = RECOST_ABOVE
 * every model is both simulated and re-costed and the largest difference is printed.
 *
 * The models file is the one `opticoll train` reads by default (oc__models_default: the source
 * tree's data/models.tsv, or the installed copy).
 */
#include "core/quote.h"
#include "reproduce/reproduce_common.h"
#include "studies/studies.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE SIZE_MAX
#define NO_PRINTED UINT64_MAX /* a Table I row at settings the paper prints nothing for */

enum {
    PAPER_MODELS = 4, /* the DNN models of IV.A */
    PAPER_FIG = 4,    /* node counts per figure in the paper */
    MAX_MODELS = 8,   /* gradients per figure: the paper's 4 models, or up to 8 --sizes */
    MAX_FIG = 4,      /* node counts per figure: the paper's 4, or the one -n */
    RECOST_ABOVE = 4096,
    TABLE1_BYTES = 4 << 20, /* Table I and III.B: steps do not depend on it */
};

/* ---- values printed by the WRHT paper -------------------------------------------------------- */

typedef struct wrht_model_printed {
    const char *name;    /* as IV.A names it (and the models file) */
    const char *as_text; /* as IV.A prints it */
    uint64_t parameters; /* IV.A */
    uint64_t batch;      /* IV.B */
} wrht_model_printed;

/*
 * Everything the WRHT seed prints that this reproduction compares against, and the parameters it
 * states (N, w, the node counts of the figures). Nothing else in this file is a paper number.
 */
typedef struct wrht_printed {
    /* Table I: "Number of steps, N = 1000, w = 64". */
    uint32_t t1_nodes, t1_wavelengths, t1_hring_g;
    uint64_t t1_ring, t1_hring, t1_bt, t1_wrht;
    /* III.B and Fig. 2: 15 nodes, 2 wavelengths; BT 8 steps; WRHT 3 steps in 3 groups. */
    uint32_t ex_nodes, ex_wavelengths, ex_groups;
    uint64_t ex_bt, ex_wrht;
    /* IV.A (parameters) and IV.B (batch sizes), in IV.A's order. */
    wrht_model_printed models[PAPER_MODELS];
    const char *normaliser; /* IV.B/C: "normalized by dividing the result of WRHT in GoogLeNet" */
    /* Table II, and III.A's fibres: "four single-mode fiber rings with two clockwise rings and
     * two counterclockwise". */
    const char *opt_topology, *el_topology, *el_routing;
    uint32_t opt_fibre_rings;
    uint32_t opt_wavelengths;
    double opt_gbps, opt_reconfig_us, opt_oeo_cycles_per_flit;
    uint64_t opt_packet_bytes, opt_flit_bytes;
    uint32_t el_ports;
    double el_gbps, el_router_delay_us;
    uint64_t el_packet_bytes;
    /* Fig. 4 (IV.B) and Fig. 5 (IV.C) node counts. */
    uint32_t fig4_nodes[PAPER_FIG], fig5_nodes[PAPER_FIG];
    /* Headline averages, in percent (abstract, IV.B, IV.C, conclusion). */
    double vs_ring, vs_hring, vs_bt, vs_ering, vs_erd, oring_vs_ering;
} wrht_printed;

static const wrht_printed WRHT_PRINTED = {
    .t1_nodes = 1000,
    .t1_wavelengths = 64,
    .t1_hring_g = 5,
    .t1_ring = 1998,
    .t1_hring = 411,
    .t1_bt = 20,
    .t1_wrht = 4,
    .ex_nodes = 15,
    .ex_wavelengths = 2,
    .ex_groups = 3,
    .ex_bt = 8,
    .ex_wrht = 3,
    .models = {{"AlexNet", "62.3M", UINT64_C(62300000), 512},
               {"VGG16", "138M", UINT64_C(138000000), 48},
               {"ResNet50", "25M", UINT64_C(25000000), 1024},
               {"GoogLeNet", "6.7977M", UINT64_C(6797700), 64}},
    .normaliser = "GoogLeNet",
    .opt_topology = "double ring",
    .el_topology = "two-level",
    .el_routing = "shortest-path routing",
    .opt_fibre_rings = 4,
    .opt_wavelengths = 64,
    .opt_gbps = 40,
    .opt_reconfig_us = 25,
    .opt_oeo_cycles_per_flit = 1,
    .opt_packet_bytes = 128,
    .opt_flit_bytes = 32,
    .el_ports = 32,
    .el_gbps = 25,
    .el_router_delay_us = 50,
    .el_packet_bytes = 64,
    .fig4_nodes = {1024, 2048, 3072, 4096},
    .fig5_nodes = {128, 256, 512, 1024},
    .vs_ring = 75.59,
    .vs_hring = 49.25,
    .vs_bt = 70.1,
    .vs_ering = 86.69,
    .vs_erd = 84.71,
    .oring_vs_ering = 74.74,
};

/* ---- the paper's formulas, evaluated --------------------------------------------------------- */

/* ceil(log_b n) in whole numbers: the least L with b^L >= n (0 for n <= 1). */
static uint32_t ceil_log(uint64_t n, uint64_t b) {
    uint32_t L = 0;
    for (uint64_t x = 1; x < n; x *= b)
        L++;
    return L;
}

/* Ring: 2(N - 1) (III.D). */
static double f_ring(uint32_t N) {
    return 2.0 * (N - 1.0);
}

/* H-Ring: 2(g^2 + N)/g + ceil(g/w) - 4 (III.D, Table I). */
static double f_hring(uint32_t N, uint32_t g, uint32_t w) {
    return 2.0 * ((double)g * g + N) / g + ceil((double)g / w) - 4;
}

/* Our count for H-Ring on the ring model, where a step moves one chunk (1/N of the vector) per
 * wavelength: 2(g-1) intra-group rounds whose transfers carry N/g chunks over one link, and
 * 2(N/g - 1) inter-group rounds in which the g rings share every link once. */
static double our_hring(uint32_t N, uint32_t g, uint32_t w) {
    return 2.0 * (g - 1) * ceil((double)N / g / w) + 2.0 * (N / g - 1.0) * ceil((double)g / w);
}

/* BT: 2 ceil(log2 N) (III.D; Table I adds "or 2(ceil(log2 N) + 1)"). */
static double f_bt(uint32_t N) {
    return 2.0 * ceil_log(N, 2);
}

/* The seed's WRHT rule at group size m (III.C-D): L = ceil(log_m N) levels; m* = ceil(N /
 * m^(L-1)) representatives in the last reduce step, which is an all-to-all when its ceil(m*^2/8)
 * wavelengths fit in w; then 2L - 1 steps, else 2L. Each group needs ceil(m/2) wavelengths. */
typedef struct wrht_rule {
    uint32_t m, L;
    uint64_t mstar, a2a_wl, group_wl;
    int a2a;
    double steps;
} wrht_rule;

static wrht_rule f_wrht(uint32_t N, uint32_t m, uint32_t w) {
    wrht_rule r = {.m = m, .L = ceil_log(N, m)};
    uint64_t below = 1;
    for (uint32_t i = 1; i < r.L; i++)
        below *= m;
    r.mstar = r.L ? oc__ceil_div(N, below) : 1;
    r.a2a_wl = oc__ceil_div(r.mstar * r.mstar, 8);
    r.group_wl = oc__ceil_div(m, 2);
    r.a2a = r.mstar > 1 && r.a2a_wl <= w;
    r.steps = 2.0 * r.L - (r.a2a ? 1 : 0);
    return r;
}

/* Lemma 1: 2 ceil(log_(2w+1) N). */
static double f_lemma1(uint32_t N, uint32_t w) {
    return 2.0 * ceil_log(N, 2 * (uint64_t)w + 1);
}

/* The seed's group size: 2w + 1 (Lemma 1), or the whole ring when it has fewer nodes. */
static uint32_t seed_m(uint32_t N, uint32_t w) {
    return 2 * w + 1 < N ? 2 * w + 1 : (N > 1 ? N : 2);
}

/* The parameters that run the seed's WRHT: m, the all-to-all rule, one piece (no striping). */
static void seed_wrht_params(char *buf, size_t len, uint32_t N, uint32_t m, uint32_t w) {
    wrht_rule r = f_wrht(N, m, w);
    oc__cellf(buf, len, "m=%" PRIu32 " alltoall=%" PRIu64 " pieces=1", m, r.a2a ? r.mstar : 1);
}

/* ---- the runs -------------------------------------------------------------------------------- */

typedef struct jobs {
    oc__sim_job *v;
    size_t n, cap;
} jobs;

/* Adds a run (or finds the identical one already listed) and gives its index. */
static int job_add(jobs *J, oc_collective coll, const char *algo, const char *network, uint32_t N,
                   uint64_t bytes, const char *params, const char *net, int data_check,
                   size_t *at) {
    oc__sim_req q = {.coll = coll,
                     .algo = algo,
                     .network = network,
                     .nodes = N,
                     .bytes = bytes,
                     .data_check = data_check};
    oc__cellf(q.params, sizeof q.params, "%s", params ? params : "");
    oc__cellf(q.net, sizeof q.net, "%s", net ? net : "");
    for (size_t i = 0; i < J->n; i++) {
        const oc__sim_req *o = &J->v[i].req;
        if (o->coll == q.coll && !strcmp(o->algo, q.algo) && !strcmp(o->network, q.network) &&
            o->nodes == q.nodes && o->bytes == q.bytes && !strcmp(o->params, q.params) &&
            !strcmp(o->net, q.net) && o->data_check == q.data_check) {
            *at = i;
            return 0;
        }
    }
    if (oc__grow((void **)&J->v, &J->cap, J->n + 1, sizeof *J->v)) return OC_ENOMEM;
    memset(&J->v[J->n], 0, sizeof J->v[J->n]);
    J->v[J->n].req = q;
    J->v[J->n].keep = 1;
    *at = J->n++;
    return 0;
}

static void jobs_free(jobs *J) {
    for (size_t i = 0; i < J->n; i++)
        oc_report_free(J->v[i].report);
    free(J->v);
    J->v = NULL;
    J->n = J->cap = 0;
}

static const oc__sim *sim_of(const jobs *J, size_t i) {
    return i == NONE ? NULL : &J->v[i].sim;
}

static const oc_report *rep_of(const jobs *J, size_t i) {
    return i == NONE ? NULL : J->v[i].report;
}

/* The parameters a run used, as "g=32" or "m=129 alltoall=8 pieces=1". */
static void used_text(char *buf, size_t len, const jobs *J, size_t i) {
    const oc_report *r = rep_of(J, i);
    buf[0] = 0;
    if (r) oc__kv_text(buf, len, oc_report_params(r));
}

static uint32_t used_u32(const jobs *J, size_t i, const char *key) {
    const oc_report *r = rep_of(J, i);
    const char *v = r ? oc_report_param(r, key) : NULL;
    return v ? (uint32_t)strtoul(v, NULL, 10) : 0;
}

/* ---- the models ------------------------------------------------------------------------------ */

typedef struct wmodel {
    const wrht_model_printed *printed; /* NULL: a --sizes size in place of the models */
    char name[48];                     /* the model's name, or "4194304 B" */
    oc_model file;                     /* the models file's line (a model only) */
    uint64_t bytes;                    /* the float32 gradient every iteration all-reduces */
} wmodel;

/* The four DNN models of IV.A from the models file; the normaliser is GoogLeNet (IV.B). */
static int read_models(wmodel *out, size_t *nm, size_t *norm, char *why, size_t whylen) {
    oc_model *all = NULL;
    size_t count = 0;
    int rc = oc_models_read(oc__models_default(), &all, &count, why, whylen);
    if (rc) return rc;
    *nm = PAPER_MODELS;
    *norm = PAPER_MODELS;
    for (size_t i = 0; i < PAPER_MODELS && !rc; i++) {
        const wrht_model_printed *p = &WRHT_PRINTED.models[i];
        const oc_model *m = oc_model_find(all, count, p->name);
        if (!m) {
            rc = oc__fail(why, whylen, OC_ENOENT,
                          "reproduce wrht: %s has no model '%s' (the seed's IV.A)",
                          oc__models_default(), OC_Q(p->name));
            break;
        }
        out[i].printed = p;
        oc__cellf(out[i].name, sizeof out[i].name, "%s", p->name);
        out[i].file = *m;
        out[i].bytes = m->parameters * OC_GRADIENT_BYTES_PER_PARAMETER;
        if (!strcmp(p->name, WRHT_PRINTED.normaliser)) *norm = i;
    }
    oc_models_free(all);
    if (!rc && *norm == PAPER_MODELS)
        rc = oc__fail(why, whylen, OC_EINVAL, "reproduce wrht: the normaliser is not a model");
    return rc;
}

/* --sizes: each size in place of a model's gradient, in increasing order. The paper normalises
 * by GoogLeNet, the smallest of its four gradients, so the smallest size is the normaliser. */
static int read_sizes(wmodel *out, size_t *nm, size_t *norm, const char *text, char *why,
                      size_t whylen) {
    uint64_t v[MAX_MODELS];
    int rc = oc__repro_sizes("wrht", text, v, MAX_MODELS, nm, why, whylen);
    if (rc) return rc;
    for (size_t i = 0; i < *nm; i++) {
        memset(&out[i], 0, sizeof out[i]);
        oc__cellf(out[i].name, sizeof out[i].name, "%" PRIu64 " B", v[i]);
        out[i].bytes = v[i];
    }
    *norm = 0;
    return 0;
}

/* ---- Table I and the III.B example: plans -------------------------------------------------- */

typedef struct steps_plan {
    size_t ring, hring_printed, hring_printed0, hring_ours, bt, wrht_seed, wrht_unstriped,
        wrht_ours;
} steps_plan;

/* ---- Fig. 4 and Fig. 5: points --------------------------------------------------------------- */

enum { FIG_ALGOS = 7 }; /* at most: Fig. 4 has 7, Fig. 5 has 5 */

/* An algorithm of a figure: its label, registry name, network, and the paper's step count. */
typedef enum { F_RING, F_HRING, F_BT, F_WRHT, F_WRHT_OURS, F_ERD } formula_kind;

/* How the paper says a bar grows with N, as a test on one model's times T(N) (print_trends
 * states the tests): TR_NONE (no claim), increasing at every N, a linear rise (increasing, and
 * T(last)/T(first) at least half of N(last)/N(first)), an increasing trend that is relatively
 * slow (increasing, and less than half of N's growth), a slight increase (never decreasing, at
 * most x1.5 over the range), almost constant (every T within 20% of T(first)). */
typedef enum { TR_NONE, TR_INCREASING, TR_LINEAR, TR_SLOW, TR_SLIGHT, TR_CONSTANT } trend_kind;

/* Orderings a Fig. 5 bar is claimed to keep against the others at every point. */
typedef enum { ORD_NONE, ORD_HIGHEST, ORD_LOWEST, ORD_BELOW_E_RING } order_kind;

typedef struct fig_algo {
    const char *label, *algo, *network;
    formula_kind kind;
    int paper;         /* 1: compared in the paper; 0: ours only */
    const char *trend; /* how the paper says its bars grow with N (IV.B, IV.C), or NULL */
    trend_kind tk;
    order_kind ok;
    const char *order_model; /* the ordering is claimed for this gradient only (NULL: every one) */
    const char *order_text;  /* the paper's words for the ordering */
    int spread0;             /* run on the ring at spread=0 (net/ring.c: nothing spreads) */
    uint32_t near_g;         /* H-Ring at the divisor of N nearest this g (0: g searched) */
} fig_algo;

static const fig_algo FIG4_ALGOS[FIG_ALGOS] = {
    {"Ring", "ring", "ring", F_RING, 1, "IV.B: \"a linear rise with the cluster scales\"",
     TR_LINEAR, ORD_NONE, NULL, NULL, 0, 0},
    {"H-Ring", "hring", "ring", F_HRING, 1, "IV.B: an increasing trend, \"relatively slow\"",
     TR_SLOW, ORD_NONE, NULL, NULL, 0, 0},
    {"BT", "bt", "ring", F_BT, 1, "IV.B: \"a slight increase\"", TR_SLIGHT, ORD_HIGHEST, "VGG16",
     "in VGG16 \"the worst among all-reduce algorithms regardless of the number of nodes\"", 0, 0},
    {"WRHT", "wrht", "ring", F_WRHT, 1, "IV.B: \"keeps almost constant\"", TR_CONSTANT,
     ORD_LOWEST, NULL, "\"the lowest regardless of DNN models\"", 0, 0},
    {"WRHT, our search", "wrht", "ring", F_WRHT_OURS, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL, 0, 0},
    /* The paper's H-Ring setup (g = 5, Table I) under the paper's rule (eq. 1: a step moves a
     * transfer's data on one wavelength): the ring at spread=0. 5 divides none of Fig. 4's N,
     * so g is the divisor of N nearest it. */
    {"H-Ring (g ~ 5, spread=0)", "hring", "ring", F_HRING, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL,
     1, 5},
    {"H-Ring (our g, spread=0)", "hring", "ring", F_HRING, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL,
     1, 0},
};
enum { FIG4_ALGOS_N = 7, I_OURS = 4, I_HRING_G5 = 5, I_HRING_SPREAD0 = 6 };

static const fig_algo FIG5_ALGOS[FIG_ALGOS] = {
    {"O-Ring", "ring", "ring", F_RING, 1, "IV.C: \"an increasing trend when the cluster scales\"",
     TR_INCREASING, ORD_NONE, NULL, NULL, 0, 0},
    {"WRHT", "wrht", "ring", F_WRHT, 1, "IV.C: \"keeps almost constant\"", TR_CONSTANT, ORD_LOWEST,
     NULL, "\"the lowest\"", 0, 0},
    {"E-Ring", "ring", "fattree", F_RING, 1, "IV.C: an increasing trend, the highest",
     TR_INCREASING, ORD_HIGHEST, NULL, "\"the highest\"", 0, 0},
    {"E-RD", "rd", "fattree", F_ERD, 1,
     "IV.C: an increasing trend, \"a little lower\" than E-Ring", TR_INCREASING,
     ORD_BELOW_E_RING, NULL, "\"a little lower than\" E-Ring", 0, 0},
    {"WRHT, our search", "wrht", "ring", F_WRHT_OURS, 0, NULL, TR_NONE, ORD_NONE, NULL, NULL, 0, 0},
};
enum { FIG5_ALGOS_N = 5, I_ERING5 = 2 }; /* E-Ring in Fig. 5's list */

enum { I_WRHT4 = 3, I_WRHT5 = 1 }; /* where the seed's WRHT is in each list */

/* One bar: the run (or, re-costed, the GoogLeNet run and the probe), and what came of it. */
typedef struct point {
    size_t job, base, probe; /* job: a full run; else base (same N, normaliser) + probe */
    int ok, recosted;
    uint64_t steps;
    double time_s, step_s, reconfig_s; /* reconfig_s: per step, ring only (else NAN) */
    double oeo_s; /* per step: the ring's O/E/O, charged as a bandwidth term (else 0) */
    double overhead; /* share of time_s that moves no data: reconfiguration or router delay */
    double f_steps, f_time; /* the paper's count (NAN: none) x step_s */
    double norm, f_norm;    /* divided by WRHT's normaliser time at this N */
    uint32_t g;             /* H-Ring's group size as run */
    char used[96];
} point;

typedef struct figure {
    const fig_algo *algos;
    size_t na; /* algorithms in algos[] */
    uint32_t nodes[MAX_FIG];
    size_t nn, nm; /* node counts and gradients used */
    point p[MAX_FIG][MAX_MODELS][FIG_ALGOS];
    size_t probe_check[MAX_FIG]; /* the probe at the normaliser's chunk, for re-costed N */
    double recost_dev;        /* largest |re-costed / simulated - 1| where both exist */
    size_t recost_compared;
} figure;

/* Section 7, sensitivity: the five headline reductions at the figures' first N again, with one
 * number we had to choose changed on the ring (the O/E/O clock, the fibres per direction). */
enum { SENS_ROWS = 5, SENS_ALGOS = 5 }; /* row 0: ours, the figures' own runs */
static const struct {
    const char *label, *net;
} SENS[SENS_ROWS] = {
    {"ours: O/E/O 1 ns per 32 B flit (1 GHz, assumed), F = 1", ""},
    {"O/E/O free (0 ns per flit)", "oeo_ns_per_flit=0"},
    {"O/E/O at 4 GHz (0.25 ns per flit)", "oeo_ns_per_flit=0.25"},
    {"O/E/O at 250 MHz (4 ns per flit)", "oeo_ns_per_flit=4"},
    {"F = 2 fibres per direction (TeraRack's four rings)", "fibres=2"},
};
/* The ring algorithms re-run per row: Fig. 4's Ring, H-Ring (g ~ 5, spread=0), BT and the seed's
 * WRHT at its first N, and Fig. 5's seed WRHT at its first N (the fat-tree's are the figure's). */
static const size_t SENS_FIG4[4] = {0, 5, 2, 3};

typedef struct sens {
    size_t job[SENS_ROWS][MAX_MODELS][SENS_ALGOS]; /* 0..3: SENS_FIG4's, 4: Fig. 5's WRHT */
} sens;

typedef struct wrht_data {
    sens sens;
    wmodel models[MAX_MODELS];
    size_t nm, norm; /* gradients in the figures; the normaliser's index */
    uint32_t w;      /* wavelengths of Table I, Fig. 4 and Fig. 5 (the paper's 64, or -w) */
    uint32_t t1_nodes;        /* Table I's N (the paper's 1000, or -n) */
    int paper_t1, paper_figs; /* 1: Table I / the figures at the paper's own settings */
    int sized;                /* 1: --sizes replaced the DNN models */
    jobs J;
    steps_plan t1, ex;
    size_t fattree_ref; /* a fat-tree run at the largest Fig. 5 N, for Table II */
    figure fig4, fig5;
} wrht_data;

static const char *ring_net(char *buf, size_t len, uint32_t w) {
    oc__cellf(buf, len, "wavelengths=%" PRIu32, w);
    return buf;
}

static int plan_steps(wrht_data *d, steps_plan *s, uint32_t N, uint32_t w, uint32_t g_printed) {
    char net[32], p[96];
    ring_net(net, sizeof net, w);
    jobs *J = &d->J;
    const uint64_t B = TABLE1_BYTES;
    int rc = job_add(J, OC_ALLREDUCE, "ring", "ring", N, B, "", net, 1, &s->ring);
    s->hring_printed = s->hring_printed0 = NONE;
    if (!rc && g_printed && N % g_printed == 0) { /* -n: the printed g may not divide N */
        char net0[48];
        oc__cellf(net0, sizeof net0, "%s spread=0", net);
        oc__cellf(p, sizeof p, "g=%" PRIu32, g_printed);
        rc = job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, p, net, 1, &s->hring_printed);
        if (!rc) rc = job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, p, net0, 1, &s->hring_printed0);
    }
    if (!rc) rc = job_add(J, OC_ALLREDUCE, "hring", "ring", N, B, "", net, 1, &s->hring_ours);
    if (!rc) rc = job_add(J, OC_ALLREDUCE, "bt", "ring", N, B, "", net, 1, &s->bt);
    if (!rc) {
        seed_wrht_params(p, sizeof p, N, seed_m(N, w), w);
        rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, p, net, 1, &s->wrht_seed);
    }
    if (!rc)
        rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "pieces=1", net, 1, &s->wrht_unstriped);
    if (!rc) rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "", net, 1, &s->wrht_ours);
    return rc;
}

/* The example: BT, WRHT at the printed group size (N / groups) with an all-to-all among the
 * groups' representatives, our unstriped search and our full search. */
static int plan_example(wrht_data *d, steps_plan *s) {
    const wrht_printed *P = &WRHT_PRINTED;
    const uint32_t N = P->ex_nodes, w = P->ex_wavelengths, m = N / P->ex_groups;
    char net[32], p[96];
    ring_net(net, sizeof net, w);
    jobs *J = &d->J;
    const uint64_t B = TABLE1_BYTES;
    s->ring = s->hring_printed = s->hring_printed0 = s->hring_ours = NONE;
    int rc = job_add(J, OC_ALLREDUCE, "bt", "ring", N, B, "", net, 1, &s->bt);
    if (!rc) {
        oc__cellf(p, sizeof p, "m=%" PRIu32 " alltoall=%" PRIu32 " pieces=1", m, P->ex_groups);
        rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, p, net, 1, &s->wrht_seed);
    }
    if (!rc)
        rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "pieces=1", net, 1, &s->wrht_unstriped);
    if (!rc) rc = job_add(J, OC_ALLREDUCE, "wrht", "ring", N, B, "", net, 1, &s->wrht_ours);
    return rc;
}

/* Ring and H-Ring on the ring: N chunks, so the reduction verifier is quadratic in N. Re-costing
 * (steps x one step) needs every step to cost the same, which spread=0 does not give: those runs
 * are always simulated. */
static int chunked(const fig_algo *a) {
    return !strcmp(a->network, "ring") && (a->kind == F_RING || a->kind == F_HRING) && !a->spread0;
}

/* The divisor of N nearest g (the smaller of two as near): H-Ring's groups must divide N. */
static uint32_t near_divisor(uint32_t N, uint32_t g) {
    for (uint32_t k = 0; k <= N; k++) {
        if (g > k && N % (g - k) == 0) return g - k;
        if (g + k <= N && N % (g + k) == 0) return g + k;
    }
    return 1;
}

/* Whether (algorithm, N) is re-costed rather than simulated for every model. */
static int recost(const fig_algo *a, uint32_t N) {
    return N > RECOST_ABOVE && chunked(a);
}

static int plan_probe(wrht_data *d, uint32_t N, uint64_t bytes, size_t *at) {
    char net[32];
    ring_net(net, sizeof net, d->w);
    return job_add(&d->J, OC_ALLGATHER, "ring", "ring", 2, oc__ceil_div(bytes, N), "", net, 0, at);
}

static int plan_figure(wrht_data *d, figure *F, const fig_algo *algos, size_t na,
                       const uint32_t *nodes, size_t nn) {
    const uint32_t w = d->w;
    char net[32], p[96];
    int rc = 0;
    F->algos = algos;
    F->na = na;
    memcpy(F->nodes, nodes, nn * sizeof *nodes);
    F->nn = nn;
    F->nm = d->nm;
    for (size_t n = nn; n-- > 0 && !rc;) { /* largest N first: the batch runs in list order */
        const uint32_t N = nodes[n];
        F->probe_check[n] = NONE;
        for (size_t a = 0; a < F->na && !rc; a++) {
            const fig_algo *A = &algos[a];
            const char *netp = !strcmp(A->network, "ring") ? ring_net(net, sizeof net, w) : "";
            if (A->spread0) oc__cellf(net + strlen(net), sizeof net - strlen(net), " spread=0");
            p[0] = 0;
            if (A->kind == F_WRHT) seed_wrht_params(p, sizeof p, N, seed_m(N, w), w);
            if (A->near_g) oc__cellf(p, sizeof p, "g=%" PRIu32, near_divisor(N, A->near_g));
            size_t base = NONE;
            if (recost(A, N))
                rc = job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N, d->models[d->norm].bytes,
                             p, netp, 0, &base);
            for (size_t m = 0; m < d->nm && !rc; m++) {
                point *pt = &F->p[n][m][a];
                pt->job = pt->base = pt->probe = NONE;
                if (base != NONE && m != d->norm) {
                    pt->base = base;
                    rc = plan_probe(d, N, d->models[m].bytes, &pt->probe);
                } else {
                    rc = job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N, d->models[m].bytes, p,
                                 netp, 0, &pt->job);
                    /* At the last simulated N, probe too: re-costing is checked against it. */
                    if (!rc && chunked(A) && N == RECOST_ABOVE)
                        rc = plan_probe(d, N, d->models[m].bytes, &pt->probe);
                }
            }
            if (!rc && base != NONE)
                rc = plan_probe(d, N, d->models[d->norm].bytes, &F->probe_check[n]);
        }
    }
    return rc;
}

/* ---- Fig. 4 and Fig. 5: results ---------------------------------------------------------------
 */

static double paper_steps(const fig_algo *A, uint32_t N, uint32_t w, uint32_t g) {
    switch (A->kind) {
    case F_RING:
        return f_ring(N);
    case F_HRING:
        return g ? f_hring(N, g, w) : NAN;
    case F_BT:
        return f_bt(N);
    case F_WRHT:
        return f_wrht(N, seed_m(N, w), w).steps;
    case F_WRHT_OURS:
    case F_ERD:
        return NAN;
    }
    return NAN;
}

/* Checks the ring model's "every step costs the same" on a run that re-costing relies on. */
static int check_uniform(const jobs *J, size_t i, char *why, size_t whylen) {
    const oc__sim *s = sim_of(J, i);
    double step = oc__report_figure(rep_of(J, i), "step_time_s");
    if (!s->ok || isnan(step) || fabs(s->time_s - (double)s->steps * step) > 1e-9 * s->time_s)
        return oc__fail(why, whylen, OC_EINVAL,
                        "reproduce wrht: re-costing needs time = steps x step time, and %s on "
                        "%" PRIu32 " nodes does not give it",
                        J->v[i].req.algo, J->v[i].req.nodes);
    return 0;
}

static int resolve_figure(wrht_data *d, figure *F, char *why, size_t whylen) {
    const uint32_t w = d->w;
    const jobs *J = &d->J;
    int rc = 0;
    for (size_t n = 0; n < F->nn && !rc; n++) {
        const uint32_t N = F->nodes[n];
        for (size_t a = 0; a < F->na && !rc; a++) {
            const fig_algo *A = &F->algos[a];
            for (size_t m = 0; m < d->nm && !rc; m++) {
                point *pt = &F->p[n][m][a];
                size_t src = pt->job != NONE ? pt->job : pt->base;
                const oc__sim *s = sim_of(J, src);
                pt->ok = s->ok;
                pt->reconfig_s = NAN;
                if (!s->ok) continue;
                used_text(pt->used, sizeof pt->used, J, src);
                pt->steps = s->steps;
                const oc_report *r = rep_of(J, src);
                if (pt->job != NONE) {
                    pt->time_s = s->time_s;
                    pt->step_s = oc__report_figure(r, "step_time_s");
                    pt->reconfig_s = oc__report_figure(r, "step_reconfig_s");
                    pt->oeo_s = oc__report_figure(r, "step_oeo_s");
                    if (pt->probe != NONE) { /* both: compare */
                        if ((rc = check_uniform(J, pt->job, why, whylen))) break;
                        double rec = (double)s->steps *
                                     oc__report_figure(rep_of(J, pt->probe), "step_time_s");
                        double dev = fabs(rec / s->time_s - 1);
                        if (dev > F->recost_dev) F->recost_dev = dev;
                        F->recost_compared++;
                    }
                } else {
                    if ((rc = check_uniform(J, pt->base, why, whylen))) break;
                    const oc_report *pr = rep_of(J, pt->probe);
                    if (!pr) {
                        pt->ok = 0;
                        continue;
                    }
                    pt->recosted = 1;
                    pt->step_s = oc__report_figure(pr, "step_time_s");
                    pt->reconfig_s = oc__report_figure(pr, "step_reconfig_s");
                    pt->oeo_s = oc__report_figure(pr, "step_oeo_s");
                    pt->time_s = (double)s->steps * pt->step_s;
                }
                if (strcmp(A->network, "ring") || isnan(pt->oeo_s)) pt->oeo_s = 0;
                if (strcmp(A->network, "ring")) {
                    pt->reconfig_s = NAN;
                    pt->overhead = oc__report_figure(r, "time_router_delay_s") / pt->time_s;
                } else {
                    pt->overhead = (double)pt->steps * pt->reconfig_s / pt->time_s;
                }
                pt->g = A->kind == F_HRING ? used_u32(J, src, "g") : 0;
                pt->f_steps = paper_steps(A, N, w, pt->g);
                pt->f_time = pt->f_steps * pt->step_s;
                /* spread=0: the formula's steps with its group rounds' bundles as mapped (what
                 * they add over one chunk a step, the model's time_bundles_s) */
                const double bundles = oc__report_figure(r, "time_bundles_s");
                if (A->spread0 && !isnan(bundles)) pt->f_time += bundles;
            }
        }
        /* The probe at the normaliser's own chunk must cost what its verified run costs. */
        if (!rc && F->probe_check[n] != NONE) {
            for (size_t a = 0; a < F->na; a++) {
                const point *pt = &F->p[n][d->norm][a];
                if (pt->job == NONE || !recost(&F->algos[a], N) || !sim_of(J, pt->job)->ok)
                    continue;
                double p = oc__report_figure(rep_of(J, F->probe_check[n]), "step_time_s");
                if (fabs(p - pt->step_s) > 1e-12 * pt->step_s)
                    rc = oc__fail(why, whylen, OC_EINVAL,
                                  "reproduce wrht: the probe's step (%.9g s) is not the verified "
                                  "run's (%.9g s) at %" PRIu32 " nodes: re-costing would be wrong",
                                  p, pt->step_s, N);
            }
        }
        /* Normalise as the paper does (IV.B, IV.C: "normalized by dividing the result of WRHT
         * in GoogLeNet"): by one bar for the whole figure, the seed's WRHT at the normaliser
         * model and the figure's first N, so that every bar's growth with N stays visible. */
        size_t iw = F->algos == FIG4_ALGOS ? I_WRHT4 : I_WRHT5;
        const point *ref = &F->p[0][d->norm][iw];
        for (size_t a = 0; a < F->na; a++)
            for (size_t m = 0; m < d->nm; m++) {
                point *pt = &F->p[n][m][a];
                pt->norm = pt->ok && ref->ok ? pt->time_s / ref->time_s : NAN;
                pt->f_norm = pt->ok && ref->ok ? pt->f_time / ref->f_time : NAN;
            }
    }
    return rc;
}

/* ---- printing: header, models, Table II -------------------------------------------------------
 */

static void print_header(FILE *f) {
    fputs(
        "opticoll reproduce wrht — WRHT all-reduce on an optical ring (Dai, Chen, Huang, Zhang, "
        "Zhang;\n"
        "seed: wrht-allreduce-optical.txt): Table II, Table I, the III.B example, Fig. 4, Fig. 5 "
        "and the\n"
        "headline averages.\n\n"
        "Columns:\n"
        "  paper (printed)  the value as the paper prints it (never computed here); \"bar only\" "
        "where the\n"
        "                   paper draws a bar and prints no number\n"
        "  formula          the paper's own formula, evaluated by this code at the same "
        "parameters (a time:\n"
        "                   the paper's step count x one step's time d/B + a of our model, eq. 1)\n"
        "  simulated        our schedule: generated, checked by the semantic verifier, mapped "
        "onto the\n"
        "                   network model and checked for resource conflicts, then costed\n"
        "  reason           one line for every difference (\"agrees\" when all agree)\n",
        f);
}

static void print_networks(FILE *f, const wrht_data *d) {
    const jobs *J = &d->J;
    const oc_report *ring = rep_of(J, d->t1.wrht_seed), *ft = rep_of(J, d->fattree_ref);
    if (ring) oc__print_ring_network(f, ring, TABLE1_BYTES, "the III.B example");
    if (ft) {
        fprintf(f,
                "Network: the fattree model (E-Ring, E-RD): %s-port routers, %s node ports per "
                "leaf, spines of\n"
                "  %s ports at N = %" PRIu32 " (%.0f leaves x %.0f spines); %s Gb/s per link and "
                "direction; %s us per\n"
                "  router on a path (1 inside a leaf, 3 across); %s B packets; shortest paths, "
                "spine by destination.\n",
                oc__net_param(ft, "ports"), oc__net_param(ft, "leaf_down"),
                oc__net_param(ft, "spine_ports"), J->v[d->fattree_ref].req.nodes,
                oc__report_figure(ft, "leaves"), oc__report_figure(ft, "spines"),
                oc__net_param(ft, "bandwidth_gbps"), oc__net_param(ft, "router_delay_us"),
                oc__net_param(ft, "packet_bytes"));
    }
}

static int print_models(FILE *f, const wrht_data *d) {
    if (d->sized) {
        fprintf(f, "\nSizes (--sizes) in place of the four DNN gradients of IV.A:");
        for (size_t i = 0; i < d->nm; i++)
            fprintf(f, "%s %s", i ? "," : "", d->models[i].name);
        fprintf(f,
                ". The figures are normalised by the\n  smallest, %s, as the paper's by "
                "GoogLeNet, the smallest of its four gradients.\n",
                d->models[d->norm].name);
        return 0;
    }
    static const char *const head[] = {"model", "paper (printed)", "models file", "simulated with",
                                       "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0;
    for (size_t i = 0; i < d->nm && !rc; i++) {
        const wmodel *m = &d->models[i];
        char p[OC__CELL_LEN], fi[OC__CELL_LEN], si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
        oc__cellf(p, sizeof p, "%s parameters, batch %" PRIu64, m->printed->as_text,
                  m->printed->batch);
        oc__cellf(fi, sizeof fi, "%" PRIu64 " parameters, batch %" PRIu64 ", %" PRIu64 " samples",
                  m->file.parameters, m->file.batch, m->file.samples);
        oc__cellf(si, sizeof si, "%" PRIu64 " B gradient (float32)", m->bytes);
        if (m->file.parameters != m->printed->parameters)
            oc__reason_add(re, sizeof re, "the models file says %" PRIu64 " parameters",
                           m->file.parameters);
        if (m->file.batch != m->printed->batch)
            oc__reason_add(re, sizeof re, "the models file's batch is %" PRIu64, m->file.batch);
        if (!re[0]) oc__cellf(re, sizeof re, "agrees");
        const char *row[] = {m->printed->name, p, fi, si, re};
        rc = oc__table_row(&t, row);
    }
    if (!rc) {
        fprintf(f,
                "\nModels (IV.A, IV.B) against models.tsv (the models of `opticoll train`):\n\n");
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* Table II: the parameters the paper gives against those our models ran with. */
static int print_table2(FILE *f, const wrht_data *d) {
    const wrht_printed *P = &WRHT_PRINTED;
    const oc_report *ring = rep_of(&d->J, d->t1.ring), *ft = rep_of(&d->J, d->fattree_ref);
    if (!ring || !ft) return 0;
    static const char *const head[] = {"parameter", "paper (printed)", "our model (as run)",
                                       "reason"};
    oc__table t;
    oc__table_init(&t, 4, head);
    int rc = 0;
    char p[OC__CELL_LEN], o[OC__CELL_LEN], re[OC__REASON_LEN];
#define ROW(name)                                                                                  \
    do {                                                                                           \
        const char *row_[] = {name, p, o, re};                                                     \
        if (!rc) rc = oc__table_row(&t, row_);                                                     \
    } while (0)
#define SAME_NUM(printed, key)                                                                     \
    (fabs((printed)-strtod(oc__net_param(ring_or_ft, key), NULL)) < 1e-9 * fmax(1, (printed)))
    const oc_report *ring_or_ft = ring;
    oc__cellf(p, sizeof p, "%s", P->opt_topology);
    oc__cellf(o, sizeof o, "%s fibre(s) per direction (preset %s)", oc__net_param(ring, "fibres"),
              oc__net_param(ring, "preset"));
    oc__cellf(re, sizeof re,
              "III.A says the traffic crosses %" PRIu32 " fibre rings, %" PRIu32 " clockwise and "
              "%" PRIu32 " counterclockwise, Table II a %s; we use %s per direction (preset "
              "terarack: 2)",
              P->opt_fibre_rings, P->opt_fibre_rings / 2, P->opt_fibre_rings / 2, P->opt_topology,
              oc__net_param(ring, "fibres"));
    ROW("optical: topology");
    oc__cellf(p, sizeof p, "%" PRIu32, P->opt_wavelengths);
    oc__cellf(o, sizeof o, "%s", oc__net_param(ring, "wavelengths"));
    oc__cellf(re, sizeof re,
              SAME_NUM(P->opt_wavelengths, "wavelengths") ? "agrees" : "differs: the reader's -w");
    ROW("optical: wavelengths");
    oc__cellf(p, sizeof p, "%g Gb/s per wavelength", P->opt_gbps);
    oc__cellf(o, sizeof o, "%s Gb/s", oc__net_param(ring, "bandwidth_gbps"));
    oc__cellf(re, sizeof re, SAME_NUM(P->opt_gbps, "bandwidth_gbps") ? "agrees" : "differs");
    ROW("optical: bandwidth");
    oc__cellf(p, sizeof p, "%g us", P->opt_reconfig_us);
    oc__cellf(o, sizeof o, "%s us per step", oc__net_param(ring, "reconfig_us"));
    oc__cellf(re, sizeof re, SAME_NUM(P->opt_reconfig_us, "reconfig_us") ? "agrees" : "differs");
    ROW("optical: MRR reconfiguration");
    oc__cellf(p, sizeof p, "%g cycle/flit", P->opt_oeo_cycles_per_flit);
    oc__cellf(o, sizeof o, "%s ns per %s B flit", oc__net_param(ring, "oeo_ns_per_flit"),
              oc__net_param(ring, "flit_bytes"));
    {
        const double ns = strtod(oc__net_param(ring, "oeo_ns_per_flit"), NULL),
                     oeo = oc__report_figure(ring, "step_oeo_s"),
                     step = oc__report_figure(ring, "step_time_s");
        oc__cellf(re, sizeof re,
                  "the paper gives no clock; we assume %.3g GHz (%g cycle = %s ns). Charged as a "
                  "bandwidth term: a step adds %s ns per %s B flit of its block, after the "
                  "transmission, not overlapped with it (%.3f us of the %.3f us Table I step, "
                  "%.1f%%); the claims give the averages with O/E/O as an overlapped latency",
                  ns > 0 ? P->opt_oeo_cycles_per_flit / ns : 0.0, P->opt_oeo_cycles_per_flit,
                  oc__net_param(ring, "oeo_ns_per_flit"), oc__net_param(ring, "oeo_ns_per_flit"),
                  oc__net_param(ring, "flit_bytes"), oeo * 1e6, step * 1e6, 100 * oeo / step);
    }
    ROW("optical: O/E/O conversion");
    oc__cellf(p, sizeof p, "%" PRIu64 " B packets, %" PRIu64 " B flits", P->opt_packet_bytes,
              P->opt_flit_bytes);
    oc__cellf(o, sizeof o, "%s B packets, %s B flits", oc__net_param(ring, "packet_bytes"),
              oc__net_param(ring, "flit_bytes"));
    oc__cellf(re, sizeof re,
              SAME_NUM((double)P->opt_packet_bytes, "packet_bytes") &&
                      SAME_NUM((double)P->opt_flit_bytes, "flit_bytes")
                  ? "agrees"
                  : "differs");
    ROW("optical: packet, flit");
    ring_or_ft = ft;
    const uint32_t Nft = d->J.v[d->fattree_ref].req.nodes;
    oc__cellf(p, sizeof p, "%s, %" PRIu32 "-port routers", P->el_topology, P->el_ports);
    oc__cellf(o, sizeof o, "%s-port leaves (%s down), %s-port spines at N = %" PRIu32,
              oc__net_param(ft, "ports"), oc__net_param(ft, "leaf_down"),
              oc__net_param(ft, "spine_ports"), Nft);
    re[0] = 0;
    uint64_t leaves = (uint64_t)oc__report_figure(ft, "leaves");
    if (leaves > P->el_ports)
        oc__reason_add(re, sizeof re,
                       "a full-bisection two-level tree of %" PRIu32 "-port routers holds at most "
                       "%" PRIu32 " nodes; at N = %" PRIu32 " it needs %" PRIu64
                       " leaves, so our spines get %s ports (spine_ports=auto) to stay at two "
                       "levels",
                       P->el_ports, P->el_ports * P->el_ports / 2, Nft, leaves,
                       oc__net_param(ft, "spine_ports"));
    else
        oc__reason_add(re, sizeof re, "agrees");
    ROW("electrical: fat-tree");
    oc__cellf(p, sizeof p, "%g Gb/s router bandwidth", P->el_gbps);
    oc__cellf(o, sizeof o, "%s Gb/s per link and direction", oc__net_param(ft, "bandwidth_gbps"));
    oc__cellf(re, sizeof re,
              SAME_NUM(P->el_gbps, "bandwidth_gbps")
                  ? "agrees; \"router bandwidth\" read as per port and direction"
                  : "differs");
    ROW("electrical: bandwidth");
    oc__cellf(p, sizeof p, "%g us router delay", P->el_router_delay_us);
    oc__cellf(o, sizeof o, "%s us per router on the path", oc__net_param(ft, "router_delay_us"));
    oc__cellf(re, sizeof re,
              SAME_NUM(P->el_router_delay_us, "router_delay_us")
                  ? "agrees; charged per router crossed (3 between leaves), SimGrid charges "
                    "latency per link"
                  : "differs");
    ROW("electrical: router delay");
    oc__cellf(p, sizeof p, "%" PRIu64 " B packets, %s", P->el_packet_bytes, P->el_routing);
    oc__cellf(o, sizeof o, "%s B packets, shortest paths", oc__net_param(ft, "packet_bytes"));
    oc__cellf(re, sizeof re,
              SAME_NUM((double)P->el_packet_bytes, "packet_bytes")
                  ? "agrees; among the equal spines, D-mod-k picks one by destination"
                  : "differs");
    ROW("electrical: packets, routing");
#undef SAME_NUM
#undef ROW
    if (!rc) {
        fputs("\nTable II: the simulated architectures, as printed and as our models ran them\n\n",
              f);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- printing: Table I and the example -------------------------------------------------------
 */

/* "430 (g=5)" or "not simulated: ...". */
static void steps_cell(char *buf, size_t len, const jobs *J, size_t i) {
    const oc__sim *s = sim_of(J, i);
    oc__sim_steps_cell(buf, len, s);
    char used[96];
    used_text(used, sizeof used, J, i);
    if (s->ok && used[0]) oc__cellf(buf + strlen(buf), len - strlen(buf), " (%s)", used);
}

/* The clause comparing the simulated steps with a formula value. */
static void reason_vs_formula(char *re, size_t len, const oc__sim *s, double formula,
                              const char *what) {
    if (!s->ok) {
        oc__reason_add(re, len, "not simulated");
        return;
    }
    if (fabs((double)s->steps - formula) < 0.5) return;
    oc__reason_add(re, len, "mapped %" PRIu64 " %s %s %.0f", s->steps,
                   (double)s->steps < formula ? "below" : "above", what, formula);
    oc__reason_mapping(re, len, s);
}

/* The WRHT rule, as a formula cell (with Lemma 1 when `lemma`). */
static void rule_cell(char *buf, size_t len, uint32_t N, const wrht_rule *r, uint32_t w,
                      int lemma) {
    oc__cellf(buf, len,
              "m = %" PRIu32 ": L = %" PRIu32 ", m* = %" PRIu64 ", ceil(m*^2/8) = %" PRIu64
              " %s w -> %s = %.0f",
              r->m, r->L, r->mstar, r->a2a_wl, r->a2a ? "<=" : ">", r->a2a ? "2L-1" : "2L",
              r->steps);
    if (lemma)
        oc__cellf(buf + strlen(buf), len - strlen(buf),
                  "; Lemma 1: 2 ceil(log_%" PRIu64 " %" PRIu32 ") = %.0f", 2 * (uint64_t)w + 1, N,
                  f_lemma1(N, w));
}

/* Why the seed's own WRHT numbers disagree with each other at group size m. */
static void reason_wrht_rule(char *re, size_t len, uint32_t N, uint32_t w, const wrht_rule *r,
                             uint64_t printed) {
    const double lemma = f_lemma1(N, w);
    if (printed != NO_PRINTED && fabs((double)printed - r->steps) > 0.5) {
        if (fabs((double)printed - 2.0 * r->L) < 0.5 && r->a2a)
            oc__reason_add(re, len,
                           "the printed %" PRIu64 " is the 2 ceil(log_m N) case, but the seed's "
                           "own rule ends the reduce stage with an all-to-all among m* = %" PRIu64
                           " representatives, which fits (ceil(m*^2/8) = %" PRIu64
                           " <= w = %" PRIu32 "): 2L - 1 = %.0f",
                           printed, r->mstar, r->a2a_wl, w, r->steps);
        else
            oc__reason_add(re, len, "the printed %" PRIu64 " is not the seed's rule (%.0f)",
                           printed, r->steps);
    }
    if (r->steps < lemma - 0.5)
        oc__reason_add(re, len,
                       "Lemma 1's \"lower bound\" %.0f is above the %.0f steps of the seed's own "
                       "rule: the lemma drops the 2L - 1 case",
                       lemma, r->steps);
    if (r->group_wl > w)
        oc__reason_add(re, len,
                       "the seed's per-group count ceil(m/2) = %" PRIu64 " exceeds w = %" PRIu32
                       ", which would forbid its own m = 2w + 1: a middle node has floor(m/2) = "
                       "%" PRIu32 " members per side, so floor(m/2) is the count (Fig. 2b collects "
                       "groups of %" PRIu32 " with %" PRIu32 " wavelengths)",
                       r->group_wl, w, r->m / 2, WRHT_PRINTED.ex_nodes / WRHT_PRINTED.ex_groups,
                       WRHT_PRINTED.ex_wavelengths);
}

/* Cross-checks the library's own WRHT figures against this file's evaluation. */
static void reason_wrht_figures(char *re, size_t len, const oc_report *rep, uint32_t N, uint32_t w,
                                const wrht_rule *r) {
    double mb = oc__report_figure(rep, "m_seed_bound"), l1 = oc__report_figure(rep, "steps_lemma1"),
           ms = oc__report_figure(rep, "mstar_seed");
    if (!isnan(mb) && fabs(mb - (2.0 * w + 1)) > 0.5)
        oc__reason_add(re, len, "the library's m_seed_bound is %.0f", mb);
    if (!isnan(l1) && fabs(l1 - f_lemma1(N, w)) > 0.5)
        oc__reason_add(re, len, "the library's steps_lemma1 is %.0f", l1);
    if (!isnan(ms) && fabs(ms - (double)r->mstar) > 0.5)
        oc__reason_add(re, len, "the library's mstar_seed is %.0f, ours %" PRIu64, ms, r->mstar);
}

static int row5(oc__table *t, const char *a, const char *b, const char *c, const char *d,
                const char *e) {
    const char *row[] = {a, b, c, d, e};
    return oc__table_row(t, row);
}

/* A row whose formula is one number f (shown as `formula`): the printed value against it (`not_its`
 * says so when they differ), the simulated steps against it, and with `library` the library's
 * own closed form too. */
static int formula_row(oc__table *t, const jobs *J, size_t job, const char *item, uint64_t printed,
                       double f, const char *formula, const char *not_its, int library) {
    const oc__sim *s = sim_of(J, job);
    char p[OC__CELL_LEN], si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    oc__cellf(p, sizeof p, "%" PRIu64, printed);
    steps_cell(si, sizeof si, J, job);
    if (fabs((double)printed - f) > 0.5) oc__reason_add(re, sizeof re, "%s", not_its);
    reason_vs_formula(re, sizeof re, s, f, "the formula's");
    if (library) oc__reason_library(re, sizeof re, s, f, NAN);
    if (!re[0]) oc__cellf(re, sizeof re, "agrees");
    return row5(t, item, p, formula, si, re);
}

/* The H-Ring rows: at a given g (printed or ours). */
static int hring_row(oc__table *t, const jobs *J, size_t job, uint32_t N, uint32_t w,
                     const char *item, const char *printed_cell, uint64_t printed,
                     int has_printed, int spread0) {
    const oc__sim *s = sim_of(J, job);
    uint32_t g = used_u32(J, job, "g");
    char fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    steps_cell(si, sizeof si, J, job);
    if (!s->ok || !g) return row5(t, item, printed_cell, fo, si, "not simulated");
    const double f = f_hring(N, g, w), ours = our_hring(N, g, w);
    oc__cellf(fo, sizeof fo, "g = %" PRIu32 ": 2(g^2+N)/g + ceil(g/w) - 4 = %.0f", g, f);
    if (has_printed && fabs((double)printed - f) > 0.5) {
        if (fabs((double)printed - (f + 4)) < 0.5)
            oc__reason_add(re, sizeof re,
                           "the printed %" PRIu64 " is the formula without its \"- 4\" (%.0f + 4)",
                           printed, f);
        else
            oc__reason_add(re, sizeof re, "the printed %" PRIu64 " is not its formula's %.0f",
                           printed, f);
    }
    /* At spread=0 a group round's N/g chunks ride one lightpath: one step, as the seed counts */
    const double ours0 = 2.0 * (g - 1) + 2.0 * (N / g - 1.0) * ceil((double)g / w);
    if (spread0 && fabs((double)s->steps - f) > 0.5 && fabs((double)s->steps - ours0) < 0.5) {
        oc__reason_add(re, sizeof re,
                       "spread=0 (no transfer spreads over wavelengths, the seed's eq. 1): an "
                       "intra-group round is one step moving its N/g = %" PRIu32 " chunks on one "
                       "wavelength; mapped %" PRIu64 " = 2(g-1) + 2(N/g-1) ceil(g/w) = %.0f + %.0f "
                       "x %.0f; the seed's extra ceil(g/w) = %.0f is not a step",
                       N / g, s->steps, 2.0 * (g - 1), 2.0 * (N / g - 1.0), ceil((double)g / w),
                       ceil((double)g / w));
    } else if (fabs((double)s->steps - f) > 0.5) {
        if (fabs((double)s->steps - ours) < 0.5) {
            const double intra = ceil((double)N / g / w), inter = ceil((double)g / w);
            oc__reason_add(re, sizeof re,
                           "mapped %" PRIu64 " = 2(g-1) ceil(N/g/w) + 2(N/g-1) ceil(g/w) = %.0f x "
                           "%.0f + %.0f x %.0f",
                           s->steps, 2.0 * (g - 1), intra, 2.0 * (N / g - 1.0), inter);
            if (intra > 1)
                oc__reason_add(re, sizeof re,
                               "a step moves one chunk (1/N of the vector) per wavelength, so an "
                               "intra-group round (N/g = %" PRIu32 " chunks over one link) takes "
                               "%.0f steps where the seed counts 1",
                               N / g, intra);
            if (inter <= 1)
                oc__reason_add(re, sizeof re,
                               "the seed's extra ceil(g/w) = %.0f is not a step: the g "
                               "inter-group rings share the links in one step (g <= w)",
                               inter);
        } else
            reason_vs_formula(re, sizeof re, s, f, "the formula's");
    }
    oc__reason_library(re, sizeof re, s, f, NAN);
    if (!re[0]) oc__cellf(re, sizeof re, "agrees");
    return row5(t, item, printed_cell, fo, si, re);
}

/* The WRHT rows: the seed's m, our unstriped search, our full search. */
static int wrht_rows(oc__table *t, const jobs *J, const steps_plan *s, uint32_t N, uint32_t w,
                     uint64_t printed, const char *seed_item) {
    char p[OC__CELL_LEN], fo[OC__CELL_LEN], si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    const oc__sim *seed = sim_of(J, s->wrht_seed);
    const uint32_t m = used_u32(J, s->wrht_seed, "m");
    const wrht_rule r = f_wrht(N, m ? m : seed_m(N, w), w);
    oc__cellf(p, sizeof p, printed == NO_PRINTED ? "—" : "%" PRIu64, printed);
    rule_cell(fo, sizeof fo, N, &r, w, 1);
    steps_cell(si, sizeof si, J, s->wrht_seed);
    reason_wrht_rule(re, sizeof re, N, w, &r, printed);
    reason_vs_formula(re, sizeof re, seed, r.steps, "the seed's rule");
    reason_wrht_figures(re, sizeof re, rep_of(J, s->wrht_seed), N, w, &r);
    oc__reason_library(re, sizeof re, seed, r.steps, NAN);
    if (!re[0]) oc__cellf(re, sizeof re, "agrees");
    int rc = row5(t, seed_item, p, fo, si, re);

    /* Our search of m and the all-to-all level, one piece: time is then steps x one step. */
    const oc__sim *un = sim_of(J, s->wrht_unstriped);
    const uint32_t mu = used_u32(J, s->wrht_unstriped, "m");
    re[0] = 0;
    if (un->ok && mu) {
        wrht_rule ru = f_wrht(N, mu, w);
        rule_cell(fo, sizeof fo, N, &ru, w, 0);
        oc__reason_add(re, sizeof re,
                       "the paper prints no such row: m and the all-to-all level chosen by mapped "
                       "time with pieces=1 (one wavelength per transfer, as the seed)");
        reason_vs_formula(re, sizeof re, un, ru.steps, "the seed's rule");
        if (seed->ok && un->steps < seed->steps)
            oc__reason_add(re, sizeof re, "%" PRIu64 " steps fewer than the seed's m",
                           seed->steps - un->steps);
        else if (seed->ok && un->steps == seed->steps)
            oc__reason_add(re, sizeof re, "as many steps as the seed's m = %" PRIu32, r.m);
    } else {
        oc__cellf(fo, sizeof fo, "—");
    }
    steps_cell(si, sizeof si, J, s->wrht_unstriped);
    if (!re[0]) oc__reason_add(re, sizeof re, "the paper prints no such row; not simulated");
    if (!rc) rc = row5(t, "WRHT (our m, unstriped)", "—", fo, si, re);

    /* Our full search: striping over spare wavelengths (ours) trades steps for time. */
    const oc__sim *ou = sim_of(J, s->wrht_ours);
    re[0] = 0;
    steps_cell(si, sizeof si, J, s->wrht_ours);
    if (ou->ok) oc__cellf(si + strlen(si), sizeof si - strlen(si), ", %.3f ms", ou->time_s * 1e3);
    oc__reason_add(re, sizeof re,
                   "the paper prints no such row: what `opticoll run -a wrht` runs unpinned, "
                   "striping (ours) that cuts the vector into pieces carried side by side on "
                   "spare wavelengths, so a step moves 1/pieces of it");
    if (ou->ok && seed->ok)
        oc__reason_add(re, sizeof re,
                       "%" PRIu64 " steps against the seed's %" PRIu64 ", but %.3f ms against "
                       "%.3f ms (%.1fx faster) at %u bytes",
                       ou->steps, seed->steps, ou->time_s * 1e3, seed->time_s * 1e3,
                       seed->time_s / ou->time_s, (unsigned)TABLE1_BYTES);
    if (!rc) rc = row5(t, "WRHT (our search: wrht's default)", "—", "— (the seed's WRHT does not stripe)",
                       si, re);
    return rc;
}

static int print_table1(FILE *f, const wrht_data *d) {
    const wrht_printed *P = &WRHT_PRINTED;
    const uint32_t N = d->t1_nodes, w = d->w;
    const int pr = d->paper_t1; /* the printed column holds only at the paper's N and w */
    const jobs *J = &d->J;
    static const char *const head[] = {"item", "paper (printed)", "formula", "simulated", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    char p[OC__CELL_LEN], fo[OC__CELL_LEN], si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    int rc;
    /* Ring. */
    const oc__sim *s = sim_of(J, d->t1.ring);
    oc__cellf(p, sizeof p, pr ? "%" PRIu64 : "—", P->t1_ring);
    oc__cellf(fo, sizeof fo, "2(N-1) = %.0f", f_ring(N));
    steps_cell(si, sizeof si, J, d->t1.ring);
    if (pr && fabs((double)P->t1_ring - f_ring(N)) > 0.5)
        oc__reason_add(re, sizeof re, "the printed value is not its formula's");
    reason_vs_formula(re, sizeof re, s, f_ring(N), "the formula's");
    oc__reason_library(re, sizeof re, s, f_ring(N), NAN);
    if (!re[0]) oc__cellf(re, sizeof re, "agrees");
    rc = row5(&t, "Ring", p, fo, si, re);
    /* H-Ring at the printed g and at ours. */
    if (!rc) {
        if (pr)
            oc__cellf(p, sizeof p, "%" PRIu64 " (g = %" PRIu32 ")", P->t1_hring, P->t1_hring_g);
        else
            oc__cellf(p, sizeof p, "— (g = %" PRIu32 ")", P->t1_hring_g);
        if (d->t1.hring_printed == NONE) {
            oc__cellf(re, sizeof re, "g = %" PRIu32 " does not divide N = %" PRIu32,
                      P->t1_hring_g, N);
            rc = row5(&t, "H-Ring (printed g)", p, "—", "not simulated", re);
        } else
            rc = hring_row(&t, J, d->t1.hring_printed, N, w, "H-Ring (printed g)", p,
                           P->t1_hring, pr, 0);
        if (!rc && d->t1.hring_printed0 != NONE)
            rc = hring_row(&t, J, d->t1.hring_printed0, N, w, "H-Ring (printed g, spread=0)", p,
                           P->t1_hring, pr, 1);
    }
    if (!rc) {
        rc = hring_row(&t, J, d->t1.hring_ours, N, w, "H-Ring (our g)", "—", 0, 0, 0);
    }
    /* BT. */
    if (!rc) {
        s = sim_of(J, d->t1.bt);
        re[0] = 0;
        oc__cellf(p, sizeof p, pr ? "%" PRIu64 : "—", P->t1_bt);
        oc__cellf(fo, sizeof fo, "2 ceil(log2 N) = %.0f (or 2(ceil(log2 N)+1) = %.0f)", f_bt(N),
                  f_bt(N) + 2);
        steps_cell(si, sizeof si, J, d->t1.bt);
        if (pr && fabs((double)P->t1_bt - f_bt(N)) > 0.5)
            oc__reason_add(re, sizeof re, "the printed value is not 2 ceil(log2 N)");
        reason_vs_formula(re, sizeof re, s, f_bt(N), "the formula's");
        oc__reason_library(re, sizeof re, s, f_bt(N), NAN);
        if (!re[0]) oc__cellf(re, sizeof re, "agrees");
        rc = row5(&t, "BT", p, fo, si, re);
    }
    if (!rc)
        rc = wrht_rows(&t, J, &d->t1, N, w, pr ? P->t1_wrht : NO_PRINTED,
                       "WRHT (seed: m = 2w+1, pieces=1)");
    if (!rc) {
        fprintf(f,
                "\n1. Table I: all-reduce steps at N = %" PRIu32 ", w = %" PRIu32
                " (runs at %u bytes; steps do not depend on it)%s\n\n",
                N, w, (unsigned)TABLE1_BYTES,
                pr ? "" : "\n   The paper prints Table I at N = 1000, w = 64 only: no printed values here.");
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* Theorem 1: "the lower bound on the communication time by WRHT" is 2 ceil(log_m N) (d/B + a)
 * at Lemma 1's m = 2w+1. One step of the seed's WRHT (pieces=1) moves d: its time over its steps
 * is d/B + a on our model. The bound is tested against the seed's WRHT and against our search's
 * (which stripes d over spare wavelengths, so its step moves less than d). */
static int print_theorem1(oc__repro *ctx, FILE *f, const wrht_data *d) {
    const jobs *J = &d->J;
    const uint32_t N = d->t1_nodes, w = d->w;
    const oc__sim *seed = sim_of(J, d->t1.wrht_seed), *ours = sim_of(J, d->t1.wrht_ours);
    if (!seed->ok || !seed->steps) return 0;
    const double step = seed->time_s / (double)seed->steps, bound = f_lemma1(N, w) * step;
    oc__verdict v = {.of = 1, .hit = seed->time_s >= bound * (1 - 1e-12)};
    char re[OC__REASON_LEN] = "";
    oc__reason_add(re, sizeof re,
                   "2 ceil(log_%" PRIu64 " %" PRIu32 ") = %.0f steps of d/B + a = %.3f ms: %.3f "
                   "ms; the seed's WRHT (m = 2w+1, pieces=1) takes %" PRIu64 " steps, %.3f ms (%s "
                   "the bound: the theorem takes Lemma 1's 2 ceil(log_m N), not the rule's 2L - 1)",
                   2 * (uint64_t)w + 1, N, f_lemma1(N, w), step * 1e3, bound * 1e3, seed->steps,
                   seed->time_s * 1e3, v.hit ? "at or above" : "below");
    if (ours->ok) {
        v.of++;
        v.hit += ours->time_s >= bound * (1 - 1e-12);
        oc__reason_add(re, sizeof re,
                       "our search's WRHT takes %.3f ms (%s: it stripes d over spare wavelengths, "
                       "so a step moves less than d)",
                       ours->time_s * 1e3, ours->time_s >= bound ? "at or above" : "below");
    }
    fprintf(f,
            "\n   Theorem 1 (the lower bound on WRHT's time) at N = %" PRIu32 ", w = %" PRIu32
            ", %u bytes: %s.\n",
            N, w, (unsigned)TABLE1_BYTES, re);
    const oc__claim_in in = {.claim = "Theorem 1: WRHT's communication time is at least 2 "
                                      "ceil(log_m N) (d/B + a), m = 2w+1",
                             .source = "III.C, Theorem 1 with Lemma 1 (Table I's N and w)",
                             .unit = "ms",
                             .paper = bound * 1e3,
                             .ours = seed->time_s * 1e3,
                             .verdict = v,
                             .reason = re};
    return oc__claim(ctx, &in);
}

static int print_example(FILE *f, const wrht_data *d) {
    const wrht_printed *P = &WRHT_PRINTED;
    const uint32_t N = P->ex_nodes, w = P->ex_wavelengths;
    const jobs *J = &d->J;
    static const char *const head[] = {"item", "paper (printed)", "formula", "simulated", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    char fo[OC__CELL_LEN];
    oc__cellf(fo, sizeof fo, "2 ceil(log2 N) = %.0f", f_bt(N));
    int rc = formula_row(&t, J, d->ex.bt, "BT (Fig. 2a)", P->ex_bt, f_bt(N), fo,
                         "the printed value is not 2 ceil(log2 N)", 0);
    if (!rc) {
        char item[OC__CELL_LEN];
        oc__cellf(item, sizeof item, "WRHT (Fig. 2b: %" PRIu32 " groups of %" PRIu32 ")",
                  P->ex_groups, N / P->ex_groups);
        rc = wrht_rows(&t, J, &d->ex, N, w, P->ex_wrht, item);
    }
    if (!rc) {
        fprintf(f,
                "\n2. Section III.B, Fig. 2: %" PRIu32 " nodes, %" PRIu32
                " wavelengths (the Fig. 2b run: m = %" PRIu32 ", an all-to-all among the %" PRIu32
                " representatives)\n\n",
                N, w, N / P->ex_groups, P->ex_groups);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- printing: the figures --------------------------------------------------------------------
 */

static void fmt_bytes(char *buf, size_t len, double b) {
    if (b >= 1e6)
        oc__cellf(buf, len, "%.2f MB", b / 1e6);
    else
        oc__cellf(buf, len, "%.1f kB", b / 1e3);
}

/* Fig. 4 or 5 as figures for reproduce --out: one per DNN model (the paper's panels a to d),
 * time normalised by WRHT's time for the normalising model against N, one line per algorithm. */
static void hand_figure(const wrht_data *d, const figure *F, int which) {
    static const char *const caption[2] = {
        "\"Fig. 4. Comparison of communication time in optical interconnect system using "
        "different all-reduce algorithms\" (panels (a)-(d): one DNN each; 1024 to 4096 nodes; "
        "normalised by WRHT in GoogLeNet)",
        "\"Fig. 5. The comparison of communication time in electrical interconnect and optical "
        "interconnect system using different all-reduce algorithms\" (panels (a)-(d): one DNN "
        "each; 128 to 1024 nodes; normalised by WRHT in GoogLeNet)"};
    for (size_t m = 0; m < d->nm; m++) {
        char id[64], title[160], ylab[96];
        oc__cellf(id, sizeof id, "fig%d-%s", which, d->models[m].name);
        for (char *c = id; *c; c++) /* a file name: "fig4-googlenet", "fig4-4096-b" */
            *c = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c == ' ' ? '-' : *c;
        oc__cellf(title, sizeof title, "Fig. %d, %s: all-reduce of one iteration's gradient", which,
                  d->models[m].name);
        oc__cellf(ylab, sizeof ylab, "time / WRHT's time for %s at N = %" PRIu32,
                  d->models[d->norm].name, F->nodes[0]);
        oc__figure(id, title, "nodes N", ylab, 1, 1, caption[which == 5]);
        for (size_t a = 0; a < F->na; a++) {
            double x[MAX_FIG], y[MAX_FIG];
            for (size_t n = 0; n < F->nn; n++) {
                x[n] = F->nodes[n];
                y[n] = F->p[n][m][a].ok ? F->p[n][m][a].norm : NAN;
            }
            oc__figure_series(F->algos[a].label, F->nn, x, y);
        }
    }
}

/* How a figure is normalised and which WRHT it shows, with the numbers that make it so. */
static void print_fig_header(FILE *f, const wrht_data *d, const figure *F) {
    const size_t iw = F->algos == FIG4_ALGOS ? I_WRHT4 : I_WRHT5, last = F->nn - 1;
    const point *first = &F->p[0][d->norm][iw], *end = &F->p[last][d->norm][iw];
    fprintf(f,
            "   Normalised as the paper does (\"by dividing the result of WRHT in %s\"): every "
            "bar by one bar,\n"
            "   WRHT's %s time at N = %" PRIu32 " (%.3f ms), so that each bar's growth with N "
            "shows.",
            WRHT_PRINTED.normaliser, d->models[d->norm].name, F->nodes[0], first->time_s * 1e3);
    if (last && first->ok && end->ok)
        fprintf(f,
                " WRHT's own %s\n"
                "   bar is then %.3f at N = %" PRIu32 ", and the trends of IV.B and IV.C show "
                "in every bar.",
                d->models[d->norm].name, end->time_s / first->time_s, F->nodes[last]);
    fprintf(f,
            "\n   WRHT is the paper's own: m = 2w+1 = %" PRIu64 " (m = N below it), its all-to-all "
            "rule, pieces=1.\n"
            "   `opticoll run -a wrht` with nothing pinned runs our striped search instead (row "
            "\"WRHT, our search\":\n"
            "   m, alltoall and pieces chosen by mapped time), which is not the paper's algorithm; "
            "pin the paper's\n"
            "   with -p m=%" PRIu64 " -p pieces=1.\n",
            2 * (uint64_t)d->w + 1, 2 * (uint64_t)d->w + 1);
}

/* Whether model m's bars of algorithm a keep trend `tk` over the figure's N (fig_algo's tests);
 * -1 when a bar is missing. */
static int trend_holds(const figure *F, size_t m, size_t a, trend_kind tk) {
    const size_t last = F->nn - 1;
    int inc = 1, nondec = 1, flat = 1;
    for (size_t n = 0; n < F->nn; n++)
        if (!F->p[n][m][a].ok) return -1;
    const double t0 = F->p[0][m][a].time_s, r = F->p[last][m][a].time_s / t0,
                 q = (double)F->nodes[last] / F->nodes[0];
    for (size_t n = 1; n < F->nn; n++) {
        const double x = F->p[n - 1][m][a].time_s, y = F->p[n][m][a].time_s;
        inc &= y > x;
        nondec &= y >= x;
        flat &= fabs(y / t0 - 1) <= 0.2;
    }
    switch (tk) {
    case TR_INCREASING: return inc;
    case TR_LINEAR: return inc && r >= q / 2;
    case TR_SLOW: return inc && r < q / 2;
    case TR_SLIGHT: return nondec && r <= 1.5;
    case TR_CONSTANT: return flat;
    case TR_NONE: break;
    }
    return -1;
}

/* Whether algorithm a keeps ordering `ok` at point (n, m); -1 when a bar is missing. */
static int order_holds(const figure *F, size_t n, size_t m, size_t a, order_kind ok) {
    const point *x = &F->p[n][m][a];
    if (!x->ok) return -1;
    if (ok == ORD_BELOW_E_RING) {
        const point *e = &F->p[n][m][I_ERING5];
        return e->ok ? x->time_s < e->time_s : -1;
    }
    if (ok == ORD_HIGHEST || ok == ORD_LOWEST) {
        for (size_t b = 0; b < F->na; b++)
            if (b != a && F->algos[b].paper && F->p[n][m][b].ok &&
                (ok == ORD_HIGHEST ? F->p[n][m][b].time_s >= x->time_s
                                   : F->p[n][m][b].time_s <= x->time_s))
                return 0;
        return 1;
    }
    return -1;
}

/* The paper's trends (IV.B, IV.C) against ours: each algorithm's time at the figure's last N over
 * its time at the first, split into the steps' and one step's share of the change, the verdict of
 * the paper's words per model (and of its orderings per point), each also a claim. */
static int print_trends(oc__repro *ctx, FILE *f, const wrht_data *d, const figure *F, int which) {
    const size_t last = F->nn - 1;
    if (!last) {
        fprintf(f, "\n  Fig. %d's trends with N: one N only (-n), no trend to show.\n", which);
        return 0;
    }
    static const char *const head[] = {"algorithm", "paper (printed)",
                                       "simulated: T(last N) / T(first N)", "verdict", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    int rc = 0;
    const double q = (double)F->nodes[last] / F->nodes[0];
    for (size_t a = 0; a < F->na && !rc; a++) {
        char si[OC__REASON_LEN] = "", re[OC__REASON_LEN] = "";
        double slo = INFINITY, shi = 0, tlo = INFINITY, thi = 0;
        for (size_t m = 0; m < d->nm; m++) {
            const point *x = &F->p[0][m][a], *y = &F->p[last][m][a];
            if (!x->ok || !y->ok) continue;
            const double r = y->time_s / x->time_s,
                         st = (y->time_s / (double)y->steps) / (x->time_s / (double)x->steps);
            oc__reason_add(si, sizeof si, "%s x%.2f", d->models[m].name, r);
            slo = fmin(slo, (double)y->steps / (double)x->steps);
            shi = fmax(shi, (double)y->steps / (double)x->steps);
            tlo = fmin(tlo, st);
            thi = fmax(thi, st);
        }
        if (!si[0]) oc__cellf(si, sizeof si, "not simulated");
        else {
            oc__reason_add(re, sizeof re, "N x%.2f; steps x%.2f", q, slo);
            if (round(shi * 100) != round(slo * 100)) oc__cellf(re + strlen(re), sizeof re - strlen(re), " .. x%.2f", shi);
            oc__cellf(re + strlen(re), sizeof re - strlen(re), ", mean step time x%.2f", tlo);
            if (round(thi * 100) != round(tlo * 100)) oc__cellf(re + strlen(re), sizeof re - strlen(re), " .. x%.2f", thi);
            oc__cellf(re + strlen(re), sizeof re - strlen(re), " (time = steps x mean step)");
        }
        /* the verdict: the trend per model, then the ordering per point */
        const fig_algo *A = &F->algos[a];
        oc__verdict vt = {.of = 0}, vo = {.of = 0};
        char vc[OC__CELL_LEN] = "—", fails[OC__REASON_LEN] = "";
        for (size_t m = 0; m < d->nm && A->tk != TR_NONE; m++) {
            const int h = trend_holds(F, m, a, A->tk);
            if (h < 0) continue;
            vt.of++;
            vt.hit += (size_t)h;
            if (!h)
                oc__cellf(fails + strlen(fails), sizeof fails - strlen(fails), "%s%s",
                          fails[0] ? ", " : "", d->models[m].name);
        }
        for (size_t n = 0; n < F->nn && A->ok != ORD_NONE; n++)
            for (size_t m = 0; m < d->nm; m++) {
                if (A->order_model && strcmp(A->order_model, d->models[m].name)) continue;
                const int h = order_holds(F, n, m, a, A->ok);
                if (h < 0) continue;
                vo.of++;
                vo.hit += (size_t)h;
            }
        if (vt.of) {
            oc__cellf(vc, sizeof vc, "trend: %s (%zu of %zu models)", oc__verdict_word(vt),
                      vt.hit, vt.of);
            if (fails[0]) oc__reason_add(re, sizeof re, "the trend fails for %s", fails);
        }
        static const char *const ORD_WORD[] = {"", "highest", "lowest", "below E-Ring"};
        if (vo.of)
            oc__cellf(vc + strlen(vc), sizeof vc - strlen(vc), "; %s%s%s: %s (%zu of %zu points)",
                      ORD_WORD[A->ok], A->order_model ? " in " : "",
                      A->order_model ? A->order_model : "", oc__verdict_word(vo), vo.hit, vo.of);
        const char *row[] = {A->label, A->trend ? A->trend : "—", si, vc, re};
        rc = oc__table_row(&t, row);
        char claim[OC__CELL_LEN], src[OC__CELL_LEN];
        oc__cellf(src, sizeof src, "%s; Fig. %d, every model, N = %" PRIu32 " .. %" PRIu32,
                  which == 4 ? "IV.B" : "IV.C", which, F->nodes[0], F->nodes[last]);
        if (!rc && vt.of) {
            oc__cellf(claim, sizeof claim, "%s's time with N: %s", A->label, A->trend + 6);
            const oc__claim_in in = {.claim = claim,
                                     .source = src,
                                     .unit = "% of models",
                                     .paper = 100,
                                     .ours = 100.0 * (double)vt.hit / (double)vt.of,
                                     .verdict = vt,
                                     .reason = fails[0] ? re : ""};
            rc = oc__claim(ctx, &in);
        }
        if (!rc && vo.of) {
            char ro[OC__REASON_LEN] = "";
            oc__reason_add(ro, sizeof ro, "%s at %zu of the %zu (N, model) points%s%s",
                           A->ok == ORD_BELOW_E_RING ? "below E-Ring"
                           : A->ok == ORD_HIGHEST    ? "the highest of the paper's four bars"
                                                     : "the lowest of the paper's four bars",
                           vo.hit, vo.of, A->order_model ? " of " : "",
                           A->order_model ? A->order_model : "");
            oc__cellf(claim, sizeof claim, "%s: %s", A->label, A->order_text);
            const oc__claim_in in = {.claim = claim,
                                     .source = src,
                                     .unit = "% of points",
                                     .paper = 100,
                                     .ours = 100.0 * (double)vo.hit / (double)vo.of,
                                     .verdict = vo,
                                     .reason = ro};
            rc = oc__claim(ctx, &in);
        }
    }
    if (!rc) {
        fprintf(f,
                "\n  Fig. %d's trends with N (%" PRIu32 " to %" PRIu32 "): the paper's words "
                "against our growth per model. The tests: increasing = T grows at every N; a "
                "linear rise = increasing and T(last)/T(first) at least half of N's x%.2f; "
                "relatively slow = increasing and below half of it; a slight increase = never "
                "decreasing and at most x1.5; almost constant = every T within 20%% of "
                "T(first); the highest = above the paper's other bars at the same (N, model)\n\n",
                which, F->nodes[0], F->nodes[last], (double)F->nodes[last] / F->nodes[0]);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

static int print_figure(FILE *f, const wrht_data *d, const figure *F, int which) {
    hand_figure(d, F, which);
    static const char *const head[] = {"model",
                                       "algorithm (parameters)",
                                       "paper (printed)",
                                       "formula: steps; normalised",
                                       "simulated: steps, time; normalised",
                                       "reason"};
    int rc = 0;
    const size_t iw = which == 4 ? I_WRHT4 : I_WRHT5;
    for (size_t n = 0; n < F->nn && !rc; n++) {
        const uint32_t N = F->nodes[n];
        const point *ref = &F->p[0][d->norm][iw];
        oc__table t;
        oc__table_init(&t, 6, head);
        for (size_t m = 0; m < d->nm && !rc; m++) {
            for (size_t a = 0; a < F->na && !rc; a++) {
                const fig_algo *A = &F->algos[a];
                const point *pt = &F->p[n][m][a];
                char al[OC__CELL_LEN], fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN],
                                       re[OC__REASON_LEN] = "";
                oc__cellf(al, sizeof al, "%s%s%s%s", A->label, pt->used[0] ? " (" : "", pt->used,
                          pt->used[0] ? ")" : "");
                if (!isnan(pt->f_steps) && pt->ok)
                    oc__cellf(fo, sizeof fo, "%.0f; %.3f", pt->f_steps, pt->f_norm);
                if (pt->ok)
                    oc__cellf(si, sizeof si, "%" PRIu64 ", %.3f ms; %.3f", pt->steps,
                              pt->time_s * 1e3, pt->norm);
                else
                    oc__cellf(si, sizeof si, "not simulated");
                if (!A->paper) oc__reason_add(re, sizeof re, "not in the paper");
                if (pt->ok && !isnan(pt->f_steps) && fabs((double)pt->steps - pt->f_steps) > 0.5) {
                    if (A->kind == F_HRING) {
                        const uint32_t g = pt->g, w = d->w;
                        if (g && fabs((double)pt->steps - our_hring(N, g, w)) < 0.5)
                            oc__reason_add(re, sizeof re,
                                           "mapped = 2(g-1) ceil(N/g/w) + 2(N/g-1) ceil(g/w) "
                                           "(see Table I): the seed's extra ceil(g/w) = %.0f is "
                                           "not a step",
                                           ceil((double)g / w));
                        else
                            oc__reason_add(re, sizeof re, "mapped %" PRIu64 " vs %.0f", pt->steps,
                                           pt->f_steps);
                    } else {
                        oc__reason_add(re, sizeof re, "mapped %" PRIu64 " vs the formula's %.0f",
                                       pt->steps, pt->f_steps);
                    }
                } else if (pt->ok && !isnan(pt->f_time) &&
                           fabs(pt->f_time / pt->time_s - 1) > 1e-6) {
                    oc__reason_add(re, sizeof re,
                                   "same steps, time %.3f ms against the formula's %.3f ms: "
                                   "rounds differ in path length and contention",
                                   pt->time_s * 1e3, pt->f_time * 1e3);
                }
                if (pt->ok && A->kind == F_ERD)
                    oc__reason_add(re, sizeof re, "the seed gives no step count for RD");
                if (pt->ok && A->kind == F_WRHT_OURS && ref->ok)
                    oc__reason_add(re, sizeof re, "%.2fx the seed's WRHT time for this model",
                                   pt->time_s / F->p[n][m][iw].time_s);
                if (pt->recosted) {
                    char b[32];
                    fmt_bytes(b, sizeof b, (double)oc__ceil_div(d->models[m].bytes, N));
                    oc__reason_add(re, sizeof re,
                                   "re-costed: the verified %s schedule's %" PRIu64
                                   " steps x the ring model's step for a %s chunk",
                                   WRHT_PRINTED.normaliser, pt->steps, b);
                }
                if (!re[0]) oc__cellf(re, sizeof re, "agrees");
                const char *row[] = {
                    a ? "" : d->models[m].name, al, "bar only", fo, si, re};
                rc = oc__table_row(&t, row);
            }
        }
        if (!rc) {
            fprintf(f,
                    "\n  N = %" PRIu32 ": normalised by WRHT's %s time at N = %" PRIu32
                    " (formula %.3f ms, simulated %.3f ms)\n\n",
                    N, d->models[d->norm].name, F->nodes[0], ref->f_time * 1e3,
                    ref->time_s * 1e3);
            oc__table_print(&t, f);
        }
        oc__table_free(&t);
    }
    return rc;
}

/* ---- the headline averages --------------------------------------------------------------------
 */

typedef struct avg {
    double mean, sum_red, lo, hi, f_mean;
    size_t n, fn, slower; /* slower: points where the first is not faster */
} avg;

/* A bar's time; without_oeo: less the ring's O/E/O, as if it were a latency overlapped with the
 * transmission instead of the bandwidth term our ring model charges. */
static double bar_time(const point *x, int without_oeo) {
    return without_oeo ? x->time_s - (double)x->steps * x->oeo_s : x->time_s;
}

/* Mean over a figure's points of 1 - T_a / T_b (simulated and formula), with the reduction of
 * the summed times and the range. */
static avg average(const figure *F, size_t a, size_t b, int without_oeo) {
    avg r = {.lo = INFINITY, .hi = -INFINITY};
    double sa = 0, sb = 0, fs = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++) {
            const point *x = &F->p[n][m][a], *y = &F->p[n][m][b];
            if (!x->ok || !y->ok) continue;
            const double ta = bar_time(x, without_oeo), tb = bar_time(y, without_oeo);
            double red = 1 - ta / tb;
            r.slower += red <= 0;
            r.mean += red;
            r.lo = fmin(r.lo, red);
            r.hi = fmax(r.hi, red);
            sa += ta;
            sb += tb;
            r.n++;
            if (!isnan(x->f_time) && !isnan(y->f_time)) {
                fs += 1 - x->f_time / y->f_time;
                r.fn++;
            }
        }
    r.mean = r.n ? r.mean / (double)r.n : NAN;
    r.sum_red = sb > 0 ? 1 - sa / sb : NAN;
    r.f_mean = r.fn ? fs / (double)r.fn : NAN;
    return r;
}

/* Mean over a figure's points of the share of an algorithm's time that moves no data. */
static double overhead_share(const figure *F, size_t a) {
    double s = 0;
    size_t k = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++) {
            const point *x = &F->p[n][m][a];
            if (!x->ok || isnan(x->overhead)) continue;
            s += x->overhead;
            k++;
        }
    return k ? s / (double)k : NAN;
}

/* A headline claim of the paper, with ours for the same experiment: the mean over the figure's
 * points of 1 - T_a / T_b, and a reason built from the numbers that make it (the range, the
 * points where WRHT is slower, the model's mechanism, wrht's striped default and the O/E/O term). */
typedef struct claim_of {
    oc__repro *ctx;
    const char *claim, *source;
    const wrht_data *d;
} claim_of;

/* A printed reduction holds when ours is within this many points of it. */
static const double CLAIM_TOL = 1.0;

/* b: what the paper's WRHT is compared with (the paper's setup); b_best: what our search's WRHT
 * is compared with (the best setup), the same algorithm under our search's choices. */
static int add_claim(const claim_of *c, const figure *F, int which, const avg *r, double printed,
                     size_t a, size_t b, size_t b_best, const char *why_model) {
    const wrht_data *d = c->d;
    char re[OC__REASON_LEN] = "";
    oc__claim_in in = {.claim = c->claim,
                       .source = c->source,
                       .unit = "%",
                       .paper = printed,
                       .decimals = 2,
                       .ours = NAN,
                       .reason = "not simulated"};
    if (!r->n) return oc__claim(c->ctx, &in);
    const avg s = average(F, I_OURS, b_best, 0), o = average(F, a, b, 1);
    oc__reason_add(re, sizeof re,
                   "ours: the mean over Fig. %d's %zu points (%zu N x %zu %s) of 1 - T_%s / T_%s, "
                   "the paper's WRHT (m = 2w+1 = %" PRIu64 ", pieces=1); %+.2f points",
                   which, r->n, F->nn, F->nm, d->sized ? "sizes" : "models", F->algos[a].label,
                   F->algos[b].label, 2 * (uint64_t)d->w + 1, 100 * r->mean - printed);
    oc__reason_add(re, sizeof re, "per point %.1f%% .. %.1f%%", 100 * r->lo, 100 * r->hi);
    if (r->slower)
        oc__reason_add(re, sizeof re, "%s is slower at %zu of the %zu points", F->algos[a].label,
                       r->slower, r->n);
    if (why_model && why_model[0]) oc__reason_add(re, sizeof re, "%s", why_model);
    if (s.n && b_best == b)
        oc__reason_add(re, sizeof re,
                       "`wrht` unpinned runs our striped search, not the paper's WRHT: %.2f%%",
                       100 * s.mean);
    else if (s.n)
        oc__reason_add(re, sizeof re,
                       "`wrht` unpinned runs our striped search, not the paper's WRHT: %.2f%% "
                       "against %s, both at spread=1 (ours)",
                       100 * s.mean, F->algos[b_best].label);
    if (o.n)
        oc__reason_add(re, sizeof re,
                       "our ring charges O/E/O as a bandwidth term; as a latency overlapped with "
                       "the transmission: %.2f%%",
                       100 * o.mean);
    if (!d->paper_figs) oc__reason_add(re, sizeof re, "at the reader's settings, not the paper's");
    /* the paper's WRHT (m = 2w+1, pieces=1) and our search's: two setups of one claim */
    in.verdict = oc__verdict_setups(printed, 100 * r->mean, s.n ? 100 * s.mean : NAN, CLAIM_TOL);
    in.ours = 100 * r->mean;
    in.reason = re;
    return oc__claim(c->ctx, &in);
}

static int headline_row(oc__table *t, const figure *F, const char *item, double printed, size_t a,
                        size_t b, size_t b_best, const char *why_model, const claim_of *claim) {
    avg r = average(F, a, b, 0);
    if (claim) {
        int rc = add_claim(claim, F, F->algos == FIG4_ALGOS ? 4 : 5, &r, printed, a, b, b_best,
                           why_model);
        if (rc) return rc;
    }
    char p[OC__CELL_LEN] = "—", fo[OC__CELL_LEN] = "—", si[OC__CELL_LEN], re[OC__REASON_LEN] = "";
    if (!isnan(printed)) oc__cellf(p, sizeof p, "%.2f%%", printed);
    if (r.fn) oc__cellf(fo, sizeof fo, "%.2f%% (%zu points)", 100 * r.f_mean, r.fn);
    if (r.n)
        oc__cellf(si, sizeof si, "%.2f%% (%zu points)", 100 * r.mean, r.n);
    else
        oc__cellf(si, sizeof si, "not simulated");
    if (!F->algos[a].paper) oc__reason_add(re, sizeof re, "not in the paper");
    if (r.n) {
        if (!isnan(printed))
            oc__reason_add(re, sizeof re, "%+.2f points against the printed",
                           100 * r.mean - printed);
        oc__reason_add(re, sizeof re,
                       "per point %.1f%% .. %.1f%%; reduction of the summed times "
                       "%.2f%%",
                       100 * r.lo, 100 * r.hi, 100 * r.sum_red);
        if (r.slower)
            oc__reason_add(re, sizeof re, "%s is slower than %s at %zu of the %zu points",
                           F->algos[a].label, F->algos[b].label, r.slower, r.n);
    }
    if (!r.fn)
        oc__reason_add(re, sizeof re, "no formula: %s",
                       F->algos[a].kind == F_WRHT_OURS ? "the seed's WRHT does not stripe"
                                                       : "the seed gives no step count for RD");
    if (why_model && why_model[0]) oc__reason_add(re, sizeof re, "%s", why_model);
    const char *row[] = {item, p, fo, si, re};
    return oc__table_row(t, row);
}

/* The group sizes column a ran with over a figure's points, "g = 4" or "g = 4 .. 6". */
static void g_list(char *buf, size_t len, const figure *F, size_t a) {
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++)
            if (F->p[n][m][a].ok && F->p[n][m][a].g) {
                lo = F->p[n][m][a].g < lo ? F->p[n][m][a].g : lo;
                hi = F->p[n][m][a].g > hi ? F->p[n][m][a].g : hi;
            }
    if (lo > hi)
        oc__cellf(buf, len, "g = ?");
    else if (lo == hi)
        oc__cellf(buf, len, "g = %" PRIu32, lo);
    else
        oc__cellf(buf, len, "g = %" PRIu32 " .. %" PRIu32, lo, hi);
}

/* The least and the largest simulated steps of algorithm a over a figure's points. */
static void steps_range(const figure *F, size_t a, uint64_t *lo, uint64_t *hi) {
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t n = 0; n < F->nn; n++)
        for (size_t m = 0; m < F->nm; m++)
            if (F->p[n][m][a].ok) {
                if (F->p[n][m][a].steps < *lo) *lo = F->p[n][m][a].steps;
                if (F->p[n][m][a].steps > *hi) *hi = F->p[n][m][a].steps;
            }
    if (*lo > *hi) *lo = *hi = 0;
}

static int print_headline(oc__repro *ctx, FILE *f, const wrht_data *d) {
    const wrht_printed *P = &WRHT_PRINTED;
    const figure *F4 = &d->fig4, *F5 = &d->fig5;
    static const char *const head[] = {"item", "paper (printed)", "formula", "simulated", "reason"};
    oc__table t;
    oc__table_init(&t, 5, head);
    char w[OC__REASON_LEN];
    int rc;
    /* The models' parameters as the runs used them, and d/B of the smallest and the largest
     * gradient at the ring's bandwidth per wavelength. */
    const oc_report *ring = rep_of(&d->J, d->t1.wrht_seed), *ft = rep_of(&d->J, d->fattree_ref);
    const char *rec = ring ? oc__net_param(ring, "reconfig_us") : "?",
               *obw = ring ? oc__net_param(ring, "bandwidth_gbps") : "?",
               *dly = ft ? oc__net_param(ft, "router_delay_us") : "?",
               *ebw = ft ? oc__net_param(ft, "bandwidth_gbps") : "?";
    const double gbps = strtod(obw, NULL), delay_us = strtod(dly, NULL);
    double dlo = INFINITY, dhi = 0;
    for (size_t m = 0; m < d->nm; m++) {
        dlo = fmin(dlo, (double)d->models[m].bytes * 8 / (gbps * 1e9));
        dhi = fmax(dhi, (double)d->models[m].bytes * 8 / (gbps * 1e9));
    }
    uint64_t wlo, whi, blo, bhi;
    steps_range(F4, I_WRHT4, &wlo, &whi);
    steps_range(F4, 2, &blo, &bhi);
    oc__cellf(w, sizeof w,
              "the seed's WRHT sends the whole gradient on one wavelength in each of its %" PRIu64
              " .. %" PRIu64 " steps (eq. 1: theta d/B, d/B = %.1f .. %.1f ms here), Ring about "
              "2d per node in 2(N-1) steps of d/N, %.0f%% of its time reconfiguration: WRHT wins "
              "only where 2(N-1) x %s us outweighs about (theta - 2) d/B",
              wlo, whi, dlo * 1e3, dhi * 1e3, 100 * overhead_share(F4, 0), rec);
    /* The claims of the abstract and the conclusion (the introduction repeats the abstract's). */
    const char *src4 = "abstract, conclusion; the mean of Fig. 4 (IV.B)",
               *src5 = "abstract, conclusion; the mean of Fig. 5 (IV.C)";
    const claim_of c_ring = {ctx, "WRHT cuts the all-reduce time of Ring on the optical ring by",
                             src4, d},
                   c_hring = {ctx, "WRHT cuts the all-reduce time of H-Ring on the optical ring by",
                              src4, d},
                   c_bt = {ctx, "WRHT cuts the all-reduce time of BT on the optical ring by", src4,
                           d},
                   c_ering = {ctx, "WRHT cuts the all-reduce time of Ring on the electrical "
                                   "fat-tree (E-Ring) by",
                              src5, d},
                   c_erd = {ctx, "WRHT cuts the all-reduce time of recursive doubling on the "
                                 "electrical fat-tree (E-RD) by",
                            src5, d};
    rc = headline_row(&t, F4, "WRHT vs Ring (Fig. 4)", P->vs_ring, I_WRHT4, 0, 0, w, &c_ring);
    /* H-Ring: the paper's setup under one rule (spread=0, its g), our g under the same rule, and
     * the two rules mixed (the paper's WRHT at spread=0 against H-Ring spreading), each named */
    char gs[OC__CELL_LEN];
    g_list(gs, sizeof gs, F4, I_HRING_G5);
    const avg h0 = average(F4, I_WRHT4, I_HRING_SPREAD0, 0), hm = average(F4, I_WRHT4, 1, 0);
    oc__cellf(w, sizeof w,
              "one rule for both, the paper's: spread=0 (no transfer spreads over wavelengths; "
              "eq. 1 moves a step's data on one), the paper's WRHT and H-Ring at %s%s; at our g "
              "under the same rule %.2f%%; the paper's WRHT (one wavelength a transfer) against "
              "H-Ring at spread=1 (its N/g chunks side by side on N/g wavelengths) mixes two "
              "rules: %.2f%%",
              gs,
              strcmp(gs, "g = 5") ? ", the divisor of N nearest the paper's g = 5 (which does "
                                    "not divide N)"
                                  : ", the paper's",
              100 * h0.mean, 100 * hm.mean);
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; g ~ 5, spread=0)", P->vs_hring,
                          I_WRHT4, I_HRING_G5, 1, w, &c_hring);
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; our g, spread=0)", NAN, I_WRHT4,
                          I_HRING_SPREAD0, I_HRING_SPREAD0,
                          "one rule for both (spread=0): H-Ring's g chosen by our search", NULL);
    oc__cellf(w, sizeof w,
              "two rules: H-Ring lays the N/g chunks of an intra-group transfer side by side on "
              "N/g wavelengths (spread=1) and needs only 2(g + N/g) - 4 reconfigurations (%.0f%% "
              "of its time), while the paper's WRHT moves d on one wavelength per step",
              100 * overhead_share(F4, 1));
    if (!rc)
        rc = headline_row(&t, F4, "WRHT vs H-Ring (Fig. 4; our g, spread=1)", NAN, I_WRHT4, 1, 1,
                          w, NULL);
    oc__cellf(w, sizeof w,
              "BT and WRHT both move the whole vector on one wavelength every step: the ratio is "
              "about their step counts, %" PRIu64 " .. %" PRIu64 " against %" PRIu64 " .. %" PRIu64,
              blo, bhi, wlo, whi);
    if (!rc) rc = headline_row(&t, F4, "WRHT vs BT (Fig. 4)", P->vs_bt, I_WRHT4, 2, 2, w, &c_bt);
    for (size_t b = 0; b < 3 && !rc; b++) {
        char item[OC__CELL_LEN];
        oc__cellf(item, sizeof item, "WRHT, our search vs %s (Fig. 4)", F4->algos[b].label);
        rc = headline_row(&t, F4, item, NAN, I_OURS, b, b, "", NULL);
    }
    steps_range(F5, I_WRHT5, &wlo, &whi);
    oc__cellf(w, sizeof w,
              "E-Ring's rounds pay %s us per router, 3 across leaves (%.0f%% of its time), and "
              "move d/N at %s Gb/s; WRHT's %" PRIu64 " .. %" PRIu64 " steps pay %s us each but "
              "move d at %s Gb/s",
              dly, 100 * overhead_share(F5, 2), ebw, wlo, whi, rec, obw);
    if (!rc) rc = headline_row(&t, F5, "WRHT vs E-Ring (Fig. 5)", P->vs_ering, I_WRHT5, 2, 2, w,
                                &c_ering);
    oc__cellf(w, sizeof w,
              "RD moves the whole vector log2 N times at %s Gb/s (%.1f%% of its time is router "
              "delay), WRHT %" PRIu64 " .. %" PRIu64 " times at %s Gb/s",
              ebw, 100 * overhead_share(F5, 3), wlo, whi, obw);
    if (!rc)
        rc = headline_row(&t, F5, "WRHT vs E-RD (Fig. 5)", P->vs_erd, I_WRHT5, 3, 3, w, &c_erd);
    oc__cellf(w, sizeof w,
              "the same 2(N-1) steps of d/N: %s us + %s Gb/s (O-Ring, %.0f%% reconfiguration) "
              "against %g or %g us of routers + %s Gb/s (E-Ring, %.0f%% router delay)",
              rec, obw, 100 * overhead_share(F5, 0), delay_us, 3 * delay_us, ebw,
              100 * overhead_share(F5, 2));
    if (!rc) rc = headline_row(&t, F5, "O-Ring vs E-Ring (Fig. 5)", P->oring_vs_ering, 0, 2, 2, w,
                                NULL);
    if (!rc) {
        /* IV.C's O-Ring against E-Ring: no WRHT in it, so no setups to bracket */
        const avg r = average(F5, 0, 2, 0);
        char re[OC__REASON_LEN] = "";
        if (r.n)
            oc__reason_add(re, sizeof re,
                           "the mean over Fig. 5's %zu points of 1 - T_O-Ring / T_E-Ring, %+.2f "
                           "points; per point %.1f%% .. %.1f%%; %s",
                           r.n, 100 * r.mean - P->oring_vs_ering, 100 * r.lo, 100 * r.hi, w);
        const oc__claim_in in = {
            .claim = "O-Ring reduces the all-reduce time of E-Ring on average by",
            .source = src5,
            .unit = "%",
            .paper = P->oring_vs_ering,
            .decimals = 2,
            .ours = r.n ? 100 * r.mean : NAN,
            .verdict = oc__verdict_one(r.n ? 100 * r.mean : NAN,
                                       fabs(100 * r.mean - P->oring_vs_ering) <= CLAIM_TOL),
            .reason = r.n ? re : "not simulated"};
        rc = oc__claim(ctx, &in);
    }
    for (size_t b = 2; b < 4 && !rc; b++) {
        char item[OC__CELL_LEN];
        oc__cellf(item, sizeof item, "WRHT, our search vs %s (Fig. 5)", F5->algos[b].label);
        rc = headline_row(&t, F5, item, NAN, I_OURS, b, b, "", NULL);
    }
    if (!rc) {
        fprintf(f,
                "\n5. The headline averages: WRHT's reduction of the all-reduce time, the mean "
                "over a figure's %zu points\n"
                "   (%zu N x %zu %s) of 1 - T_WRHT / T_other (abstract, IV.B, IV.C, "
                "conclusion)\n\n",
                F4->nn * d->nm, F4->nn, d->nm, d->sized ? "sizes" : "models");
        oc__table_print(&t, f);
        fprintf(f,
                "\n  Why ours differ from the printed ones: our time model is ours (per optical "
                "step: %s us MRR\n"
                "  reconfiguration + O/E/O at %s ns per %s B flit, an assumed clock + "
                "transmission at %s Gb/s per\n"
                "  wavelength; per fat-tree round: the bottleneck link's packets at %s Gb/s + %s "
                "us per router), while\n"
                "  the paper's in-house simulator and its SimGrid runs are driven by profiled "
                "traces whose per-step\n"
                "  costs it does not give; the paper does not say how it averages (ours: mean of "
                "per-point reductions;\n"
                "  the reduction of the summed times is beside it) nor which g its H-Ring uses in "
                "Fig. 4 (ours: the\n"
                "  best g by mapped time, and the g nearest Table I's 5 beside it); and it counts "
                "one epoch where\n"
                "  we count one all-reduce (section 6: the reductions are the same per epoch).\n",
                rec, ring ? oc__net_param(ring, "oeo_ns_per_flit") : "?",
                ring ? oc__net_param(ring, "flit_bytes") : "?", obw, ebw, dly);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- sensitivity -------------------------------------------------------------------------------
 */

static int plan_sens(wrht_data *d) {
    int rc = 0;
    for (size_t r = 1; r < SENS_ROWS && !rc; r++)
        for (size_t m = 0; m < d->nm && !rc; m++)
            for (size_t k = 0; k < SENS_ALGOS && !rc; k++) {
                const figure *F = k < 4 ? &d->fig4 : &d->fig5;
                const fig_algo *A = &F->algos[k < 4 ? SENS_FIG4[k] : I_WRHT5];
                const uint32_t N = F->nodes[0];
                char net[96], p[96] = "";
                oc__cellf(net, sizeof net, "wavelengths=%" PRIu32 " %s%s", d->w, SENS[r].net,
                          A->spread0 ? " spread=0" : "");
                if (A->kind == F_WRHT) seed_wrht_params(p, sizeof p, N, seed_m(N, d->w), d->w);
                if (A->near_g) oc__cellf(p, sizeof p, "g=%" PRIu32, near_divisor(N, A->near_g));
                rc = job_add(&d->J, OC_ALLREDUCE, A->algo, A->network, N, d->models[m].bytes, p,
                             net, 0, &d->sens.job[r][m][k]);
            }
    return rc;
}

/* A time of the sensitivity table: row r's run of (model m, algorithm k), or at row 0 the
 * figure's own point; NAN when it did not run. */
static double sens_time(const wrht_data *d, size_t r, size_t m, size_t k) {
    if (r == 0) {
        const point *x = k < 4 ? &d->fig4.p[0][m][SENS_FIG4[k]] : &d->fig5.p[0][m][I_WRHT5];
        return x->ok ? x->time_s : NAN;
    }
    const oc__sim *s = sim_of(&d->J, d->sens.job[r][m][k]);
    return s && s->ok ? s->time_s : NAN;
}

/* The mean over the models of 1 - T_WRHT / T_other at row r: Fig. 4's WRHT (k = 3) against
 * Ring, H-Ring, BT (k = 0..2) or Fig. 5's (k = 4) against E-Ring, E-RD (the figure's own). */
static double sens_mean(const wrht_data *d, size_t r, size_t claim) {
    double sum = 0;
    size_t n = 0;
    for (size_t m = 0; m < d->nm; m++) {
        double tw, to;
        if (claim < 3) {
            tw = sens_time(d, r, m, 3);
            to = sens_time(d, r, m, claim);
        } else {
            tw = sens_time(d, r, m, 4);
            const point *e = &d->fig5.p[0][m][claim == 3 ? 2 : 3];
            to = e->ok ? e->time_s : NAN;
        }
        if (isnan(tw) || isnan(to)) continue;
        sum += 1 - tw / to;
        n++;
    }
    return n ? sum / (double)n : NAN;
}

static int print_sens(FILE *f, const wrht_data *d) {
    static const char *const head[] = {"setting", "WRHT vs Ring", "vs H-Ring (g ~ 5, spread=0)",
                                       "vs BT", "vs E-Ring", "vs E-RD"};
    oc__table t;
    oc__table_init(&t, 6, head);
    int rc = 0;
    for (size_t r = 0; r < SENS_ROWS && !rc; r++) {
        char cells[5][OC__CELL_LEN];
        const char *row[6] = {SENS[r].label};
        for (size_t c = 0; c < 5; c++) {
            const double v = sens_mean(d, r, c);
            if (isnan(v))
                oc__cellf(cells[c], sizeof cells[c], "not simulated");
            else
                oc__cellf(cells[c], sizeof cells[c], "%.2f%%", 100 * v);
            row[1 + c] = cells[c];
        }
        rc = oc__table_row(&t, row);
    }
    if (!rc) {
        fprintf(f,
                "\n7. Sensitivity: the headline reductions (the paper's WRHT, m = 2w+1, pieces=1) "
                "at Fig. 4's N = %" PRIu32 "\n"
                "   and Fig. 5's N = %" PRIu32 ", the mean over the %zu %s, with one number "
                "we chose changed on the optical\n"
                "   ring (the seed gives neither the O/E/O clock nor, for its simulation, more "
                "than a double ring);\n"
                "   every cell is a verified run (the fat-tree's are the figure's own):\n\n",
                d->fig4.nodes[0], d->fig5.nodes[0], d->nm, d->sized ? "sizes" : "models");
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- per epoch --------------------------------------------------------------------------------
 */

static int print_epoch(FILE *f, const wrht_data *d) {
    if (d->sized) {
        fputs("\n6. Per epoch: not with --sizes (a size has no batch or samples per epoch).\n", f);
        return 0;
    }
    const char *head[2 + PAPER_MODELS] = {"figure, N"};
    for (size_t m = 0; m < d->nm; m++)
        head[1 + m] = d->models[m].name;
    head[1 + PAPER_MODELS] = "normalised bars per epoch";
    oc__table t;
    oc__table_init(&t, 2 + PAPER_MODELS, head);
    int rc = 0;
    for (int which = 4; which <= 5 && !rc; which++) {
        const figure *F = which == 4 ? &d->fig4 : &d->fig5;
        for (size_t n = 0; n < F->nn && !rc; n++) {
            const uint32_t N = F->nodes[n];
            char cells[2 + PAPER_MODELS][OC__REASON_LEN];
            const char *row[2 + PAPER_MODELS];
            oc__cellf(cells[0], sizeof cells[0], "Fig. %d, N = %" PRIu32, which, N);
            const uint64_t ref = oc_train_iterations(d->models[d->norm].file.samples,
                                                     d->models[d->norm].file.batch, N);
            cells[1 + PAPER_MODELS][0] = 0;
            for (size_t m = 0; m < d->nm; m++) {
                const wmodel *M = &d->models[m];
                uint64_t it = oc_train_iterations(M->file.samples, M->file.batch, N);
                oc__cellf(cells[1 + m], sizeof cells[1 + m], "%" PRIu64, it);
                if (it != ref)
                    oc__reason_add(cells[1 + PAPER_MODELS], sizeof cells[1 + PAPER_MODELS],
                                   "%s x %" PRIu64 "/%" PRIu64, M->name, it, ref);
            }
            if (!cells[1 + PAPER_MODELS][0])
                oc__cellf(cells[1 + PAPER_MODELS], sizeof cells[1 + PAPER_MODELS], "unchanged");
            for (size_t c = 0; c < 2 + PAPER_MODELS; c++)
                row[c] = cells[c];
            rc = oc__table_row(&t, row);
        }
    }
    if (!rc) {
        fputs("\n6. Per epoch: iterations per epoch = ceil(samples / (batch x N)) (models file; "
              "the batch is per node).\n"
              "   An epoch is that many all-reduces of the same gradient, so at one (model, N) "
              "every algorithm's\n"
              "   time is multiplied alike and every reduction above is the same per epoch; a "
              "normalised bar moves\n"
              "   by its model's iterations over GoogLeNet's:\n\n",
              f);
        oc__table_print(&t, f);
    }
    oc__table_free(&t);
    return rc;
}

/* ---- the WRHT reproduction --------------------------------------------------------------------
 */

int oc__reproduce_wrht(oc__repro *ctx, FILE *f, char *why, size_t whylen) {
    const wrht_printed *P = &WRHT_PRINTED;
    const oc_reproduce_settings *set = oc__repro_settings(ctx);
    wrht_data *d = calloc(1, sizeof *d);
    int rc = 0;
    if (!d) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    /* The reader's settings (reproduce -w -n --sizes): -w replaces the 64 wavelengths of Table I
     * and both figures, -n Table I's N and each figure's four node counts (one point per model),
     * --sizes the four DNN gradients. The III.B example keeps its 15 nodes and 2 wavelengths. */
    d->w = set->wavelengths ? set->wavelengths : P->opt_wavelengths;
    d->t1_nodes = set->nodes ? set->nodes : P->t1_nodes;
    d->paper_t1 = d->w == P->t1_wavelengths && d->t1_nodes == P->t1_nodes;
    d->paper_figs = !set->wavelengths && !set->nodes && !set->sizes;
    d->sized = set->sizes != NULL;
    const uint32_t one[1] = {set->nodes};
    const uint32_t *n4 = set->nodes ? one : P->fig4_nodes, *n5 = set->nodes ? one : P->fig5_nodes;
    const size_t nn = set->nodes ? 1 : PAPER_FIG;
    rc = d->sized ? read_sizes(d->models, &d->nm, &d->norm, set->sizes, why, whylen)
                  : read_models(d->models, &d->nm, &d->norm, why, whylen);
    if (rc) goto out;
    /* The big re-costed runs first: the batch takes jobs in list order. */
    if ((rc = plan_figure(d, &d->fig4, FIG4_ALGOS, FIG4_ALGOS_N, n4, nn)) ||
        (rc = plan_figure(d, &d->fig5, FIG5_ALGOS, FIG5_ALGOS_N, n5, nn)) ||
        (rc = plan_steps(d, &d->t1, d->t1_nodes, d->w, P->t1_hring_g)) ||
        (rc = plan_example(d, &d->ex)) || (rc = plan_sens(d))) {
        if (rc == OC_ENOMEM) oc__fail(why, whylen, rc, "out of memory");
        goto out;
    }
    d->fattree_ref = d->fig5.p[nn - 1][d->norm][2].job;
    if ((rc = oc__sim_batch(d->J.v, d->J.n, why, whylen))) goto out;
    if ((rc = resolve_figure(d, &d->fig4, why, whylen)) ||
        (rc = resolve_figure(d, &d->fig5, why, whylen)))
        goto out;

    print_header(f);
    print_networks(f, d);
    size_t asked = 0, checked = 0;
    for (size_t i = 0; i < d->J.n; i++)
        if (d->J.v[i].req.data_check) {
            asked++;
            checked += d->J.v[i].sim.ok && d->J.v[i].sim.data_checked;
        }
    fprintf(f,
            "Data: %zu of the %zu Table I and III.B runs were also executed with real data (the "
            "library skips\n"
            "  what does not fit in memory); Fig. 4 and Fig. 5 ran with data_check = 0 (the "
            "symbolic verifier and\n"
            "  the resource check only). Every point is simulated: ring and H-Ring would be "
            "re-costed above\n"
            "  %d nodes from one verified run at %s's gradient; the re-costing is checked at "
            "N = 4096 (Fig. 4).\n",
            checked, asked, RECOST_ABOVE, d->models[d->norm].name);
    if ((rc = print_models(f, d)) || (rc = print_table2(f, d)) || (rc = print_table1(f, d)) ||
        (rc = print_theorem1(ctx, f, d)) || (rc = print_example(f, d)))
        goto nomem;
    fprintf(f,
            "\n3. Fig. 4: all-reduce on the ring (w = %" PRIu32 "), one iteration's float32 "
            "gradient.\n",
            d->w);
    print_fig_header(f, d, &d->fig4);
    fputs("   H-Ring's g is our search's in the column \"H-Ring\" (the ring's default rule, "
          "spread=1: a transfer's\n"
          "   chunks side by side on wavelengths). Beside it, under the paper's rule (spread=0: "
          "every transfer\n"
          "   on one wavelength, eq. 1): H-Ring at the divisor of N nearest the paper's g = 5, "
          "and at our g.\n",
          f);
    if (d->fig4.recost_compared)
        fprintf(f,
                "   Re-costing (ring, H-Ring above N = %d) checked against full runs at\n"
                "   N = %d: %zu points, largest difference %.2g.\n",
                RECOST_ABOVE, RECOST_ABOVE, d->fig4.recost_compared, d->fig4.recost_dev);
    if ((rc = print_figure(f, d, &d->fig4, 4)) || (rc = print_trends(ctx, f, d, &d->fig4, 4)))
        goto nomem;
    fprintf(f,
            "\n4. Fig. 5: optical (O-Ring, WRHT on the ring, w = %" PRIu32 ") against electrical "
            "(E-Ring, E-RD on the\n"
            "   fattree model); WRHT with m = N where the ring has fewer than 2w+1 nodes (one "
            "group).\n",
            d->w);
    print_fig_header(f, d, &d->fig5);
    if ((rc = print_figure(f, d, &d->fig5, 5)) || (rc = print_trends(ctx, f, d, &d->fig5, 5)))
        goto nomem;
    if ((rc = print_headline(ctx, f, d)) || (rc = print_epoch(f, d)) || (rc = print_sens(f, d)))
        goto nomem;
    if (ferror(f)) rc = oc__fail(why, whylen, OC_EIO, "reproduce: writing the output failed");
    goto out;
nomem:
    oc__fail(why, whylen, rc, "out of memory");
out:
    jobs_free(&d->J);
    free(d);
    return rc;
}
