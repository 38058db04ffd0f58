/*
 * perf.h — nccl-tests' report: the columns size, count, type, redop, root and,
 * per group of timings, time, algbw, busbw, as `opticoll perf` (the model's times) and
 * `opticoll-mpi --perf` (measured times) print them, and the same rows as JSON. perf.c holds the
 * bus-bandwidth factors and how a row's size and count follow from opticoll's SIZE.
 */
#ifndef OC_REPORT_PERF_H
#define OC_REPORT_PERF_H

#include "core/json.h"
#include "opticoll.h"

#include <stdint.h>
#include <stdio.h>

enum { OC__PERF_MAX_GROUPS = 4 };

/* One row: nccl-tests' size (bytes of the whole operation, as its -b/-e mean) and count
 * (elements per rank's call), the type and reduction names, the root (-1: none) and one time per
 * group of timings (seconds; 0 or less: not measured, printed as "-"). */
typedef struct oc__perf_row {
    uint64_t size, count;
    const char *type, *redop;
    int64_t root;
    double time_s[OC__PERF_MAX_GROUPS];
} oc__perf_row;

/* nccl-tests' bus-bandwidth factor of collective c on n ranks (doc/PERFORMANCE.md): all-reduce
 * 2(n-1)/n; reduce-scatter, all-gather, all-to-all, scatter and gather (n-1)/n; broadcast 1;
 * gossip (no nccl-tests counterpart; an all-gather in its data movement) (n-1)/n. */
double oc__perf_busbw_factor(oc_collective c, uint32_t n);
/* opticoll's SIZE for nccl-tests' size `size` of elements of tsize bytes on n ranks: the whole
 * elements that fit, per rank where SIZE is per rank (nccl-tests rounds its counts down too); 0
 * when not one element fits. */
uint64_t oc__perf_bytes(oc_collective c, uint32_t n, uint64_t size, uint32_t tsize);
/* The row for a run of c on n ranks with SIZE `bytes`: size, count, redop ("sum" for the
 * reductions, "none" otherwise), root (-1 where c has none); type and times are the caller's. */
oc__perf_row oc__perf_row_of(oc_collective c, uint32_t n, uint64_t bytes, uint32_t tsize,
                             uint32_t root);
/* nccl-tests' own layout (NVIDIA/nccl-tests src/util.cu: writeResultHeader, writeBenchmarkLine*,
 * writeResultFooter), printf for printf: a "#" line, the group line (groups[0] and [1] are
 * nccl-tests' "out-of-place" and "in-place", printed as its line prints them; further groups are
 * named centred over their columns), the column names size count type redop root, then per group
 * time algbw busbw #wrong, the units line; a row's numbers in nccl-tests' widths (getFloatStr: 2, 1
 * or 0 decimals, then an exponent, as the value grows), #wrong as "%6g" or "N/A" where nothing was
 * checked (its -c 0). ngroups: 2 (nccl-tests' halves) or more (extra groups after them, same
 * columns). */
void oc__perf_nccl_header(FILE *f, const char *const *groups, size_t ngroups);
/* One row; wrong[g] < 0 prints "N/A". */
void oc__perf_nccl_row(FILE *f, const oc__perf_row *r, const int64_t *wrong, size_t ngroups,
                       double factor);
/* The footer: "# Out of bounds values : N OK|FAILED", "# Avg bus bandwidth    : X " (X the mean
 * busbw over every measured time of every row and group, as nccl-tests averages both halves),
 * "#". */
void oc__perf_nccl_footer(FILE *f, int64_t out_of_bounds, double avg_busbw_GBps);
/* busbw in GB/s of a row's group g (0 when not measured). */
double oc__perf_busbw(const oc__perf_row *r, size_t g, double factor);
/* The row as JSON: size, count, type, redop, root and, for each group, an object named after it
 * with time_us, algbw_GBps and busbw_GBps (numbers; null where not measured); groups NULL: one
 * group, its three members in the row itself. Also busbw_factor. NULL: no memory. */
cJSON *oc__perf_row_json(const oc__perf_row *r, const char *const *groups, size_t ngroups,
                         double factor);

#endif
