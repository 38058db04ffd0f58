/*
 * opticoll.h — the one public header of libopticoll.
 *
 * opticoll turns the collective-communication algorithms of the optical-interconnect papers into
 * real schedules, checks every schedule with a semantic verifier that trusts nothing, maps it onto a
 * network model (wavelengths, fibres, circuits, ports) that proves no resource is used twice, and
 * costs it step by step next to the papers' closed forms.
 *
 * The pipeline is one-way: collective spec -> algorithm -> schedule (logical rounds) -> verifier and
 * network model -> report. See ../shared/DESIGN.md of the project for the contracts.
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

/* ---- errors ----------------------------------------------------------------------------------- */

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
    X(ETOOBIG, -10, "problem too large")

typedef enum {
    OC_OK = 0,
#define OC__ERRNO_ENUM(name, code, text) OC_##name = code,
    OC_ERRNO_MAP(OC__ERRNO_ENUM)
#undef OC__ERRNO_ENUM
} oc_errno;

/* A static, human-readable name for an error code. */
const char *oc_strerror(int err);

/* Limits the library enforces on user input (larger input is refused with OC_ETOOBIG). A schedule
 * of more than OC_MAX_TRANSFERS transfers (minutes of work) is refused before it is generated. */
#define OC_MAX_TRANSFERS (UINT64_C(1) << 31)
#define OC_MAX_NODES (1u << 17)
#define OC_MAX_BYTES (UINT64_C(1) << 50) /* 1 PiB per message */

/* ---- collectives ------------------------------------------------------------------------------ */

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

/* ---- parsing helpers the CLI and schedule files share ----------------------------------------- */

/* Parses "4096", "4KiB", "4MiB", "1GiB", "4MB", "4kB", "512B". Rejects negative, empty, trailing
 * garbage, fractions and anything above OC_MAX_BYTES (OC_ERANGE). */
int oc_parse_size(const char *text, uint64_t *out);
/* Parses a decimal unsigned integer in [min, max]; OC_EPARSE or OC_ERANGE otherwise. */
int oc_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* Parses a finite decimal number in [min, max]. */
int oc_parse_double(const char *text, double min, double max, double *out);

/* ---- registries: networks and algorithms ------------------------------------------------------ */

typedef struct oc_algorithm_info {
    const char *name;        /* CLI name, never changes */
    oc_collective collective;
    const char *networks;    /* comma-separated network names it runs on */
    const char *summary;     /* one line */
    const char *restriction; /* e.g. "N even or N = 1"; "" if none */
    const char *cost;        /* the seed's closed form, as text */
    const char *params;      /* "name=default: meaning; ..." or "" */
} oc_algorithm_info;

size_t oc_algorithm_count(void);
const oc_algorithm_info *oc_algorithm_at(size_t i);

typedef struct oc_network_info {
    const char *name;
    const char *summary;
    const char *params; /* "name=default unit: meaning; ..." */
} oc_network_info;

size_t oc_network_count(void);
const oc_network_info *oc_network_at(size_t i);

/* ---- key=value parameter lists ---------------------------------------------------------------- */

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

/* ---- running: spec -> algorithm -> schedule -> verifier + model -> report --------------------- */

typedef struct oc_request {
    oc_collective collective;
    const char *algorithm; /* a registry name */
    const char *network;   /* a registry name; NULL = semantic verification only */
    uint32_t nodes;
    uint64_t bytes;        /* SIZE as DESIGN.md defines it for the collective */
    uint32_t root;         /* for broadcast, scatter, gather */
    const oc_kv *params;   /* algorithm parameters, may be NULL */
    const oc_kv *net_params; /* network parameters (wavelengths=, fibres=, preset=...), may be NULL */
    int data_check;        /* 1: also execute with real data when it fits in memory (default 1) */
} oc_request;

typedef struct oc_report oc_report; /* the result of one run (opaque) */

/* Runs the whole pipeline. On success *out holds a report whose `verified` is 1: a failed semantic
 * or resource check is an error (OC_EVERIFY / OC_ERESOURCE) with the reason in `why`. */
int oc_run(const oc_request *req, oc_report **out, char *why, size_t whylen);
void oc_report_free(oc_report *r);

/* Writes the report as one JSON object (the fields of DESIGN.md and more) followed by a newline. */
int oc_report_write_json(const oc_report *r, FILE *f);
/* Writes a readable multi-line summary. */
int oc_report_write_text(const oc_report *r, FILE *f);
/* Writes one CSV line (with `header` = 1, the header line first). */
int oc_report_write_csv(const oc_report *r, FILE *f, int header);

/* Accessors for the figures tests and tools need. */
uint64_t oc_report_steps(const oc_report *r);
uint64_t oc_report_rounds(const oc_report *r);
/* Returns 1 and sets *out when the value exists (formula / lower bound may be absent). */
int oc_report_steps_formula(const oc_report *r, double *out);
int oc_report_steps_lower_bound(const oc_report *r, uint64_t *out);
double oc_report_time(const oc_report *r);
int oc_report_verified(const oc_report *r);
int oc_report_data_checked(const oc_report *r);
/* The value of a parameter the algorithm actually used ("radices", "k", ...), or NULL. */
const char *oc_report_param(const oc_report *r, const char *key);
/* A named number of the report (e.g. "kstar", "theorem1_steps_kstar"); 1 if present. */
int oc_report_number(const oc_report *r, const char *key, double *out);

/* ---- schedule files ---------------------------------------------------------------------------- */

/* Generates the schedule of `req` and writes it as JSON (format "opticoll-schedule", version 1) to
 * f. The schedule is verified while it is written; a failure is reported as an error. */
int oc_export_json(const oc_request *req, FILE *f, char *why, size_t whylen);

/* Reads a schedule file (JSON) and checks it with the semantic verifier, and, when the file or
 * `network` names a network, with that model's resource check. On success *out is a report. */
int oc_verify_file(const char *path, const char *network, const oc_kv *net_params, oc_report **out,
                   char *why, size_t whylen);

/* ---- reproductions ----------------------------------------------------------------------------- */

/* Prints the reproduction of one paper ("optree") to f: paper's printed value, the paper's formula
 * evaluated, and our simulated value on a verified schedule, with a reason for every difference. */
int oc_reproduce(const char *paper, FILE *f, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif /* OPTICOLL_H */
