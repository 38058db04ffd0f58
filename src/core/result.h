/*
 * result.h — the result of one run (the public oc_report), filled by the pipeline, the algorithm
 * (its closed forms) and the network model (steps, time, breakdown), and returned by the pipeline.
 * It sits in the core so that everything that fills it stays below the rooms that read it: the
 * report room (src/report) writes it as JSON, text or CSV.
 */
#ifndef OC_RESULT_H
#define OC_RESULT_H

#include "core/core.h"

#include <stdio.h>

typedef struct oc__num {
    char key[48];
    double value;
} oc__num;

/* One entry of a parameter search's log (`run --explain`, the "search" JSON field). */
typedef enum {
    OC__CAND_MAPPED,  /* mapped on the network: steps and time are the model's */
    OC__CAND_PRUNED,  /* not mapped: its proven bound is worse than a mapped candidate */
    OC__CAND_FAMILY,  /* a whole family skipped by its proven bound (params: its description) */
    OC__CAND_REFUSED, /* the algorithm or the model refused it (reason) */
    OC__CAND_OVER     /* not mapped: over the search's transfer budget (reason) */
} oc__cand_status;

typedef struct oc__search_entry {
    oc_kv *params;   /* the candidate's parameters (NULL for a family) */
    char *text;      /* the parameters as "k=v k=v", or the family's description */
    char *reason;    /* refused / over budget: why; else NULL */
    int status;      /* oc__cand_status */
    uint64_t steps;  /* mapped */
    double time_s;   /* mapped */
    double bound_time_s;
    uint64_t bound_steps, count; /* count: candidates a family stood for (0: unknown) */
    const char *bound_name;
    uint64_t transfers; /* known ahead (oc__bound.transfers), else 0 */
    size_t offered; /* order of offer: ties go to the earliest (the simpler choice) */
} oc__search_entry;

typedef struct oc__search_log {
    const char *objective; /* "time" or "steps" */
    oc__search_entry *entry;
    size_t n, cap;
    size_t winner;    /* index into entry */
    size_t runner_up; /* the best mapped loser, or n when none */
    uint64_t mapped, pruned, families, refused, over;
    char *why_won; /* one sentence */
    int explain;   /* the request asked for the whole list in the JSON */
    /* the unit of the candidates' times, as the model's finish() set it (oc_report.time_unit) */
    char time_unit[8];
    double time_unit_value;
} oc__search_log;

void oc__search_log_free(oc__search_log *log);

struct oc_report {
    char collective[24], algorithm[40], network[24];
    uint32_t nodes, root, q, chunks;
    uint64_t bytes, chunk_bytes;
    oc_kv *params;     /* the algorithm parameters actually used */
    /* the network parameters actually used, as text for the reader: an algorithm never reads
     * them back (it gets the model's settings typed, oc__formula_in.cfg, core/netcfg.h) */
    oc_kv *net_params;
    uint64_t rounds, transfers, units, steps, redundant;
    int has_lb, has_formula, has_time_formula;
    uint64_t steps_lb;
    double steps_formula, time_s, time_formula_s;
    /* what time_formula_s is, a static string; NULL: the seed's own closed form ("seed formula") */
    const char *time_formula_label;
    /* The physical bound (src/bounds): the least steps and time of EVERY schedule the model
     * accepts for this collective, N and SIZE, whatever the algorithm; steps_lb above bounds only
     * what the model can do with this one schedule. The arguments are static strings. */
    int has_pbound;
    uint64_t pbound_steps;
    double pbound_time_s;
    const char *pbound_steps_arg, *pbound_time_arg;
    oc_loose_side pbound_gap_side; /* the side a gap points at (oc_physical_bound_info.gap_side) */
    int verified, data_checked;
    char data_note[160];
    oc__num *nums; /* breakdown and extra figures, in insertion order */
    size_t nnums, capnums;
    char **notes;
    size_t nnotes, capnotes;
    /* `run --links` (links.c): the "links" JSON object, or NULL (report.c writes its text) */
    char *links_json;
    /* the parameter search behind the parameters used, or NULL when there was none */
    oc__search_log *search;
    /* the unit of the times (oc_report_time_unit): "" for seconds; the star's "tau", whose
     * value in the times' scale is time_unit_value (set by the model's finish()) */
    char time_unit[8];
    double time_unit_value;
};

oc_report *oc__report_new(void);
int oc__report_num(oc_report *r, const char *key, double value);
int oc__report_note(oc_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


#endif
