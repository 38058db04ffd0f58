/*
 * opticoll_core.h — libopticoll's core: one run of one collective, from request to report.
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
 *
 * Return values, by kind of function (every public function is one of these; a new one picks its
 * kind, and a function that can fail is always the first):
 *   - actions, writers and parsers (oc_run, oc_report_write_*, oc_parse_*, oc_table_write_row,
 *     oc_perf_nccl_*, ...): int, 0 or a negative OC_E*;
 *   - constructors of a handle with nothing to say but "no memory" (oc_kv_new): the handle, NULL
 *     for OC_ENOMEM; those that can fail otherwise take an out-parameter and return an OC_E*;
 *   - releases (oc_*_free) and the quoting of user text (oc_quote*: always terminated, cut to a
 *     bound it says it cut): void;
 *   - formatters into the caller's buffer (oc_format_*): the length of the whole text, as
 *     snprintf's; a result at least `len` long was cut (the caller sees it and can ask again);
 *   - queries that cannot fail: counts (size_t), figures (uint64_t, double), names and entries
 *     (const pointers, NULL where there is none), and predicates, int 1 or 0
 *     (oc_collective_reduces, oc_algorithm_takes, oc_algorithm_runs_on, oc_report_verified,
 *     oc_report_data_checked);
 *   - optional values, int 1 with *out set or 0 when absent (oc_report_number,
 *     oc_report_steps_formula, oc_report_steps_lower_bound, oc_report_physical_bound);
 * and two headers keep the convention of what they wrap: opticoll_json.h's adders return 1 when
 * added and 0 otherwise (cJSON's, so that a document chains with &&), and opticoll_mpi.h's
 * collectives return MPI error codes (MPI's).
 */
#ifndef OPTICOLL_CORE_H
#define OPTICOLL_CORE_H

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
/* The version of this header, for a program that checks it when it is compiled. CMakeLists.txt's
 * project(VERSION) is the one place the version is set: the build refuses a header that says
 * otherwise. OC_VERSION_NUMBER compares: 0x000100 is 0.1.0. */
#define OC_VERSION_MAJOR 0
#define OC_VERSION_MINOR 1
#define OC_VERSION_PATCH 0
#define OC_VERSION_NUMBER ((OC_VERSION_MAJOR << 16) | (OC_VERSION_MINOR << 8) | OC_VERSION_PATCH)
/* The version of the library linked, "MAJOR.MINOR.PATCH": the macros' numbers when the header and
 * the library are one install. */
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

/* The memory budget (oc_settings.memory_budget, below): every allocation whose size comes from
 * input (a schedule file's node count, an MSCCL file's chunks, the verifier's and the data check's
 * state, a round's staging) is checked against it before it is made, and refused with OC_ETOOBIG
 * and a line saying what it would need. Input files are capped at 1/64 of it (64 MiB by default),
 * checked while they are read. 0 is the default (OC_DEFAULT_MEMORY_BUDGET); values from 1 MiB to
 * OC_MAX_MEMORY_BUDGET are accepted, anything else is OC_EINVAL from the call given it. */
#define OC_DEFAULT_MEMORY_BUDGET (UINT64_C(4) << 30)
#define OC_MAX_MEMORY_BUDGET (UINT64_C(1) << 50)

/* The work budget, beside the memory budget: the work a run's verifier may do, counted by every
 * algorithm's plan before anything is generated. A reduction whose verifier keeps a contribution
 * set a chunk merges one for each chunk a transfer carries, so its work is its chunk-transfers;
 * a copy collective's verifier (and a reduction verified in cells per label offset) adds a range
 * a transfer, so its work is its transfers. A run, and each candidate of a parameter search, is
 * refused past the budget before its first round, with OC_ETOOBIG and a line naming the count,
 * the budget and the variable OPTICOLL_WORK_BUDGET (e.g. SiPCO r=2 on 65536 nodes: 1.4e11
 * chunk-transfers, hours). It is oc_settings.work_budget (below): 0 is the default; values from
 * 1 to OC_MAX_TRANSFERS are accepted (1 refuses every run of more than one transfer), anything
 * else is OC_EINVAL from the call given it. */
#define OC_DEFAULT_WORK_BUDGET (UINT64_C(1) << 35)
#define OC_MIN_WORK_BUDGET UINT64_C(1)
/* The work budget from OPTICOLL_WORK_BUDGET's text, which the caller read, into *units (NULL or
 * "": unset, *units = 0, the default): a whole number of work units; OC_EINVAL with one line
 * naming the variable otherwise (and *units untouched). */
int oc_work_budget_from_env(const char *text, uint64_t *units, char *why, size_t whylen);

/* ---- user text in a message --------------------------------------------------------------------
 *
 * What a program echoes of its user's text (a name, a value, a path) goes through oc_quote: control
 * characters and bytes that are not printable UTF-8 escaped (\n, \r, \t, \xHH), at most 80
 * bytes of the text, then "... (N bytes)" when it was cut. The library's own reasons are quoted so
 * already. */
#define OC_QUOTE_SIZE (4 * 80 + 48) /* a buffer that always holds oc_quote's result */
/* Writes the quoted `text` into buf[0..len); returns buf ("" for NULL text). */
char *oc_quote(char *buf, size_t len, const char *text);
/* Quotes a whole message line in place (cut only by len); quoting twice changes nothing. */
void oc_quote_line(char *line, size_t len);

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
 * step), plus the last one; one piece of work calls from one thread at a time, but two pieces
 * (a run's rounds, its verifier's shards) may call from two threads at once. The callback must
 * not call back into the library. It returns 0 to go on; anything else asks the work to stop:
 * the call that started it then returns OC_ECANCELED soon after (a round, a candidate, a point or
 * a job later), having released what it held (the Python package's Ctrl-C). The last call's
 * answer is not read. */
typedef int (*oc_progress_fn)(void *ctx, const char *what, uint64_t done, uint64_t total);
/* The unit of a one-call piece told before work whose size is known starts (a run's rounds, a
 * search candidate's mapping): done == total == the seconds it should take at this tool's usual
 * pace per transfer and per chunk-transfer (run/shard.c, oc__work_ahead), so that a caller may
 * say ahead that it will take long; not told for work its plan did not count, nor for schedules
 * whose rounds are checked whole (families). An estimate, not a bound: the work's own pace is
 * told as it goes. Its answer is not read (a stop is heard at the work's first report). */
#define OC_PROGRESS_AHEAD "seconds ahead"

/* Chunk-sharded verification (docs/scale.md): a reduction whose verifier state (one cell per node
 * and chunk) passes OC_VERIFY_SHARD_BYTES, or a share of the memory budget, is verified in shards
 * of whole chunk ranges, each regenerating the schedule and keeping only its chunks, run on
 * oc_settings.verify_threads threads; the verdict and the first error are those of one pass. */
#define OC_VERIFY_SHARD_BYTES (UINT64_C(32) << 20)

/* ---- the thread pool ---------------------------------------------------------------------------
 *
 * The library's one pool: independent jobs 0 .. n-1 on a given number of threads, with a result
 * that does not depend on timing (reproductions, sweeps, tunings and the CLI's scale-out). */

/* One job: 0, or a negative oc_errno. A job writes only its own slot of whatever ctx holds. */
typedef int (*oc_pool_job)(size_t i, void *ctx);
/* Runs job(i, ctx) for i = 0 .. n-1 on up to `threads` threads (0 counts as 1; the calling thread
 * is one of them, and a thread that cannot be started leaves the work to the others). Workers take
 * the indices in list order. Returns 0 when every job returned 0; otherwise the error of the
 * failing job with the smallest index, and its index in *failed (may be NULL). Once job i has
 * failed, jobs after i that have not started are skipped, but every job before i still runs, so
 * which error is returned never depends on the threads' timing. */
int oc_pool_run(size_t n, unsigned threads, oc_pool_job job, void *ctx, size_t *failed);

/* ---- one run split across processes ------------------------------------------------------------
 *
 * A run whose verification is sharded (docs/scale.md) can be shared by several processes (the
 * ranks of opticoll-cluster). The library never calls MPI: the caller hands down a part, and the
 * library calls its combine back once this process's passes are done. Part `index` of `count`
 * verifies the contiguous share [index S / count, (index + 1) S / count) of the plan's S shards on
 * its own pool, and part 0 also runs the cost pass (the data check, the network model, the
 * exporters, the counts), so only part 0 can make the report. The plan is the same on every part
 * (the same request, budget and settings): the shards are numbered alike everywhere. */

/* What a part found, or (after combine) what the whole run found: a record of plain bytes,
 * oc_part_result_size() long, that a combine may copy between processes of the same build. */
typedef struct oc_part_result oc_part_result;
size_t oc_part_result_size(void);

typedef struct oc_part oc_part;
struct oc_part {
    unsigned index, count; /* this process is part `index` of `count` (count >= 1) */
    /* Called on the thread that started the run, once this part's passes are done (on every
     * path once verification was entered, so that no other part waits for it in vain): replaces
     * *r, this part's result, by the whole run's, the same on every part (oc_part_merge over
     * every part's record). 0, or an error (then *r says why). */
    int (*combine)(oc_part *self, oc_part_result *r);
    unsigned combined; /* the library counts its calls of combine (the caller zeroes it) */
};

/* The part a run plays is oc_settings.part (below; NULL, the default: the whole run). A part
 * without the cost pass cannot make a report: after a whole-run success its run returns
 * OC_ENOTSUP with a reason saying so (the caller expects it). */

/* What a combine does once it holds every part's record (`all`: count records laid end to end,
 * part i's at byte i * oc_part_result_size()): into *out the whole run's. Parts that reached their
 * passes must have planned alike (the same shards and width), or the run fails with OC_EINVAL
 * naming both plans; otherwise the failure with the smallest key wins (ties: the lower part, then
 * the lower shard), and with none, every part must have reached its passes and the shares must
 * cover the shards once (an internal check). */
void oc_part_merge(const oc_part_result *all, unsigned count, oc_part_result *out);

/* What a record says. `why` points into the record. */
typedef struct oc_part_info {
    int rc;          /* the first failure, 0: none */
    const char *why; /* its reason */
    uint32_t shards, width; /* the plan: shards of width chunks (0 before the passes) */
    uint32_t ran;    /* shards verified (by this part; summed after combine) */
    int cost;        /* whether this part ran the cost pass (counted after combine) */
} oc_part_info;
void oc_part_result_get(const oc_part_result *r, oc_part_info *out);
/* Makes *r the record of a part that failed before its passes with rc and why. */
void oc_part_result_fail(oc_part_result *r, int rc, const char *why);

/* ---- settings: a value the caller owns and hands to every call ----------------------------------
 *
 * What shapes a call beyond its request (after libuv's loop and Lua's state, but a plain value:
 * there is nothing to open or close). Every field's zero is its default, so a zeroed oc_settings,
 * or none at all (NULL), is the library's defaults. A call takes its settings where it takes its
 * inputs: oc_request.settings (and so every request-shaped spec built on oc_request: sweeps,
 * tuning, compare, training), the settings field of the studies' own specs (oc_reproduce_settings,
 * oc_throughput_in, oc_synth_spec, oc_rack_shape), and a first argument of the calls that read a
 * file by its path (oc_verify_file, oc_draw_file, oc_models_read, oc_rack_trace_read). The
 * library keeps no settings of its own: two threads running with different settings each get
 * their own, and the settings a call was given hold for all the work it does, on every thread of
 * the library's pool. The caller keeps the value alive for the length of the call (a sweep: of
 * its life). Inside a study's runs, a request without settings takes the study's. The library
 * never reads the environment: the tools turn OPTICOLL_MEMORY_BUDGET_MIB, OPTICOLL_VERIFY_SHARD
 * and the terminal's width into a value of this type. */
typedef struct oc_settings {
    uint64_t memory_budget;  /* bytes (OC_DEFAULT_MEMORY_BUDGET above); 0: the default */
    unsigned text_width;     /* the columns a plain-text table may take (the reproductions' and
                                studies' tables): a wider table prints its long reasons as
                                numbered notes under it and wraps its widest cells; 0: no limit
                                (the CSV and JSON renderings always hold the whole text) */
    uint32_t verify_shard;   /* chunks in a verifier shard on every collective (tests); 0:
                                automatic, from the budget */
    unsigned verify_threads; /* threads that verify a sharded run; 0: the default, 2 */
    uint64_t work_budget;    /* the work a run's verifier may take (above): chunk-transfers or
                                transfers; 0: the default, OC_DEFAULT_WORK_BUDGET */
    oc_part *part;           /* the part of one run split across processes this call's run plays;
                                NULL: the whole run */
} oc_settings;

/* Checks settings (NULL: the defaults, fine): OC_EINVAL with one line naming the field for a
 * memory budget that is neither 0 nor 1 MiB .. OC_MAX_MEMORY_BUDGET, or a work budget that is
 * neither 0 nor OC_MIN_WORK_BUDGET .. OC_MAX_TRANSFERS; 0 otherwise. Every call that
 * takes settings checks them first. */
int oc_settings_check(const oc_settings *s, char *why, size_t whylen);
/* The memory budget settings mean: OC_DEFAULT_MEMORY_BUDGET for NULL or 0, else theirs. */
uint64_t oc_settings_memory_budget(const oc_settings *s);
/* The verifier's threads settings mean: 2 for NULL or 0, else theirs. */
unsigned oc_settings_verify_threads(const oc_settings *s);
/* The work budget settings mean: OC_DEFAULT_WORK_BUDGET for NULL or 0, else theirs. */
uint64_t oc_settings_work_budget(const oc_settings *s);
/* Checks that `bytes` of memory fit the budget of s (NULL: the default): 0, or OC_ETOOBIG with
 * "<what> needs 2.1 GiB, more than the memory budget of 4 GiB (set OPTICOLL_MEMORY_BUDGET_MIB)". */
int oc_budget_check(const oc_settings *s, uint64_t bytes, const char *what, char *why,
                    size_t whylen);
/* The memory budget from the text of the CLIs' variables, which the caller read: `mib` is
 * OPTICOLL_MEMORY_BUDGET_MIB's and `old_mib` OPTICOLL_VERIFY_BUDGET_MIB's (the verifier's own
 * budget before there was one budget, read only when the first is unset); NULL or "": unset, and
 * *bytes is 0 (the default). A whole number of MiB, 1 to 2^30, sets *bytes; OC_EINVAL with one
 * line naming the variable otherwise, *bytes untouched. */
int oc_memory_budget_from_env(const char *mib, const char *old_mib, uint64_t *bytes, char *why,
                              size_t whylen);

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

/* Parses a SIZE, the one grammar of every size the tools read: "4096", "512B", binary "4KiB",
 * "4MiB", "1GiB" (TiB, PiB), decimal "4kB", "4MB" (KB, GB, TB, PB), and nccl-tests' "1K", "128M",
 * "2G" (K = 1024, as nccl-tests' -b/-e read them; "4k" is refused: kilo or kibi?). Rejects
 * negative, empty, trailing garbage, fractions and anything above OC_MAX_BYTES (OC_ERANGE). */
int oc_parse_size(const char *text, uint64_t *out);
/* Parses a decimal unsigned integer in [min, max] (digits only: no sign, space or hex);
 * OC_EPARSE or OC_ERANGE otherwise. */
int oc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* Parses a finite decimal number in [min, max]: [+-]digits[.digits][e[+-]digits] (".5" and "5."
 * too); hex floats, hex integers, inf and nan are OC_EPARSE. */
int oc_parse_double(const char *text, double min, double max, double *out);
/* Parses a node (sizes = 0: counts 1 .. OC_MAX_NODES) or size (sizes = 1: as oc_parse_size)
 * list: comma-separated items, each a value or a range A..B (A, 2A, 4A, ... and always B itself,
 * also when the steps miss it: 3..20 is 3, 6, 12, 20; A..B:*F multiplies by F, A..B:+S adds S).
 * The values go to out[0 .. *n), sorted, no repeats. OC_EPARSE for an empty list, an empty item ("4,,8") or a malformed one, OC_ERANGE for
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
/* 1 when algorithm `a` runs on the network called `network` (its `networks` list names it). */
int oc_algorithm_runs_on(const oc_algorithm_info *a, const char *network);

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
    int skip_data_check; /* 0, the default (a zeroed request): also execute with real data
                            when it fits in memory; 1: the symbolic verifier alone (--no-data) */
    int links;       /* 1: per-resource utilisation in the report (`run --links`) */
    int objective;   /* what a parameter search minimises: OC_OBJECTIVE_TIME (0) or _STEPS */
    int explain;     /* 1: the report's JSON lists every candidate the search looked at */
    oc_progress_fn progress; /* NULL: none; else told of the search's candidates and the rounds
                                (oc_sweep_spec's base: of the sweep's points instead) */
    void *progress_ctx;      /* handed to progress */
    const oc_settings *settings; /* NULL: the defaults (inside a study's runs: the study's) */
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

/* The formatters write into buf[0..len) as snprintf does (always terminated when len > 0) and
 * return the length of the whole text, so a result of len or more says the text was cut: a call
 * with a buffer of the returned length + 1 gets it whole (buf may be NULL when len is 0). 32
 * bytes hold a size, and a time below 10^16 s or units. */
/* Formats a duration for people: "0 s", "12.345 us", "1.234 ms" or "2.345 s". */
size_t oc_format_seconds(char *buf, size_t len, double seconds);
/* Formats a time in its model's unit: unit NULL or "" is seconds (oc_format_seconds); otherwise
 * the time is t / unit_value units named `unit` ("104 tau": the star's times are unitless, in
 * units of its tau parameter). */
size_t oc_format_time(char *buf, size_t len, double t, const char *unit, double unit_value);
/* A byte count as SIZE reads it back (oc_parse_size): the largest binary unit that divides it
 * exactly, "4 KiB", "1536 B", "3 MiB", "0 B". The one size formatter of the tool's tables and
 * reproductions; messages that only need the magnitude round instead ("2.1 GiB"). */
size_t oc_format_size(char *buf, size_t len, uint64_t bytes);
/* A byte count rounded for a message: "2.1 GiB", "512 MiB", "12 KiB", "100 B" (oc_format_size
 * says it exactly, for tables). */
size_t oc_format_bytes(char *buf, size_t len, uint64_t bytes);
/* oc_format_time in the unit of the model that made r (oc_report_time_unit). */
size_t oc_report_format_time(const oc_report *r, char *buf, size_t len, double t);
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
/* Where a run is far from the time bound, which side is likely loose, from the kind of argument
 * that gave the time bound: a capacity (receive, send, link load, port volume, bisection) is met
 * by some schedule on some instance, so a gap points at the schedules; an argument that ignores
 * the data volume (relay depth, one round, tuning) points at the bound; the ring all-reduce's
 * reduction spread (one spanning tree a chunk, where a reduce and a broadcast pay two, and no
 * schedule meets it) leaves both open. NONE: no gap worth naming (at most OC_LOOSE_RATIO). */
typedef enum oc_loose_side {
    OC_LOOSE_NONE = 0,
    OC_LOOSE_SCHEDULE,
    OC_LOOSE_BOUND,
    OC_LOOSE_BOTH
} oc_loose_side;
/* A run's time over the time bound above which the side is named (the text's `gap:` line, the
 * JSON's "likely_loose"). */
#define OC_LOOSE_RATIO 2.0

typedef struct oc_physical_bound_info {
    uint64_t steps;             /* physical steps */
    double time_s;              /* time, in the model's time scale (the star's: units of tau) */
    const char *steps_argument; /* static strings: the arguments that gave steps and time_s */
    const char *time_argument;
    /* the side a gap above OC_LOOSE_RATIO points at, from the time argument's kind (never
     * OC_LOOSE_NONE); oc_physical_bound_loose applies the threshold */
    oc_loose_side gap_side;
    /* the unit of time_s as the model prints it (oc_format_time): NULL for seconds; the star's
     * "tau" (or "D"), worth time_unit_value in time_s's scale */
    const char *time_unit;
    double time_unit_value;
} oc_physical_bound_info;

/* The physical bound of req's collective, network (required), net_params, nodes, bytes and root;
 * req->algorithm and req->params are ignored. 0, or OC_EINVAL / OC_ENOENT (no or an unknown
 * network) / OC_ENOTSUP / OC_ETOOBIG (the network's settings refuse these nodes, or it hands
 * nothing to bound with) / OC_ENOMEM with a reason. Takes milliseconds at N = OC_NODE_CAP. */
int oc_physical_bound(const oc_request *req, oc_physical_bound_info *out, char *why, size_t whylen);
/* The physical bound a run's report carries: 1 and *out set, or 0 when it has none (no
 * network, or one with nothing to bound with). */
int oc_report_physical_bound(const oc_report *r, oc_physical_bound_info *out);
/* Which side is likely loose where a run takes `ratio` x b's time bound: OC_LOOSE_NONE when the
 * ratio is at most OC_LOOSE_RATIO (or not a number), else b->gap_side. *reason (when not NULL)
 * gets a static sentence saying why ("" for NONE): what the CLI prints after "likely loose:". */
oc_loose_side oc_physical_bound_loose(const oc_physical_bound_info *b, double ratio,
                                      const char **reason);
/* "none", "schedule", "bound", "both": the JSON's "likely_loose" values. */
const char *oc_loose_side_name(oc_loose_side side);

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
/* A named number of the report (e.g. "kstar_theorem2", "steps_theorem1_at_kstar" of OpTree,
 * "time_closed_form_s"); 1 and *out set if present, 0 if not. */
int oc_report_number(const oc_report *r, const char *key, double *out);

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
    oc_progress_fn progress; /* oc_draw_file: told of the file's reading and checking, and may
                                stop them, as oc_verify_file_progress's (NULL: none); oc_draw
                                reports to its request's */
    void *progress_ctx;
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
int oc_draw_file(const oc_settings *settings, const char *path, const char *network,
                 const oc_kv *net_params, const oc_draw_options *opt, FILE *f, char *why,
                 size_t whylen);

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
/* The most ranks `opticoll simgrid` (and the Python package's simgrid()) run under SMPI: it needs
 * about 13 GB of memory at 1024 ranks. */
#define OC_SIMGRID_MAX_NODES 256u

/* Reads a schedule file (JSON, or MSCCL XML: a file whose first non-blank character is '<') and
 * checks it with the semantic verifier, and, when the file or
 * `network` names a network, with that model's resource check. On success *out is a report. */
int oc_verify_file(const oc_settings *settings, const char *path, const char *network,
                   const oc_kv *net_params, oc_report **out, char *why, size_t whylen);
/* oc_verify_file telling `progress` (NULL: none) how far it got: the rounds read ("rounds read";
 * an MSCCL file's bytes, "bytes read"), then the rounds checked ("rounds"). A non-zero answer stops
 * the reading, the verifier and the model within a report (OC_ECANCELED), all released. */
int oc_verify_file_progress(const oc_settings *settings, const char *path, const char *network,
                            const oc_kv *net_params, oc_progress_fn progress, void *progress_ctx,
                            oc_report **out, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* OPTICOLL_CORE_H */
