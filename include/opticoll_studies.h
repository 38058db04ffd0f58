/*
 * opticoll_studies.h — what libopticoll makes of many runs: sweeps and tuning (and `run -a auto`),
 * the papers' reproductions, training time and throughput, compare, exact optima (synth), the
 * multi-tenant rack, and nccl-tests' table of a sweep (perf).
 *
 * Everything here is built on the core (opticoll_core.h): a study makes runs through oc_run and
 * reads only their reports. The conventions are the core's.
 */
#ifndef OPTICOLL_STUDIES_H
#define OPTICOLL_STUDIES_H

#include "opticoll_core.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sweeps: every algorithm x N x size, each run verified ------------------------------------
 *
 * A sweep runs a grid of points through oc_run: every candidate algorithm at every node count and
 * size, each schedule generated, verified (semantic and, unless skip_data_check is set, real
 * data) and mapped with the network's resource check. Point i is
 * (nodes[i / (nsizes x nalgorithms)], sizes[i / nalgorithms % nsizes],
 * algorithms[i % nalgorithms]). A point whose algorithm's restrictions exclude it (OC_ENOTSUP) or
 * which the library refuses as too big (OC_ETOOBIG) is "not run" with the library's reason; any
 * other failure is recorded as the point's failure. What a point holds depends only on the point,
 * never on the threads or processes that ran it. */

typedef struct oc_sweep_spec {
    oc_request base; /* collective, network (required), root, params, net_params,
                        skip_data_check, progress, settings (copied: the sweep keeps them); its
                        algorithm, nodes and bytes are ignored. base.progress is told of the
                        points ("points") and of each point's own run ("rounds", "candidates"),
                        never from two threads at once; a stop asked there stops both */
    const char *const *algorithms; /* the candidates, registry names of base.collective that run
                                      on the network; NULL: every such algorithm, registry order */
    size_t nalgorithms;
    const uint64_t *nodes; /* node counts, strictly increasing, 1 .. OC_MAX_NODES */
    size_t nnodes;
    const uint64_t *sizes; /* sizes (SIZE as for oc_request.bytes), strictly increasing */
    size_t nsizes;
} oc_sweep_spec;

typedef struct oc_sweep oc_sweep; /* a grid of points and their results (opaque) */

/* What happened at a point. */
enum { OC_POINT_PENDING = -1, OC_POINT_RAN = 0, OC_POINT_NOT_RUN = 1, OC_POINT_FAILED = 2 };

typedef struct oc_sweep_point {
    int status;       /* OC_POINT_... */
    int err;          /* OC_POINT_FAILED: the error of oc_run */
    size_t algorithm; /* index of the algorithm (oc_sweep_algorithm) */
    uint32_t nodes;
    uint64_t bytes;
    uint64_t steps, rounds; /* OC_POINT_RAN: the mapped run's figures */
    double time_s;
    /* The point's texts are the sweep's (freed with it), whole, and never NULL once the point is
     * no longer pending ("" where the point has none). */
    const char *time;   /* OC_POINT_RAN: time_s for people, in its model's unit ("34 tau" on the
                           star: oc_report_format_time) */
    const char *params; /* OC_POINT_RAN: the parameters the run used, "k=v k=v" */
    int has_physical_bound;       /* OC_POINT_RAN: 1 when the network gives a physical bound */
    uint64_t physical_bound_steps; /* then: its steps and time (oc_physical_bound) */
    double physical_bound_time_s;
    const char *why;  /* not run: why; failed: oc_run's reason (may be "") */
    const char *csv;  /* ran or not run: the point as one CSV line (oc_report_write_csv's columns;
                         not run: the note column says why), newline included; else NULL */
    const char *json; /* ran: oc_report_write_json's object; not run: {algorithm, nodes, bytes,
                         not_run}; newline included; else NULL */
} oc_sweep_point;

/* Checks the spec (a known network; each algorithm one of the collective's that runs on it, named
 * once; both lists non-empty, increasing and in range) and makes the sweep, every point pending.
 * A point whose N is not above base.root is not run. 0 or OC_EINVAL / OC_ENOENT / OC_ENOTSUP (no
 * algorithm runs on the network) / OC_ETOOBIG / OC_ENOMEM with a reason. The spec's strings and kv
 * lists must outlive the sweep. */
int oc_sweep_new(const oc_sweep_spec *spec, oc_sweep **out, char *why, size_t whylen);
void oc_sweep_free(oc_sweep *s);
/* The number of points, and the candidates (names from the registry). */
size_t oc_sweep_count(const oc_sweep *s);
size_t oc_sweep_algorithm_count(const oc_sweep *s);
const char *oc_sweep_algorithm(const oc_sweep *s, size_t k);
/* The grid's node counts and sizes, as given. */
size_t oc_sweep_node_count(const oc_sweep *s);
uint64_t oc_sweep_nodes(const oc_sweep *s, size_t ni);
size_t oc_sweep_size_count(const oc_sweep *s);
uint64_t oc_sweep_size(const oc_sweep *s, size_t si);
/* The request the sweep was made from (spec.base). */
const oc_request *oc_sweep_request(const oc_sweep *s);

/* Runs points lo .. hi-1 (hi <= oc_sweep_count) on `threads` threads (0 counts as 1); the points
 * are taken in order, so the result does not depend on `threads`. A point that fails is recorded
 * in the point (see oc_sweep_first_failure), not returned: the return value is 0, OC_EINVAL (a bad
 * range) or OC_ENOMEM. */
int oc_sweep_run(oc_sweep *s, size_t lo, size_t hi, unsigned threads, char *why, size_t whylen);
/* Point i (NULL when i is out of range). Owned by the sweep. */
const oc_sweep_point *oc_sweep_point_at(const oc_sweep *s, size_t i);
/* The point of algorithm k at node count index ni and size index si (NULL when out of range). */
const oc_sweep_point *oc_sweep_point_of(const oc_sweep *s, size_t ni, size_t si, size_t k);
/* The error of the first point, in point order, whose run failed, and its index in *at (may be
 * NULL); 0 when none failed. */
int oc_sweep_first_failure(const oc_sweep *s, size_t *at);
/* Point i as bytes, and back: for processes that share a sweep's points (the cluster tool runs
 * each rank's share and gathers the bytes on rank 0). The bytes are read only by the same build
 * of the library. pack: 0 or OC_ENOMEM, *blob malloc'ed; unpack: 0, OC_EINVAL (not a point of
 * this sweep's shape) or OC_ENOMEM. */
int oc_sweep_point_pack(const oc_sweep *s, size_t i, char **blob, size_t *len);
int oc_sweep_point_unpack(oc_sweep *s, size_t i, const char *blob, size_t len);

/* ---- tuning: which algorithm wins where, and decision files ------------------------------------
 *
 * A tuning is a sweep whose points have all run: at each (N, size) the winner is the candidate with
 * the least simulated time of a verified run, ties to the first candidate (the spec's order). A
 * decision file (JSON, format "opticoll-decisions" version 1) holds the collective, the network and
 * its parameters as given, the candidates, every (N, size)'s winner with the parameters its run
 * used and its time, every candidate's time or why it did not run, and the crossovers (where the
 * winner changes along size for each N, and along N for each size). Reading a decision file picks,
 * for a request, the winner of the nearest tuned point: the least |log2(N / N')| +
 * |log2((S + 1) / (S' + 1))|, ties to the smaller N, then to the smaller size. */

/* The winner at node count index ni and size index si: an algorithm index, or -1 when nothing ran
 * there; *second (may be NULL) gets the runner-up or -1. Points not yet run count as not run. */
int oc_tune_winner(const oc_sweep *s, size_t ni, size_t si, int *second);
/* The decision file of a sweep that has run, as JSON text with a final newline (*text malloc'ed).
 * 0 or OC_ENOMEM. */
int oc_tune_decisions(const oc_sweep *s, char **text);

typedef struct oc_tune_choice {
    const char *algorithm; /* the registry's name of the winner of the nearest point */
    uint32_t nodes;        /* the nearest tuned point */
    uint64_t bytes;
    double distance; /* |log2(N / N')| + |log2((S + 1) / (S' + 1))| */
} oc_tune_choice;

/* Picks from a decision file held in memory (`text`, len bytes and a NUL after them) the winner of
 * the tuned point nearest to req (its collective, network, net_params, nodes and bytes). The file
 * is checked whole first: valid JSON with nothing after it, no key twice in an object, every
 * point's nodes and bytes whole numbers in range and its winner a name or null, the collective,
 * network and network parameters those of req. A refusal is OC_EPARSE (OC_EIO for an empty text,
 * OC_ENOMEM) with a reason that starts with `name` (how to call the file: its path) and the line:
 * "dec.json:12: point 3: ...". */
int oc_tune_pick_text(const char *text, size_t len, const char *name, const oc_request *req,
                      oc_tune_choice *out, char *why, size_t whylen);
/* The same for the decision file at `path`, read with the input file cap (OC_ETOOBIG past it,
 * OC_EIO when it cannot be read). */
int oc_tune_pick(const char *path, const oc_request *req, oc_tune_choice *out, char *why,
                 size_t whylen);

/* `run -a auto`: the algorithm for one request (its collective, network, net_params, nodes and
 * bytes), and one line saying why it was chosen. */
typedef struct oc_tune_auto {
    const char *algorithm; /* the registry's name (static), or NULL when nothing ran */
    char *note;            /* "auto: chose ..." (malloc'd; oc_tune_auto_free) */
} oc_tune_auto;
/* From the decision file at `path`: the winner of its nearest tuned point (oc_tune_pick).
 * `label` (NULL: none) starts every reason, before the file's name ("--decisions "). */
int oc_tune_auto_decided(const char *path, const char *label, const oc_request *req,
                         oc_tune_auto *out, char *why, size_t whylen);
/* Without a decision file the point is tuned: the sweep of every algorithm of the collective
 * that runs on the network at this one point (the caller runs its points: oc_sweep_run, or its
 * own processes), then the fastest verified run wins (ties as oc_tune_winner). */
int oc_tune_auto_sweep(const oc_request *req, oc_sweep **out, char *why, size_t whylen);
/* After the sweep has run: the winner and its note; algorithm NULL when nothing ran (0 all the
 * same), OC_ENOMEM. */
int oc_tune_auto_chosen(const oc_sweep *s, oc_tune_auto *out, char *why, size_t whylen);
void oc_tune_auto_free(oc_tune_auto *a);

/* ---- reproductions -----------------------------------------------------------------------------
 */

/* Prints the reproduction of one paper ("optree") to f: paper's printed value, the paper's formula
 * evaluated, and our simulated value on a verified schedule, with a reason for every difference.
 * The paper's headline claims (its abstract, introduction and conclusion) come first, in a
 * table of their own: claim, where the paper's number comes from, the paper's number, ours for
 * the same experiment, the verdict computed from the runs (holds / partly, with counts / does not
 * hold), and the reason for a difference. */
int oc_reproduce(const char *paper, FILE *f, char *why, size_t whylen);

/* The settings a reader varies (`reproduce -w -n --sizes -t`): zero or NULL keeps the paper's.
 * A paper takes the settings its experiments have (oc_paper_settings); another is refused with
 * OC_EINVAL and a reason naming the ones it takes. */
typedef struct oc_reproduce_settings {
    uint32_t wavelengths; /* -w: wavelengths per fibre in place of the paper's */
    uint32_t nodes;       /* -n: node count in place of the paper's */
    const char *sizes;    /* --sizes: message sizes in place of the paper's, as `sweep -s` takes
                             them ("1KiB,1MiB", "4KiB..64MiB:*4") */
    const char *network;  /* -t: the network the paper's experiments run on */
    oc_progress_fn progress; /* NULL: none; else told of each batch of runs ("jobs") */
    void *progress_ctx;
    const oc_settings *library; /* the library's settings (budget, text width...); NULL: defaults */
} oc_reproduce_settings;

enum {
    OC_SETTING_WAVELENGTHS = 1 << 0,
    OC_SETTING_NODES = 1 << 1,
    OC_SETTING_SIZES = 1 << 2,
    OC_SETTING_NETWORK = 1 << 3
};

/* oc_reproduce with settings (NULL: the paper's own). */
int oc_reproduce_with(const char *paper, const oc_reproduce_settings *settings, FILE *f, char *why,
                      size_t whylen);

/* The reproducible papers, in the order "all" runs them. */
size_t oc_paper_count(void);
const char *oc_paper_name(size_t i);
/* The settings paper i takes (OC_SETTING_* bits). */
unsigned oc_paper_settings(size_t i);

/* What a reproduction draws: its figures (series of points) and its tables (as CSV). */
typedef struct oc_figures oc_figures;

typedef struct oc_figure_info {
    const char *id, *title, *xlabel, *ylabel; /* id: "fig4", "fig4-alexnet", ... */
    const char *caption; /* a short quote or paraphrase of the paper's caption */
    int logx, logy;      /* the axes to draw logarithmic */
    size_t nseries;
} oc_figure_info;

/* oc_reproduce of one paper (not "all") with settings (NULL: the paper's own), also collecting
 * its figures and tables into *out (freed with oc_figures_free). Collection is per thread, so
 * concurrent calls are safe. */
int oc_reproduce_collect(const char *paper, const oc_reproduce_settings *settings, FILE *f,
                         oc_figures **out, char *why, size_t whylen);
void oc_figures_free(oc_figures *figs);
size_t oc_figures_count(const oc_figures *figs);
/* Figure i (0 or OC_ERANGE). */
int oc_figure_get(const oc_figures *figs, size_t i, oc_figure_info *out);
/* Series s of figure i: its name and n points (y NAN: a gap). 0 or OC_ERANGE. */
int oc_figure_series_get(const oc_figures *figs, size_t i, size_t s, const char **name, size_t *n,
                         const double **x, const double **y);
/* The tables the reproduction printed, in order, each written as CSV (header line first). */
size_t oc_figures_table_count(const oc_figures *figs);
int oc_figures_write_table_csv(const oc_figures *figs, size_t i, FILE *f);
/* The paper's headline claims, as the claims table printed them. ours is NAN when the experiment
 * was not simulated (the reason says why). */
typedef struct oc_claim_info {
    const char *claim;  /* the claim, quoted or closely paraphrased */
    const char *source; /* where the paper says it and which figure or table its number is from */
    const char *unit;   /* "%", "x", "us", ... */
    double paper, ours;
    const char *reason; /* why ours differs ("" when it does not) */
    /* computed from the runs: "holds", "partly", "does not hold", "bracketed" or "not
     * simulated"; the claim
     * speaks of `of` points (sizes, GPU counts, models, cases; 1 for a single number) and holds at
     * `hit` of them */
    const char *verdict;
    size_t hit, of;
    /* "bracketed": the paper's number lies between ours under its own setup and under our
     * search's best, [bracket_lo, bracket_hi] (NAN otherwise) */
    double bracket_lo, bracket_hi;
} oc_claim_info;
size_t oc_figures_claim_count(const oc_figures *figs);
int oc_figures_claim_get(const oc_figures *figs, size_t i, oc_claim_info *out);
/* Writes a collected reproduction as one JSON document (`reproduce PAPER --json`): the paper, the
 * settings it ran with (null: the paper's own), its claims table, every table it printed (columns
 * and rows of text) and every figure with its series. 0, OC_ENOMEM or OC_EIO. */
int oc_reproduce_write_json(const char *paper, const oc_reproduce_settings *settings,
                            const oc_figures *figs, FILE *f);

/* ---- training: the gradient all-reduce of data-parallel DNN training --------------------------
 *
 * A models file (data/models.tsv; its header comment is the format's reference) lists DNN models:
 * name, parameters, batch per node, samples per epoch, source. Every training iteration ends with
 * one all-reduce of the whole float32 gradient (OC_GRADIENT_BYTES_PER_PARAMETER bytes per
 * parameter); the batch is per node, so an epoch is ceil(samples / (batch x N)) iterations. */

#define OC_GRADIENT_BYTES_PER_PARAMETER 4
#define OC_MODEL_MAX_PARAMETERS (OC_MAX_BYTES / OC_GRADIENT_BYTES_PER_PARAMETER)
#define OC_MODEL_MAX_COUNT UINT64_C(1000000000000) /* largest batch or samples accepted: 10^12 */

/* A model's texts are whole, never cut: in a list from oc_models_parse they live in the list's
 * own allocation (oc_models_free releases them with it); in an oc_train_result the result owns
 * copies of them (oc_train_result_free). */
typedef struct oc_model {
    const char *name;    /* the -m name, whole; matched without regard to case */
    uint64_t parameters; /* 1 .. OC_MODEL_MAX_PARAMETERS */
    uint64_t batch;      /* mini-batch of one node (one GPU), 1 .. OC_MODEL_MAX_COUNT */
    uint64_t samples;    /* training samples in one epoch, 1 .. OC_MODEL_MAX_COUNT */
    const char *note;    /* the source column, whole ("" if absent; never NULL) */
    unsigned line;       /* line of the models file it came from */
} oc_model;

/* Parses a models file held in memory (len bytes, need not be NUL-terminated). `source` names it in
 * messages ("data/models.tsv:7: ..."). On success *out is an array of *count >= 1 models in file
 * order, their names and notes in the same allocation, all freed with oc_models_free. A malformed
 * line, a duplicate name or a file without models is OC_EPARSE with the line in `why`; nothing is
 * returned then. */
int oc_models_parse(const char *text, size_t len, const char *source, oc_model **out, size_t *count,
                    char *why, size_t whylen);
/* Reads and parses the models file at `path`; a file that cannot be read is OC_EIO. */
int oc_models_read(const oc_settings *settings, const char *path, oc_model **out, size_t *count,
                   char *why, size_t whylen);
void oc_models_free(oc_model *models);
/* The models file used when none is named: the source tree's data/models.tsv while it exists,
 * else the installed PREFIX/share/opticoll/models.tsv. */
const char *oc_models_default(void);
/* The model called `name` (case-insensitive), or NULL. */
const oc_model *oc_model_find(const oc_model *models, size_t count, const char *name);

/* ceil(samples / (batch x nodes)): all-reduces (iterations) in one epoch; 0 if an argument is 0. */
uint64_t oc_train_iterations(uint64_t samples, uint64_t batch, uint32_t nodes);

typedef struct oc_train_run {
    const char *algorithm; /* registry name */
    oc_report *report;     /* the verified all-reduce of one iteration; NULL when not run */
    double iteration_s;    /* oc_report_time(report) */
    double epoch_s;        /* iterations x iteration_s */
    char *reason;          /* why the algorithm was not run, whole (the result owns it); ""
                              when it ran */
} oc_train_run;

typedef struct oc_train_result {
    oc_model model;      /* a copy whose name and note the result owns */
    const char *network; /* the registry's name of the network (static) */
    uint32_t nodes;
    uint64_t bytes;        /* parameters x OC_GRADIENT_BYTES_PER_PARAMETER: each all-reduce */
    uint64_t global_batch; /* model.batch x nodes: samples one iteration consumes */
    uint64_t iterations;   /* per epoch: oc_train_iterations(samples, batch, nodes) */
    size_t nrun;           /* runs[0 .. nrun) ran, fastest first (registry order on ties) */
    size_t count;          /* runs[nrun .. count) did not run (restrictions), each with reason */
    oc_train_run *runs;
} oc_train_result;

/* Runs the gradient all-reduce of `model` through oc_run, so every run is verified. `base` gives
 * network (required), nodes, algorithm, params, net_params, skip_data_check and settings; its
 * collective and bytes are ignored (all-reduce of the model's gradient). With base->algorithm NULL
 * every all-reduce algorithm that supports the network runs; those whose restrictions exclude these
 * parameters are listed as not run, and it is an error only when none runs. On success *out is
 * filled and must be released with oc_train_result_free; on failure it holds nothing. */
int oc_train_model(const oc_model *model, const oc_request *base, oc_train_result *out, char *why,
                   size_t whylen);
/* oc_models_read + oc_model_find (an unknown model is OC_ENOENT) + oc_train_model. */
int oc_train(const char *models_file, const char *model, const oc_request *base,
             oc_train_result *out, char *why, size_t whylen);
void oc_train_result_free(oc_train_result *r);

/* A readable table (one line per algorithm, best first) with the epoch arithmetic and its notes. */
int oc_train_write_text(const oc_train_result *r, FILE *f);
/* One JSON object: model, bytes, batch, nodes, global_batch, samples_per_epoch,
 * iterations_per_epoch, runs (each with time_per_iteration_s, time_per_epoch_s, verified and the
 * full run report), not_run, notes; followed by a newline. */
int oc_train_write_json(const oc_train_result *r, FILE *f);

/* ---- training throughput: the lumorph seed's BERT estimate (section 4) -------------------------
 *
 * Data-parallel training, one iteration per GPU = compute, then the gradient all-reduce, no
 * overlap. Compute: 6 x parameters x tokens per sample x batch FLOPs (2 forward, 4 backward per
 * parameter and token) at peak x utilisation. Communication: the float32 gradient (4 bytes per
 * parameter) in `buckets` equal all-reduces (per-layer buckets: many small all-reduces, the
 * seed's "many AllReduce calls of small buffer sizes"), each simulated through oc_run on a
 * verified schedule. Lumorph: rhd radix 2 and radix 4 on `fabric`; Ring: ring on `switch` (the
 * seed's ideal-switch baseline); both with the models' defaults (alpha 0.7 us, 300 GB/s, MZI
 * reconfiguration 3.7 us). Throughput = batch x nodes / iteration time, samples per second. */
typedef struct oc_throughput_in {
    const char *model;   /* its name, for the output (may be NULL) */
    uint64_t parameters; /* trainable parameters (oc_model.parameters) */
    uint64_t batch;      /* samples per GPU and iteration (oc_model.batch) */
    uint32_t nodes;      /* GPUs */
    uint32_t buckets;    /* gradient all-reduces per iteration, 1 .. OC_THROUGHPUT_MAX_BUCKETS */
    uint64_t tokens;     /* tokens per sample (sequence length) */
    double peak_tflops;  /* peak FLOP/s of one GPU, in 10^12, OC_THROUGHPUT_MIN_PEAK .. MAX_PEAK */
    double utilisation;  /* fraction of the peak the compute reaches, [OC_THROUGHPUT_MIN_UTIL, 1] */
    int skip_data_check; /* 1: no real-data run of the schedules (oc_request.skip_data_check) */
    /* NULL: none; else each side's all-reduce run reports to it, as oc_request.progress (a
     * non-zero answer stops the estimate: OC_ECANCELED) */
    oc_progress_fn progress;
    void *progress_ctx;
    const oc_settings *settings; /* NULL: the defaults */
} oc_throughput_in;

#define OC_THROUGHPUT_MAX_BUCKETS 1000000u
#define OC_THROUGHPUT_MIN_PEAK 1e-3 /* TFLOP/s */
#define OC_THROUGHPUT_MAX_PEAK 1e6  /* TFLOP/s */
#define OC_THROUGHPUT_MIN_UTIL 1e-3

typedef struct oc_throughput_side {
    const char *label;     /* "Lumorph-2", "Lumorph-4", "Ring" */
    const char *algorithm; /* rhd, rhd, ring */
    const char *network;   /* fabric, fabric, switch */
    uint32_t radix;        /* rhd's radix, 0 for ring */
    double allreduce_s;    /* one bucket's all-reduce, simulated on a verified schedule */
    double formula_s;      /* the algorithm's closed form for it (NAN if none) */
    int verified;
    double comm_s;        /* buckets x allreduce_s */
    double iteration_s;   /* compute_s + comm_s */
    double samples_per_s; /* batch x nodes / iteration_s */
} oc_throughput_side;

typedef struct oc_throughput {
    oc_throughput_in in;   /* in.model is NULL here: the name is copied to `model` */
    char *model;           /* the name, whole (the result owns it); "" when none was given */
    uint64_t bucket_bytes; /* ceil(4 x parameters / buckets) */
    double flops;          /* per GPU and iteration */
    double compute_s;
    oc_throughput_side side[3]; /* Lumorph-2, Lumorph-4, Ring */
    int best;                   /* 0 or 1: the faster Lumorph */
    double speedup;             /* the best Lumorph's samples/s over Ring's */
} oc_throughput;

/* Fills *out, to be released with oc_throughput_free; bad inputs are OC_EINVAL with a reason
 * naming the input, and *out holds nothing then. */
int oc_throughput_estimate(const oc_throughput_in *in, oc_throughput *out, char *why,
                           size_t whylen);
/* Frees what the estimate owns (its model name) and zeroes *t; NULL or a zeroed one is fine. */
void oc_throughput_free(oc_throughput *t);
/* A readable table: the inputs, compute, each side's all-reduce, iteration and samples/s. */
int oc_throughput_write_text(const oc_throughput *t, FILE *f);
/* One JSON object with the inputs, compute_s, bucket_bytes, sides[] and speedup; a newline. */
int oc_throughput_write_json(const oc_throughput *t, FILE *f);

/* ---- compare: every algorithm of a collective at one point ------------------------------------
 *
 * What `opticoll compare` prints and the Python package's compare returns: each algorithm run
 * once through oc_run, so every run is generated, verified and mapped. Those whose restrictions
 * exclude the point (OC_ENOTSUP) or which are too big (OC_ETOOBIG) are listed as not run, with
 * oc_run's reason, instead of failing the compare. */

typedef struct oc_compare_run {
    const oc_algorithm_info *algorithm; /* from the registry */
    oc_report *report;                  /* the verified run; NULL when not run */
    char *reason; /* why it was not run (oc_run's reason), whole: the result owns it; "" when
                     it ran */
} oc_compare_run;

typedef struct oc_compare_result {
    size_t nrun;  /* runs[0 .. nrun) ran, in the list's order */
    size_t count; /* runs[nrun .. count) did not run, in the list's order, each with its reason */
    oc_compare_run *runs;
} oc_compare_result;

/* Runs the algorithms of req->collective at req's point (network required, nodes, bytes, root,
 * net_params, skip_data_check, objective, links, explain, progress, settings; req->algorithm and
 * req->params are ignored). algorithms NULL: every algorithm of the collective, registry order,
 * those for other networks included (not run: oc_run says why); otherwise names[0 .. nalgorithms)
 * in that order, each an algorithm of the collective that runs on the network, named once (else
 * OC_ENOENT / OC_EINVAL, worded as `compare -a` words it). pins (may be NULL): KEY=VALUE pins KEY
 * for every compared algorithm that takes it, ALGO.KEY=VALUE for ALGO alone, which wins; a pin no
 * compared algorithm takes is OC_ENOENT, before anything runs. A run failing otherwise (a failed
 * check, memory) is the compare's error with oc_run's reason. On success *out must be released with
 * oc_compare_result_free; on failure it holds nothing. */
int oc_compare(const oc_request *req, const char *const *algorithms, size_t nalgorithms,
               const oc_kv *pins, oc_compare_result *out, char *why, size_t whylen);
void oc_compare_result_free(oc_compare_result *r);
/* `compare --json`: one JSON array, one element a line: each run's report (oc_report_write_json),
 * then {"algorithm": NAME, "not_run": REASON} for each algorithm not run; a newline after "]".
 * OC_ENOMEM or OC_EIO (the stream failed). */
int oc_compare_write_json(const oc_compare_result *r, FILE *f);

/* ---- exact optima for small instances (src/synth/synth.c, `opticoll synth`) ---------------------
 * The fewest steps of a collective on a small ring or star, found with the z3 solver (through its
 * C API) and proven: a schedule of S steps is found, no schedule of S - 1 steps exists under the
 * model's rules (the solver's UNSAT), and the S-step schedule passes the verifier and the model's
 * resource check and maps to S steps. Anything less is reported as not optimal with what was
 * proven. Supported: allgather, gossip, broadcast (copy) and allreduce (reduce) on the ring (N up
 * to OC_SYNTH_MAX_RING_NODES, fibres x wavelengths up to OC_SYNTH_MAX_RING_CHANNELS) and the star
 * (P up to OC_SYNTH_MAX_STAR_NODES). */

enum {
    OC_SYNTH_MAX_RING_NODES = 10,
    OC_SYNTH_MAX_WAVELENGTHS = 3,
    OC_SYNTH_MAX_RING_CHANNELS = 6, /* fibres x wavelengths */
    OC_SYNTH_MAX_STAR_NODES = 9,
    OC_SYNTH_MAX_CHUNKS = 4,      /* chunks per block or piece */
    OC_SYNTH_MAX_TIME_LIMIT = 86400
};

typedef struct oc_synth_spec {
    oc_collective collective;
    const char *network;     /* "ring" or "star" */
    uint32_t nodes;
    uint64_t bytes;          /* SIZE as oc_request's; 0 = 1 MiB */
    const oc_kv *net_params; /* ring: wavelengths (synth's default 1), fibres; star: k; may be NULL */
    uint32_t chunks;         /* chunks per block (allgather, gossip) or pieces (allreduce,
                                broadcast); 0 = 1, the fewest steps (docs/synth.md) */
    double time_limit_s;     /* the solver's budget in seconds; 0 = 60 */
    int skip_data_check;     /* as oc_request's: 1 skips the found schedule's real-data run */
    oc_progress_fn progress; /* NULL: none; else told of the solver's calls ("solver calls"),
                                and polled while one runs: a stop interrupts the solver */
    void *progress_ctx;
    const oc_settings *settings; /* NULL: the defaults */
} oc_synth_spec;

typedef struct oc_synth_result oc_synth_result; /* opaque */

typedef struct oc_synth_info {
    int found;            /* a schedule passed the pipeline (verified and mapped) */
    int optimal;          /* proven: see above */
    uint64_t lower;       /* proven lower bound on steps (the solver's UNSAT at lower - 1) */
    uint64_t upper;       /* steps of the schedule found (its mapped steps); 0 when none */
    uint64_t start;       /* the simple bound the search started from (not a reported bound) */
    double solve_s;       /* wall time in the solver */
    const char *stopped;  /* NULL, or why the search stopped before a proof (one line) */
    const oc_report *report; /* the found schedule's run through the pipeline, or NULL */
    /* where it came from: "solver", or the name of the registered algorithm whose schedule (of
     * the existing algorithms' fewest steps) seeded the search and was not beaten; NULL when
     * none was found */
    const char *source;
} oc_synth_info;

/* Checks the spec against synth's limits before any work (OC_ETOOBIG or OC_ENOTSUP, naming the
 * limit), then searches. A stop on the time limit is not an error: *out says what was proven. */
int oc_synth(const oc_synth_spec *spec, oc_synth_result **out, char *why, size_t whylen);
void oc_synth_get(const oc_synth_result *r, oc_synth_info *out);
/* Text as `run`'s, headed by the search's outcome; JSON: one object and a newline. */
int oc_synth_write_text(const oc_synth_result *r, FILE *f);
int oc_synth_write_json(const oc_synth_result *r, FILE *f);
/* The found schedule as a schedule file (`opticoll verify` reads it); OC_EINVAL when none. */
int oc_synth_write_schedule(const oc_synth_result *r, FILE *f, char *why, size_t whylen);
void oc_synth_free(oc_synth_result *r);

/* ---- the multi-tenant rack (lumorph seed, section 3; docs/lumorph-rack.md) -------------------
 *
 * Tenants arrive, each asking for g GPUs, and leave; the same trace is replayed on three racks of
 * the same servers x tiles GPUs (lumorph: any free tiles joined by circuits over spare fibres;
 * tpu: aligned power-of-two torus slices; sipac: aligned sub-BCubes), counting placed and rejected
 * requests, utilisation, rounding waste, idle and stranded GPUs, and running every placed tenant's
 * all-reduce through oc_run (verified) with the best algorithm for its allocation. */

/* Limits on the rack and the trace (larger input is refused with a clear message). */
#define OC_RACK_MAX_SERVERS 128u
#define OC_RACK_MAX_TILES 32u
#define OC_RACK_MAX_FIBRES 1024u
#define OC_RACK_MAX_TENANTS 100000u

typedef struct oc_rack_shape {
    uint32_t servers; /* Lightpath servers in the rack */
    uint32_t tiles;   /* tiles (GPUs) per server, <= 32 */
    uint32_t fibres;  /* fibres per ordered pair of servers (each carries a tile's wavelengths) */
    uint32_t sipac_r, sipac_l; /* SiPAC(r, l): groups of r^l GPUs, slices of r^k */
    uint64_t bytes;            /* each tenant's all-reduce vector */
    /* NULL: none; else told of the replay's events (three passes over the trace, one per
     * architecture) about ten times a second, and a non-zero answer stops the replay
     * (OC_ECANCELED) within a report: between events and inside each tenant's all-reduce run */
    oc_progress_fn progress;
    void *progress_ctx;
    /* NULL: the defaults; the replay's runs take them, and its result keeps a copy for its text
     * (the tables' width) */
    const oc_settings *settings;
} oc_rack_shape;

/* Checks a shape; OC_EINVAL / OC_ERANGE with the reason. */
int oc_rack_shape_check(const oc_rack_shape *s, char *why, size_t whylen);

typedef struct oc_rack_trace oc_rack_trace; /* tenants and their events, in replay order */
/* Reads the trace file at `path` for a rack of rack_gpus GPUs: lines 'TIME arrive ID GPUS' and
 * 'TIME leave ID' ('#' comments; TIME never decreasing). OC_EIO when it cannot be read, OC_EPARSE
 * with the line when it is malformed. */
int oc_rack_trace_read(const oc_settings *settings, const char *path, uint32_t rack_gpus,
                       oc_rack_trace **out, char *why, size_t whylen);
/* A seeded random trace of `tenants` tenants (rack.c documents the distributions). */
int oc_rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc_rack_trace **out,
                         char *why, size_t whylen);
void oc_rack_trace_free(oc_rack_trace *t);

typedef struct oc_rack_result oc_rack_result; /* the replay on the three racks */
/* Replays trace t on the three racks of shape s, checking the racks' invariants after every
 * event. The result refers to t, which must outlive it. */
int oc_rack_replay(const oc_rack_shape *s, const oc_rack_trace *t, oc_rack_result **out, char *why,
                   size_t whylen);
/* A table per architecture (and with detail, one line per tenant); JSON: one object and a
 * newline. 0 or OC_EIO. */
int oc_rack_write_text(const oc_rack_result *r, int detail, FILE *f);
int oc_rack_write_json(const oc_rack_result *r, FILE *f);
void oc_rack_result_free(oc_rack_result *r);

/* The seed's Fig. 2a example: a small rack with three tenants placed so that the free chips are
 * split over two servers, and User 4 asking for 4 chips. Prints a short section: the paper's
 * claim, our allocation, each architecture's outcome with a one-line reason. 0 or an error with
 * the reason in `why` (every all-reduce it prints is a verified oc_run). *agrees (NULL: not
 * wanted) is 1 when the outcome is the paper's: Lumorph places User 4, the fixed slices do not. */
int oc_rack_fig2a(FILE *out, int *agrees, char *why, size_t whylen);

/* ---- fixed-column rows: the tools' own tables -------------------------------------------------
 *
 * The rows compare, sweep, tune and opticoll-mpi print (their goldens hold them byte for byte),
 * written by the library's report room (report/table.c) beside the tables the reproductions and
 * studies hold whole and fit to oc_settings.text_width. A layout is its columns: each with a width
 * (a cell is padded to it as printf's %*s pads; a longer cell pushes the rest of the row right), an
 * alignment and the spaces written before it. Rows are written as they come, so a table of a
 * million points is never held. Both return 0, or OC_EIO once the stream has an error. */
typedef struct oc_table_col {
    int width; /* at least this many characters (0: the cell as it is) */
    int left;  /* 1: aligned left (names), 0: right (numbers) */
    int gap;   /* spaces before the column */
} oc_table_col;

typedef struct oc_table_layout {
    FILE *f;
    const char *indent; /* before every row ("  ") */
    const oc_table_col *cols;
    size_t ncols;
} oc_table_layout;

/* One row of ncols cells. The last column is not padded; a NULL last cell writes nothing, not
 * even its gap (a row without parameters ends at the column before). */
int oc_table_write_row(const oc_table_layout *t, const char *const *cells);
/* A row of the first n cells, then `tail` after one space in place of the others: the
 * "not run: reason" of a point that did not run. */
int oc_table_write_row_tail(const oc_table_layout *t, const char *const *cells, size_t n,
                            const char *tail);

/* ---- perf: nccl-tests' report of a sweep ----------------------------------------------------
 *
 * nccl-tests' columns size, count, type, redop, root and, per group of timings, time, algbw,
 * busbw, as `opticoll perf` (the model's times) and `opticoll-mpi --perf` (measured times) print
 * them (report/perf.c), and the same rows as JSON (opticoll_json.h: oc_perf_row_json). */

#define OC_PERF_MAX_GROUPS 4

/* One row: nccl-tests' size (bytes of the whole operation, as its -b/-e mean) and count
 * (elements per rank's call), the type and reduction names, the root (-1: none) and one time per
 * group of timings (seconds; 0 or less: not measured, printed as "-"). */
typedef struct oc_perf_row {
    uint64_t size, count;
    const char *type, *redop;
    int64_t root;
    double time_s[OC_PERF_MAX_GROUPS];
} oc_perf_row;

/* nccl-tests' bus-bandwidth factor of collective c on n ranks (doc/PERFORMANCE.md): all-reduce
 * 2(n-1)/n; reduce-scatter, all-gather, all-to-all, scatter and gather (n-1)/n; broadcast 1;
 * gossip (no nccl-tests counterpart; an all-gather in its data movement) (n-1)/n. */
double oc_perf_busbw_factor(oc_collective c, uint32_t n);
/* opticoll's SIZE for nccl-tests' size `size` of elements of tsize bytes on n ranks: the whole
 * elements that fit, per rank where SIZE is per rank (nccl-tests rounds its counts down too); 0
 * when not one element fits. */
uint64_t oc_perf_bytes(oc_collective c, uint32_t n, uint64_t size, uint32_t tsize);
/* The row for a run of c on n ranks with SIZE `bytes`: size, count, redop ("sum" for the
 * reductions, "none" otherwise), root (-1 where c has none); type and times are the caller's. */
oc_perf_row oc_perf_row_of(oc_collective c, uint32_t n, uint64_t bytes, uint32_t tsize,
                             uint32_t root);
/* nccl-tests' own layout (NVIDIA/nccl-tests src/util.cu: writeResultHeader, writeBenchmarkLine*,
 * writeResultFooter), printf for printf: a "#" line, the group line (groups[0] and [1] are
 * nccl-tests' "out-of-place" and "in-place", printed as its line prints them; further groups are
 * named centred over their columns), the column names size count type redop root, then per group
 * time algbw busbw #wrong, the units line; a row's numbers in nccl-tests' widths (getFloatStr: 2, 1
 * or 0 decimals, then an exponent, as the value grows), #wrong as "%6g" or "N/A" where nothing was
 * checked (its -c 0). ngroups: 2 (nccl-tests' halves) or more (extra groups after them, same
 * columns). Each of the three writers returns 0, or OC_EIO once the stream has an error. */
int oc_perf_nccl_header(FILE *f, const char *const *groups, size_t ngroups);
/* One row; wrong[g] < 0 prints "N/A". */
int oc_perf_nccl_row(FILE *f, const oc_perf_row *r, const int64_t *wrong, size_t ngroups,
                     double factor);
/* The footer: "# Out of bounds values : N OK|FAILED", "# Avg bus bandwidth    : X " (X the mean
 * busbw over every measured time of every row and group, as nccl-tests averages both halves),
 * "#". */
int oc_perf_nccl_footer(FILE *f, int64_t out_of_bounds, double avg_busbw_GBps);
/* busbw in GB/s of a row's group g (0 when not measured). */
double oc_perf_busbw(const oc_perf_row *r, size_t g, double factor);

#ifdef __cplusplus
}
#endif
#endif /* OPTICOLL_STUDIES_H */
