/*
 * reproduce_common.h — the reproduction room (src/reproduce): what every `opticoll reproduce PAPER`
 * shares. The room stands on the text tables (src/report/table.h) and the batches of verified runs
 * (src/run/batch.h); one file per paper (reproduce_optree.c, _wrht, _lumorph, _star, _aas),
 * reproduce.c lists them, figures.c collects their figures for `reproduce --out`.
 *
 * A reproduction prints tables whose every row shows a value three ways — the paper's printed
 * value, the paper's formula evaluated by us, our simulated value on a verified schedule — and a
 * one-line reason for every difference (the papers are not always right). This header
 * gives the pieces for that, so that every paper prints the same way:
 *
 *  - oc__cellf / oc__reason_add and oc__table (report/table.h): cells, reasons, text tables;
 *  - oc__sim and oc__simulate, oc__sim_batch (run/batch.h): runs through the public pipeline
 *    reduced to the figures a table needs; a run the library refuses as too big (OC_ETOOBIG) is
 *    a "not simulated" cell, every other failure is an error;
 *  - oc__print_ring_network: the ring model's parameters as a run used them (from the report's
 *    accessors), and what one step costs;
 *  - the reproductions themselves, which reproduce.c lists in its table of papers.
 *
 * Values a paper prints never live here: each reproduction keeps them in its own clearly named
 * "printed by the paper" table.
 */
#ifndef OC_REPRODUCE_COMMON_H
#define OC_REPRODUCE_COMMON_H

#include "report/table.h"
#include "run/batch.h"

#include <stdio.h>

/* "72" or "not simulated: <reason>". */
void oc__sim_steps_cell(char *buf, size_t len, const oc__sim *s);

/* The clause on how mapped steps compare with the load bound of the network model. */
void oc__reason_mapping(char *buf, size_t len, const oc__sim *s);

/* Notes a disagreement between a reproduction's evaluation of a formula (`ours`) and the
 * library's own closed form. `exact` is the value before rounding up, or NAN: when it is a whole
 * number and the library is one above, the library's ceil() saw pow() land a hair above it. */
void oc__reason_library(char *buf, size_t len, const oc__sim *s, double ours, double exact);

/* ---- the network, as the runs used it -------------------------------------------------------- */

/* Prints the ring model's parameters as `rep` used them and the time of one step moving a block
 * of `block` bytes. `example` names the small example that runs with the paper's 2 wavelengths
 * ("the III.C example"). */
void oc__print_ring_network(FILE *f, const oc_report *rep, uint64_t block, const char *example);

/* ---- the reproductions (reproduce.c lists them) -----------------------------------------------
 */

/* A reproduction's context: the reader's settings and the paper's claims table (reproduce.c). */
typedef struct oc__repro oc__repro;

/* The reader's settings (never NULL: all zero when none were given). reproduce.c has already
 * refused the settings a paper does not take (its `takes` bits in the table of papers). */
const oc_reproduce_settings *oc__repro_settings(const oc__repro *r);

/* A claim's verdict, computed from the runs it cites: the claim speaks of `of` points (sizes, GPU
 * counts, models, cases, or 1 for a single number) and our runs bear it out at `hit` of them.
 * Words (oc__verdict_word): "holds" when hit = of > 0, "partly" when 0 < hit < of, "does not
 * hold" when hit = 0 < of, "not simulated" when of = 0, "bracketed" (below). */
typedef struct oc__verdict {
    size_t hit, of;
    /* A number that depends on a setup the paper leaves open (WRHT's group size, H-Ring's g): with
     * `bracketed` set, the paper's number lies in [lo, hi], ours under the paper's own setup and
     * under our search's best: the word is "bracketed" and the counts are the setups run. */
    int bracketed;
    double lo, hi;
} oc__verdict;
const char *oc__verdict_word(oc__verdict v);
/* A single number against a threshold: holds (1 of 1) when ok, else does not (0 of 1); not
 * simulated when ours is NAN. */
oc__verdict oc__verdict_one(double ours, int ok);
/* A number under two setups, the paper's own (`seed`) and our search's best (`best`): holds at
 * the setups within `tol` of the paper's number (same unit); when neither is and the paper's
 * number lies between them, bracketed by the two. */
oc__verdict oc__verdict_setups(double paper, double seed, double best, double tol);

/* One headline claim of the paper (its abstract, introduction or conclusion), or a claim of its
 * body that the runs test (a trend, an ordering): the claim, where the paper makes it and which
 * figure or table its number comes from, the unit, the paper's number as it prints it (`decimals`
 * digits after the point; 0: as few as it needs), ours for the same experiment (NAN: not
 * simulated), the verdict and the reason for a difference ("" when there is none). */
typedef struct oc__claim_in {
    const char *claim, *source, *unit;
    double paper;
    int decimals;
    double ours;
    oc__verdict verdict;
    const char *reason;
} oc__claim_in;
/* Adds it to the claims table printed first. Strings are copied. 0 or OC_ENOMEM. */
int oc__claim(oc__repro *r, const oc__claim_in *c);

/* A claims table as a list (figures.c): kept by reproduce.c while the paper runs, printed first,
 * then handed to the figures collector when there is one. */
typedef struct oc__claim_entry {
    char *claim, *source, *unit, *reason;
    double paper, ours;
    int decimals;
    oc__verdict verdict;
} oc__claim_entry;
typedef struct oc__claim_list {
    oc__claim_entry *v;
    size_t n;
} oc__claim_list;
int oc__claims_add(oc__claim_list *l, const oc__claim_in *c);
void oc__claims_clear(oc__claim_list *l);

/* The context itself (reproduce.c fills it; a paper reads it through oc__repro_settings and
 * writes it through oc__claim, both in reproduce_common.c so that no paper calls back into the
 * file that calls it). */
struct oc__repro {
    oc_reproduce_settings set;
    oc__claim_list claims;
};
/* --sizes of a paper: a size list as `sweep -s` takes it (oc_parse_list), every size at least one
 * byte, at most `max` of them, into out[0 .. *n); OC_EINVAL with a reason naming the paper. */
int oc__repro_sizes(const char *paper, const char *text, uint64_t *out, size_t max, size_t *n,
                    char *why, size_t whylen);

/* Prints the claims table (nothing when the list is empty). */
void oc__claims_print(const oc__claim_list *l, FILE *f);
/* Hands the list to the calling thread's figures collector (the list is left empty); without a
 * collector the list is cleared. */
void oc__figures_take_claims(oc__claim_list *l);

/* One function per paper (reproduce.c lists them). */
int oc__reproduce_optree(oc__repro *r, FILE *f, char *why, size_t whylen);
int oc__reproduce_wrht(oc__repro *r, FILE *f, char *why, size_t whylen);
int oc__reproduce_star(oc__repro *r, FILE *f, char *why, size_t whylen);
int oc__reproduce_lumorph(oc__repro *r, FILE *f, char *why, size_t whylen);
int oc__reproduce_aas(oc__repro *r, FILE *f, char *why, size_t whylen);
/* Not a seed paper: proven optima of small instances (src/synth) against the algorithms. */
int oc__reproduce_optima(oc__repro *r, FILE *f, char *why, size_t whylen);

/* ---- figures and tables for `reproduce --out` (figures.c) ------------------------------------
 *
 * A reproduction hands the series of each figure it reproduces to oc__figure / oc__figure_series,
 * and every table it prints is kept as CSV (oc__table_print calls oc__figure_table). These are
 * no-ops unless the caller asked for the figures (oc_reproduce_collect), which collects them for
 * the calling thread only, so that concurrent reproductions do not mix. */

/* Starts figure `id` ("fig4"): its title, axis labels (with units), log axes, and a short quote
 * or paraphrase of the paper's own caption for the figure. */
void oc__figure(const char *id, const char *title, const char *xlabel, const char *ylabel, int logx,
                int logy, const char *paper_caption);
/* Adds one line to the figure last started: n points (x[i], y[i]); a NAN y is a gap. */
void oc__figure_series(const char *name, size_t n, const double *x, const double *y);
/* Runs fn(arg) with the calling thread's figures and tables collected into *out (the caller
 * frees it with oc_figures_free): what oc_reproduce_collect does around oc_reproduce. */
int oc__figures_collect(int (*fn)(void *arg, char *why, size_t whylen), void *arg, oc_figures **out,
                        char *why, size_t whylen);

/* The all-port hypercube's schedule table of Q_n (aas/hypercube_table.h) in the notes' layout
 * (reproduce_aas.c). */
void oc__hcube_table_print(FILE *f, unsigned n, const uint32_t *r);

#endif /* OC_REPRODUCE_COMMON_H */
