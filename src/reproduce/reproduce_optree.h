/*
 * reproduce_optree.h — what the five files of `opticoll reproduce optree` share: the paper's
 * printed values and formulas, one simulation and its reasons, the experiments' settings and
 * the types of each part (reproduce_optree.c's essay says what is reproduced and how).
 *
 * The files, each one job, in the order they call one another (no file calls one above it):
 *   reproduce_optree_data.c     the paper's numbers, its theorems evaluated, one simulation read
 *                               into a sim, and the reasons built from a run;
 *   reproduce_optree_tables.c   the header, Table I and the III.C example;
 *   reproduce_optree_depth.c    Fig. 4, the depth sweep, and its claims;
 *   reproduce_optree_compare.c  Figs. 5 and 6, the headline averages and their claims, and the
 *                               sensitivity section;
 *   reproduce_optree.c          the reader's settings and oc__reproduce_optree, which runs the
 *                               parts and prints them in order.
 * Private to src/reproduce: nothing outside includes it.
 */
#ifndef OC_REPRODUCE_OPTREE_H
#define OC_REPRODUCE_OPTREE_H

#include "algo/radix.h"
#include "reproduce/reproduce_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_STAGES = 40, MAX_DEPTH = 24 };

/* ---- values printed by the OpTree paper ------------------------------------------------------ */

/*
 * Everything the OpTree seed prints that this reproduction compares against. These numbers appear
 * only in the "paper (printed)" column (and as the parameters the paper states, such as N = 1024
 * and w = 64); the formula and simulated columns are always computed.
 */
typedef struct optree_printed {
    /* Table I, "Number of steps N = 1024, w = 64". */
    uint32_t table1_nodes, table1_wavelengths;
    uint64_t ring, ne, wrht, onestage, optree;
    uint32_t optree_kstar;
    /* Section III.C: 16 nodes, 2 wavelengths; per-stage wavelength counts and steps. */
    uint32_t example_nodes, example_wavelengths;
    uint64_t one_wl[1], one_steps[1];
    uint64_t two_wl[2], two_steps[2];
    uint64_t three_wl[3], three_steps[3];
    uint64_t one_total, two_total, three_total;
    /* Fig. 4: nodes, message size, wavelengths, and the optimum depth the text states (0: the
     * sentence is cut off in the extraction and the value is not legible). */
    uint32_t fig4_nodes[4];
    uint64_t fig4_bytes;
    uint32_t fig4_wavelengths;
    uint32_t fig4_optimum[4];
    /* The averages, in percent, of OpTree's reduction of the all-gather time against WRHT, Ring
     * and NE. body_vs: "on average ... under different numbers of nodes" (I, IV.C: Fig. 5,
     * N = 1024 and 2048, 64 wavelengths). abstract_vs: the abstract's and the conclusion's
     * headline, which is the mean of body_vs and fig6_vs below (72.21 = (56.36 + 88.06) / 2). */
    double abstract_vs[3], body_vs[3]; /* WRHT, Ring, NE */
    uint32_t fig5_nodes[2], fig5_wavelengths;
    /* Fig. 6 (IV.C): N = 1024 at 96 and 128 wavelengths; the averages of OpTree's reduction
     * "in the 1024-node optical interconnect system under different wavelengths" (I, IV.C). */
    double fig6_vs[3]; /* WRHT, Ring, NE */
    uint32_t fig6_nodes, fig6_wavelengths[2];
} optree_printed;

enum { NSIZES = 7, MAX_SIZES = 64 }; /* NSIZES: oc__roptree_headline_sizes' count (checked there) */

/*
 * The experiments' settings: the paper's, or the reader's (`reproduce optree -w -n --sizes`).
 * -n replaces every experiment's node count (Table I, Fig. 4's four, Fig. 5's two, Fig. 6's one);
 * -w replaces the default 64 wavelengths (Table I, Fig. 4, Fig. 5) and Fig. 6 runs at 1.5 w and
 * 2 w (the paper's 96 and 128 are 1.5 and 2 times its 64); --sizes replaces the message sizes of
 * Figs. 5 and 6 (the figures over message sizes). The III.C example is a worked example at 16
 * nodes and 2 wavelengths and keeps them. The paper's printed values belong to the paper's
 * settings: at others the "paper (printed)" cells say so and compare nothing.
 */
enum {
    FIG4_N = sizeof((optree_printed *)0)->fig4_nodes / sizeof((optree_printed *)0)->fig4_nodes[0]
};

typedef struct optree_cfg {
    uint32_t table1_N, w;
    uint32_t fig4_nodes[4], fig5_nodes[2], fig6_N, fig6_w[2];
    size_t nfig4, nfig5;
    uint64_t sizes[MAX_SIZES];
    size_t nsizes;
    int paper_nw; /* 1: N and w are the paper's, so its printed values apply */
} optree_cfg;

/*
 * WRHT extended to all-gather (III.D.2), with p the group size and theta = ceil(log_p N) levels:
 *   Table I:  ceil((N-p)/(p-1)) + ceil((theta-1) N/p) + 1
 *   the text: 1 + ceil((N-p)/(p-1)) + (theta-1) p^(theta-1), or ... + theta p^(theta-1)
 * The text's two cases mirror the all-reduce's (wrht III.D): the first when the top of the tree
 * ends with an all-to-all among m* = ceil(N / p^(theta-1)) representatives, which the WRHT seed
 * allows when ceil(m*^2/8) <= w.
 */
typedef struct wrht_ag {
    uint32_t p, theta;
    double table1, text_a2a, text_plain;
    int a2a; /* the seed's all-to-all rule holds */
} wrht_ag;

/*
 * The per-stage wavelength arithmetic of section III.C and of the proof of Theorem 1, for any
 * radices m_1 .. m_k (stage 1 first): stage 1 is ceil(N / m_1) evenly spaced subsets sharing the
 * ring, each needing ceil(m_1^2 / 8) wavelengths (Lemma 1); stage j >= 2 is W_j = m_(j+1) ... m_k
 * interleaved line subsets, each needing floor(m_j^2 / 4) wavelengths per block, and every node
 * sends R_j = m_1 ... m_(j-1) blocks. A stage takes ceil(wavelengths / w) steps. For 4x4 on 16
 * nodes this is the paper's 4 * ceil(4^2/8) = 8 and 4 * floor(4^2/4) = 16; for 2x3x3 its 8, 12
 * and 12. `exact1` is the same count with stage 1's m_1^2 / 8 not rounded up per subset.
 */
typedef struct stage_arith {
    uint32_t k;
    uint64_t wl[MAX_STAGES], steps[MAX_STAGES], total;
    uint64_t total_exact1; /* stage 1 with m_1^2/8 unrounded */
    double wl1_exact;
} stage_arith;

/* ---- running one simulation ------------------------------------------------------------------ */

/* A verified run (r) and what an OpTree table needs besides: the depth, the radices and the tree
 * positions the schedule used, and the library's own Theorem 2 k*. */
typedef struct sim {
    oc__sim r;
    uint32_t k, m; /* m: WRHT's group size */
    double positions, lib_kstar;
    char radices[128], used[128];
} sim;

/* ---- part 1: Table I ------------------------------------------------------------------------- */

typedef struct table1_data {
    sim ring, ne, onestage, optree_kstar, optree_ours, wrht_seed, wrht_ours;
    uint32_t kstar;
    double kstar_cont;
} table1_data;

/* ---- part 2: the 16-node, 2-wavelength example of section III.C ------------------------------ */

typedef struct example_data {
    sim one, two, three, best3;
} example_data;

/* ---- part 3: Fig. 4, the depth sweep --------------------------------------------------------- */

typedef struct sweep {
    uint32_t N, w, kmax;
    uint32_t
        printed_opt; /* the optimum the text prints for this N and w (0: none, or not legible) */
    sim runs[MAX_DEPTH]; /* runs[k - 1]: the best tree of depth k (our search, k=K) */
    sim tree[MAX_DEPTH]; /* tree[k - 1]: the paper's m-ary tree of depth k (near-equal radices) */
    double thm1[MAX_DEPTH];
    uint32_t best[MAX_DEPTH];
    size_t nbest;
    const sim *bestrun;
} sweep;

/* ---- part 4: Figs. 5 and 6 and the headline averages ------------------------------------------
 */

/* The algorithms of Figs. 5 and 6 (IV.C), OpTree first; WRHT both at the seed's group size and at
 * ours (our default: the search's m), which is the WRHT the claims compare with. */
enum { HL_OPTREE, HL_WRHT_SEED, HL_WRHT_OURS, HL_RING, HL_NE, HL_ALGOS };

/* One of the paper's comparisons: its points (N, w), each over the message sizes, every algorithm
 * at every point. Fig. 5 varies N at w = 64, Fig. 6 varies w at N = 1024. */
typedef struct comparison {
    const char *id;      /* "fig5" for reproduce --out */
    uint32_t N[2], w[2]; /* the points */
    size_t npt;
    const double *printed; /* the paper's averages vs WRHT, Ring, NE (NULL: other settings) */
    oc__sim_job *jobs;     /* [point][size][algorithm] */
    size_t n;
    /* per algorithm: the mean, least and greatest reduction over the points run, their count and
     * how many OpTree does not win; the paper's formulas' mean over the points */
    double mean[HL_ALGOS], lo[HL_ALGOS], hi[HL_ALGOS], fmean[HL_ALGOS], fmean_t1[HL_ALGOS];
    size_t k[HL_ALGOS], fk[HL_ALGOS], slower[HL_ALGOS];
    char reason[3][OC__REASON_LEN]; /* the reason of each claims baseline's row */
    const char *net_extra;          /* ring settings besides w ("" or NULL: the seed's) */
} comparison;

/* ---- part 7: sensitivity ----------------------------------------------------------------------
 */

/* The headline reductions at Fig. 5's first point again, with one number we chose changed on the
 * ring: the O/E/O clock (the seeds give none; ours is an assumed 1 GHz) and the fibres per
 * direction (the seed's simulation is a double ring; TeraRack's hardware has two a direction).
 * Over at most three of the sizes (the least, the middle, the largest) to keep it short. */
enum { SENS_ROWS = 5 };

/* ---- shared between the files -------------------------------------------------------------- */

extern const optree_printed oc__roptree_paper;

/* The message sizes of the headline points. IV.C's range is garbled in the extraction ("with
 * message sizes ranging 164 wavelengths"); these are ours, not the paper's: 1 MiB .. 64 MiB per
 * node in powers of two. In the paper's model (and ours) every step of these algorithms costs
 * the same d/B + a, so the formula's reductions do not depend on the size at all. */
extern const uint64_t oc__roptree_headline_sizes[NSIZES];

/* Theorem 1 (eq. 1) before rounding up: (2k - 1) N^(1 + 1/k) / 8w. */
double oc__roptree_theorem1_exact(double N, double k, double w);

/* Theorem 1: S = ceil((2k - 1) N^(1 + 1/k) / 8w). At k = 1 it is the one-stage count. */
double oc__roptree_theorem1(double N, double k, double w);

/* Theorem 2 (eq. 2) before rounding: (ln N + sqrt(ln N (ln N - 2))) / 2, defined for ln N >= 2. */
double oc__roptree_theorem2_continuous(double N);

uint32_t oc__roptree_theorem2(double N);

/* Theorem 2 read as the text below eq. (2) describes its brackets, "the integer rounding
 * operation": the continuous optimum rounded to the nearest whole depth (at least 1). */
uint32_t oc__roptree_theorem2_rounded(double N);

/* Theorem 3 (and eq. 3) as printed: (d/B + a) ceil(N m* log_m* N / 4w) with m* = N^(1/k*), so
 * log_m* N = k* and the steps are ceil(k* N^(1+1/k*) / 4w). */
double oc__roptree_theorem3(double N, double k, double w);

/* Theorem 3's proof as printed: (d/B + a) ceil((2k*-1) N / 8w), Theorem 1 without N^(1/k*). */
double oc__roptree_theorem3_proof(double N, double k, double w);

wrht_ag oc__roptree_wrht_allgather(uint32_t N, uint32_t p, uint32_t w);

void oc__roptree_paper_stages(uint32_t N, const uint32_t *m, uint32_t k, uint64_t w,
                              stage_arith *a);

/* "8, 16 wl -> 4 + 8 = 12" for the given per-stage counts. */
void oc__roptree_format_stages(char *buf, size_t len, const uint64_t *wl, const uint64_t *steps,
                               uint32_t k, uint64_t total);

/* Parses "4x4x2" into m[]; 0 or OC_EINVAL. */
int oc__roptree_parse_radices(const char *text, uint32_t *m, uint32_t *k);

extern void oc__roptree_sim_read(sim *s, const oc_report *rep);
;

/* Runs the all-gather `algo` on the ring with N nodes, w wavelengths and `bytes` per node, with one
 * optional algorithm parameter key=value. OC_ETOOBIG leaves s->r.ok = 0 and returns 0; every other
 * error is returned. With `keep`, the report is handed to the caller instead of freed. */
int oc__roptree_simulate(const char *algo, uint32_t N, uint32_t w, uint64_t bytes, const char *key,
                         const char *value, int data_check, sim *s, oc_report **keep, char *why,
                         size_t whylen);

/* The OpTree figures of a report into s (besides s->r, which the run filled). */
void oc__roptree_sim_read(sim *s, const oc_report *rep);

/*
 * Why an OpTree schedule's mapped steps differ from Theorem 1 at its depth: Theorem 1 assumes one
 * real radix m = N^(1/k), a tree that exactly covers N nodes and a single rounding over all stages;
 * our tree has whole radices, may cover more positions than nodes, and every stage is mapped on
 * its own onto the heaviest link.
 */
void oc__roptree_reason_optree(char *buf, size_t len, uint32_t N, const sim *s, double thm1);

/* "5, 6, 7" for the depths whose value equals the minimum. */
void oc__roptree_format_set(char *buf, size_t len, const uint32_t *ks, size_t n);

int oc__roptree_in_set(const uint32_t *ks, size_t n, uint32_t k);

/* A one-stage run against ceil(N^2/8w): that is the heaviest-link load bound, and by Lemma 1
 * (ceil(N^2/8) wavelengths suffice for the one-stage all-to-all on a ring, and are needed) a
 * schedule reaching it exists, so a gap is our circular-arc colouring heuristic's, not the
 * problem's. */
void oc__roptree_reason_colouring(char *buf, size_t len, const sim *s, double N, double w);

/* Theorem 2's k* both ways: eq. (2) prints ceil, the sentence under it calls the brackets "the
 * integer rounding operation". Says which reading gives `printed` (0: none printed) and what
 * Theorem 1 gives at each. */
void oc__roptree_reason_kstar(char *buf, size_t len, double N, double w, uint32_t printed);

void oc__roptree_print_header(FILE *f);

int oc__roptree_table1_run(const optree_cfg *c, table1_data *d, oc_report **first, char *why,
                           size_t whylen);

int oc__roptree_table1_print(FILE *f, const optree_printed *P, const optree_cfg *c,
                             const table1_data *d, const sim *sweep_best, uint32_t sweep_best_k,
                             const sim *paper_kstar);

int oc__roptree_example_run(const optree_printed *P, example_data *d, char *why, size_t whylen);

int oc__roptree_example_print(FILE *f, const optree_printed *P, const example_data *d);

/*
 * Runs every Fig. 4 sweep in one batch (two threads). Each depth k is run twice: the best tree of
 * depth k (our search over every radix list of that depth, `k=K`; at k = 1 the one tree, radix N)
 * — the cell the figure plots, since the figure compares depths, not radix choices — and the
 * paper's m-ary tree of that depth (near-equal radices), shown beside it. The sweep has many
 * large runs: the symbolic verifier and the resource check run on every schedule, the real-data
 * run is skipped to keep the reproduction short.
 */
int oc__roptree_sweep_run_all(const optree_cfg *c, sweep *sw, size_t n, char *why, size_t whylen);

int oc__roptree_sweep_print(FILE *f, const sweep *s);

/* Fig. 4's words (IV.B) as claims, under the paper's m-ary tree (near-equal radices) and under
 * the best tree of each depth (our search): the printed best depths, and for 512 nodes "the
 * performance remains stable at first and then increases dramatically" over depths 5 to 9
 * (stable: depths 5 and 6 within 3%; dramatically: depth 9 at least 20% above the least). */
int oc__roptree_sweep_claims(oc__repro *ctx, const sweep *sw, size_t n);

int oc__roptree_sweep_summary(FILE *f, const sweep *sw, size_t n);

int oc__roptree_comparison_run(const optree_cfg *g, comparison *c, char *why, size_t whylen);

void oc__roptree_comparison_free(comparison *c);

/* The means of every algorithm's reduction, 1 - T_OpTree / T_other, over the points run. */
void oc__roptree_comparison_stats(const optree_cfg *g, comparison *c);

int oc__roptree_comparison_print(FILE *f, const optree_cfg *g, comparison *c);

/* The sizes line: "1 MiB, 2 MiB, ..." */
void oc__roptree_print_sizes(FILE *f, const optree_cfg *g);

/* IV.C's orderings as claims: "OpTree is the lowest" and "Ring is the highest" at every (N or w,
 * size) point of the figure, with the seed's WRHT (p = 2w+1) among the others, and for Fig. 6
 * "the time of WRHT is smaller than Ring but slightly larger than NE when the wavelength is set
 * to 128", under the seed's WRHT and under our search's. */
int oc__roptree_comparison_order_claims(oc__repro *ctx, const optree_cfg *g, const comparison *c,
                                        int fig);

/* The headline (abstract, VI): the mean of the Fig. 5 and the Fig. 6 averages, and the claims. */
int oc__roptree_headline_print(FILE *f, oc__repro *ctx, const optree_printed *P,
                               const optree_cfg *g, const comparison *c5, const comparison *c6);

int oc__roptree_sens_print(FILE *f, const optree_cfg *g, char *why, size_t whylen);

#endif
