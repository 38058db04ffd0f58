/*
 * points.h — what `sweep`, `tune` and `run -a auto` share in the CLI: their options (a collective,
 * a network, algorithm, node and size lists, -j) parsed into a sweep of the library (opticoll.h,
 * "sweeps"), whose points run on every core and across MPI ranks (scaleout.h).
 */
#ifndef OC_POINTS_H
#define OC_POINTS_H

#include "cli.h"

#include <stdint.h>

enum { MAX_LIST = 4096, MAX_POINTS = 100000 };

typedef struct sweep_args {
    options o;          /* the common options (parse_options) */
    oc_request base;    /* collective, network, root, params, net_params, skip_data_check */
    const char **algos; /* the algorithms, in registry order or as -a lists them */
    size_t nalgos;
    uint64_t nodes[MAX_LIST], sizes[MAX_LIST]; /* ascending, no repeats */
    size_t nnodes, nsizes;
    unsigned jobs;
    const char *csv, *plot, *decisions;
    oc_sweep *sweep; /* the library's sweep of these points, none run yet */
    /* perf: turns the parsed sizes (nccl-tests' sizes) into the requests' SIZEs before the sweep
     * is made; 0 or an exit code after one line. NULL: the sizes are SIZEs. */
    int (*map_sizes)(struct sweep_args *a);
    void *ctx; /* the command's own */
} sweep_args;

/* Parses the options of `cmd` (sweep, tune) into a, and makes a->sweep: returns 0, -1 when --help
 * was asked (`help` printed, its "%s" replaced by the network options), or an exit code after
 * printing one line. */
int sweep_parse(int argc, char **argv, const char *cmd, const char *help, sweep_args *a);
/* sweep_parse in two halves, for a command whose lists come from other options (perf's -b -e
 * -f): sweep_read parses the options (0, -1 after --help, or an exit code), sweep_setup checks
 * them and makes a->sweep from the node and size lists given as text (sizes_flag names the
 * option in messages). */
int sweep_read(int argc, char **argv, const char *cmd, const char *help, sweep_args *a);
int sweep_setup(sweep_args *a, const char *cmd, const char *nodes, const char *sizes,
                const char *sizes_flag);
void sweep_args_free(sweep_args *a);

/* Runs every point of s on `jobs` threads (and across ranks in opticoll-cluster). Returns 0 when
 * this is rank 0 and every point has its result, -1 on other ranks (the caller ends quietly), or
 * an exit code after one line. A point that fails is not a failure here: see points_first_failure.
 */
int points_run(oc_sweep *s, unsigned jobs);
/* The exit code of the first failed point (in point order), after one line; 0 when none failed. */
int points_first_failure(const oc_sweep *s);


#endif
