/*
 * reproduce_common.h — what every `opticoll reproduce PAPER` shares (internal to src/report).
 *
 * A reproduction prints tables whose every row shows a value three ways — the paper's printed
 * value, the paper's formula evaluated by us, our simulated value on a verified schedule — and a
 * one-line reason for every difference (DESIGN.md, "The papers are not always right"). This header
 * gives the pieces for that, so that every paper prints the same way:
 *
 *  - oc__cellf / oc__reason_add: formatting a cell, and building a reason clause by clause;
 *  - oc__table: a plain-text table with aligned columns whose last column (the reason) is free;
 *  - oc__sim and oc__simulate: one run through the public pipeline (oc_run: generated, verified,
 *    mapped, checked, costed), reduced to the figures a table needs; a run the library refuses as
 *    too big (OC_ETOOBIG) is a "not simulated" cell, every other failure is an error;
 *  - oc__sim_batch: many independent runs, on two threads, each job keeping its own result and
 *    reason, with the error of the first failing job (in list order) returned, so that the output
 *    and the failure do not depend on the thread timing;
 *  - oc__print_ring_network: the ring model's parameters as a run used them (from the report's
 *    accessors), and what one step costs;
 *  - the reproductions themselves, which reproduce.c lists in its table of papers.
 *
 * Values a paper prints never live here: each reproduction keeps them in its own clearly named
 * "printed by the paper" table.
 */
#ifndef OC_REPRODUCE_COMMON_H
#define OC_REPRODUCE_COMMON_H

#include "core/core.h"

#include <stdio.h>

enum { OC__MAX_COLS = 12, OC__REASON_LEN = 1024, OC__CELL_LEN = 160 };

/* ---- text ------------------------------------------------------------------------------------ */

/* Formats into buf (always terminated). */
void oc__cellf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends one clause to a reason, separated from the previous one by "; ". */
void oc__reason_add(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ceil() that forgives the last bits of a pow() or a log(): a value a hair above a whole number
 * (1024^1.2 = 4096, log(1000) / log(10) = 3) is that whole number. */
double oc__ceil_exact(double x);

/* ---- tables ---------------------------------------------------------------------------------- */

/* A plain-text table: a header row and rows of strings, printed with aligned columns. The last
 * column is not padded, so a long reason does not widen the others. */
typedef struct oc__table {
    size_t ncols, nrows, cap;
    const char *head[OC__MAX_COLS];
    char **cells; /* nrows * ncols owned strings */
} oc__table;

void oc__table_init(oc__table *t, size_t ncols, const char *const *head);
void oc__table_free(oc__table *t);
/* Appends a row of t->ncols strings (copied); 0 or OC_ENOMEM. */
int oc__table_row(oc__table *t, const char *const *cells);
void oc__table_print(const oc__table *t, FILE *f);

/* ---- runs ------------------------------------------------------------------------------------ */

/* One run to make: the fields of an oc_request, with the parameters as text. */
typedef struct oc__sim_req {
    oc_collective coll;
    const char *algo, *network;
    uint32_t nodes;
    uint64_t bytes;
    char params[96]; /* algorithm parameters "k=v k=v" ("" = none: the algorithm's defaults) */
    char net[96];    /* network parameters "k=v k=v" ("" = the model's defaults) */
    int data_check;  /* also execute with real data (oc_request.data_check) */
} oc__sim_req;

/* What one verified run gave, or why it was not simulated. */
typedef struct oc__sim {
    int ok; /* 1: simulated; 0: refused as too big, reason in `note` */
    uint64_t steps, rounds, lb;
    int has_lb, has_lib_formula, data_checked;
    double time_s, lib_formula;
    char note[256];
} oc__sim;

/* Runs req through oc_run. OC_ETOOBIG leaves s->ok = 0 and returns 0; every other error is
 * returned with the reason in `why`. With `keep`, the report is handed to the caller (NULL when
 * not simulated) instead of freed. */
int oc__simulate(const oc__sim_req *req, oc__sim *s, oc_report **keep, char *why, size_t whylen);

/* One job of a batch: the request, whether to keep the report, and what came back. */
typedef struct oc__sim_job {
    oc__sim_req req;
    int keep;          /* hand the report back in `report` */
    oc__sim sim;       /* the result */
    oc_report *report; /* with keep: the report (the caller frees it), NULL if not simulated */
    int rc;            /* the job's own return code */
    char why[384];     /* and reason */
} oc__sim_job;

/* Runs jobs[0 .. n) on up to two threads (jobs are taken in list order, so put the longest
 * first). Returns 0, or the error of the first failing job in list order with its reason in
 * `why`; on failure no report is kept. */
int oc__sim_batch(oc__sim_job *jobs, size_t n, char *why, size_t whylen);

/* "72" or "not simulated: <reason>". */
void oc__sim_steps_cell(char *buf, size_t len, const oc__sim *s);

/* The clause on how mapped steps compare with the load bound of the network model. */
void oc__reason_mapping(char *buf, size_t len, const oc__sim *s);

/* Notes a disagreement between a reproduction's evaluation of a formula (`ours`) and the
 * library's own closed form. `exact` is the value before rounding up, or NAN: when it is a whole
 * number and the library is one above, the library's ceil() saw pow() land a hair above it. */
void oc__reason_library(char *buf, size_t len, const oc__sim *s, double ours, double exact);

/* "m=48 alltoall=21" for a kv list (the parameters a run used: oc_report_params). */
void oc__kv_text(char *buf, size_t len, const oc_kv *kv);

/* A named number of the report (oc_report_number), or NAN when absent or rep is NULL. */
double oc__report_figure(const oc_report *rep, const char *key);

/* ---- the network, as the runs used it -------------------------------------------------------- */

/* A network parameter the run used ("wavelengths", "reconfig_us", ...), or "?". */
const char *oc__net_param(const oc_report *rep, const char *key);

/* Prints the ring model's parameters as `rep` used them and the time of one step moving a block
 * of `block` bytes. `example` names the small example that runs with the paper's 2 wavelengths
 * ("the III.C example"). */
void oc__print_ring_network(FILE *f, const oc_report *rep, uint64_t block, const char *example);

/* ---- the reproductions (reproduce.c lists them) -----------------------------------------------
 */

int oc__reproduce_optree(FILE *f, char *why, size_t whylen);
int oc__reproduce_wrht(FILE *f, char *why, size_t whylen);

/* ---- figures and tables for `reproduce --out` (figures.c) ------------------------------------
 *
 * A reproduction hands the series of each figure it reproduces to oc__figure / oc__figure_series,
 * and every table it prints is kept as CSV (oc__table_print calls oc__figure_table). These are
 * no-ops unless the caller asked for the figures (oc_reproduce_figures), which collects them for
 * the calling thread only, so that concurrent reproductions do not mix. */

/* Starts figure `id` ("fig4"): its title, axis labels (with units), log axes, and a short quote
 * or paraphrase of the paper's own caption for the figure. */
void oc__figure(const char *id, const char *title, const char *xlabel, const char *ylabel, int logx,
                int logy, const char *paper_caption);
/* Adds one line to the figure last started: n points (x[i], y[i]); a NAN y is a gap. */
void oc__figure_series(const char *name, size_t n, const double *x, const double *y);
/* Keeps a printed table as CSV. */
void oc__figure_table(const oc__table *t);

#endif /* OC_REPRODUCE_COMMON_H */
