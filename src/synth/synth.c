/*
 * synth.c — exact optima for small instances (`opticoll synth`, issue 26 item 3): the fewest steps
 * of a collective on the WDM ring (ring.c) or the passive optical star (star.c), found and proven
 * with the z3 solver through its C API.
 *
 * Why z3. It is one Debian package (libz3-dev) with a C API; it takes pseudo-Boolean and
 * cardinality constraints natively (Z3_mk_atmost, Z3_mk_pble), so "at most one lightpath on this
 * link and channel" or "at most k streams from this processor" is one constraint, not a quadratic
 * clause set or a hand-written sorting network; and it solves incrementally under assumptions, so
 * the search over step counts adds steps to one solver and asks "is there a schedule of S steps"
 * by assuming S's goal literal, keeping everything it learned. CaDiCaL (libcadical-dev 1.5.3 in
 * Debian 12) is a faster pure CDCL solver, but its interfaces (C++, and the IPASIR-style C one)
 * take clauses only: every cardinality constraint would be a hand-written sorting network or
 * totalizer here, code to get wrong. With the QF_FD logic z3 runs its SAT core with native
 * cardinality reasoning.
 *
 * The model's own rules, encoded (one Boolean per possible lightpath, chunk and step):
 *  - Ring (ring.c's essay). A lightpath goes from its source to its destination on one direction,
 *    one channel (fibre x wavelength: F w channels, all alike to the colouring) and keeps that
 *    channel on every link it passes (wavelength continuity, explicit: the variable names its
 *    channel). At most one lightpath per (directed link, channel) per step. Routing is the model's:
 *    the shorter way; a transfer of exactly N/2 links may go either way (see ties below). A
 *    lightpath carries one chunk (a transfer of b chunks takes b slots: b lightpaths here).
 *  - Star (star.c's essay, passive-optical-star section 1). In a step a processor sends on at most
 *    k wavelengths (streams to distinct receivers) and receives on at most k; a stream carries any
 *    of the chunks its sender holds (the model packs a round's transfers between two processors
 *    into one stream, so the step count does not grow with what a stream carries). Lasers are fixed
 *    per processor, so no two transmitters meet on a wavelength.
 *  - Every step is synchronous: a node sends only what it held at the start of the step.
 *  - Copy collectives (allgather, gossip, broadcast): a node holds a set of labels; a delivery adds
 *    one. Reductions (allreduce; verify.c's rules exactly): a node's piece is a set of
 *    contributions; a reduce adds the sender's set to the receiver's, which must be disjoint from
 * it and from every other reduce into the same piece in the step (no contribution counted twice);
 *    a copy replaces the receiver's set and may not meet any other write of that piece in the step.
 *  Constraints that only prune useless schedules (a chunk not sent to a node that has it, nor twice
 *  to one node in one step; with them a delivered chunk arrives exactly once, which lets the solver
 *  count: a node that lacks c chunks needs c receptions, at most 2 F w a step on the ring, kept as
 *  unary counts so that a shortfall is found by propagation) keep every step count reachable:
 *  dropping a useless lightpath from a schedule leaves a schedule. Symmetry breaking, sound for
 *  the proofs: within a step and a direction the channels are interchangeable, so they are taken
 *  in the order of their use of the links (build_step, `lex`). Symmetry used to find schedules
 *  fast (never for a proof): a schedule invariant under rotating the ring (by two nodes on an even
 *  ring, so ties can alternate) or the star is asked for first.
 *
 * Proof and the pipeline. For S = start - 1, start, ... the solver answers whether S steps suffice
 * (start: a simple bound computed here only to begin; it is not reported as a bound). UNSAT at S is
 * the proof that no schedule of S steps exists: `lower` = S + 1. Transfers of exactly N/2 links are
 * free in direction for that proof (a relaxation of the model's tie rule, so the proof covers every
 * schedule the model can map). A schedule to write must also route as the model routes: the model
 * sends a round's ties alternately clockwise and counter-clockwise (clockwise first, by units), so
 * the search for a schedule assumes a literal that keeps, per step, the clockwise ties equal to the
 * counter-clockwise ones or one more, and the ties are written in alternating order. Each found
 * schedule is written as one round per step and run through the pipeline (verifier, the model's
 * mapping and its independent resource check). The ring model colours each round with its own
 * heuristic (cut + free list); each round's mapped steps are checked, and a round that the
 * heuristic cannot fit in one step although the solver coloured it is excluded (its set of arcs,
 * at every step) and the search for a schedule continues at the same S. While no schedule is in
 * hand, a symmetric one of S + 1 steps is looked for before the (possibly long) question at S, so
 * a stop on the time limit still returns the best schedule found. `optimal` is set only when
 * the schedule maps to S steps, passes every check, and S - 1 was proven impossible.
 *
 * Scope. A round the model maps to k > 1 steps is, to the verifier, one round: all its transfers
 * read the state at its start. For copy collectives such a round splits into k one-step rounds,
 * by the model's own colouring, that stay valid (every chunk sent was held at the start and is
 * still held; the steps' lightpaths fit; ties are free in the relaxation), so a proof over one
 * step per round covers every schedule. For reductions it does not: a node that received in an
 * early step of a round may still send its start-of-round piece in a later step, which no
 * sequence of one-step rounds can do. The proof for all-reduce is therefore over schedules whose
 * rounds each take one step (the kind synth writes), and the output says so ("proof_covers").
 *
 * Chunking. For the fewest steps one chunk per block (or piece) is best: a schedule of S steps for
 * q chunks contains one for a single chunk (keep the transfers of chunk 0 of every block), so the
 * step optimum never falls as q grows; q > 1 can only shorten a step's payload. Default q = 1;
 * `chunks` asks for another q (its step optimum is then at least q = 1's).
 *
 * The seed (seed_schedule). Before the solver, the existing algorithms' schedule of fewest steps
 * on this instance, verified and mapped through the pipeline, is the schedule in hand: an upper
 * bound the search uses (it asks nothing at or above it, unless the seed takes more than one
 * step a round, which `optimal` needs), and what a stop on the time limit returns, marked not
 * optimal and named ("schedule_source", "seed_algorithm").
 *
 * Limits (named before any work, oc_synth): N from 2 to 10 on the ring, w up to 3 and F w up to 6;
 * P from 2 to 9 on the star; q up to 4. The solver's time limit stops the search with what was
 * proven (lower) and the best schedule found, marked not optimal.
 */
#include "synth/synth.h"
#include "core/progress.h"
#include "core/quote.h"
#include "net/net.h"
#include "report/report.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

enum { RING_CW = 0, RING_CCW = 1 };
enum { MAX_STEPS = 64, MAX_BLOCKS = 200 };

struct oc_synth_result {
    oc_synth_spec spec;
    char network[16];
    oc_kv *net_params; /* as used (synth's default wavelengths=1 added) */
    uint64_t channels; /* ring: F w; star: k */
    uint64_t w, F;     /* ring */
    uint32_t q;
    oc__spec ospec;
    oc__store store; /* the found schedule */
    oc_report *report;
    int found, optimal;
    /* the seed (seed_schedule): the best verified schedule of the registered algorithms, the
     * schedule in hand (store, report) until the solver finds one of fewer steps; from_seed says
     * which it is, seed_algo names the algorithm (empty when none ran) */
    oc__export seed;
    int from_seed;
    char seed_algo[32];
    uint64_t seed_steps; /* its mapped steps; 0 when none ran */
    uint64_t lower, upper, start, blocked;
    double solve_s;
    char stopped[256];
    char solver[64];
};

/* ---- the encoding ---- */

typedef struct enc {
    Z3_context ctx;
    Z3_solver sol;
    Z3_sort boolsort;
    int is_ring, reduces;
    uint32_t N, L, nops, nlanes;
    uint64_t C, k; /* ring channels; star degree */
    uint32_t root;
    oc_collective coll;
    unsigned weaken;
    /* per step t: X[t] (lightpath / stream variables) and the state at t (H or contributions) */
    Z3_ast **X;     /* [t][((p * nlanes + lane) * L + label) * nops + op], NULL where not allowed */
    Z3_ast **state; /* copy: [t][n * L + label]; reduce: [t][(n * L + label) * N + j] */
    uint32_t built; /* steps built: X[0..built), state[0..built] */
    Z3_ast *goal;   /* goal literal of S steps, [0..MAX_STEPS] (NULL until made) */
    Z3_ast balance; /* the model's tie rule, assumed when a schedule is wanted */
    Z3_ast sym;     /* rotational symmetry, assumed first when a schedule is wanted */
    Z3_ast lex;     /* channels in order of use (ring), assumed for proofs and with the tie rule */
    uint32_t rot;   /* the rotation (in nodes) sym asks for: 0 = none */
    Z3_ast **count; /* per step: per node d, count[t][d * (2C) + i - 1] = "d receives >= i" */
    /* blocked rounds: arc sets (s, d, dir) excluded at every step */
    uint32_t (*blocks)[3 * 128];
    uint32_t *block_len;
    uint32_t nblocks;
    oc__progress *progress; /* the caller's (oc_synth_spec.progress): solver calls answered */
} enc;

static double now_s(void);

static void z3_quiet(Z3_context c, Z3_error_code e) {
    (void)c;
    (void)e; /* the library never prints: errors are read with Z3_get_error_code */
}

static inline size_t xi(const enc *e, uint32_t s, uint32_t d, uint32_t lane, uint32_t label,
                        uint32_t op) {
    return ((((size_t)s * e->N + d) * e->nlanes + lane) * e->L + label) * e->nops + op;
}

static size_t x_per_step(const enc *e) {
    return (size_t)e->N * e->N * e->nlanes * e->L * e->nops;
}

static size_t state_per_step(const enc *e) {
    return (size_t)e->N * e->L * (e->reduces ? e->N : 1);
}

/* The ring direction(s) the model may route s -> d: 1 = clockwise, 2 = counter-clockwise, 3 = a
 * tie at exactly N/2 (either). */
static unsigned ring_dirs(uint32_t N, uint32_t s, uint32_t d) {
    uint32_t cw = (d + N - s) % N;
    if (2 * cw < N) return 1;
    if (2 * cw > N) return 2;
    return 3;
}

static int lane_allowed(const enc *e, uint32_t s, uint32_t d, uint32_t lane) {
    if (s == d) return 0;
    if (!e->is_ring) return 1;
    unsigned dir = lane / (uint32_t)e->C;
    return (ring_dirs(e->N, s, d) >> dir) & 1;
}

/* Whether arc s -> d in direction dir passes directed link `link` (clockwise link i: i -> i+1;
 * counter-clockwise link j: j -> j-1). */
static int arc_passes(uint32_t N, uint32_t s, uint32_t d, unsigned dir, uint32_t link) {
    if (dir == RING_CW) return (link + N - s) % N < (d + N - s) % N;
    return (s + N - link) % N < (s + N - d) % N;
}

static Z3_ast fresh(enc *e, const char *prefix) {
    return Z3_mk_fresh_const(e->ctx, prefix, e->boolsort);
}

static void add(enc *e, Z3_ast a) {
    Z3_solver_assert(e->ctx, e->sol, a);
}

static Z3_ast mk_or(enc *e, Z3_ast *a, size_t n) {
    return n ? Z3_mk_or(e->ctx, (unsigned)n, a) : Z3_mk_false(e->ctx);
}

/* Whether node n holds label l at the start (copy collectives), or contribution j of piece l. */
static int initially(const enc *e, uint32_t n, uint32_t l, uint32_t j) {
    if (e->reduces) return n == j;
    if (e->coll == OC_BROADCAST) return n == e->root;
    return l / (e->L / e->N) == n; /* allgather, gossip: block n is labels [n q, n q + q) */
}

static int make_initial_state(enc *e) {
    size_t ns = state_per_step(e);
    e->state[0] = malloc(ns * sizeof(Z3_ast));
    if (!e->state[0]) return OC_ENOMEM;
    for (uint32_t n = 0; n < e->N; n++)
        for (uint32_t l = 0; l < e->L; l++)
            for (uint32_t j = 0; j < (e->reduces ? e->N : 1); j++) {
                size_t at = e->reduces ? ((size_t)n * e->L + l) * e->N + j : (size_t)n * e->L + l;
                e->state[0][at] = initially(e, n, l, j) ? Z3_mk_true(e->ctx) : Z3_mk_false(e->ctx);
            }
    return 0;
}

/* The lightpaths of an arc (s, d, dir) at step t, over every channel, label and op. */
static size_t arc_vars(const enc *e, uint32_t t, uint32_t s, uint32_t d, unsigned dir,
                       Z3_ast *out) {
    size_t n = 0;
    for (uint32_t c = 0; c < e->C; c++) {
        uint32_t lane = dir * (uint32_t)e->C + c;
        for (uint32_t l = 0; l < e->L; l++)
            for (uint32_t op = 0; op < e->nops; op++) {
                Z3_ast v = e->X[t][xi(e, s, d, lane, l, op)];
                if (v) out[n++] = v;
            }
    }
    return n;
}

/* Excludes blocked round b at step t: not every arc of it is used. */
static int add_block_at(enc *e, uint32_t b, uint32_t t, Z3_ast *scratch) {
    Z3_ast *lits = malloc(e->block_len[b] * sizeof(Z3_ast));
    if (!lits) return OC_ENOMEM;
    for (uint32_t i = 0; i < e->block_len[b]; i++) {
        const uint32_t *a = &e->blocks[b][3 * i];
        size_t n = arc_vars(e, t, a[0], a[1], a[2], scratch);
        lits[i] = Z3_mk_not(e->ctx, mk_or(e, scratch, n));
    }
    add(e, mk_or(e, lits, e->block_len[b]));
    free(lits);
    return 0;
}

/* Adds step t (t == e->built): its lightpath variables, the resource constraints, the state at
 * t + 1. */
static int build_step(enc *e) {
    const uint32_t t = e->built, N = e->N, L = e->L;
    Z3_context c = e->ctx;
    const size_t nx = x_per_step(e), ns = state_per_step(e);
    size_t cap = (size_t)N * N * e->nlanes * L * e->nops + 16;
    Z3_ast *buf = malloc(cap * sizeof(Z3_ast)), *buf2 = malloc(cap * sizeof(Z3_ast));
    int *coef = malloc(cap * sizeof(int));
    Z3_ast *X = calloc(nx, sizeof(Z3_ast)), *next = malloc(ns * sizeof(Z3_ast));
    int rc = 0;
    if (!buf || !buf2 || !coef || !X || !next) {
        rc = OC_ENOMEM;
        goto out;
    }
    e->X[t] = X;
    e->state[t + 1] = next;
    X = NULL;
    Z3_ast *const Xt = e->X[t], *const cur = e->state[t];
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t lane = 0; lane < e->nlanes; lane++) {
                if (!lane_allowed(e, s, d, lane)) continue;
                for (uint32_t l = 0; l < L; l++)
                    for (uint32_t op = 0; op < e->nops; op++)
                        Xt[xi(e, s, d, lane, l, op)] = fresh(e, "x");
            }
    /* Symmetry (assumed only while looking for a schedule): what s sends d in this step, s + rot
     * sends d + rot, the label moved with its block (a piece of an all-reduce stays itself). */
    if (e->rot)
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++)
                for (uint32_t lane = 0; lane < e->nlanes; lane++)
                    for (uint32_t l = 0; l < L; l++)
                        for (uint32_t op = 0; op < e->nops; op++) {
                            Z3_ast v = Xt[xi(e, s, d, lane, l, op)];
                            if (!v) continue;
                            uint32_t q = L / N,
                                     l2 = e->reduces ? l : ((l / q + e->rot) % N) * q + l % q;
                            Z3_ast img =
                                Xt[xi(e, (s + e->rot) % N, (d + e->rot) % N, lane, l2, op)];
                            add(e, Z3_mk_implies(c, e->sym, Z3_mk_iff(c, v, img)));
                        }
    /* 1. The network. */
    if (e->is_ring) {
        /* use[(dir * N + link) * C + ch]: the channel carries a lightpath over the link */
        Z3_ast *use = calloc((size_t)2 * N * e->C, sizeof(Z3_ast));
        if (!use) {
            rc = OC_ENOMEM;
            goto out;
        }
        if (!(e->weaken & OC__SYNTH_DROP_LINKS))
            for (unsigned dir = 0; dir < 2; dir++)
                for (uint32_t link = 0; link < N; link++)
                    for (uint32_t ch = 0; ch < e->C; ch++) {
                        size_t n = 0;
                        uint32_t lane = dir * (uint32_t)e->C + ch;
                        for (uint32_t s = 0; s < N; s++)
                            for (uint32_t d = 0; d < N; d++) {
                                if (!lane_allowed(e, s, d, lane) || !arc_passes(N, s, d, dir, link))
                                    continue;
                                for (uint32_t l = 0; l < L; l++)
                                    for (uint32_t op = 0; op < e->nops; op++)
                                        buf[n++] = Xt[xi(e, s, d, lane, l, op)];
                            }
                        if (n > 1) add(e, Z3_mk_atmost(c, (unsigned)n, buf, 1));
                        Z3_ast u = fresh(e, "u");
                        add(e, Z3_mk_iff(c, u, mk_or(e, buf, n)));
                        use[((size_t)dir * N + link) * e->C + ch] = u;
                    }
        /* Channels are interchangeable within a step and a direction (a permutation of them maps
         * a schedule to a schedule with the same steps), so under `lex` a channel's use of the
         * links, read as a word over links 0 .. N-1, is no smaller than the next channel's:
         * every schedule has such a permutation of itself (sort the channels by their words). A
         * rotation of the ring does not keep this order, so the symmetric search goes without. */
        if (!(e->weaken & OC__SYNTH_DROP_LINKS))
            for (unsigned dir = 0; dir < 2; dir++)
                for (uint32_t ch = 0; ch + 1 < e->C; ch++) {
                    Z3_ast eq = Z3_mk_true(c);
                    for (uint32_t link = 0; link < N; link++) {
                        Z3_ast a1 = use[((size_t)dir * N + link) * e->C + ch],
                               b1 = use[((size_t)dir * N + link) * e->C + ch + 1];
                        add(e, Z3_mk_implies(
                                   c, e->lex,
                                   Z3_mk_implies(c, Z3_mk_and(c, 2, (Z3_ast[]){eq, b1}), a1)));
                        Z3_ast nq = fresh(e, "q");
                        add(e, Z3_mk_iff(c, nq,
                                         Z3_mk_and(c, 2, (Z3_ast[]){eq, Z3_mk_iff(c, a1, b1)})));
                        eq = nq;
                    }
                }
        free(use);
        /* What a node can take in a step, said outright so the solver can count (it follows from
         * the links: every lightpath into d holds the last link into d on its channel). */
        /* Counted in unary: count[t][d][i - 1] holds exactly when d receives at least i
         * lightpaths in step t, i up to 2 F w; the goal sums these, so a node's receptions over S
         * steps are a sum of at most 2 F w S literals, and the solver sees a shortfall by
         * propagation instead of by search (pigeonhole counting is hard for clause learning). */
        if (!e->reduces && !(e->weaken & OC__SYNTH_DROP_LINKS)) {
            const uint32_t most = 2 * (uint32_t)e->C;
            e->count[t] = calloc((size_t)N * most, sizeof(Z3_ast));
            if (!e->count[t]) {
                rc = OC_ENOMEM;
                goto out;
            }
            for (uint32_t d = 0; d < N; d++) {
                size_t n = 0;
                for (uint32_t s = 0; s < N; s++)
                    for (uint32_t lane = 0; lane < e->nlanes; lane++)
                        for (uint32_t l = 0; l < L; l++)
                            if (Xt[xi(e, s, d, lane, l, 0)]) buf[n++] = Xt[xi(e, s, d, lane, l, 0)];
                if (n > most) add(e, Z3_mk_atmost(c, (unsigned)n, buf, most));
                for (uint32_t i = 1; i <= most; i++) {
                    Z3_ast u = fresh(e, "n");
                    add(e,
                        Z3_mk_iff(c, u,
                                  i <= n ? Z3_mk_atleast(c, (unsigned)n, buf, i) : Z3_mk_false(c)));
                    e->count[t][(size_t)d * most + i - 1] = u;
                }
            }
        }
        /* The model's tie rule, under the balance literal: clockwise ties minus counter-clockwise
         * ties is 0 or 1 in every step. */
        if (N % 2 == 0) {
            size_t n = 0;
            for (uint32_t s = 0; s < N; s++) {
                uint32_t d = (s + N / 2) % N;
                for (uint32_t lane = 0; lane < e->nlanes; lane++)
                    for (uint32_t l = 0; l < L; l++)
                        for (uint32_t op = 0; op < e->nops; op++) {
                            buf[n] = Xt[xi(e, s, d, lane, l, op)];
                            coef[n++] = lane / (uint32_t)e->C == RING_CW ? 1 : -1;
                        }
            }
            Z3_ast both[2];
            both[0] = Z3_mk_pble(c, (unsigned)n, buf, coef, 1);
            for (size_t i = 0; i < n; i++)
                coef[i] = -coef[i];
            both[1] = Z3_mk_pble(c, (unsigned)n, buf, coef, 0);
            add(e, Z3_mk_implies(c, e->balance, Z3_mk_and(c, 2, both)));
        }
        for (uint32_t b = 0; b < e->nblocks && !rc; b++)
            rc = add_block_at(e, b, t, buf2);
        if (rc) goto out;
    } else {
        /* Streams: Y[s][d] is set when s sends d anything; at most k out and k in per processor. */
        Z3_ast *Y = buf2;
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++) {
                Y[s * N + d] = NULL;
                if (s == d) continue;
                Y[s * N + d] = fresh(e, "y");
                for (uint32_t l = 0; l < L; l++)
                    for (uint32_t op = 0; op < e->nops; op++)
                        add(e, Z3_mk_implies(c, Xt[xi(e, s, d, 0, l, op)], Y[s * N + d]));
            }
        for (uint32_t a = 0; a < N; a++) {
            size_t no = 0, ni = 0;
            for (uint32_t b = 0; b < N; b++) {
                if (a == b) continue;
                buf[no++] = Y[a * N + b];
            }
            if (no > e->k) add(e, Z3_mk_atmost(c, (unsigned)no, buf, (unsigned)e->k));
            for (uint32_t b = 0; b < N; b++) {
                if (a == b) continue;
                buf[ni++] = Y[b * N + a];
            }
            if (ni > e->k) add(e, Z3_mk_atmost(c, (unsigned)ni, buf, (unsigned)e->k));
        }
    }
    /* 2. The collective. */
    if (!e->reduces) {
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t l = 0; l < L; l++) {
                size_t n = 0;
                Z3_ast has = cur[(size_t)d * L + l];
                for (uint32_t s = 0; s < N; s++)
                    for (uint32_t lane = 0; lane < e->nlanes; lane++) {
                        Z3_ast v = Xt[xi(e, s, d, lane, l, 0)];
                        if (!v) continue;
                        buf[n++] = v;
                        add(e, Z3_mk_implies(c, v, cur[(size_t)s * L + l])); /* held at start */
                        add(e, Z3_mk_implies(c, v, Z3_mk_not(c, has)));      /* not redundant */
                    }
                if (n > 1) add(e, Z3_mk_atmost(c, (unsigned)n, buf, 1));
                Z3_ast h = fresh(e, "h");
                buf[n++] = has;
                add(e, Z3_mk_iff(c, h, mk_or(e, buf, n)));
                next[(size_t)d * L + l] = h;
            }
    } else {
        /* R[s][d][l], P[s][d][l]: s reduces / copies piece l into d in this step. */
        const size_t np = (size_t)N * N * L;
        Z3_ast *R = malloc(np * sizeof(Z3_ast)), *P = malloc(np * sizeof(Z3_ast));
        if (!R || !P) {
            free(R);
            free(P);
            rc = OC_ENOMEM;
            goto out;
        }
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++)
                for (uint32_t l = 0; l < L; l++) {
                    size_t at = ((size_t)s * N + d) * L + l, n = 0, nr = 0, nc = 0;
                    R[at] = P[at] = Z3_mk_false(c);
                    if (s == d) continue;
                    Z3_ast *red = buf2, *cpy = buf2 + e->nlanes;
                    for (uint32_t lane = 0; lane < e->nlanes; lane++) {
                        Z3_ast vc = Xt[xi(e, s, d, lane, l, 0)], vr = Xt[xi(e, s, d, lane, l, 1)];
                        if (!vc) continue;
                        buf[n++] = vc;
                        buf[n++] = vr;
                        cpy[nc++] = vc;
                        red[nr++] = vr;
                    }
                    if (n > 1) add(e, Z3_mk_atmost(c, (unsigned)n, buf, 1));
                    R[at] = mk_or(e, red, nr);
                    P[at] = mk_or(e, cpy, nc);
                }
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t l = 0; l < L; l++) {
#define CST(tt, n, j) e->state[tt][((size_t)(n)*L + l) * N + (j)]
#define RR(s) R[((size_t)(s)*N + d) * L + l]
#define PP(s) P[((size_t)(s)*N + d) * L + l]
                size_t n = 0;
                for (uint32_t s = 0; s < N; s++) {
                    if (s == d) continue;
                    buf[n++] = PP(s);
                    /* a copy meets no other write of the piece */
                    for (uint32_t s2 = 0; s2 < N; s2++)
                        if (s2 != s && s2 != d)
                            add(e, Z3_mk_implies(
                                       c, PP(s),
                                       Z3_mk_not(c, Z3_mk_or(c, 2, (Z3_ast[]){RR(s2), PP(s2)}))));
                }
                Z3_ast anycopy = mk_or(e, buf, n);
                for (uint32_t j = 0; j < N; j++) {
                    Z3_ast keep[2 * 16], got[16];
                    size_t nk = 0, ng = 0;
                    keep[nk++] = CST(t, d, j);
                    for (uint32_t s = 0; s < N; s++) {
                        if (s == d) continue;
                        /* no contribution counted twice: not with the receiver's ... */
                        add(e,
                            Z3_mk_not(
                                c, Z3_mk_and(c, 3, (Z3_ast[]){RR(s), CST(t, s, j), CST(t, d, j)})));
                        /* ... nor with another reduce into the piece in this step */
                        for (uint32_t s2 = s + 1; s2 < N; s2++)
                            if (s2 != d)
                                add(e,
                                    Z3_mk_not(c, Z3_mk_and(c, 4,
                                                           (Z3_ast[]){RR(s), RR(s2), CST(t, s, j),
                                                                      CST(t, s2, j)})));
                        keep[nk++] = Z3_mk_and(c, 2, (Z3_ast[]){RR(s), CST(t, s, j)});
                        got[ng++] = Z3_mk_and(c, 2, (Z3_ast[]){PP(s), CST(t, s, j)});
                    }
                    Z3_ast h = fresh(e, "c");
                    Z3_ast reduced =
                        Z3_mk_and(c, 2, (Z3_ast[]){Z3_mk_not(c, anycopy), mk_or(e, keep, nk)});
                    add(e, Z3_mk_iff(c, h, Z3_mk_or(c, 2, (Z3_ast[]){reduced, mk_or(e, got, ng)})));
                    CST(t + 1, d, j) = h;
                }
#undef CST
#undef RR
#undef PP
            }
        free(R);
        free(P);
    }
    e->built++;
out:
    free(X);
    if (rc && e->built == t) { /* the step was not added: its arrays go */
        free(e->X[t]);
        e->X[t] = NULL;
        free(next);
        e->state[t + 1] = NULL;
    }
    free(buf);
    free(buf2);
    free(coef);
    if (!rc && Z3_get_error_code(c) != Z3_OK) rc = OC_EINVAL;
    return rc;
}

/* The goal literal of S steps: every node ends with everything; for copy collectives also the
 * count each node's receptions must reach (implied, there for the solver to count with). */
static int make_goal(enc *e, uint32_t S) {
    if (e->goal[S]) return 0;
    Z3_context c = e->ctx;
    const uint32_t N = e->N, L = e->L;
    size_t ns = state_per_step(e);
    Z3_ast g = fresh(e, "goal");
    Z3_ast *buf = malloc((ns + (size_t)S * x_per_step(e) + 1) * sizeof(Z3_ast));
    if (!buf) return OC_ENOMEM;
    add(e, Z3_mk_implies(c, g, Z3_mk_and(c, (unsigned)ns, e->state[S])));
    if (!e->reduces)
        for (uint32_t d = 0; d < N; d++) {
            uint32_t need = 0;
            for (uint32_t l = 0; l < L; l++)
                need += !initially(e, d, l, 0);
            size_t n = 0;
            for (uint32_t t = 0; t < S; t++)
                for (uint32_t s = 0; s < N; s++)
                    for (uint32_t lane = 0; lane < e->nlanes; lane++)
                        for (uint32_t l = 0; l < L; l++)
                            if (e->X[t][xi(e, s, d, lane, l, 0)])
                                buf[n++] = e->X[t][xi(e, s, d, lane, l, 0)];
            if (!need) continue;
            if (S && e->count[0]) { /* the ring's unary counts (build_step) */
                const uint32_t cap = 2 * (uint32_t)e->C;
                n = 0;
                for (uint32_t t = 0; t < S; t++)
                    for (uint32_t i = 0; i < cap; i++)
                        buf[n++] = e->count[t][(size_t)d * cap + i];
            }
            add(e,
                Z3_mk_implies(
                    c, g, n >= need ? Z3_mk_atleast(c, (unsigned)n, buf, need) : Z3_mk_false(c)));
        }
    free(buf);
    e->goal[S] = g;
    return Z3_get_error_code(c) == Z3_OK ? 0 : OC_EINVAL;
}

static double now_s(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts)) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A solver call runs for up to the time limit (a minute by default) and reports nothing of its
 * own; a watcher thread beside it polls the caller's progress every WATCH_MS ms
 * (oc__progress_poll) and, when the caller asks to stop, interrupts the solver (Z3_interrupt,
 * made for this: it may be called from another thread). The watcher interrupts only while the
 * call it watches is running: `over` is set under the lock once the call has returned. */
enum { WATCH_MS = 50 };

typedef struct solver_watch {
    enc *e;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int over;
} solver_watch;

static void *watch_solver(void *arg) {
    solver_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->over) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&w->cond, &w->lock, &until);
        if (w->over) break;
        pthread_mutex_unlock(&w->lock);
        const int stop = oc__progress_poll(w->e->progress);
        pthread_mutex_lock(&w->lock);
        if (stop && !w->over) {
            Z3_interrupt(w->e->ctx);
            break;
        }
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Z3_solver_check_assumptions, with the watcher beside it when the caller gave a progress. */
static Z3_lbool solve_watched(enc *e, unsigned n, const Z3_ast *as) {
    solver_watch w = {.e = e};
    pthread_t th;
    int watching = e->progress && e->progress->fn && !pthread_mutex_init(&w.lock, NULL);
    if (watching && pthread_cond_init(&w.cond, NULL)) {
        pthread_mutex_destroy(&w.lock);
        watching = 0;
    }
    if (watching && pthread_create(&th, NULL, watch_solver, &w)) {
        pthread_cond_destroy(&w.cond);
        pthread_mutex_destroy(&w.lock);
        watching = 0;
    }
    Z3_lbool r = Z3_solver_check_assumptions(e->ctx, e->sol, n, as);
    if (watching) {
        pthread_mutex_lock(&w.lock);
        w.over = 1;
        pthread_cond_signal(&w.cond);
        pthread_mutex_unlock(&w.lock);
        pthread_join(th, NULL);
        pthread_cond_destroy(&w.cond);
        pthread_mutex_destroy(&w.lock);
    }
    return r;
}

/* Asks whether S steps suffice (with the tie rule when `balanced`), within `left` seconds; rc
 * OC_ECANCELED when the caller asked to stop. */
/* mode: 0 = the relaxation (proofs), 1 = the model's tie rule, 2 = that and the symmetry; 0 and 1
 * with the channels in order (lex). */
static Z3_lbool check(enc *e, uint32_t S, int mode, double left, int *rc) {
    *rc = e->progress ? oc__progress_poll(e->progress) : 0;
    while (e->built < S && !*rc)
        *rc = build_step(e);
    if (!*rc) *rc = make_goal(e, S);
    if (*rc) return Z3_L_UNDEF;
    Z3_params p = Z3_mk_params(e->ctx);
    Z3_params_inc_ref(e->ctx, p);
    double ms = left * 1000.0;
    Z3_params_set_uint(e->ctx, p, Z3_mk_string_symbol(e->ctx, "timeout"),
                       ms < 1     ? 1u
                       : ms > 4e9 ? 4000000000u
                                  : (unsigned)ms);
    /* z3's own Ctrl-C handler (on by default) would turn SIGINT into a stop on the "time
     * limit", and the tool would print the partial answer as its result; the caller's progress
     * (solve_watched) is the one way to stop a call, and the CLI's SIGINT ends the tool */
    Z3_params_set_bool(e->ctx, p, Z3_mk_string_symbol(e->ctx, "ctrl_c"), false);
    Z3_solver_set_params(e->ctx, e->sol, p);
    Z3_params_dec_ref(e->ctx, p);
    Z3_ast as[3] = {e->goal[S], e->lex, e->balance};
    if (mode == 2) as[1] = e->sym;
    Z3_lbool r = solve_watched(e, mode ? 3 : 2, as);
    if (e->progress && oc__progress_add(e->progress)) { /* one more call answered */
        *rc = OC_ECANCELED;
        return Z3_L_UNDEF;
    }
    if (Z3_get_error_code(e->ctx) != Z3_OK) *rc = OC_EINVAL;
    return r;
}

static int is_true(enc *e, Z3_model m, Z3_ast v) {
    Z3_ast val = NULL;
    return v && Z3_model_eval(e->ctx, m, v, true, &val) && val &&
           Z3_get_bool_value(e->ctx, val) == Z3_L_TRUE;
}

/* The solver's schedule of S steps as rounds in `store`: one round a step, each lightpath (or a
 * stream's chunk) a transfer of one chunk; on the ring the ties of a step come last, clockwise and
 * counter-clockwise alternately (clockwise first), which is the model's own tie rule. */
static int extract(enc *e, uint32_t S, oc__store *store, char *why, size_t len) {
    Z3_model m = Z3_solver_get_model(e->ctx, e->sol);
    if (!m) return oc__fail(why, len, OC_EINVAL, "z3 gave no model");
    Z3_model_inc_ref(e->ctx, m);
    int rc = 0;
    const uint32_t N = e->N;
    for (uint32_t t = 0; t < S && !rc; t++) {
        oc__round r = {0};
        oc__round ties[2] = {{0}, {0}};
        for (uint32_t s = 0; s < N && !rc; s++)
            for (uint32_t d = 0; d < N && !rc; d++)
                for (uint32_t lane = 0; lane < e->nlanes && !rc; lane++)
                    for (uint32_t l = 0; l < e->L && !rc; l++)
                        for (uint32_t op = 0; op < e->nops && !rc; op++) {
                            if (!is_true(e, m, e->X[t][xi(e, s, d, lane, l, op)])) continue;
                            oc__op o = e->reduces && op == 1 ? OC_OP_REDUCE : OC_OP_COPY;
                            oc__round *to = &r;
                            if (e->is_ring && ring_dirs(N, s, d) == 3)
                                to = &ties[lane / (uint32_t)e->C];
                            if (oc__round_push(to, s, d, o, l, 1)) rc = OC_ENOMEM;
                        }
        for (size_t i = 0; !rc && (i < ties[0].count || i < ties[1].count); i++)
            for (int dir = 0; dir < 2 && !rc; dir++)
                if (i < ties[dir].count) {
                    const oc__transfer *x = &ties[dir].xfers[i];
                    if (oc__round_push(&r, x->src, x->dst, (oc__op)x->op, x->first, x->count))
                        rc = OC_ENOMEM;
                }
        if (!rc) rc = store->sink.round(&store->sink, t, &r, why, len);
        oc__round_free(&r);
        oc__round_free(&ties[0]);
        oc__round_free(&ties[1]);
    }
    Z3_model_dec_ref(e->ctx, m);
    if (rc == OC_ENOMEM) return oc__fail(why, len, rc, "out of memory");
    return rc;
}

/* Each round of the store through the model alone: the first round the model needs more than one
 * step for, in *over (SIZE_MAX when every round fits one step). */
static int rounds_over(const oc__spec *spec, const oc__model *model, const oc_kv *np,
                       const oc__store *store, size_t *over, char *why, size_t len) {
    *over = SIZE_MAX;
    oc__netrun *net = NULL;
    int rc = oc__model_create(model, spec, np, 1, &net, why, len);
    if (rc) return rc;
    oc__sink *sink = model->sink(net);
    uint64_t before = 0;
    for (size_t i = 0; i < store->count && !rc; i++) {
        rc = sink->round(sink, i, &store->rounds[i], why, len);
        uint64_t after = model->steps(net);
        if (!rc && after - before > 1 && *over == SIZE_MAX) *over = i;
        before = after;
    }
    model->destroy(net);
    return rc;
}

/* Excludes the arcs of a round that the model's colouring cannot fit in one step, at every step
 * built and to come. */
static int block_round(enc *e, const oc__round *r) {
    if (e->nblocks == MAX_BLOCKS || r->count > 128) return OC_ETOOBIG;
    uint32_t b = e->nblocks, n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        unsigned dirs = ring_dirs(e->N, x->src, x->dst);
        /* a tie's direction is the model's: the order of the round tells it; recompute it */
        unsigned dir = dirs == 1 ? RING_CW : dirs == 2 ? RING_CCW : 0;
        if (dirs == 3) {
            uint32_t cw = 0, ccw = 0;
            for (size_t j = 0; j < i; j++)
                if (ring_dirs(e->N, r->xfers[j].src, r->xfers[j].dst) == 3) {
                    if (cw <= ccw)
                        cw++;
                    else
                        ccw++;
                }
            dir = cw <= ccw ? RING_CW : RING_CCW;
        }
        int dup = 0;
        for (uint32_t k = 0; k < n && !dup; k++)
            dup = e->blocks[b][3 * k] == x->src && e->blocks[b][3 * k + 1] == x->dst &&
                  e->blocks[b][3 * k + 2] == dir;
        if (dup) continue;
        e->blocks[b][3 * n] = x->src;
        e->blocks[b][3 * n + 1] = x->dst;
        e->blocks[b][3 * n + 2] = dir;
        n++;
    }
    e->block_len[b] = n;
    e->nblocks++;
    size_t cap = (size_t)2 * e->C * e->L * e->nops + 1;
    Z3_ast *scratch = malloc(cap * sizeof(Z3_ast));
    if (!scratch) return OC_ENOMEM;
    int rc = 0;
    for (uint32_t t = 0; t < e->built && !rc; t++)
        rc = add_block_at(e, b, t, scratch);
    free(scratch);
    return rc;
}

static void enc_free(enc *e) {
    if (e->X)
        for (uint32_t t = 0; t < MAX_STEPS; t++)
            free(e->X[t]);
    if (e->state)
        for (uint32_t t = 0; t <= MAX_STEPS; t++)
            free(e->state[t]);
    if (e->count)
        for (uint32_t t = 0; t < MAX_STEPS; t++)
            free(e->count[t]);
    free(e->count);
    free(e->X);
    free(e->state);
    free(e->goal);
    free(e->blocks);
    free(e->block_len);
    if (e->sol) Z3_solver_dec_ref(e->ctx, e->sol);
    if (e->ctx) Z3_del_context(e->ctx);
}

/* ---- the limits, the search, the pipeline ---- */

static uint64_t ceil_log(uint64_t base, uint64_t n) {
    uint64_t steps = 0, reach = 1;
    while (reach < n) {
        reach *= base;
        steps++;
    }
    return steps;
}

/* A simple bound to start from (only where the search begins; the reported lower bound is the
 * solver's): on the ring receptions (2 F w a step) and relay depth (a holder reaches at most 2 F w
 * more nodes a step); on the star relay depth (a holder reaches k more). */
static uint64_t start_bound(const oc_synth_result *r) {
    const uint64_t N = r->spec.nodes, C = r->channels;
    if (!strcmp(r->network, "ring")) {
        uint64_t depth = ceil_log(2 * C + 1, N);
        if (r->spec.collective == OC_ALLREDUCE || r->spec.collective == OC_BROADCAST) return depth;
        uint64_t recv = oc__ceil_div((N - 1) * r->q, 2 * C);
        return recv > depth ? recv : depth;
    }
    return ceil_log(C + 1, N);
}

static int check_limits(const oc_synth_spec *spec, char *why, size_t len) {
    const oc_collective c = spec->collective;
    if (c != OC_ALLGATHER && c != OC_GOSSIP && c != OC_BROADCAST && c != OC_ALLREDUCE)
        return oc__fail(why, len, OC_ENOTSUP,
                        "synth does not do %s (supported: allgather, gossip, broadcast, allreduce)",
                        oc_collective_name(c));
    if (!spec->network || (strcmp(spec->network, "ring") && strcmp(spec->network, "star")))
        return oc__fail(why, len, OC_ENOTSUP,
                        "synth does not do network '%s' (supported: ring, star)",
                        spec->network ? OC_Q(spec->network) : "(none)");
    const int ring = !strcmp(spec->network, "ring");
    const uint32_t maxn = ring ? OC_SYNTH_MAX_RING_NODES : OC_SYNTH_MAX_STAR_NODES;
    if (spec->nodes < 2 || spec->nodes > maxn)
        return oc__fail(why, len, OC_ETOOBIG, "synth on the %s takes %s from 2 to %u (got %u)",
                        spec->network, ring ? "N" : "P", maxn, spec->nodes);
    if (spec->chunks > OC_SYNTH_MAX_CHUNKS)
        return oc__fail(why, len, OC_ETOOBIG, "synth takes chunks from 1 to %d (got %u)",
                        OC_SYNTH_MAX_CHUNKS, spec->chunks);
    if (spec->time_limit_s < 0 || spec->time_limit_s > OC_SYNTH_MAX_TIME_LIMIT)
        return oc__fail(why, len, OC_ERANGE, "synth's time limit is from 0 to %d s (0: 60 s)",
                        OC_SYNTH_MAX_TIME_LIMIT);
    return 0;
}

/* The network's settings as the model parses them, with synth's default of one wavelength; the
 * ring's w and F and the star's k checked against the limits. */
static int read_network(oc_synth_result *r, char *why, size_t len) {
    const oc__model *model = oc__model_find(r->network);
    if (!model) return oc__fail(why, len, OC_ENOENT, "unknown network '%s'", r->network);
    if (r->spec.net_params) {
        if (oc__kv_copy(r->spec.net_params, &r->net_params))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
    } else if (!(r->net_params = oc_kv_new())) {
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    const int ring = !strcmp(r->network, "ring");
    if (ring && !oc_kv_get(r->net_params, "wavelengths") &&
        oc_kv_set(r->net_params, "wavelengths", "1"))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    oc__formula_in in;
    oc__netset net;
    int rc = oc__netset_parse(model, r->net_params, r->ospec.nodes, &net, why, len);
    if (!rc) rc = oc__net_figures(&net, &r->ospec, &in, why, len);
    if (rc) return rc;
    r->channels = in.channels;
    if (ring) {
        r->w = in.cfg.ring.wavelengths;
        r->F = in.cfg.ring.fibres;
        if (!in.cfg.ring.spread) /* the solver's lightpath carries one chunk */
            return oc__fail(why, len, OC_ENOTSUP, "synth on the ring needs spread=1");
        if (r->w > OC_SYNTH_MAX_WAVELENGTHS)
            return oc__fail(why, len, OC_ETOOBIG, "synth on the ring takes w up to %d (got %llu)",
                            OC_SYNTH_MAX_WAVELENGTHS, (unsigned long long)r->w);
        if (r->w * r->F > OC_SYNTH_MAX_RING_CHANNELS)
            return oc__fail(why, len, OC_ETOOBIG,
                            "synth on the ring takes fibres x wavelengths up to %d (got %llu)",
                            OC_SYNTH_MAX_RING_CHANNELS, (unsigned long long)(r->w * r->F));
        r->channels = r->w * r->F;
    }
    return 0;
}

/* Runs the store through the pipeline into a new report. */
static int run_pipeline(oc_synth_result *r, const oc__model *model, oc_report **out, char *why,
                        size_t len) {
    oc_report *rep = oc__report_new();
    if (!rep) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    oc__store_source src = {&r->store};
    int rc = oc__run_schedule(&r->ospec, oc__source_store, &src, model, r->net_params,
                              !r->spec.skip_data_check, NULL, rep, why, len);
    if (!rc) snprintf(rep->algorithm, sizeof rep->algorithm, "synth");
    if (rc) {
        oc_report_free(rep);
        return rc;
    }
    *out = rep;
    return 0;
}

/* The schedule in hand maps each round to one step, as `optimal` asks (a seed may not: WRHT's
 * one round of three steps); a solver schedule of as many steps then replaces it. */
static int one_step_rounds(const oc_synth_result *r) {
    return r->found && r->report->rounds == r->upper;
}

/* The solver's current model of S steps as the candidate: its rounds each mapped alone by the
 * model (a round the model's colouring cannot fit in one step is excluded from the search: 0, or
 * 2 when too many were), then the whole schedule through the pipeline; accepted (1) as the
 * schedule in hand when it has fewer steps than the one before. Negative: an error. */
static int take_candidate(oc_synth_result *r, enc *e, uint32_t S, const oc__model *model, char *why,
                          size_t len) {
    oc__store st;
    oc__store_init(&st);
    int rc = extract(e, S, &st, why, len);
    size_t over = SIZE_MAX;
    if (!rc) rc = rounds_over(&r->ospec, model, r->net_params, &st, &over, why, len);
    if (!rc && over != SIZE_MAX) {
        int b = block_round(e, &st.rounds[over]);
        oc__store_free(&st);
        if (b == OC_ETOOBIG) {
            snprintf(r->stopped, sizeof r->stopped,
                     "the ring model's colouring needed more steps than the solver's for %d "
                     "rounds excluded",
                     MAX_BLOCKS);
            return 2;
        }
        if (b) return oc__fail(why, len, b, "out of memory");
        r->blocked++;
        return 0;
    }
    if (rc) {
        oc__store_free(&st);
        return rc;
    }
    oc__store old = r->store;
    r->store = st;
    oc_report *rep = NULL;
    rc = run_pipeline(r, model, &rep, why, len);
    if (rc ||
        (r->found && (rep->steps > r->upper || (rep->steps == r->upper && one_step_rounds(r))))) {
        r->store = old;
        oc__store_free(&st);
        oc_report_free(rep);
        return rc ? rc : 1;
    }
    oc__store_free(&old);
    oc_report_free(r->report);
    r->report = rep;
    r->found = 1;
    r->from_seed = 0;
    r->upper = rep->steps;
    return 1;
}

/* The seed: every registered algorithm of the collective that runs on the network, run through
 * the pipeline on this instance (the same N, SIZE and network settings) with its parameters
 * searched for the fewest steps (OC_OBJECTIVE_STEPS), its rounds kept; the one of fewest mapped
 * steps (ties: one step a round, then less time, then the registry's order) becomes the
 * schedule in hand before the solver starts. It is verified and mapped like any schedule synth
 * writes, so a stop on the time limit always has a schedule (marked not optimal, and saying
 * where it came from), and it is an upper bound the search uses: no question is asked at its
 * step count or above unless it takes more than one step a round (search's loop), and a solver
 * schedule is taken only with fewer steps, or as many at one step a round where the seed has
 * more (take_candidate). An algorithm that does not take the instance (a restriction on N, a
 * network limit) is passed over; running out of memory is an error. None may run (the star has
 * no all-reduce): then the search starts with nothing in hand, as before. */
static int seed_schedule(oc_synth_result *r, char *why, size_t len) {
    int rc = 0;
    for (size_t i = 0; i < oc__algo_count() && !rc; i++) {
        const oc__algo *a = oc__algo_at(i);
        if (a->info.collective != r->spec.collective || !oc__algo_supports(a, r->network)) continue;
        const oc_request req = {.collective = r->spec.collective,
                                .algorithm = a->info.name,
                                .network = r->network,
                                .nodes = r->spec.nodes,
                                .bytes = r->ospec.bytes,
                                .net_params = r->net_params,
                                .skip_data_check = r->spec.skip_data_check,
                                .objective = OC_OBJECTIVE_STEPS};
        oc__export x;
        oc__store st;
        oc__store_init(&st);
        char skip[512];
        rc = oc__export_begin(&req, &x, skip, sizeof skip);
        if (!rc) rc = oc__export_check(&req, &x, &st.sink, NULL, skip, sizeof skip);
        /* fewer steps; at as many, one step a round (what a proof of optimality can take),
         * then less time */
        const int one = !rc && x.rep->rounds == x.rep->steps, had = one_step_rounds(r);
        const int better = !rc && x.rep->verified &&
                           (!r->found || x.rep->steps < r->upper ||
                            (x.rep->steps == r->upper &&
                             (one > had || (one == had && x.rep->time_s < r->report->time_s))));
        if (better) {
            oc__store_free(&r->store);
            r->store = st;
            oc_report_free(r->report);
            r->report = x.rep;
            x.rep = NULL;
            oc__export_end(&r->seed);
            r->seed = x;
            r->found = r->from_seed = 1;
            r->upper = r->seed_steps = r->report->steps;
            snprintf(r->seed_algo, sizeof r->seed_algo, "%s", a->info.name);
        } else {
            oc__store_free(&st);
            oc__export_end(&x);
        }
        if (rc == OC_ENOMEM) return oc__fail(why, len, rc, "%s", skip);
        rc = 0;
    }
    return rc;
}

static int search(oc_synth_result *r, unsigned weaken, char *why, size_t len) {
    const oc__model *model = oc__model_find(r->network);
    enc e;
    memset(&e, 0, sizeof e);
    oc__progress progress; /* begun before the first call; ended on every path (fn NULL: no-op) */
    oc__progress_begin(&progress, NULL, NULL, "solver calls", 0);
    int rc = 0;
    Z3_config cfg = Z3_mk_config();
    if (!cfg) return oc__fail(why, len, OC_ENOMEM, "cannot start z3");
    e.ctx = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    if (!e.ctx) return oc__fail(why, len, OC_ENOMEM, "cannot start z3");
    Z3_set_error_handler(e.ctx, z3_quiet);
    e.sol = Z3_mk_solver_for_logic(e.ctx, Z3_mk_string_symbol(e.ctx, "QF_FD"));
    if (e.sol) Z3_solver_inc_ref(e.ctx, e.sol);
    e.boolsort = Z3_mk_bool_sort(e.ctx);
    e.is_ring = !strcmp(r->network, "ring");
    e.reduces = r->spec.collective == OC_ALLREDUCE;
    e.coll = r->spec.collective;
    e.N = r->spec.nodes;
    e.L = r->ospec.chunks;
    e.nops = e.reduces ? 2 : 1;
    e.C = e.is_ring ? r->channels : 1;
    e.k = r->channels;
    e.nlanes = e.is_ring ? 2 * (uint32_t)e.C : 1;
    e.root = 0;
    e.weaken = weaken;
    e.X = calloc(MAX_STEPS, sizeof(Z3_ast *));
    e.state = calloc(MAX_STEPS + 1, sizeof(Z3_ast *));
    e.goal = calloc(MAX_STEPS + 1, sizeof(Z3_ast));
    e.blocks = calloc(MAX_BLOCKS, sizeof *e.blocks);
    e.block_len = calloc(MAX_BLOCKS, sizeof(uint32_t));
    if (!e.sol || !e.X || !e.state || !e.goal || !e.blocks || !e.block_len ||
        make_initial_state(&e)) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory starting z3");
        goto out;
    }
    e.balance = fresh(&e, "balance");
    e.sym = fresh(&e, "symmetry");
    e.lex = fresh(&e, "lex");
    /* Rotations map the ring and the star onto themselves; the root of a broadcast does not
     * move. On an even ring by two nodes, so that ties can still alternate direction. */
    e.rot = e.coll == OC_BROADCAST ? 0 : e.is_ring && e.N % 2 == 0 ? 2 : 1;
    if (e.rot >= e.N) e.rot = 0;
    e.count = calloc(MAX_STEPS, sizeof(Z3_ast *));
    if (!e.count) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory starting z3");
        goto out;
    }
    const double limit = r->spec.time_limit_s > 0 ? r->spec.time_limit_s : 60;
    const double t0 = now_s();
    oc__progress_begin(&progress, r->spec.progress, r->spec.progress_ctx, "solver calls", 0);
    e.progress = &progress;
    uint32_t S = r->start > 0 ? (uint32_t)r->start - 1 : 0;
    Z3_lbool a;
    /* Phase 1: the lower bound. UNSAT at S proves S + 1 steps are needed. The first question is
     * S = start - 1, expected UNSAT; upward from there to the first SAT. Should it be SAT (the
     * start was no bound), downward to the first UNSAT. */
#define ASK(steps, balanced, what)                                                                 \
    do {                                                                                           \
        a = check(&e, (steps), (balanced), limit - (now_s() - t0), &rc);                           \
        if (rc) goto z3err;                                                                        \
        if (a == Z3_L_UNDEF) {                                                                     \
            snprintf(r->stopped, sizeof r->stopped, "time limit of %g s reached %s %u steps",      \
                     limit, (what), (steps));                                                      \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)
    ASK(S, 0, "proving whether a schedule has");
    uint32_t known_sat = UINT32_MAX; /* a step count the relaxation is known to reach */
    if (a == Z3_L_TRUE) {
        r->lower = 0;
        known_sat = S;
        while (S > 0) {
            ASK(S - 1, 0, "proving whether a schedule has");
            if (a == Z3_L_FALSE) {
                r->lower = S;
                break;
            }
            known_sat = --S;
        }
    } else {
        r->lower = ++S;
    }
    /* Phase 2, upward from S = lower: a schedule the model maps as the solver did. Asked first
     * with the symmetry (a share of the time left: found fast when there is one), then, unless
     * known, whether the relaxation has S steps at all (UNSAT: lower = S + 1), then the whole
     * space under the tie rule. While no schedule is in hand, a symmetric one of S + 1 steps is
     * looked for before the hard question, so that a stop on the time limit still has the best
     * schedule found (and, should S then be proven impossible, it is the optimum). */
    for (;;) {
        /* the schedule in hand has S steps (or fewer), one a round: nothing below it is left */
        if (r->found && (r->upper < S || (r->upper == S && one_step_rounds(r)))) break;
        if (S >= MAX_STEPS) {
            snprintf(r->stopped, sizeof r->stopped, "no schedule within %d steps", MAX_STEPS);
            goto done;
        }
        a = Z3_L_UNDEF;
        if (e.rot) {
            double left = limit - (now_s() - t0), share = left / 3 > 5 ? left / 3 : left;
            a = check(&e, S, 2, share, &rc);
            if (rc) goto z3err;
            if (a != Z3_L_TRUE && !r->found && S + 1 < MAX_STEPS) {
                Z3_lbool ahead = check(&e, S + 1, 2, (limit - (now_s() - t0)) / 4, &rc);
                if (rc) goto z3err;
                if (ahead == Z3_L_TRUE) {
                    int took = take_candidate(r, &e, S + 1, model, why, len);
                    if (took < 0) {
                        rc = took;
                        goto out;
                    }
                }
            }
        }
        if (a != Z3_L_TRUE && known_sat != S) {
            ASK(S, 0, "proving whether a schedule has");
            if (a == Z3_L_FALSE) {
                r->lower = ++S;
                continue;
            }
            known_sat = S;
            /* without ties the relaxation is the model's rule: its schedule is the candidate */
            if (e.is_ring && e.N % 2 == 0) a = Z3_L_UNDEF;
        }
        if (a != Z3_L_TRUE) ASK(S, 1, "looking for a schedule the model maps in");
        if (a == Z3_L_FALSE) {
            S++;
            continue;
        }
        int took = take_candidate(r, &e, S, model, why, len);
        if (took < 0) {
            rc = took;
            goto out;
        }
        if (took == 2) goto done; /* too many rounds excluded: r->stopped says so */
        if (took == 1) break;
        /* 0: a round was excluded; ask again at the same S */
    }
#undef ASK
done:
    r->solve_s = now_s() - t0;
    r->optimal = r->found && r->report->verified && r->upper == r->report->rounds &&
                 r->upper == r->lower && !r->stopped[0];
    goto out;
z3err:
    if (rc == OC_ECANCELED)
        rc = oc__fail(why, len, rc, "cancelled after %.1f s in the solver", now_s() - t0);
    else
        rc = oc__fail(why, len, rc == OC_ENOMEM ? OC_ENOMEM : OC_EINVAL, "%s",
                      rc == OC_ENOMEM ? "out of memory building the encoding"
                                      : "z3 refused the encoding");
out:
    oc__progress_end(&progress);
    enc_free(&e);
    return rc;
}

int oc__synth_run(const oc_synth_spec *spec, unsigned weaken, oc_synth_result **out, char *why,
                  size_t len) {
    *out = NULL;
    int rc = check_limits(spec, why, len);
    if (rc) return rc;
    oc_synth_result *r = calloc(1, sizeof *r);
    if (!r) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    r->spec = *spec; /* net_params: read_network copies them into r->net_params */
    snprintf(r->network, sizeof r->network, "%s", spec->network);
    r->q = spec->chunks ? spec->chunks : 1;
    oc__store_init(&r->store);
    unsigned maj, min, build, rev;
    Z3_get_version(&maj, &min, &build, &rev);
    snprintf(r->solver, sizeof r->solver, "z3 %u.%u.%u", maj, min, build);
    if ((rc = oc__spec_init(&r->ospec, spec->collective, spec->nodes, 0,
                            spec->bytes ? spec->bytes : 1u << 20, r->q, why, len)) ||
        (rc = read_network(r, why, len)))
        goto fail;
    r->spec.net_params = NULL; /* r->net_params holds them */
    r->start = start_bound(r);
    if ((rc = seed_schedule(r, why, len)) || (rc = search(r, weaken, why, len))) goto fail;
    *out = r;
    return 0;
fail:
    oc_synth_free(r);
    return rc;
}

static int synth_in(const oc_synth_spec *spec, oc_synth_result **out, char *why, size_t len) {
    return oc__synth_run(spec, 0, out, why, len);
}

int oc_synth(const oc_synth_spec *spec, oc_synth_result **out, char *why, size_t len) {
    if (out) *out = NULL;
    const oc_settings *prev;
    int rc = oc__settings_enter_checked(spec ? spec->settings : NULL, &prev, why, len);
    if (!rc) rc = synth_in(spec, out, why, len);
    oc__settings_leave(prev);
    return rc;
}

void oc_synth_get(const oc_synth_result *r, oc_synth_info *out) {
    *out = (oc_synth_info){.found = r->found,
                           .optimal = r->optimal,
                           .lower = r->lower,
                           .upper = r->found ? r->upper : 0,
                           .start = r->start,
                           .solve_s = r->solve_s,
                           .stopped = r->stopped[0] ? r->stopped : NULL,
                           .report = r->report,
                           .source = !r->found      ? NULL
                                     : r->from_seed ? r->seed_algo
                                                    : "solver"};
}

void oc_synth_free(oc_synth_result *r) {
    if (!r) return;
    oc_kv_free(r->net_params);
    oc__spec_free(&r->ospec);
    oc__store_free(&r->store);
    oc_report_free(r->report);
    oc__export_end(&r->seed);
    free(r);
}

/* ---- output ---- */

static void instance_text(const oc_synth_result *r, char *buf, size_t len) {
    if (!strcmp(r->network, "ring"))
        snprintf(buf, len, "%s on the ring, N=%u, w=%llu, F=%llu, %u chunk%s per %s",
                 oc_collective_name(r->spec.collective), r->spec.nodes, (unsigned long long)r->w,
                 (unsigned long long)r->F, r->q, r->q == 1 ? "" : "s",
                 r->spec.collective == OC_ALLREDUCE || r->spec.collective == OC_BROADCAST
                     ? "piece"
                     : "block");
    else
        snprintf(buf, len, "%s on the star, P=%u, k=%llu, %u chunk%s per %s",
                 oc_collective_name(r->spec.collective), r->spec.nodes,
                 (unsigned long long)r->channels, r->q, r->q == 1 ? "" : "s",
                 r->spec.collective == OC_BROADCAST ? "message" : "block");
}

/* What the proof covers (the essay, "Scope"): every schedule for copy collectives; for reductions
 * the schedules whose rounds each take one step. */
static const char *scope(const oc_synth_result *r) {
    return r->spec.collective == OC_ALLREDUCE ? "schedules whose rounds each take one step"
                                              : "every schedule";
}

int oc_synth_write_text(const oc_synth_result *r, FILE *f) {
    char inst[160];
    instance_text(r, inst, sizeof inst);
    fprintf(f, "synth: %s (%s)\n", inst, r->solver);
    if (r->optimal)
        fprintf(f, "optimal: yes, %llu steps (the solver proved %llu steps impossible, among %s)\n",
                (unsigned long long)r->upper, (unsigned long long)(r->lower - 1), scope(r));
    else
        fprintf(f, "optimal: not proven%s%s\n", r->stopped[0] ? ": " : "", r->stopped);
    fprintf(f, "proven lower bound: %llu steps", (unsigned long long)r->lower);
    if (r->found)
        fprintf(f, "; schedule found: %llu steps", (unsigned long long)r->upper);
    else
        fprintf(f, "; no schedule found");
    /* where the schedule in hand came from (seed_schedule) */
    if (r->found && r->from_seed)
        fprintf(f,
                "\nschedule from: algorithm %s, the fewest steps of the existing algorithms "
                "(the solver found none with fewer)",
                r->seed_algo);
    else if (r->found && r->seed_steps)
        fprintf(f, "\nschedule from: the solver (the existing algorithms' fewest: %llu steps, %s)",
                (unsigned long long)r->seed_steps, r->seed_algo);
    else if (r->found)
        fprintf(f, "\nschedule from: the solver (no existing algorithm runs here)");
    fprintf(f, "\nsearch started at %llu steps (a simple bound), solver time %.2f s",
            (unsigned long long)r->start, r->solve_s);
    if (r->blocked)
        fprintf(f, ", %llu round%s the model's colouring could not fit excluded",
                (unsigned long long)r->blocked, r->blocked == 1 ? "" : "s");
    fputs("\n", f);
    if (r->found) {
        fputs("\n", f);
        int rc = oc_report_write_text(r->report, f);
        if (rc) return rc;
    }
    return ferror(f) ? OC_EIO : 0;
}

int oc_synth_write_json(const oc_synth_result *r, FILE *f) {
    char inst[160];
    instance_text(r, inst, sizeof inst);
    fputs("{\"instance\": ", f);
    oc_write_json_string(f, inst);
    fprintf(f, ", \"collective\": \"%s\", \"network\": \"%s\", \"nodes\": %u, \"chunks\": %u",
            oc_collective_name(r->spec.collective), r->network, r->spec.nodes, r->q);
    if (!strcmp(r->network, "ring"))
        fprintf(f, ", \"wavelengths\": %llu, \"fibres\": %llu", (unsigned long long)r->w,
                (unsigned long long)r->F);
    else
        fprintf(f, ", \"k\": %llu", (unsigned long long)r->channels);
    fprintf(f,
            ", \"solver\": \"%s\", \"optimal\": %s, \"lower_bound_steps\": %llu, \"proof_covers\": "
            "\"%s\"",
            r->solver, r->optimal ? "true" : "false", (unsigned long long)r->lower, scope(r));
    if (r->found)
        fprintf(f, ", \"steps\": %llu, \"verified\": %s", (unsigned long long)r->upper,
                r->report->verified ? "true" : "false");
    else
        fputs(", \"steps\": null, \"verified\": false", f);
    fprintf(f, ", \"search_start_steps\": %llu, \"solve_s\": %.3f, \"rounds_excluded\": %llu",
            (unsigned long long)r->start, r->solve_s, (unsigned long long)r->blocked);
    /* where the schedule came from: "solver", or "algorithm" (seed_schedule: the existing
     * algorithms' fewest steps, "seed_algorithm" with "seed_steps"; null where none runs) */
    fprintf(f, ", \"schedule_source\": %s",
            !r->found      ? "null"
            : r->from_seed ? "\"algorithm\""
                           : "\"solver\"");
    if (r->seed_steps)
        fprintf(f, ", \"seed_algorithm\": \"%s\", \"seed_steps\": %llu", r->seed_algo,
                (unsigned long long)r->seed_steps);
    else
        fputs(", \"seed_algorithm\": null, \"seed_steps\": null", f);
    fputs(", \"stopped\": ", f);
    if (r->stopped[0])
        oc_write_json_string(f, r->stopped);
    else
        fputs("null", f);
    fputs(", \"result\": ", f);
    if (r->found) {
        /* oc_report_write_json ends its object with a newline: written to memory, trimmed */
        char *buf = NULL;
        size_t n = 0;
        FILE *mem = open_memstream(&buf, &n);
        if (!mem) return OC_ENOMEM;
        int rc = oc_report_write_json(r->report, mem);
        if (fclose(mem) && !rc) rc = OC_ENOMEM;
        if (rc) {
            free(buf);
            return rc;
        }
        while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
            n--;
        fwrite(buf, 1, n, f);
        free(buf);
    } else {
        fputs("null", f);
    }
    fputs("}\n", f);
    return ferror(f) ? OC_EIO : 0;
}

int oc_synth_write_schedule(const oc_synth_result *r, FILE *f, char *why, size_t len) {
    if (!r->found) return oc__fail(why, len, OC_EINVAL, "synth found no schedule to write");
    oc_kv *params = oc_kv_new();
    if (!params) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    char buf[32];
    snprintf(buf, sizeof buf, "%s", r->optimal ? "true" : "false");
    int rc = oc_kv_set(params, "optimal", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->lower);
    if (!rc) rc = oc_kv_set(params, "lower_bound_steps", buf);
    if (!rc) rc = oc_kv_set(params, "source", r->from_seed ? r->seed_algo : "solver");
    if (rc) {
        oc_kv_free(params);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    /* a seed keeps its algorithm's chunking (its own spec) */
    rc = oc__write_schedule_store(r->from_seed ? &r->seed.plan.spec : &r->ospec, "synth",
                                  r->network, params, &r->store, r->report, f, why, len);
    oc_kv_free(params);
    return rc;
}
