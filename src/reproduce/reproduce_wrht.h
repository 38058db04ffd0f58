/*
 * reproduce_wrht.h — what the four files of `opticoll reproduce wrht` share: the paper's printed
 * values and its formulas, the runs, the models, and the figures' points (reproduce_wrht.c's
 * essay says what is reproduced and how).
 *
 * The files, each one job, in the order they call one another (no file calls one above it):
 *   reproduce_wrht_data.c     the paper's numbers, its formulas evaluated, the list of runs, the
 *                             DNN models, the figures' algorithms;
 *   reproduce_wrht_tables.c   Table II, Table I, Theorem 1 and the III.B example, printed;
 *   reproduce_wrht_figures.c  Fig. 4 and Fig. 5 printed, their trends, the headline averages and
 *                             the claims, the sensitivity and the per-epoch sections;
 *   reproduce_wrht.c          the plan of the runs, their results read into the figures' points,
 *                             and oc__reproduce_wrht, which runs it all in that order.
 * Private to src/reproduce: nothing outside includes it.
 */
#ifndef OC_REPRODUCE_WRHT_H
#define OC_REPRODUCE_WRHT_H

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

/* The seed's WRHT rule at group size m (III.C-D): L = ceil(log_m N) levels; m* = ceil(N /
 * m^(L-1)) representatives in the last reduce step, which is an all-to-all when its ceil(m*^2/8)
 * wavelengths fit in w; then 2L - 1 steps, else 2L. Each group needs ceil(m/2) wavelengths. */
typedef struct wrht_rule {
    uint32_t m, L;
    uint64_t mstar, a2a_wl, group_wl;
    int a2a;
    double steps;
} wrht_rule;

/* ---- the runs -------------------------------------------------------------------------------- */

typedef struct jobs {
    oc__sim_job *v;
    size_t n, cap;
} jobs;

/* ---- the models ------------------------------------------------------------------------------ */

typedef struct wmodel {
    const wrht_model_printed *printed; /* NULL: a --sizes size in place of the models */
    char name[48];                     /* the model's name, or "4194304 B" */
    oc_model file;                     /* the models file's line (a model only) */
    uint64_t bytes;                    /* the float32 gradient every iteration all-reduces */
} wmodel;

/* ---- Table I and the III.B example: plans -------------------------------------------------- */

typedef struct steps_plan {
    size_t ring, hring_printed, hring_printed0, hring_ours, bt, wrht_seed, wrht_unstriped,
        wrht_ours;
} steps_plan;

/* ---- Fig. 4 and Fig. 5: points --------------------------------------------------------------- */

enum { FIG_ALGOS = 7 }; /* at most: Fig. 4 has 7, Fig. 5 has 5 */

/* An algorithm of a figure: its label, registry name, network, and the paper's step count. */
typedef enum { F_RING, F_HRING, F_BT, F_WRHT, F_WRHT_OURS, F_ERD } formula_kind;

/* How the paper says a bar grows with N, as a test on one model's times T(N)
 * (oc__rwrht_print_trends states the tests): TR_NONE (no claim), increasing at every N, a linear
 * rise (increasing, and T(last)/T(first) at least half of N(last)/N(first)), an increasing trend
 * that is relatively slow (increasing, and less than half of N's growth), a slight increase (never
 * decreasing, at most x1.5 over the range), almost constant (every T within 20% of T(first)). */
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

enum { FIG4_ALGOS_N = 7, I_OURS = 4, I_HRING_G5 = 5, I_HRING_SPREAD0 = 6 };

enum { FIG5_ALGOS_N = 5, I_ERING5 = 2 }; /* E-Ring in Fig. 5's list */

enum { I_WRHT4 = 3, I_WRHT5 = 1 }; /* where the seed's WRHT is in each list */

/* One bar: the run (or, re-costed, the GoogLeNet run and the probe), and what came of it. */
typedef struct point {
    size_t job, base, probe; /* job: a full run; else base (same N, normaliser) + probe */
    int ok, recosted;
    uint64_t steps;
    double time_s, step_s, reconfig_s; /* reconfig_s: per step, ring only (else NAN) */
    double oeo_s;    /* per step: the ring's O/E/O, charged as a bandwidth term (else 0) */
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
    double recost_dev;           /* largest |re-costed / simulated - 1| where both exist */
    size_t recost_compared;
} figure;

/* Section 7, sensitivity: the five headline reductions at the figures' first N again, with one
 * number we had to choose changed on the ring (the O/E/O clock, the fibres per direction) or the
 * representative of WRHT's groups moved from the seed's middle member to the group's first. */
enum { SENS_ROWS = 6, SENS_ALGOS = 5 }; /* row 0: ours, the figures' own runs */

typedef struct sens {
    size_t job[SENS_ROWS][MAX_MODELS]
              [SENS_ALGOS]; /* 0..3: oc__rwrht_sens_fig4's, 4: Fig. 5's WRHT */
} sens;

typedef struct wrht_data {
    sens sens;
    wmodel models[MAX_MODELS];
    size_t nm, norm;   /* gradients in the figures; the normaliser's index */
    uint32_t w;        /* wavelengths of Table I, Fig. 4 and Fig. 5 (the paper's 64, or -w) */
    uint32_t t1_nodes; /* Table I's N (the paper's 1000, or -n) */
    int paper_t1, paper_figs; /* 1: Table I / the figures at the paper's own settings */
    int sized;                /* 1: --sizes replaced the DNN models */
    jobs J;
    steps_plan t1, ex;
    size_t fattree_ref; /* a fat-tree run at the largest Fig. 5 N, for Table II */
    figure fig4, fig5;
} wrht_data;

/* One row of the sensitivity table: its label, the ring settings it changes and what it adds to
 * the seed's WRHT's parameters ("" for both: unchanged). */
typedef struct sens_setting {
    const char *label, *net, *wrht;
} sens_setting;

/* ---- shared between the files -------------------------------------------------------------- */

extern const wrht_printed oc__rwrht_paper;

/* Ring: 2(N - 1) (III.D). */
double oc__rwrht_f_ring(uint32_t N);

/* H-Ring: 2(g^2 + N)/g + ceil(g/w) - 4 (III.D, Table I). */
double oc__rwrht_f_hring(uint32_t N, uint32_t g, uint32_t w);

/* Our count for H-Ring on the ring model, where a step moves one chunk (1/N of the vector) per
 * wavelength: 2(g-1) intra-group rounds whose transfers carry N/g chunks over one link, and
 * 2(N/g - 1) inter-group rounds in which the g rings share every link once. */
double oc__rwrht_our_hring(uint32_t N, uint32_t g, uint32_t w);

/* BT: 2 ceil(log2 N) (III.D; Table I adds "or 2(ceil(log2 N) + 1)"). */
double oc__rwrht_f_bt(uint32_t N);

wrht_rule oc__rwrht_f_wrht(uint32_t N, uint32_t m, uint32_t w);

/* Lemma 1: 2 ceil(log_(2w+1) N). */
double oc__rwrht_f_lemma1(uint32_t N, uint32_t w);

/* The seed's group size: 2w + 1 (Lemma 1), or the whole ring when it has fewer nodes. */
uint32_t oc__rwrht_seed_m(uint32_t N, uint32_t w);

/* The parameters that run the seed's WRHT: m, the all-to-all rule, one piece (no striping). */
void oc__rwrht_seed_wrht_params(char *buf, size_t len, uint32_t N, uint32_t m, uint32_t w);

/* Adds a run (or finds the identical one already listed) and gives its index. */
int oc__rwrht_job_add(jobs *J, oc_collective coll, const char *algo, const char *network,
                      uint32_t N, uint64_t bytes, const char *params, const char *net,
                      int data_check, size_t *at);

void oc__rwrht_jobs_free(jobs *J);

const oc__sim *oc__rwrht_sim_of(const jobs *J, size_t i);

const oc_report *oc__rwrht_rep_of(const jobs *J, size_t i);

/* The parameters a run used, as "g=32" or "m=129 alltoall=8 pieces=1". */
void oc__rwrht_used_text(char *buf, size_t len, const jobs *J, size_t i);

uint32_t oc__rwrht_used_u32(const jobs *J, size_t i, const char *key);

/* The four DNN models of IV.A from the models file; the normaliser is GoogLeNet (IV.B). */
int oc__rwrht_read_models(wmodel *out, size_t *nm, size_t *norm, char *why, size_t whylen);

/* --sizes: each size in place of a model's gradient, in increasing order. The paper normalises
 * by GoogLeNet, the smallest of its four gradients, so the smallest size is the normaliser. */
int oc__rwrht_read_sizes(wmodel *out, size_t *nm, size_t *norm, const char *text, char *why,
                         size_t whylen);

extern const fig_algo oc__rwrht_fig4_algos[FIG_ALGOS];

extern const fig_algo oc__rwrht_fig5_algos[FIG_ALGOS];

/* The ring algorithms re-run per row: Fig. 4's Ring, H-Ring (g ~ 5, spread=0), BT and the seed's
 * WRHT at its first N, and Fig. 5's seed WRHT at its first N (the fat-tree's are the figure's). */
extern const size_t oc__rwrht_sens_fig4[4];

const char *oc__rwrht_ring_net(char *buf, size_t len, uint32_t w);

/* Ring and H-Ring on the ring: N chunks, so the reduction verifier is quadratic in N. Re-costing
 * (steps x one step) needs every step to cost the same, which spread=0 does not give: those runs
 * are always simulated. */
int oc__rwrht_chunked(const fig_algo *a);

/* The divisor of N nearest g (the smaller of two as near): H-Ring's groups must divide N. */
uint32_t oc__rwrht_near_divisor(uint32_t N, uint32_t g);

/* Whether (algorithm, N) is re-costed rather than simulated for every model. */
int oc__rwrht_recost(const fig_algo *a, uint32_t N);

void oc__rwrht_print_networks(FILE *f, const wrht_data *d);

int oc__rwrht_print_models(FILE *f, const wrht_data *d);

/* Table II: the parameters the paper gives against those our models ran with. */
int oc__rwrht_print_table2(FILE *f, const wrht_data *d);

int oc__rwrht_print_table1(FILE *f, const wrht_data *d);

/* Theorem 1: "the lower bound on the communication time by WRHT" is 2 ceil(log_m N) (d/B + a)
 * at Lemma 1's m = 2w+1. One step of the seed's WRHT (pieces=1) moves d: its time over its steps
 * is d/B + a on our model. The bound is tested against the seed's WRHT and against our search's
 * (which stripes d over spare wavelengths, so its step moves less than d). */
int oc__rwrht_print_theorem1(oc__repro *ctx, FILE *f, const wrht_data *d);

int oc__rwrht_print_example(FILE *f, const wrht_data *d);

void oc__rwrht_fmt_bytes(char *buf, size_t len, double b);

/* How a figure is normalised and which WRHT it shows, with the numbers that make it so. */
void oc__rwrht_print_fig_header(FILE *f, const wrht_data *d, const figure *F);

/* The paper's trends (IV.B, IV.C) against ours: each algorithm's time at the figure's last N over
 * its time at the first, split into the steps' and one step's share of the change, the verdict of
 * the paper's words per model (and of its orderings per point), each also a claim. */
int oc__rwrht_print_trends(oc__repro *ctx, FILE *f, const wrht_data *d, const figure *F, int which);

/* IV.B's per-model words on BT: "a good performance for the DNNs with lower sizes of transferred
 * data such as ResNet50 and GoogLeNet while showing poor performance in ... AlexNet and VGG16",
 * tested at every (N, model) of Fig. 4 as BT's rank among the paper's four bars (good: one of the
 * two fastest; poor: one of the two slowest), printed and a claim; nothing with --sizes. */
int oc__rwrht_bt_models(oc__repro *ctx, FILE *f, const wrht_data *d);

int oc__rwrht_print_figure(FILE *f, const wrht_data *d, const figure *F, int which);

int oc__rwrht_print_headline(oc__repro *ctx, FILE *f, const wrht_data *d);

int oc__rwrht_plan_sens(wrht_data *d);

int oc__rwrht_print_sens(FILE *f, const wrht_data *d);

int oc__rwrht_print_epoch(FILE *f, const wrht_data *d);

extern const sens_setting oc__rwrht_sens[SENS_ROWS];

#endif
