/*
 * opticoll.h — the one public header of libopticoll.
 *
 * opticoll turns the collective-communication algorithms of the optical-interconnect papers into
 * real schedules, checks every schedule with a semantic verifier that trusts nothing, maps it onto
 * a network model (wavelengths, fibres, circuits, ports) that proves no resource is used twice, and
 * costs it step by step next to the papers' closed forms.
 *
 * The pipeline is one-way: collective spec -> algorithm -> schedule (logical rounds) -> verifier
 * and network model -> report.
 *
 * Conventions (after libuv): public names are oc_..., every function that can fail returns 0 or a
 * negative oc_errno and gives its results through pointer arguments. The library never prints,
 * never exits and never reads the environment; a failing call can leave a one-line reason in the
 * caller's `why` buffer.
 */
#ifndef OPTICOLL_H
#define OPTICOLL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors -----------------------------------------------------------------------------------
 */

#define OC_ERRNO_MAP(X)                                                                            \
    X(EINVAL, -1, "invalid argument")                                                              \
    X(ENOMEM, -2, "out of memory")                                                                 \
    X(ERANGE, -3, "value out of range")                                                            \
    X(ENOENT, -4, "unknown name")                                                                  \
    X(ENOTSUP, -5, "not supported for these parameters")                                           \
    X(EVERIFY, -6, "schedule failed semantic verification")                                        \
    X(ERESOURCE, -7, "network resource conflict")                                                  \
    X(EPARSE, -8, "malformed input")                                                               \
    X(EIO, -9, "input/output error")                                                               \
    X(ETOOBIG, -10, "problem too large")                                                           \
    X(ECANCELED, -11, "cancelled by the caller")

typedef enum {
    OC_OK = 0,
#define OC__ERRNO_ENUM(name, code, text) OC_##name = code,
    OC_ERRNO_MAP(OC__ERRNO_ENUM)
#undef OC__ERRNO_ENUM
} oc_errno;

/* A static, human-readable name for an error code. */
const char *oc_strerror(int err);
/* The library's version, "MAJOR.MINOR.PATCH" (CMakeLists.txt's project version). */
const char *oc_version(void);

/* Limits the library enforces on user input (larger input is refused with OC_ETOOBIG). Rounds
 * stream and verification is sharded by chunks, so a schedule's length costs time, not memory: a
 * schedule of more than OC_MAX_TRANSFERS transfers (hours of work) is refused before it is
 * generated, and one whose largest round or verifier state cannot fit the memory budget is
 * refused with what it needs (docs/scale.md). */
#define OC_MAX_TRANSFERS (UINT64_C(1) << 40)
#define OC_MAX_NODES (1u << 20) /* the largest N any algorithm takes (OpTree, WRHT and rd
                                   all-gather, Bruck); the others take up to OC_NODE_CAP */
#define OC_NODE_CAP (1u << 17)
#define OC_MAX_BYTES (UINT64_C(1) << 50) /* 1 PiB per message */

/* The memory budget: every allocation whose size comes from input (a schedule file's node count,
 * an MSCCL file's chunks, the verifier's and the data check's state, a round's staging) is checked
 * against it before it is made, and refused with OC_ETOOBIG and a line saying what it would need.
 * Input files are capped at 1/64 of it (64 MiB by default), checked while they are read. 0 restores
 * the default (OC_DEFAULT_MEMORY_BUDGET); values from 1 MiB to OC_MAX_MEMORY_BUDGET are accepted,
 * anything else is OC_EINVAL. Set it before starting runs (the CLIs set it from
 * OPTICOLL_MEMORY_BUDGET_MIB). */
#define OC_DEFAULT_MEMORY_BUDGET (UINT64_C(4) << 30)
#define OC_MAX_MEMORY_BUDGET (UINT64_C(1) << 50)
int oc_set_memory_budget(uint64_t bytes); /* 0 = the default; returns 0 or OC_EINVAL */
uint64_t oc_memory_budget(void);

/* ---- progress ----------------------------------------------------------------------------------
 *
 * Long work (the rounds of a run, the candidates of a parameter search, the points of a sweep or
 * tuning, the jobs of a reproduction) reports how far it got through a callback; the library never
 * prints it. `what` names the unit ("rounds", "candidates", "points", "jobs"); done only grows
 * within one piece of work and never passes total (total may grow as work is found, e.g.
 * candidates offered as a search goes; 0 while it is not known at all, as for the rounds of an
 * algorithm that does not count them ahead), and the last call of a piece of work has
 * done == total, also when the work stopped on an error.
 * Calls come at most about ten times a second (the clock is read every so many steps, not every
 * step), plus the last one; one piece of work calls from one thread at a time. The callback must
 * not call back into the library. It returns 0 to go on; anything else asks the work to stop:
 * the call that started it then returns OC_ECANCELED soon after (a round, a candidate, a point or
 * a job later), having released what it held (the Python package's Ctrl-C). The last call's
 * answer is not read. */
typedef int (*oc_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);

/* The columns a plain-text table may take (the reproductions' and studies' tables): a wider table
 * prints its long reasons as numbered notes under it and wraps its widest cells. 0, the default,
 * is no limit; the CLIs set the terminal's width, or 100 when the output is not a terminal. The
 * CSV and JSON renderings always hold the whole text. Set it before starting runs. */
void oc_set_text_width(unsigned columns);
unsigned oc_text_width(void);

/* Chunk-sharded verification (docs/scale.md): a reduction whose verifier state (one cell per node
 * and chunk) passes OC_VERIFY_SHARD_BYTES, or a share of the memory budget, is verified in shards
 * of whole chunk ranges, each regenerating the schedule and keeping only its chunks, run on
 * oc_verify_threads() threads; the verdict and the first error are those of one pass.
 * oc_set_verify_shard(k) forces shards of k chunks on every collective (tests; 0: automatic);
 * oc_set_verify_threads(0) restores the default of 2. Set them before starting runs. */
#define OC_VERIFY_SHARD_BYTES (UINT64_C(32) << 20)
void oc_set_verify_shard(uint32_t chunks);
uint32_t oc_verify_shard(void);
void oc_set_verify_threads(unsigned threads);
unsigned oc_verify_threads(void);

/* ---- collectives ------------------------------------------------------------------------------
 */

typedef enum {
    OC_ALLGATHER,
    OC_REDUCESCATTER,
    OC_ALLREDUCE,
    OC_BROADCAST,
    OC_SCATTER,
    OC_GATHER,
    OC_ALLTOALL,
    OC_GOSSIP,
    OC_COLLECTIVE_COUNT
} oc_collective;

const char *oc_collective_name(oc_collective c);
/* 0 and *out set, or OC_ENOENT. */
int oc_collective_from_name(const char *name, oc_collective *out);
/* One line: what the collective does and what SIZE means for it. */
const char *oc_collective_summary(oc_collective c);
/* 1 for the reductions (allreduce, reducescatter), whose chunks carry contributions. */
int oc_collective_reduces(oc_collective c);

/* ---- parsing helpers the CLI and schedule files share -----------------------------------------
 */

/* Parses "4096", "4KiB", "4MiB", "1GiB", "4MB", "4kB", "512B". Rejects negative, empty, trailing
 * garbage, fractions and anything above OC_MAX_BYTES (OC_ERANGE). */
int oc_parse_size(const char *text, uint64_t *out);
/* Parses a decimal unsigned integer in [min, max] (digits only: no sign, space or hex);
 * OC_EPARSE or OC_ERANGE otherwise. */
int oc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* Parses a finite decimal number in [min, max]: [+-]digits[.digits][e[+-]digits] (".5" and "5."
 * too); hex floats, hex integers, inf and nan are OC_EPARSE. */
int oc_parse_double(const char *text, double min, double max, double *out);
/* Parses a node (sizes = 0: counts 1 .. OC_MAX_NODES) or size (sizes = 1: as oc_parse_size)
 * list: comma-separated items, each a value or a range A..B (A, 2A, 4A, ... and always B itself,
 * also when the steps miss it: 3..20 is 3, 6, 12, 20; A..B:*F multiplies by F, A..B:+S adds S). The values go to out[0 .. *n), sorted, no
 * repeats. OC_EPARSE for an empty list, an empty item ("4,,8") or a malformed one, OC_ERANGE for
 * more than `max` values, OC_ENOMEM; nothing is returned then. */
int oc_parse_list(const char *text, int sizes, uint64_t *out, size_t max, size_t *n);

/* ---- registries: networks and algorithms ------------------------------------------------------
 */

typedef struct oc_algorithm_info {
    const char *name; /* CLI name, never changes */
    oc_collective collective;
    const char *networks;    /* comma-separated network names it runs on */
    const char *summary;     /* one line */
    const char *restriction; /* e.g. "N even or N = 1"; "" if none */
    const char *cost;        /* the seed's closed form, as text */
    const char *params;      /* "name=default: meaning; ..." or "" */
} oc_algorithm_info;

size_t oc_algorithm_count(void);
const oc_algorithm_info *oc_algorithm_at(size_t i);
/* 1 when algorithm a (from oc_algorithm_at) takes the parameter `key` (-p key=value), else 0. */
int oc_algorithm_takes(const oc_algorithm_info *a, const char *key);

typedef struct oc_network_info {
    const char *name;
    const char *summary;
    const char *params; /* "name=default unit: meaning; ..." */
} oc_network_info;

size_t oc_network_count(void);
const oc_network_info *oc_network_at(size_t i);

/* ---- key=value parameter lists ----------------------------------------------------------------
 */

typedef struct oc_kv oc_kv; /* an ordered list of key=value pairs (opaque) */

oc_kv *oc_kv_new(void);
void oc_kv_free(oc_kv *kv);
/* Sets key to value (replacing an earlier value). */
int oc_kv_set(oc_kv *kv, const char *key, const char *value);
/* Parses "key=value" and sets it; OC_EPARSE if there is no '=' or the key is empty. */
int oc_kv_set_pair(oc_kv *kv, const char *pair);
const char *oc_kv_get(const oc_kv *kv, const char *key);
size_t oc_kv_count(const oc_kv *kv);
const char *oc_kv_key(const oc_kv *kv, size_t i);
const char *oc_kv_value(const oc_kv *kv, size_t i);

/* ---- running: spec -> algorithm -> schedule -> verifier + model -> report ---------------------
 */

typedef struct oc_request {
    oc_collective collective;
    const char *algorithm; /* a registry name */
    const char *network;   /* a registry name; NULL = semantic verification only */
    uint32_t nodes;
    uint64_t bytes;      /* SIZE: one node's block (all-gather, gather, scatter,
                            all-to-all) or the whole vector (all-reduce,
                            reduce-scatter, broadcast) */
    uint32_t root;       /* for broadcast, scatter, gather */
    const oc_kv *params; /* algorithm parameters, may be NULL */
    const oc_kv
        *net_params; /* network parameters (wavelengths=, fibres=, preset=...), may be NULL */
    int data_check;  /* 1: also execute with real data when it fits in memory (default 1) */
    int links;       /* 1: per-resource utilisation in the report (`run --links`) */
    int objective;   /* what a parameter search minimises: OC_OBJECTIVE_TIME (0) or _STEPS */
    int explain;     /* 1: the report's JSON lists every candidate the search looked at */
    oc_progress_fn progress; /* NULL: none; else told of the search's candidates and the rounds
                                (oc_sweep_spec's base: of the sweep's points instead) */
    void *progress_ctx;      /* handed to progress */
} oc_request;

/* The objective of a parameter search: the network model's time (ties: fewer steps), or its
 * steps (ties: less time). Either way, remaining ties go to the simpler choice. */
enum { OC_OBJECTIVE_TIME = 0, OC_OBJECTIVE_STEPS = 1 };

typedef struct oc_report oc_report; /* the result of one run (opaque) */

/* Runs the whole pipeline. On success *out holds a report whose `verified` is 1: a failed semantic
 * or resource check is an error (OC_EVERIFY / OC_ERESOURCE) with the reason in `why`. */
int oc_run(const oc_request *req, oc_report **out, char *why, size_t whylen);
void oc_report_free(oc_report *r);

/* Writes the report as one JSON object (the fields `run --json` prints) followed by a newline. */
int oc_report_write_json(const oc_report *r, FILE *f);
/* Writes a readable multi-line summary. */
int oc_report_write_text(const oc_report *r, FILE *f);
/* Writes the parameter search behind the report (`run --explain`): every candidate mapped, every
 * one pruned and the bound that pruned it, and why the winner won. Writes nothing when the
 * algorithm had nothing to search. */
int oc_report_write_search(const oc_report *r, FILE *f);
/* Writes one CSV line (with `header` = 1, the header line first; r = NULL: the header alone). */
int oc_report_write_csv(const oc_report *r, FILE *f, int header);

/* Formats a duration for people: "0 s", "12.345 us", "1.234 ms" or "2.345 s". */
void oc_format_seconds(char *buf, size_t len, double seconds);
/* Formats a time in its model's unit: unit NULL or "" is seconds (oc_format_seconds); otherwise
 * the time is t / unit_value units named `unit` ("104 tau": the star's times are unitless, in
 * units of its tau parameter). */
void oc_format_time(char *buf, size_t len, double t, const char *unit, double unit_value);
/* A byte count as SIZE reads it back (oc_parse_size): the largest binary unit that divides it
 * exactly, "4 KiB", "1536 B", "3 MiB", "0 B". The one size formatter of the tool's tables and
 * reproductions; messages that only need the magnitude round instead ("2.1 GiB"). */
void oc_format_size(char *buf, size_t len, uint64_t bytes);
/* oc_format_time in the unit of the model that made r (oc_report_time_unit). */
void oc_report_format_time(const oc_report *r, char *buf, size_t len, double t);
/* The unit of r's times: NULL for seconds, else its name ("tau" on the star, whose times are
 * unitless), with *value (may be NULL) set to what one unit is in the times' scale (tau's value).
 * The JSON keeps its *_s field names whatever the unit. */
const char *oc_report_time_unit(const oc_report *r, double *value);
/* Writes s as a JSON string literal (quotes and escapes included, by cJSON); 0, or OC_ENOMEM /
 * OC_EIO. */
int oc_write_json_string(FILE *f, const char *s);

/* ---- physical bounds ----------------------------------------------------------------------------
 *
 * A lower bound on the steps and on the time of EVERY schedule the network model accepts for a
 * collective on N nodes with SIZE bytes, derived from the model's rules alone (its essay and the
 * proofs in src/bounds/): no algorithm is asked, and a verified schedule below it is a bug. Each
 * figure comes with the name of the argument that gave it (the largest of several). Not the same
 * thing as oc_report_steps_lower_bound, which bounds what the model can do with one schedule. */
typedef struct oc_physical_bound_info {
    uint64_t steps;             /* physical steps */
    double time_s;              /* time, in the model's time scale (the star's: units of tau) */
    const char *steps_argument; /* static strings: the arguments that gave steps and time_s */
    const char *time_argument;
} oc_physical_bound_info;

/* The physical bound of req's collective, network (required), net_params, nodes, bytes and root;
 * req->algorithm and req->params are ignored. 0, or OC_EINVAL / OC_ENOENT (no or an unknown
 * network) / OC_ENOTSUP / OC_ETOOBIG (the network's settings refuse these nodes, or it hands
 * nothing to bound with) / OC_ENOMEM with a reason. Takes milliseconds at N = OC_NODE_CAP. */
int oc_physical_bound(const oc_request *req, oc_physical_bound_info *out, char *why, size_t whylen);
/* The physical bound a run's report carries: 1 and *out set, or 0 when it has none (no
 * network, or one with nothing to bound with). */
int oc_report_physical_bound(const oc_report *r, oc_physical_bound_info *out);

/* Accessors for the figures tests and tools need. */
uint64_t oc_report_steps(const oc_report *r);
uint64_t oc_report_rounds(const oc_report *r);
/* Returns 1 and sets *out when the value exists (formula / lower bound may be absent). */
int oc_report_steps_formula(const oc_report *r, double *out);
int oc_report_steps_lower_bound(const oc_report *r, uint64_t *out);
double oc_report_time(const oc_report *r);
int oc_report_verified(const oc_report *r);
int oc_report_data_checked(const oc_report *r);
/* The parameters the algorithm actually used, and the network parameters used (owned by r). */
const oc_kv *oc_report_params(const oc_report *r);
const oc_kv *oc_report_network_params(const oc_report *r);
/* The value of a parameter the algorithm actually used ("radices", "k", ...), or NULL. */
const char *oc_report_param(const oc_report *r, const char *key);
/* A named number of the report (e.g. "kstar", "theorem1_steps_kstar"); 1 if present. */
int oc_report_number(const oc_report *r, const char *key, double *out);

/* ---- sweeps: every algorithm x N x size, each run verified ------------------------------------
 *
 * A sweep runs a grid of points through oc_run: every candidate algorithm at every node count and
 * size, each schedule generated, verified (semantic and, unless data_check is 0, real data) and
 * mapped with the network's resource check. Point i is (nodes[i / (nsizes x nalgorithms)],
 * sizes[i / nalgorithms % nsizes], algorithms[i % nalgorithms]). A point whose algorithm's
 * restrictions exclude it (OC_ENOTSUP) or which the library refuses as too big (OC_ETOOBIG) is "not
 * run" with the library's reason; any other failure is recorded as the point's failure. What a
 * point holds depends only on the point, never on the threads or processes that ran it. */

/* 1 when algorithm `a` runs on the network called `network` (its `networks` list names it). */
int oc_algorithm_runs_on(const oc_algorithm_info *a, const char *network);

typedef struct oc_sweep_spec {
    oc_request base; /* collective, network (required), root, params, net_params, data_check; its
                        algorithm, nodes and bytes are ignored */
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
    char time[32];    /* OC_POINT_RAN: time_s for people, in its model's unit ("34 tau" on the
                         star: oc_report_format_time) */
    char params[256]; /* OC_POINT_RAN: the parameters the run used, "k=v k=v" */
    int has_physical_bound;       /* OC_POINT_RAN: 1 when the network gives a physical bound */
    uint64_t physical_bound_steps; /* then: its steps and time (oc_physical_bound) */
    double physical_bound_time_s;
    char why[384];    /* not run: why; failed: oc_run's reason (may be "") */
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

/* ---- schedule files ----------------------------------------------------------------------------
 */

/* Generates the schedule of `req` and writes it as JSON (format "opticoll-schedule", version 1) to
 * f. The schedule is verified while it is written; a failure is reported as an error. */
int oc_export_json(const oc_request *req, FILE *f, char *why, size_t whylen);
/* The same schedule as a Chrome trace-event JSON timeline (Perfetto, chrome://tracing): one track
 * per node, a slice per transfer and physical step with its resource, timed by the network model.
 * Needs a network whose model reports its placements (every model of `opticoll list` today). */
int oc_export_chrome(const oc_request *req, FILE *f, char *why, size_t whylen);
/* The same schedule as an MSCCL program (<algo><gpu><tb><step .../>, written with libxml2) that
 * the MSCCL runtime `runtime` loads and runs: "msccl-nccl" (msccl-executor-nccl; NULL is it) or
 * "rccl"; in-place (inplace = 1) or out-of-place. A schedule over the runtime's limits is refused
 * (OC_ENOTSUP, one line naming the limit) and nothing is written. */
int oc_export_msccl_for(const oc_request *req, const char *runtime, int inplace, FILE *f,
                        char *why, size_t whylen);
/* oc_export_msccl_for(req, NULL, 0, ...): msccl-nccl, out-of-place. */
int oc_export_msccl(const oc_request *req, FILE *f, char *why, size_t whylen);
/* The same schedule as MLCommons Chakra execution traces (ASTRA-sim's input), one per rank: a
 * GlobalMetadata then a COMM_SEND_NODE / COMM_RECV_NODE per transfer, each message length-prefixed
 * (src/formats/chakra.c). After the schedule passed every check, write(ctx, rank, data, len) is
 * called for rank 0, 1, ... N-1 with that rank's whole file; a non-zero return (an OC_ error)
 * stops the export and is returned. OC_ENOTSUP when the library was built without protobuf-c. */
typedef int (*oc_chakra_writer)(void *ctx, uint32_t rank, const void *data, size_t len);
int oc_export_chakra(const oc_request *req, oc_chakra_writer write, void *ctx, char *why,
                     size_t whylen);

/* ---- drawings (src/formats/draw.c) ------------------------------------------------------------
 */

/* Past this many nodes a drawing is summarised: every panel a sender x receiver matrix binned to
 * OC_DRAW_DETAIL_NODES x OC_DRAW_DETAIL_NODES blocks of nodes. */
#define OC_DRAW_DETAIL_NODES 64
/* What oc_draw writes: an SVG document, or the same picture as a gnuplot script that draws it
 * into a PNG (pngcairo; `gnuplot FILE` renders it, `opticoll draw -o X.png` runs it). */
enum { OC_DRAW_SVG = 0, OC_DRAW_GNUPLOT = 1 };
typedef struct oc_draw_options {
    int64_t round;         /* -1: every round; else this round alone */
    uint64_t max_panels;   /* the most panels (ring, star: physical steps; others: rounds) */
    uint64_t max_elements; /* the most drawn elements (lightpaths, transmissions, cells) */
    int format;            /* OC_DRAW_SVG (0) or OC_DRAW_GNUPLOT */
    const char *image;     /* gnuplot: the PNG the script writes unless the variable
                              opticoll_output is set (NULL: "drawing.png") */
} oc_draw_options;
/* The schedule of `req`, verified and mapped on its network, drawn as one SVG document written to
 * f: the ring's lightpaths per step (arcs coloured by wavelength, dashed by fibre), the star's
 * transmissions and filter tunings per step, the fabric's circuits per round, a sender x receiver
 * matrix per round on the switch, the fat-tree and the direct networks; an index linking to a
 * <view> per round. Nothing is written unless the schedule passed every check and the drawing fits
 * the caps (OC_ETOOBIG otherwise). */
int oc_draw(const oc_request *req, const oc_draw_options *opt, FILE *f, char *why, size_t whylen);
/* The same for a schedule file (JSON, as oc_verify_file reads it; MSCCL XML is refused with
 * OC_ENOTSUP); `network` and `net_params` as there, a network is needed. */
int oc_draw_file(const char *path, const char *network, const oc_kv *net_params,
                 const oc_draw_options *opt, FILE *f, char *why, size_t whylen);

/* The same schedule for ASTRA-sim 2.0's analytical backend on opticoll's switch (src/formats/
 * astra.c): after the schedule passed every check on `-t switch`, write(ctx, name, data, len) is
 * called for "trace.RANK.et" (the Chakra traces, rank 0 to N-1), "network.yml" (topology Switch,
 * npus_count, bandwidth, latency: the switch's alpha and beta as ASTRA-sim reads them),
 * "system.json", "memory.json", "run.sh" (the ASTRA-sim command line) and "opticoll.json" (this
 * run's report). A non-zero return (an OC_ error) stops the export. OC_ENOTSUP on any other network
 * or without protobuf-c. */
typedef int (*oc_astra_writer)(void *ctx, const char *name, const void *data, size_t len);
int oc_export_astra(const oc_request *req, oc_astra_writer write, void *ctx, char *why,
                    size_t whylen);

/* The request run on the fat-tree (`fattree`: verified and mapped; *out its report, the caller
 * frees it) and the SimGrid 4.1 platform of that model's settings written to f: a FAT_TREE cluster
 * of hosts node-0 ... (src/formats/simgrid.c). OC_ENOTSUP on any other network. */
int oc_simgrid_platform(const oc_request *req, FILE *f, oc_report **out, char *why, size_t whylen);

/* Reads a schedule file (JSON, or MSCCL XML: a file whose first non-blank character is '<') and
 * checks it with the semantic verifier, and, when the file or
 * `network` names a network, with that model's resource check. On success *out is a report. */
int oc_verify_file(const char *path, const char *network, const oc_kv *net_params, oc_report **out,
                   char *why, size_t whylen);

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

/* oc_reproduce of one paper (not "all"), also collecting its figures and tables into *out
 * (freed with oc_figures_free). Collection is per thread, so concurrent calls are safe. */
int oc_reproduce_figures(const char *paper, FILE *f, oc_figures **out, char *why, size_t whylen);
/* The same with settings (NULL: the paper's own). */
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

typedef struct oc_model {
    char name[64];       /* the -m name; matched without regard to case */
    uint64_t parameters; /* 1 .. OC_MODEL_MAX_PARAMETERS */
    uint64_t batch;      /* mini-batch of one node (one GPU), 1 .. OC_MODEL_MAX_COUNT */
    uint64_t samples;    /* training samples in one epoch, 1 .. OC_MODEL_MAX_COUNT */
    char note[256];      /* the source column ("" if absent; longer text is cut) */
    unsigned line;       /* line of the models file it came from */
} oc_model;

/* Parses a models file held in memory (len bytes, need not be NUL-terminated). `source` names it in
 * messages ("data/models.tsv:7: ..."). On success *out is an array of *count >= 1 models in file
 * order, freed with oc_models_free. A malformed line, a duplicate name or a file without models is
 * OC_EPARSE with the line in `why`; nothing is returned then. */
int oc_models_parse(const char *text, size_t len, const char *source, oc_model **out, size_t *count,
                    char *why, size_t whylen);
/* Reads and parses the models file at `path`; a file that cannot be read is OC_EIO. */
int oc_models_read(const char *path, oc_model **out, size_t *count, char *why, size_t whylen);
void oc_models_free(oc_model *models);
/* The model called `name` (case-insensitive), or NULL. */
const oc_model *oc_model_find(const oc_model *models, size_t count, const char *name);

/* ceil(samples / (batch x nodes)): all-reduces (iterations) in one epoch; 0 if an argument is 0. */
uint64_t oc_train_iterations(uint64_t samples, uint64_t batch, uint32_t nodes);

typedef struct oc_train_run {
    const char *algorithm; /* registry name */
    oc_report *report;     /* the verified all-reduce of one iteration; NULL when not run */
    double iteration_s;    /* oc_report_time(report) */
    double epoch_s;        /* iterations x iteration_s */
    char reason[256];      /* why the algorithm was not run; "" when it ran */
} oc_train_run;

typedef struct oc_train_result {
    oc_model model;
    char network[24];
    uint32_t nodes;
    uint64_t bytes;        /* parameters x OC_GRADIENT_BYTES_PER_PARAMETER: each all-reduce */
    uint64_t global_batch; /* model.batch x nodes: samples one iteration consumes */
    uint64_t iterations;   /* per epoch: oc_train_iterations(samples, batch, nodes) */
    size_t nrun;           /* runs[0 .. nrun) ran, fastest first (registry order on ties) */
    size_t count;          /* runs[nrun .. count) did not run (restrictions), each with reason */
    oc_train_run *runs;
} oc_train_result;

/* Runs the gradient all-reduce of `model` through oc_run, so every run is verified. `base` gives
 * network (required), nodes, algorithm, params, net_params and data_check; its collective and bytes
 * are ignored (all-reduce of the model's gradient). With base->algorithm NULL every all-reduce
 * algorithm that supports the network runs; those whose restrictions exclude these parameters are
 * listed as not run, and it is an error only when none runs. On success *out is filled and must be
 * released with oc_train_result_free; on failure it holds nothing. */
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
    int data_check;      /* also run every schedule with real data (oc_request.data_check) */
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
    char model[64];        /* "" when none was given */
    uint64_t bucket_bytes; /* ceil(4 x parameters / buckets) */
    double flops;          /* per GPU and iteration */
    double compute_s;
    oc_throughput_side side[3]; /* Lumorph-2, Lumorph-4, Ring */
    int best;                   /* 0 or 1: the faster Lumorph */
    double speedup;             /* the best Lumorph's samples/s over Ring's */
} oc_throughput;

/* Fills *out; bad inputs are OC_EINVAL with a reason naming the input. */
int oc_throughput_estimate(const oc_throughput_in *in, oc_throughput *out, char *why,
                           size_t whylen);
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
    char reason[256];                   /* why it was not run (oc_run's reason); "" when it ran */
} oc_compare_run;

typedef struct oc_compare_result {
    size_t nrun;  /* runs[0 .. nrun) ran, in the list's order */
    size_t count; /* runs[nrun .. count) did not run, in the list's order, each with its reason */
    oc_compare_run *runs;
} oc_compare_result;

/* Runs the algorithms of req->collective at req's point (network required, nodes, bytes, root,
 * net_params, data_check, objective, links, explain, progress; req->algorithm and req->params are
 * ignored). algorithms NULL: every algorithm of the collective, registry order, those for other
 * networks included (not run: oc_run says why); otherwise names[0 .. nalgorithms) in that order,
 * each an algorithm of the collective that runs on the network, named once (else OC_ENOENT /
 * OC_EINVAL, worded as `compare -a` words it). pins (may be NULL): KEY=VALUE pins KEY for every
 * compared algorithm that takes it, ALGO.KEY=VALUE for ALGO alone, which wins; a pin no compared
 * algorithm takes is OC_ENOENT, before anything runs. A run failing otherwise (a failed check,
 * memory) is the compare's error with oc_run's reason. On success *out must be released with
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
    int data_check;          /* as oc_request's: also run the found schedule with real data */
    oc_progress_fn progress; /* NULL: none; else told of the solver's calls ("solver calls"),
                                and polled while one runs: a stop interrupts the solver */
    void *progress_ctx;
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

#ifdef __cplusplus
}
#endif
#endif /* OPTICOLL_H */
