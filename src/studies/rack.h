/*
 * rack.h — multi-tenant rack allocation (lumorph seed, section 3 and Fig. 2a), internal to the
 * library; `opticoll rack` (tools/cmd_rack.c) and `reproduce lumorph` use it.
 *
 * Tenants arrive, each asking for g GPUs, and leave. The same trace is replayed on three racks of
 * the same size (servers x tiles GPUs):
 *  - lumorph: any free tiles anywhere, as long as the tenant's circuits can cross between its
 *    servers on spare fibres (rack.c says exactly what a tenant reserves);
 *  - tpu: TPU-v4-like fixed 3D-torus slices: aligned power-of-two blocks of chips (2^a x 2^b x
 *    2^c sub-cubes of the 4x4x4 cube, or whole cubes above 64 chips);
 *  - sipac: SiPAC(r, l): aligned sub-BCubes of r^k GPUs, k <= l.
 * For each it counts placed and rejected requests, time-averaged utilisation, idle GPUs, GPUs lost
 * to rounding and GPUs stranded by fragmentation, and runs every placed tenant's all-reduce
 * through oc_run (verified) with the best algorithm for its allocation.
 */
#ifndef OC_REPORT_RACK_H
#define OC_REPORT_RACK_H

#include "core/progress.h"
#include "opticoll_studies.h"
#include "studies/studies.h"

#include <stdio.h>

/* What `opticoll rack` calls is public (opticoll_studies.h: the shape and its limits, the Fig. 2a
 * example, a trace read or drawn, the replay and its text and JSON); the names below are the same
 * functions and types inside the library, where the tests also reach the racks' live state. */
#define oc__rack_fig2a oc_rack_fig2a
#define oc__rack_shape_check oc_rack_shape_check
#define oc__rack_write_text oc_rack_write_text
#define oc__rack_write_json oc_rack_write_json

typedef enum { OC__RACK_LUMORPH, OC__RACK_TPU, OC__RACK_SIPAC, OC__RACK_ARCHS } oc__rack_arch;

const char *oc__rack_arch_name(oc__rack_arch a);

#define OC__RACK_MAX_SERVERS OC_RACK_MAX_SERVERS
#define OC__RACK_MAX_TILES OC_RACK_MAX_TILES
#define OC__RACK_MAX_FIBRES OC_RACK_MAX_FIBRES
#define OC__RACK_MAX_TENANTS OC_RACK_MAX_TENANTS
typedef oc_rack_shape oc__rack_shape;

/* ---- traces -----------------------------------------------------------------------------------
 */

typedef struct oc__rack_event {
    double time;
    int leave;       /* 0: arrival, 1: departure */
    uint32_t tenant; /* index into the trace's tenants */
} oc__rack_event;

typedef struct oc__rack_tenant {
    char id[32];
    uint32_t gpus;
    double arrive, leave; /* leave < 0: stays to the end of the trace */
} oc__rack_tenant;

struct oc_rack_trace {
    oc__rack_tenant *tenants;
    size_t ntenants;
    oc__rack_event *events; /* in replay order */
    size_t nevents;
    char source[96]; /* "seed 1, 200 tenants" or the file name */
};
typedef struct oc_rack_trace oc__rack_trace;

/* Parses a trace file held in memory. Format (one event a line, '#' starts a comment):
 *     TIME arrive ID GPUS
 *     TIME leave ID [GPUS]
 * TIME is a non-negative number, never smaller than the line before; ID a word of at most 31
 * characters, not active twice; GPUS a whole number 1 .. rack_gpus (on a leave, if given, the
 * tenant's own). A malformed line is OC_EPARSE with "source:line: why"; nothing is returned then.
 */
int oc__rack_trace_parse(const char *text, size_t len, const char *source, uint32_t rack_gpus,
                         oc__rack_trace *out, char *why, size_t whylen);
/* A seeded random trace of `tenants` tenants (splitmix64; rack.c documents the distributions). */
int oc__rack_trace_random(uint64_t seed, uint32_t tenants, uint32_t rack_gpus, oc__rack_trace *out,
                          char *why, size_t whylen);
void oc__rack_trace_free(oc__rack_trace *t);

/* ---- one architecture's live state (the replay uses it; tests check its invariants) ---------- */

typedef struct oc__rack oc__rack;

/* Where and how one tenant was placed. */
typedef struct oc__rack_place {
    uint32_t allocated;      /* GPUs given (>= g: rounding up to a slice) */
    uint32_t servers;        /* servers the allocation spans */
    uint32_t max_per_server; /* its largest share of one server */
    uint32_t min_per_server; /* its smallest share: with rhd, its smallest reservation per pair */
    uint32_t first;          /* lowest GPU index given */
    uint32_t fibres;         /* fibres reserved (lumorph), summed over ordered server pairs */
    int rhd_circuits;        /* lumorph: 1 if the fibres reserved carry rhd, 0 if only a ring */
} oc__rack_place;

int oc__rack_new(const oc__rack_shape *s, oc__rack_arch arch, uint32_t max_tenants, oc__rack **out,
                 char *why, size_t whylen);
void oc__rack_free(oc__rack *r);
/* Places tenant `t` (< max_tenants, not placed) asking for g GPUs. Returns 1 and fills *p when
 * placed, 0 when rejected (reason in `why`), or a negative error. */
int oc__rack_place_tenant(oc__rack *r, uint32_t t, uint32_t g, oc__rack_place *p, char *why,
                          size_t whylen);
/* Gives tenant t exactly GPUs first .. first+count-1 (all free; the Fig. 2a scenario). */
int oc__rack_occupy(oc__rack *r, uint32_t t, uint32_t first, uint32_t count, char *why,
                    size_t whylen);
/* Frees tenant t's GPUs and fibres; OC_EINVAL if it holds none. */
int oc__rack_release(oc__rack *r, uint32_t t);
uint32_t oc__rack_free_gpus(const oc__rack *r);
/* The largest request that would be placed now (0 if none). */
uint32_t oc__rack_largest(oc__rack *r);
/* Owner of GPU i (tenant index) or -1 when free. */
int64_t oc__rack_owner(const oc__rack *r, uint32_t gpu);
/* Proves the bookkeeping from the owner array alone: no GPU given twice, free count and per-tenant
 * counts consistent, every slice of a fixed-slice rack an aligned block of an allowed size, no
 * fibre pair over capacity and fibre use equal to the sum of the tenants' reservations. */
int oc__rack_check(const oc__rack *r, char *why, size_t whylen);

/* ---- the replay -------------------------------------------------------------------------------
 */

/* The best all-reduce for g GPUs (section 3): ring when g is not a power of two; otherwise rhd
 * radix 2, and radix 4 when g is a power of 4, whichever is faster. `network` is "fabric" or
 * "switch"; net is that network's parameters ("" for defaults). With rhd_allowed = 0 only the ring
 * runs. */
typedef struct oc__rack_ar {
    char algo[16];  /* "ring", "rhd" or "none" (g = 1) */
    uint32_t radix; /* rhd's radix, 0 for ring */
    double time_s;  /* from a verified oc_run */
    int simulated;  /* 0: refused as too big (note in the trace result) */
} oc__rack_ar;

typedef struct oc__rack_tenant_result {
    int placed;
    oc__rack_place where;
    oc__rack_ar ar;
    char reason[96]; /* why rejected */
} oc__rack_tenant_result;

typedef struct oc__rack_arch_result {
    uint64_t arrivals, placed, rejected, rejected_fragmented; /* fragmented: enough GPUs free */
    uint64_t rejected_too_large; /* larger than the architecture's slices ever are */
    uint64_t rejected_no_fibres; /* lumorph: enough GPUs free, but on servers no fibre joins */
    double utilisation;          /* time average of GPUs asked for and in use / rack GPUs */
    double rounding;             /* of GPUs given beyond the request */
    double idle;                 /* of GPUs not given to anyone */
    double stranded; /* of min(free GPUs, the largest slice of the architecture: the rack for
                        lumorph, whatever its fibres) beyond the largest request placed now */
    double mean_allreduce_s; /* over placed tenants */
    uint64_t runs;           /* distinct oc_run calls (cache misses) */
} oc__rack_arch_result;

struct oc_rack_result {
    oc__rack_shape shape;        /* shape.settings: &settings, or NULL when the caller gave none */
    oc_settings settings;        /* a copy of the caller's, for the text's width */
    const oc__rack_trace *trace; /* not owned */
    double span;                 /* first to last event */
    oc__rack_arch_result arch[OC__RACK_ARCHS];
    oc__rack_tenant_result *tenant[OC__RACK_ARCHS]; /* per tenant, trace order */
};
typedef struct oc_rack_result oc__rack_result;

/* Replays the trace on the three racks, checking the invariants after every event. */
int oc__rack_replay(const oc__rack_shape *s, const oc__rack_trace *t, oc__rack_result *out,
                    char *why, size_t whylen);
void oc__rack_result_free(oc__rack_result *r);

/* ---- what the rack's files share (rack.c's essay names them) ---- */

/* TPU-v4's cube: 4 x 4 x 4 chips. */
enum { OC__RACK_CUBE = 64 };
/* 1 when g is a power of base (g >= 1). */
int oc__rack_is_pow(uint64_t g, uint64_t base);
/* The largest request an empty lumorph rack places: all of it when one ring fibre joins each
 * server to the next (a power of two whose rhd fibres are short falls back to the ring), else
 * one server. */
uint32_t oc__rack_lumorph_cap(const oc__rack_shape *s);

/* rack_replay.c: the all-reduce runs, cached per (network, size, layout). */
typedef struct oc__rack_ar_entry oc__rack_ar_entry;
typedef struct oc__rack_ar_cache {
    oc__rack_ar_entry *e;
    size_t n, cap;
    uint64_t bytes;
    oc__progress *progress; /* the replay's (NULL or without a callback: the runs poll none) */
} oc__rack_ar_cache;
/* The all-reduce of a placed tenant (rack.c's essay gives the layout passed); *runs counts the
 * runs made (not cached). */
int oc__rack_tenant_ar(oc__rack_ar_cache *c, oc__rack_arch arch, uint32_t g,
                       const oc__rack_place *p, oc__rack_ar *out, uint64_t *runs, char *why,
                       size_t whylen);

/* rack_output.c: an architecture's name as the tables print it (sipac(r,l)), and an all-reduce's
 * cell. */
void oc__rack_arch_label(char *buf, size_t len, const oc__rack_shape *s, int a);
void oc__rack_ar_text(char *buf, size_t len, const oc__rack_ar *ar);

#endif
