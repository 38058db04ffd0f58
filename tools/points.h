/*
 * points.h — what `sweep`, `tune` and `run -a auto` share: their options (a collective, a network,
 * algorithm, node and size lists, -j) and the runs of every point (algorithm x N x size), each
 * through oc_run and so generated, verified and mapped, on every core and across MPI ranks
 * (scaleout.h).
 */
#ifndef OC_POINTS_H
#define OC_POINTS_H

#include "cli.h"

#include <cjson/cJSON.h>

#include <stdint.h>

enum { MAX_LIST = 4096, MAX_POINTS = 100000 };

typedef struct sweep_args {
    options o;          /* the common options (parse_options) */
    oc_request base;    /* collective, network, root, params, net_params, data_check */
    const char **algos; /* the algorithms, in registry order or as -a lists them */
    size_t nalgos;
    uint64_t nodes[MAX_LIST], sizes[MAX_LIST]; /* ascending, no repeats */
    size_t nnodes, nsizes;
    unsigned jobs;
    const char *csv, *plot, *decisions;
    char *algo_text; /* the copy of -a that `algos` points into */
} sweep_args;

/* Parses the options of `cmd` (sweep, tune) into a: returns 0, -1 when --help was asked (`help`
 * printed), or an exit code after printing one line. */
int sweep_parse(int argc, char **argv, const char *cmd, const char *help, sweep_args *a);
void sweep_args_free(sweep_args *a);

/* The outcome of one point. */
enum { POINT_RAN = 0, POINT_NOT_RUN = 1, POINT_FAILED = 2 };

typedef struct point_result {
    int status, err; /* POINT_...; err: the library error of a failed point */
    size_t algo;     /* index into a->algos */
    uint32_t nodes;
    uint64_t bytes;
    uint64_t steps, rounds;
    double time_s;
    char params[256]; /* the parameters the run used, "k=v k=v" */
    char why[384];    /* why it was not run, or why it failed */
    char *csv, *json; /* the run rendered as a CSV line and a JSON object (or the not-run entry) */
} point_result;

/* Point i is (nodes[i / (nsizes nalgos)], sizes[i / nalgos % nsizes], algos[i % nalgos]). */
size_t sweep_npoints(const sweep_args *a);

/* Runs every point. On rank 0 returns 0 with *out (sweep_npoints entries, freed with
 * points_free); on other ranks returns 0 with *out NULL (the caller ends quietly); on failure an
 * exit code after one line on stderr. A point that fails is not a failure here: see
 * points_first_failure. */
int points_run(const sweep_args *a, point_result **out);
void points_free(point_result *p, size_t n);
/* The exit code of the first failed point (in point order), after one line; 0 when none failed. */
int points_first_failure(const sweep_args *a, const point_result *p, size_t n);

/* "4 KiB", "1 MiB", "1000 B": exact binary multiples get a unit. */
void size_text(char *buf, size_t len, uint64_t bytes);

/* JSON files whose messages name FILE:LINE (cJSON keeps no positions). `text` is what cJSON
 * parsed into `root`. The line where `item` starts (0 when it is not in root's tree): */
unsigned json_line(const char *text, const cJSON *root, const cJSON *item);
/* The line of byte `offset` (e.g. where cJSON stopped on an error): */
unsigned json_offset_line(const char *text, size_t offset);
/* The first member of an object whose key an earlier member of the same object already has,
 * anywhere in the tree (NULL: none, or *oom when memory ran out). O(n log n). */
const cJSON *json_duplicate(const cJSON *root, int *oom);

#endif
