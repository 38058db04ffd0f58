/*
 * model_common.h — the lifecycle every network model shares (model_common.c), so that a model's
 * file keeps only what it models: how a round becomes physical steps and what they cost.
 *
 * Every model's run (its struct oc__netrun) starts with an oc__netbase: the sink the pipeline
 * chains it into, the collective it maps, whether it checks, the rounds and physical steps
 * mapped so far and the observer's clock. Because the base is the first member, the pipeline's
 * oc__netrun * is also an oc__netbase *, and the entries of the model table that only read the
 * base (sink, steps, one channel) are the ones below.
 *
 * The life of a run:
 *  - parse: once a run (net/netset.c), the model reads and checks its parameters into its own
 *    record (its `parse` hook); every creation of the run starts from that record.
 *  - create: from the parsed record, oc__netrun_new() allocates the zeroed run with
 *    its base filled in; oc__netrun_buffers() takes the list of every buffer the run owns (those
 *    sized at creation are checked together against the memory budget and allocated zeroed;
 *    those sized later, by oc__grow in a round or by the observer, start NULL); the model adds
 *    its checker; oc__netrun_done() hands the run out or, on any failure, destroys it.
 *  - each round: the model refuses a transfer between no two nodes (oc__netrun_endpoints) or of
 *    more bytes than it can add up (oc__netrun_bytes), grows its per-transfer scratch
 *    (oc__netrun_reserve), maps and checks the round, reports it to the observer if there is one
 *    (oc__netrun_observe_step and _use), and adds it to the totals with oc__netrun_mapped().
 *  - finish: oc__netrun_figures() fills the report's steps, lower bound and time,
 *    oc__netrun_param() records each parameter used, and oc__netrun_finished() turns a failed
 *    write into one reason.
 *  - destroy: the model frees what is not a plain buffer (its checker), then oc__netrun_free()
 *    frees every buffer on the list and the run.
 */
#ifndef OC_NET_MODEL_COMMON_H
#define OC_NET_MODEL_COMMON_H

#include "core/core.h"
#include "core/result.h"
#include "net/net.h"

/* The most buffers one run owns (the ring has 17). */
#define OC_NETRUN_MAX_BUFFERS 32

typedef struct oc__netbase {
    oc__sink sink;        /* first: the pipeline's sink; its round() is the model's */
    const oc__spec *spec; /* the collective being mapped (its nodes, chunk bytes) */
    int check;            /* 1: every round goes through the model's independent check */
    uint64_t rounds;      /* logical rounds mapped */
    uint64_t steps;       /* physical steps they became */
    oc__observer *obs;    /* export --format chrome, run --links: NULL unless asked */
    double clock;         /* the observer's clock: when the next step starts */
    void **owned[OC_NETRUN_MAX_BUFFERS]; /* the run's buffers, freed by oc__netrun_free */
    size_t nowned;
} oc__netbase;

/* One buffer of a run: the field that holds it, and at creation how many elements of what size
 * (count 0: the model allocates or grows it later, the run only frees it). */
typedef struct oc__netbuf {
    void **field;
    size_t count, size;
} oc__netbuf;

#define OC_NETBUF(field, count)                                                                    \
    { (void **)&(field), (count), sizeof *(field) }

/* The zeroed run of `size` bytes (a model's struct oc__netrun, whose first member is an
 * oc__netbase), its base filled in; NULL when out of memory. */
void *oc__netrun_new(size_t size, const oc__spec *spec, int check,
                     int (*round)(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                                  size_t whylen));
/* Takes the n buffers into the run's care and allocates those with a count, zeroed, once their
 * total fits the memory budget. `what` names the model in the budget's message ("the ring
 * model"). 0, OC_ETOOBIG (over the budget) or OC_ENOMEM, with the reason. */
int oc__netrun_buffers(oc__netrun *run, const oc__netbuf *bufs, size_t n, const char *what,
                       char *why, size_t whylen);
/* Per-transfer scratch kept side by side: grows the n fields (their element sizes in bufs[].size;
 * counts unused) to one capacity *cap of at least `need` elements, doubling from 64, plus
 * `extra` elements each; contents are kept. 0 or OC_ENOMEM (then *cap is unchanged, and the
 * fields already grown simply hold more). */
int oc__netrun_reserve(const oc__netbuf *bufs, size_t n, size_t need, size_t extra, size_t *cap);
/* The end of a create: rc == 0 sets *out to the run; otherwise the run is destroyed and rc
 * returned (the reason is already in why). */
int oc__netrun_done(oc__netrun *run, int rc, void (*destroy)(oc__netrun *run), oc__netrun **out);
/* Frees every buffer of the run and the run itself (NULL: nothing). */
void oc__netrun_free(oc__netrun *run);

/* A round was mapped (and checked and observed): it took `steps` physical steps. */
void oc__netrun_mapped(oc__netrun *run, uint64_t steps);

/* The observer's calls, for a model that has one (base.obs not NULL), after the round's check:
 * physical steps [base.steps + first, + nsteps) of round `round` start at start_s (the model's
 * clock, base.clock, is when the round starts) and last dur_s; a use is one transfer's hold on
 * resources in one of them. */
int oc__netrun_observe_step(oc__netrun *run, uint64_t round, uint64_t first, uint64_t nsteps,
                            double start_s, double dur_s, char *why, size_t whylen);
int oc__netrun_observe_use(oc__netrun *run, const oc__use *u, char *why, size_t whylen);

/* The checks of a round's transfer every model makes before mapping it. oc__netrun_endpoints:
 * 0 when x goes between two different nodes of the collective, else OC_EINVAL with
 * "round R: transfer S -> D " and the model's words (`refusal`: "cannot be routed").
 * oc__netrun_bytes: x's bytes into *bytes, or OC_ETOOBIG ("round R: transfer S -> D is too
 * large") when they exceed UINT64_MAX / headroom (the model adds up to `headroom` of them). */
int oc__netrun_endpoints(const oc__netrun *run, uint64_t round, const oc__transfer *x,
                         const char *refusal, char *why, size_t whylen);
int oc__netrun_bytes(const oc__netrun *run, uint64_t round, const oc__transfer *x,
                     uint64_t headroom, uint64_t *bytes, char *why, size_t whylen);

/* Model-table entries that read only the base. */
oc__sink *oc__netrun_sink(oc__netrun *run);
uint64_t oc__netrun_steps(const oc__netrun *run);
/* A node has one port (or link, or egress) per direction: the switch, the fat-tree, the fabric
 * (splitting a GPU's egress over circuits does not add bandwidth) and the direct networks. */
uint64_t oc__netrun_one_channel(const oc__netrun *run);

/* The figures every finish() fills: physical steps, the lower bound in steps and the time. */
void oc__netrun_figures(oc_report *rep, uint64_t steps, uint64_t steps_lb, double time_s);
/* Records a parameter as used, its value formatted like printf; 0 or OC_ENOMEM. */
int oc__netrun_param(oc_report *rep, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The end of a finish(): rc is the OR of its report writes; non-zero becomes the one reason. */
int oc__netrun_finished(int rc, char *why, size_t whylen);

#endif
