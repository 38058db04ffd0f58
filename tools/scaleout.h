/*
 * scaleout.h — running independent points (the runs of a sweep, of a tuning, the papers of a
 * reproduction) on every core and, in the MPI build of the tool (opticoll-cluster), across ranks.
 *
 * A caller numbers its points 0 .. n-1 and gives a function that turns point i into a blob of
 * bytes (its rendered result). oc_scale_run computes the points of this rank — a contiguous share
 * of the list — on `threads` threads, then gathers every blob on rank 0 in point order. Because a
 * point's blob depends only on the point, whatever is printed from the blobs is the same, byte for
 * byte, whatever the number of threads or ranks. Without MPI there is one rank.
 *
 * Under mpirun every rank runs the whole command; only rank 0 prints (opticoll-cluster sends the
 * other ranks' stdout and stderr to /dev/null), so a rank r > 0 returns from oc_scale_run with no
 * blobs and its command ends quietly.
 */
#ifndef OC_SCALEOUT_H
#define OC_SCALEOUT_H

#include "opticoll.h"

#include <stddef.h>
#include <stdint.h>

/* Makes the blob of point i (malloc'd into *blob, *len bytes); 0, or OC_ENOMEM. A point whose run
 * fails records the failure inside its blob: the function itself fails only when it cannot. */
typedef int (*oc_scale_fn)(size_t i, void *ctx, char **blob, size_t *len);

/* This process's rank and the number of ranks (0 and 1 without MPI). */
int oc_scale_rank(void);
int oc_scale_size(void);
/* The default -j: the online CPUs (at least 1). */
unsigned oc_scale_default_threads(void);

/* Runs the points and gathers them. On rank 0, blobs[i] and lens[i] hold point i's blob (freed
 * with oc_scale_free); on other ranks they are all NULL / 0. Returns 0, or OC_ENOMEM (on every
 * rank, when any rank failed to make a blob). */
int oc_scale_run(size_t n, unsigned threads, oc_scale_fn fn, void *ctx, char **blobs, size_t *lens);
void oc_scale_free(char **blobs, size_t n);

/* Runs every point of a sweep: on one rank, oc_sweep_run on `threads` threads; across ranks, each
 * rank runs its share and rank 0 receives every point (oc_sweep_point_pack). 0, or OC_ENOMEM. */
int oc_scale_sweep(oc_sweep *s, unsigned threads);

/* Parses -j's value (1 .. 1024); 0 or -1 with a message printed. */
int oc_scale_parse_jobs(const char *text, unsigned *out);

/* ---- one run split across the ranks (run and verify in opticoll-cluster) ----
 *
 * Every rank runs the same command; oc_scale_split_begin makes the next run a part of one split
 * run (cli_settings.part, opticoll.h's oc_part: rank r verifies its share of the shards, rank 0
 * also runs the cost pass), and the part's combine gathers every rank's first failure and its key
 * on every rank (one MPI_Allgather on the main thread), so that rank 0 prints what one process
 * would print. On one rank, or without MPI, nothing is split. */
typedef struct oc_scale_split {
    oc_part part;
    int on;          /* split across more than one rank */
    int verbose;     /* OPTICOLL_CLUSTER_VERBOSE=1: rank 0 says how the shards were shared */
    char note[1024]; /* that line, made when combining */
} oc_scale_split;

/* Before the split: rank 0's verdict on the run so far (its exit code, 0 to go on) and the
 * algorithm it chose for -a auto (which only rank 0 learns from the tuning) given to every rank,
 * so that all run the same run or all stop. Returns rank 0's code; *algo may be set to `buf`. */
int oc_scale_agree(int rc, const char **algo, char *buf, size_t len);
void oc_scale_split_begin(oc_scale_split *s);
/* After the run, with its return and reason: a rank whose run failed before its passes joins the
 * combine here. Returns the code to report (rank 0: the whole run's) with its reason in why. */
int oc_scale_split_end(oc_scale_split *s, int err, char *why, size_t len);

/* The tools' test knob OPTICOLL_VERIFY_SHARD=K: verify in shards of K chunks (the verdict and
 * the report do not depend on it, docs/scale.md), into cli_settings.verify_shard. 0, or an exit
 * code after one line. */
int oc_scale_settings_from_env(void);

#endif
