/*
 * report.h — the result of one run (the public oc_report), filled by the pipeline, the algorithm
 * (its closed forms) and the network model (steps, time, breakdown), and written as JSON, text or
 * CSV by report.c.
 */
#ifndef OC_REPORT_H
#define OC_REPORT_H

#include "core/core.h"

#include <stdio.h>

typedef struct oc__num {
    char key[48];
    double value;
} oc__num;

struct oc_report {
    char collective[24], algorithm[40], network[24];
    uint32_t nodes, root, q, chunks;
    uint64_t bytes, chunk_bytes;
    oc_kv *params;     /* the algorithm parameters actually used */
    oc_kv *net_params; /* the network parameters actually used */
    uint64_t rounds, transfers, units, steps, redundant;
    int has_lb, has_formula, has_time_formula;
    uint64_t steps_lb;
    double steps_formula, time_s, time_formula_s;
    int verified, data_checked;
    char data_note[160];
    oc__num *nums; /* breakdown and extra figures, in insertion order */
    size_t nnums, capnums;
    char **notes;
    size_t nnotes, capnotes;
    /* `run --links` (links.c): the "links" JSON object and its text block, or NULL */
    char *links_json, *links_text;
};

oc_report *oc__report_new(void);
int oc__report_num(oc_report *r, const char *key, double value);
int oc__report_note(oc_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* JSON output helper shared by the report and the schedule exporter (strings: the public
 * oc_write_json_string). */
void oc__json_kv(FILE *f, const oc_kv *kv);

#endif
