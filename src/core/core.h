/*
 * core.h — the schedule IR and the pieces every part of the library shares.
 *
 * A schedule is an ordered list of logical rounds. A round is a set of transfers
 * {src, dst, op, chunks}; every transfer of a round reads the state as it was at the start of the
 * round and takes effect at its end (the synchronous step model of every seed). Chunks are named by
 * labels 0..C-1 and a transfer always moves one contiguous label range [first, first + count): an
 * algorithm chooses its labelling (see oc__spec.block_node) so that what a node forwards is a
 * range. That keeps verification and mapping linear in the number of transfers, not in chunks times
 * hops.
 *
 * Schedules are streamed: an algorithm emits one round at a time through an oc__emit, which hands
 * each finished round to a chain of sinks (verifier, network model, exporter) and then reuses the
 * buffer. A whole schedule is never held in memory unless a sink (oc__store) asks for it.
 */
#ifndef OC_CORE_H
#define OC_CORE_H

#include "opticoll.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- small utilities ------------------------------------------------------------------------- */

/* Formats a one-line reason into why[0..len) (no-op when why is NULL); returns err. */
int oc__fail(char *why, size_t len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Allocation helpers that check for size overflow; they return NULL on failure. */
void *oc__calloc(size_t n, size_t size);
void *oc__malloc_array(size_t n, size_t size);
/* Grows *p (of *cap elements) to hold at least need elements; 0 or OC_ENOMEM. */
int oc__grow(void **p, size_t *cap, size_t need, size_t elem);

/* ---- the settings of the call this thread is in (settings.c) ---- */

/* The calling thread's settings: those of the public call it is in, or the defaults outside one
 * (never NULL). */
const oc_settings *oc__settings(void);
/* Makes s the calling thread's settings until oc__settings_leave(the returned value); s NULL
 * keeps the current ones (a call inside a call takes the outer call's). Nests. */
const oc_settings *oc__settings_enter(const oc_settings *s);
void oc__settings_leave(const oc_settings *prev);
/* The entry point's form: oc_settings_check(s), then oc__settings_enter(s) when they pass; *prev
 * is what oc__settings_leave takes either way. 0 or OC_EINVAL with the reason. */
int oc__settings_enter_checked(const oc_settings *s, const oc_settings **prev, char *why,
                               size_t whylen);
/* The calling thread's settings, field by field, defaults applied. */
uint64_t oc__memory_budget(void);
unsigned oc__text_width(void);
uint32_t oc__verify_shard(void);
unsigned oc__verify_threads(void);
oc_part *oc__settings_part(void);

/* The memory budget's check against the calling thread's settings (oc_budget_check, public, takes
 * the settings as an argument: the CLIs use it too). */
int oc__budget_check(uint64_t bytes, const char *what, char *why, size_t whylen);
/* Input files are capped at 1/64 of the memory budget, 64 MiB by default: a file under the cap
 * has a parsed form within the budget (libxml2's tree takes ~24 bytes per byte of XML, cJSON's
 * ~10 per byte of JSON), and /dev/zero stops after 64 MiB. */
uint64_t oc__file_cap(void);
/* Reads the file at `path` whole into *out (NUL-terminated, *len bytes without the NUL). The cap
 * (0 or more than oc__file_cap(): oc__file_cap()) is checked while reading: /dev/zero stops at the
 * cap, not at the end of memory. OC_EIO when it cannot be read, OC_ETOOBIG past the cap; `what`
 * names it in messages
 * ("--decisions d.json"; NULL: the path). */
int oc__read_file(const char *path, uint64_t cap, const char *what, char **out, size_t *len,
                  char *why, size_t whylen);
/* "2.1 GiB", "512 MiB", "12 KiB", "100 B": a byte count for messages. */
#define oc__format_bytes oc_format_bytes /* public (opticoll.h) */

/* Principal branch of Lambert's W (the star seed's Omega) for x >= 0, by Newton's method. */
double oc__lambert_w0(double x);

/* (a - b) mod n for a, b in [0, n): a subtraction, not a division (hot in the ring model). */
static inline uint32_t oc__ring_sub(uint32_t a, uint32_t b, uint32_t n) {
    return a >= b ? a - b : a + n - b;
}

static inline uint64_t oc__ceil_div(uint64_t a, uint64_t b) {
    return b ? (a + b - 1) / b : 0;
}

/* ---- the schedule IR --------------------------------------------------------------------------
 */

typedef enum { OC_OP_COPY = 0, OC_OP_REDUCE = 1 } oc__op;

typedef struct oc__transfer {
    uint32_t src, dst;
    uint32_t first, count; /* chunk labels [first, first + count) */
    uint32_t op;           /* oc__op */
} oc__transfer;

/* A translation-invariant round over a whole ring of n nodes (issue 31: a ring round taken whole,
 * O(1) instead of O(n) where a sink knows how): for every k in [0, n), node k sends to node
 * (k + hop) mod n the block (k + n - shift) mod n, block b being the labels
 * [first + b * width, first + (b + 1) * width), with op. It claims nothing a sink must believe:
 * it is the round, written short, and a sink that cannot reason about it whole reads its
 * transfers (oc__family_expand) exactly as if they had been emitted one by one, in order k. */
typedef struct oc__family {
    uint32_t n, hop, shift; /* hop and shift in [0, n) */
    uint32_t first, width;  /* width >= 1, first + n * width <= C */
    uint32_t op;            /* oc__op */
} oc__family;

/* Transfer k of the family (k < n). */
static inline oc__transfer oc__family_at(const oc__family *f, uint32_t k) {
    const uint32_t dst = f->hop >= f->n - k ? k - (f->n - f->hop) : k + f->hop;
    const uint32_t block = k >= f->shift ? k - f->shift : k + (f->n - f->shift);
    return (oc__transfer){k, dst, f->first + block * f->width, f->width, f->op};
}

typedef struct oc__round {
    oc__transfer *xfers;
    size_t count, cap;
    /* is_family: the round is `family` alone (count = family.n); xfers is not filled. Only a sink
     * that says it takes families (oc__sink.takes_family) sees such a round; the emitter hands
     * every other sink the transfers written out. */
    int is_family;
    oc__family family;
    /* NULL, or (a windowed emitter's round: only the transfers touching its chunk window) each
     * transfer's position in the whole round, so a shard's verifier names failures in the order
     * one pass over the whole round would meet them. */
    uint64_t *index;
    size_t index_cap;
} oc__round;

int oc__round_push(oc__round *r, uint32_t src, uint32_t dst, oc__op op, uint32_t first,
                   uint32_t count);
void oc__round_free(oc__round *r);
/* Writes the family's n transfers, in order, into out (a sink's own buffer, grown as needed):
 * out becomes the round as plain transfers. 0 or OC_ENOMEM. */
int oc__family_expand(const oc__family *f, oc__round *out);
/* The round's transfers: r itself when it is plain, else r's family written out into `flat`
 * (NULL and OC_ENOMEM in *rc when memory is short). */
const oc__round *oc__round_plain(const oc__round *r, oc__round *flat, int *rc);

/* ---- the collective spec ----------------------------------------------------------------------
 */

/*
 * The spec fixes the initial and the required final state. Chunk labels:
 *  - allgather, gossip, gather, scatter, reducescatter: C = N*q labels in N blocks of q; block b is
 *    the data of node block_node[b] (identity unless the algorithm relabels).
 *  - allreduce, broadcast: C = q pieces of the one vector or message.
 *  - alltoall: C = N*N*q; label ((d*N + s)*q + p) is piece p of what node s sends to node d.
 */
typedef struct oc__spec {
    oc_collective coll;
    uint32_t nodes;
    uint32_t root;
    uint32_t q;           /* chunks per block (per piece for allreduce/broadcast) */
    uint32_t chunks;      /* C, the number of labels */
    uint64_t bytes;       /* SIZE as the user gave it */
    uint64_t chunk_bytes; /* the largest chunk, in bytes */
    uint32_t *block_node; /* N entries or NULL (identity); owned by the spec */
    /* An upper bound on the transfers of any one round, when the algorithm states one (0: not
     * stated): the pipeline sizes the round's memory from it before generating (run/shard.c). */
    uint64_t max_round;
    /* Reductions: an upper bound on the verifier's bytes for one chunk over all nodes beyond its
     * N inline cells, when the algorithm states one: the heap of contribution sets that fragment
     * into more than two intervals (rhd: strided sets) and a round's staging of its senders'
     * sets; 0: not stated. Shards are sized with it (run/shard.c). */
    uint64_t chunk_heap;
    /* The chunk-transfers of the whole schedule (the sum of its transfers' chunk counts), when the
     * algorithm counts them in its plan (0: not counted). A reduction's verifier works once per
     * chunk a transfer carries (a contribution set merged), so this is its work: the run is refused
     * past the work budget before anything is generated (oc_settings.work_budget), and a sharded
     * run reports its shards' progress in it as they go (run/shard.c). Every plan states it,
     * exact or a proven upper bound (tests/test_plan_units.c holds every algorithm to it). */
    uint64_t units;
    /* The transfers of the whole schedule, stated beside units by every plan (exact, or a proven
     * upper bound; 0: not stated). A copy collective's verifier adds a range a transfer and a
     * model maps a bundle a transfer, so this is their work: the work budget holds it where units
     * do not (oc__work_check). */
    uint64_t transfers;
    /* 1: the generator makes only a chunk window's transfers (oc__emit_skip), so a verifier shard
     * costs its own transfers and shards may be many and small (run/shard.c). */
    int window_skips;
    /* 1: the generator's whole rounds are families of every node (oc__emit_family; the ring
     * all-reduce and reduce-scatter): a reduction's verifier may hold one cell per label offset
     * instead of N x C, so the plan runs it in one pass, not in shards (run/shard.c). A promise
     * for planning only: the verifier checks every round, and a round that is not such a family
     * makes it write the N x C cells out (within its budget, else the run is sharded). */
    int families;
    /* A symmetry of the whole schedule, the algorithm's word for planning only (0: none stated):
     * every round is unchanged when every node n becomes n + orbit_stride (mod N) and every label
     * turns by orbit_turn inside its part of orbit_part labels (the part [p P, (p + 1) P) of label
     * p P + o; o becomes (o + orbit_turn) mod P). hring: stride g, parts of G = N / g labels, turn
     * 1 (its rings in the groups carry whole parts, its rings across one label). An all-reduce's
     * verifier may then hold the cells of orbit_stride nodes instead of N (verify.c, "Orbit
     * reductions"), so the plan runs it in one pass; it checks every round's symmetry itself and
     * writes the N x C cells out at the first round that lacks it. */
    uint32_t orbit_stride, orbit_part, orbit_turn;
    /* A second symmetry, of mixed-radix schedules (0 levels: none stated), the algorithm's word
     * for planning only: read every node and every label (C = N) as a number of digit_levels
     * digits, digit p of radix digit_radix[p] (p = 0 the least significant, the product N); every
     * round is unchanged when every node and every label is added the same x digit by digit,
     * without carries (rhd's all-reduce with P = N: its levels exchange along one digit). An
     * all-reduce's verifier may then hold node 0's C cells instead of N x C (verify.c, "Digit
     * orbit reductions"); it checks every round's symmetry itself. */
    uint32_t digit_levels;
    uint32_t digit_radix[32];
} oc__spec;

/* Fills the spec for (coll, nodes, root, bytes, q); block_node stays NULL. Checks sizes. */
int oc__spec_init(oc__spec *s, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  uint32_t q, char *why, size_t whylen);
void oc__spec_free(oc__spec *s);
/* The node whose block is block b (identity unless relabelled). */
static inline uint32_t oc__spec_block_node(const oc__spec *s, uint32_t b) {
    return s->block_node ? s->block_node[b] : b;
}
/* Checks that block_node is a permutation of 0..N-1. */
int oc__spec_check_labels(const oc__spec *s, char *why, size_t whylen);
/* The work budget's check (budget.c; the budget is oc_settings.work_budget): 0, or OC_ETOOBIG and
 * one line when the work its plan counted passes the budget: a reduction's chunk-transfers (units)
 * where `per_chunk` (its verifier merges a set a chunk), else the transfers; `shards` (> 1) is said
 * in the line. A count the plan did not state (0) passes. */
int oc__work_check(const oc__spec *spec, int per_chunk, uint32_t shards, char *why, size_t whylen);
/* The work budget's floor: 0, or OC_ETOOBIG and one line when the budget is below the N - 1
 * transfers every schedule of a collective on N >= 2 nodes has (checked before a search, whose
 * every candidate the budget would refuse). */
int oc__work_floor_check(oc_collective coll, uint32_t nodes, char *why, size_t whylen);
/* The work oc__work_check holds to the budget: units where per_chunk and the collective reduces,
 * else transfers (0: not stated). */
uint64_t oc__work_of(const oc__spec *spec, int per_chunk);
/* Describes label c for messages: "chunk 12 (block of node 3)". */
void oc__spec_describe_chunk(const oc__spec *s, uint32_t c, char *buf, size_t len);

/* ---- streaming: emit and sinks ----------------------------------------------------------------
 */

typedef struct oc__sink oc__sink;
struct oc__sink {
    /* Called once per finished round, in order; a non-zero return stops the schedule. */
    int (*round)(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t whylen);
    oc__sink *next;
    /* 1: round() reads oc__round.is_family and takes a family round whole (or writes it out
     * itself); 0 (the default): it is handed the transfers written out. */
    int takes_family;
};

typedef struct oc__emit {
    oc__round cur;
    oc__round flat; /* a family round written out, for the sinks that do not take families */
    /* A chunk window [win_lo, win_hi) (windowed = 1): the emitter keeps only the transfers whose
     * chunks touch it, for a verifier shard (pipeline.c). A generator may skip the transfers it
     * knows to be outside (oc__emit_skip) instead of emitting them: same result, less work. */
    int windowed;
    uint32_t win_lo, win_hi;
    /* A verifier shard's pass (shard.c), windowed or over every chunk: the schedule is generated
     * again beside the cost pass, which alone counts the run's rounds (a second count on another
     * thread would move the progress back). */
    int shard_pass;
    uint64_t raw; /* the current round's transfers so far, kept or not */
    uint64_t dropped; /* transfers made but outside the window (a generator that skips makes none) */
    uint64_t rounds;    /* rounds handed on so far */
    uint64_t transfers; /* transfers handed on so far */
    uint64_t units;     /* chunk-transfers handed on so far */
    oc__sink *sinks;
    const oc__spec *spec;
    char *why;
    size_t whylen;
} oc__emit;

void oc__emit_init(oc__emit *e, const oc__spec *spec, oc__sink *sinks, char *why, size_t whylen);
void oc__emit_free(oc__emit *e);
/* Adds a transfer to the current round; OC_EINVAL for a count of 0 or a label range outside C. */
int oc__emit_transfer(oc__emit *e, uint32_t src, uint32_t dst, oc__op op, uint32_t first,
                      uint32_t count);
/* Room for n more transfers of the current round, at *out, for a generator that writes them
 * itself (ring phases: one call a span instead of one a transfer). They count as emitted in
 * their places; the caller checks their label ranges first (or emits one by one, which does).
 * On a windowed emitter they are all kept: the caller gives only transfers touching the window
 * (one outside it would only cost the shard time). 0, OC_ENOMEM, or the budget's refusal. */
int oc__emit_many(oc__emit *e, size_t n, oc__transfer **out);
/* Makes the current round, which must be empty, the family f (its label range checked as
 * oc__emit_transfer checks one transfer's). A windowed emitter, or a round that already has
 * transfers, gets f's transfers one by one instead: the same round. A transfer emitted after it
 * in the same round writes the family out first. */
int oc__emit_family(oc__emit *e, const oc__family *f);
/* Ends the current round and hands it to the sinks (an empty round is dropped; a windowed
 * round that kept nothing still counts, without reaching the sinks). */
int oc__emit_round(oc__emit *e);
/* Keeps only transfers touching chunks [lo, hi) from now on (see oc__emit.windowed). */
void oc__emit_window(oc__emit *e, uint32_t lo, uint32_t hi);
/* A windowed generator's note that it left out n transfers of the current round (all outside the
 * window), in the place where it would have emitted them. */
static inline void oc__emit_skip(oc__emit *e, uint64_t n) {
    e->raw += n;
}

/* A sink that keeps every round (used for schedule files and tests). */
/* A sink that keeps every round (the exporters that need the whole schedule: MSCCL, Chakra, the
 * schedule JSON, the MPI executor). What it holds is counted against the memory budget as it
 * grows, so a schedule too large to keep is refused with one line, not by the kernel. */
typedef struct oc__store {
    oc__sink sink;
    oc__round *rounds;
    size_t count, cap;
    uint64_t bytes; /* the rounds and their transfers held so far */
} oc__store;

void oc__store_init(oc__store *s);
void oc__store_free(oc__store *s);
/* Replays a stored schedule into a chain of sinks. */
int oc__store_replay(const oc__store *s, oc__sink *sinks, char *why, size_t whylen);

/* ---- key=value lists (the public oc_kv) -------------------------------------------------------
 */

struct oc_kv {
    char **keys, **values;
    size_t count, cap;
    /* A hash index over keys (open addressing, linear probing): slot holds index + 1, 0 = empty;
     * nslots is a power of two at least twice count, so a lookup is O(1) whatever the count. */
    uint32_t *slots;
    size_t nslots;
};

/* Reads an unsigned parameter: absent -> *out = dflt; malformed or out of [min,max] -> error. */
int oc__kv_u64(const oc_kv *kv, const char *key, uint64_t dflt, uint64_t min, uint64_t max,
               uint64_t *out, char *why, size_t whylen);
int oc__kv_double(const oc_kv *kv, const char *key, double dflt, double min, double max,
                  double *out, char *why, size_t whylen);
/* A new list with src's pairs in src's order (src may be NULL: an empty list); 0 or OC_ENOMEM
 * (*out NULL then). */
int oc__kv_copy(const oc_kv *src, oc_kv **out);
/* Fails with a clear message when kv has a key not in the NULL-terminated list `known`. */
int oc__kv_only(const oc_kv *kv, const char *const *known, const char *what, char *why,
                size_t whylen);

#endif /* OC_CORE_H */
