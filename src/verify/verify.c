/*
 * verify.c — the semantic verifier: executes a schedule symbolically and checks the collective's
 * final state. It trusts nothing the algorithm says; it detects, naming node, chunk and round:
 *   - a transfer to or from a node out of range, or a node sending to itself;
 *   - a chunk sent before the sender had it (state at the start of the round);
 *   - a contribution counted twice (a reduce whose contributions overlap what the receiver has),
 *     and two writes of one chunk in one round that do not commute (a copy with anything else);
 *   - a chunk missing at the end, or a chunk whose contributions are incomplete at the end.
 *
 * Copy collectives keep, per node, the set of labels it holds (a range set). Reductions keep, per
 * node and chunk, the set of nodes whose contributions the chunk carries: N*C small sets, and a
 * reduce is a merge of two sorted interval lists. The sets are kept as compact cells of 16 bytes:
 * the contribution sets of the seeds' algorithms are contiguous ranges of nodes (a circular range
 * wraps into two), so a cell holds up to two intervals inline and falls back to a heap-allocated
 * range set only when it needs more. Either way the intervals are sorted, disjoint and
 * non-adjacent, so every answer (which contribution is counted twice, which one is missing) is the
 * one a range set would give. Recursive halving's sets are strided (the nodes congruent to x mod
 * w, ceil(N / w) intervals): a set that repeats is kept as its period and one period's pattern
 * (progression.h; inline when the pattern is one progression), and every answer is computed on
 * patterns over a common period, where it is the plain list's (docs/scale.md, "Periodic
 * contribution sets"). The round of a cell's last write is a 32-bit stamp beside it.
 *
 * A verifier may keep a chunk window [lo, hi) only (a shard; run/shard.c): its state is
 * N x (hi - lo) cells, it executes only the part of each transfer inside the window, and every
 * failure records its key (verify.h: round, phase, position in the whole round, chunk) so that
 * the smallest key over the shards is the failure one pass over every chunk meets first.
 */
#include "verify/verify.h"
#include "core/progress.h"
#include "core/rangeset.h"
#include "verify/progression.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A reduction's chunk state: the set of nodes whose contributions it carries, in one of three
 * forms told apart by the first word (an inline interval's lo is below N <= 2^31, so its top bit
 * is clear):
 *   - plain: iv[0] and iv[1] are its intervals in order, an unused one being {0, 0} (an empty
 *     cell is two unused ones);
 *   - heap: heap.tag = UINT32_MAX; heap.set is a range set of its own, the set itself when
 *     heap.period is 0, else the pattern of one period (progression.h: the set is the nodes z
 *     with z mod heap.period in it);
 *   - prog: w[0] = CELL_TAGGED | m, w[1..3] = S, a, len or d: the periodic set whose pattern is
 *     one circular interval or an arithmetic progression of points (oc__prog), inline.
 * Recursive halving's strided sets (the nodes congruent to x mod w) are prog cells of one point;
 * the sets of a radix-r level on its way are progressions of up to r - 1 points. */
/* Memory: the verifier's state is counted against the library's one memory
 * budget (the call's oc_settings.memory_budget, 4 GiB by default). For reductions that is the
 * cells (one per (node, chunk), allocated up front) and the range sets of cells whose
 * contributors fragment into more than two intervals (grown as the schedule runs); for copy
 * collectives the nodes' range sets (an
 * all-to-all starts with N ranges per node, N^2 in all, checked up front and made as each node is
 * first looked at); for both, a round's staging. Past the
 * budget a run is refused with one line (OC_ETOOBIG) before the allocation, instead of being
 * killed by the kernel half-way: up front when the initial state alone passes it, else in the
 * round where the growth does (rhd radix 2 on 8192 nodes fragments to ~150 bytes per state
 * without its periods; ring all-reduce stays inline, ~20 bytes per state). */

/* A hint that *p will be read and written soon (no effect where the compiler has no builtin). */
#if defined(__GNUC__)
#define prefetch(p) __builtin_prefetch((p), 1)
#else
#define prefetch(p) ((void)(p))
#endif

/* A write of a round of several pieces in the orbit state: the cell, its place among the
 * round's new cells (onew), and whether it is a reduce. */
typedef struct owrite {
    uint64_t at;
    uint32_t k, reduce;
} owrite;

typedef union cell {
    oc__range iv[2];
    uint32_t w[4];
    struct {
        uint32_t tag, period;
        oc__rangeset *set;
    } heap;
} cell;

#define CELL_HEAP UINT32_MAX
#define CELL_TAGGED UINT32_C(0x80000000)

static int cell_is_heap(const cell *c) {
    return c->heap.tag == CELL_HEAP;
}

/* Neither heap nor prog: up to two intervals inline. */
static int cell_is_plain(const cell *c) {
    return !(c->w[0] & CELL_TAGGED);
}

static int cell_empty(const cell *c) {
    return cell_is_plain(c) ? c->iv[0].lo >= c->iv[0].hi : cell_is_heap(c) && c->heap.set->n == 0;
}

/* The intervals of a plain cell, in order: *n of them at the returned address. */
static const oc__range *cell_intervals(const cell *c, uint32_t *n) {
    *n = (uint32_t)(c->iv[0].lo < c->iv[0].hi) + (uint32_t)(c->iv[1].lo < c->iv[1].hi);
    return c->iv;
}

static void cell_free(cell *c) {
    if (cell_is_heap(c)) {
        oc__rangeset_free(c->heap.set);
        free(c->heap.set);
    }
    memset(c, 0, sizeof *c);
}

/* The smallest value of [lo, hi) a plain cell holds, or hi if there is none. */
static uint32_t cell_first_present(const cell *c, uint32_t lo, uint32_t hi) {
    uint32_t n;
    const oc__range *iv = cell_intervals(c, &n);
    for (uint32_t k = 0; k < n && iv[k].lo < hi; k++)
        if (iv[k].hi > lo) return iv[k].lo > lo ? iv[k].lo : lo;
    return hi;
}

/* Replaces the contents of the cell with the set of period S (S = N: no period) whose pattern is
 * the n sorted, disjoint, non-adjacent intervals iv: plain when it has at most two intervals, a
 * prog when `prog` allows and the pattern packs into one (a progression over all N nodes too: the
 * first level of radix-4 halving), else on the heap. */
static int cell_assign(cell *c, uint32_t N, uint32_t S, const oc__range *iv, uint32_t n, int prog) {
    if (S < N && n == 1 && iv[0].lo == 0 && iv[0].hi == S) { /* every node: plain [0, N) */
        cell_free(c);
        c->iv[0] = (oc__range){0, N};
        return 0;
    }
    oc__prog p;
    if (S == N && n <= 2) {
        cell_free(c);
        for (uint32_t k = 0; k < n; k++)
            c->iv[k] = iv[k];
        return 0;
    }
    if (prog && oc__prog_pack(S, iv, n, &p)) {
        cell_free(c);
        c->w[0] = CELL_TAGGED | p.m;
        c->w[1] = p.S;
        c->w[2] = p.a;
        c->w[3] = p.x;
        return 0;
    }
    if (!cell_is_heap(c)) {
        oc__rangeset *set = calloc(1, sizeof *set);
        if (!set) return OC_ENOMEM;
        c->heap.tag = CELL_HEAP;
        c->heap.set = set;
    }
    c->heap.period = S < N ? S : 0;
    uint64_t size = 0;
    for (uint32_t k = 0; k < n; k++)
        size += iv[k].hi - iv[k].lo;
    const oc__rangeset view = {(oc__range *)(uintptr_t)iv, n, n, size};
    return oc__rangeset_copy(c->heap.set, &view);
}

/* The heap bytes a cell holds (its range set), for the verifier's memory budget. */
static uint64_t cell_heap_bytes(const cell *c) {
    return cell_is_heap(c) ? sizeof(oc__rangeset) + (uint64_t)c->heap.set->cap * sizeof(oc__range)
                           : 0;
}

typedef struct pending {
    uint32_t dst;
    oc__range r;
} pending;

struct oc__verifier {
    oc__sink sink;
    const oc__spec *spec;
    int reduces;
    uint64_t redundant;
    /* The chunk window [lo, hi) this verifier keeps (a shard; [0, C) for a whole one): only the
     * parts of transfers inside it are executed, and the state is N x (hi - lo). */
    uint32_t lo, hi;
    uint32_t width;     /* reductions: the window width its cells were allocated for */
    uint64_t budget;    /* this verifier's share of the memory budget */
    oc__verify_key key; /* where the first failure was, in single-pass order */
    pending *scope;     /* a round's in-window transfers, clipped (copy collectives) */
    size_t scope_cap;
    /* copy collectives */
    oc__rangeset *held; /* per node */
    pending *sorted;    /* a round's transfers grouped by destination */
    size_t sorted_cap;
    uint32_t *bucket;     /* per node counter for the counting sort */
    uint64_t *last_round; /* per node: 1 + the last round it received in (duplicate detection) */
    /* all-to-all: 1 once node n's N starting ranges are in held[n], made when a round or the
     * final check first looks at the node (NULL: every node's are made at the start) */
    uint8_t *made;
    oc__range *merge;
    size_t merge_cap;
    /* reductions' periodic sets: patterns unpacked or written over a common period (two cells'
     * views, then their lifts), and whether periods are looked for at all (tests compare) */
    oc__range *scratch[4];
    size_t scratch_cap[4];
    int periodic;
    /* the last sum past the plain fast path: the receiver's set before, the sender's, the
     * result (a heap one's intervals copied into memo_sets), when memo_ok */
    cell memo[3];
    oc__rangeset memo_sets[3];
    int memo_ok;
    /* reductions */
    cell *contrib;     /* node * C + chunk */
    uint32_t *written; /* node * C + chunk: (round + 1) * 2 + (1 if by copy) of the last write */
    cell *staged;      /* snapshot of what the round's senders send, one cell per chunk sent */
    oc__rangeset *staged_sets;   /* staged[u] points to staged_sets[u] when it needs the heap */
    size_t staged_cap, sets_cap; /* sets: grown when a heap cell is first staged */
    uint64_t base_bytes;         /* the state allocated up front */
    uint64_t heap_bytes; /* bytes held by range sets grown since (heap cells, nodes' sets) */
    /* Copy collectives whose state is the same round the ring (see "Uniform state" below):
     * while `uniform`, held[] is stale and node n holds rel turned by n * q labels. */
    int uniform;
    oc__rangeset rel;
    int rotation_off;         /* a test's: rotation_round declines every round */
    uint64_t rotation_rounds; /* rounds rotation_round took whole */
    /* Reductions the same way (see "Uniform reductions"): while `runiform`, contrib[] and
     * written[] are not made; node n's cell of label l is offset[(l - n w) mod C] turned by n. */
    int runiform;
    uint32_t uw;    /* w = C / N, the labels a node's turn moves */
    cell *offset;   /* C plain cells */
    cell *unext;    /* a round's new cells, w of them */
    oc__round flat; /* a family round written out, when it is not taken whole */
    /* Reductions with a stated symmetry (see "Orbit reductions"): while `orbit`, contrib[] and
     * written[] are not made; node a s + i's cell of label l is ocell[i][turn^-a(l)] moved by a s
     * nodes (s = ostride). */
    int orbit;
    uint32_t ostride, opart, oturn, oturn1; /* oturn1: oturn mod opart */
    cell *ocell;      /* ostride x C plain cells */
    uint32_t *ostamp; /* ostride: 1 + the round in which the node last received */
    uint32_t *oseen;  /* N: 1 + the round in which the node last sent */
    uint32_t *oby;    /* N: the node's transfer in that round */
    int osorted;      /* 1: the round's transfers came in sender order (oby not used) */
    /* a round of several pieces (see "Rounds of several pieces"): its transfers from nodes
     * [0, ostride), one an orbit, by their place in the round; 0 of them: one transfer a node */
    uint32_t *orep;
    size_t orep_n, orep_cap;
    owrite *ocheck; /* the cells such a round writes, sorted to group a cell's writes */
    size_t ocheck_cap;
    int pieces_off;       /* a test's: rounds of several pieces go the plain way */
    uint64_t orbit_rounds; /* rounds orbit_round took whole so far (one transfer a node or not) */
    int corbit;       /* a copy collective's orbit state: node a s + i holds orel[i] turned */
    oc__rangeset *orel; /* ostride sets */
    cell *onew;       /* a round's new cells, before they are written */
    uint64_t *oat;    /* and where they go */
    size_t onew_cap;
    /* Reductions with a stated digit symmetry (see "Digit orbit reductions"): while `dorbit`,
     * contrib[] and written[] are not made; node n's cell of label l is dcell[l - n] moved by n
     * (digit-wise, in the radices dr[]). */
    int dorbit;
    uint32_t dk, dpow2;                 /* digits; 1 when every radix is a power of two */
    uint32_t dr[32], dw[33], dmask[32]; /* radices, place values, (pow2) each digit's bits */
    cell *dcell;                        /* C cells: node 0's */
    uint32_t *dwritten;                 /* C: (round + 1) * 2 + (1 if by copy), node 0's writes */
    uint32_t *dpend;                    /* C: the label's slot in dnew this round */
    uint32_t *dslot, *dstamp;           /* N: node 0's transfer to node y this round, and when */
    uint64_t *dbits;                    /* a round's (sender, transfer of node 0) pairs seen */
    size_t dbits_cap;
    uint32_t *dfrom0, *dinto0; /* a round's transfers from node 0, and into it */
    size_t dfrom0_cap, dinto0_cap;
    cell *dnew;    /* a round's new cells of node 0, before they are written */
    uint32_t *dat; /* and their labels */
    size_t dnew_cap;
    oc__range *dblocks; /* a moved set's blocks */
    size_t dblocks_cap;
};

/* "verifying allreduce on 8 nodes with 64 chunks" into buf, for budget messages. */
static void describe_run(const oc__spec *s, char *buf, size_t len) {
    snprintf(buf, len, "verifying %s on %u nodes with %u chunks", oc_collective_name(s->coll),
             s->nodes, s->chunks);
}

/* Refuses, naming the round, once the state (up front and grown) plus `extra` bytes would pass
 * the memory budget. */
static int state_budget(const oc__verifier *v, uint64_t extra, uint64_t round, char *why,
                        size_t len) {
    const uint64_t total = v->base_bytes + v->heap_bytes + extra;
    if (total <= v->budget) return 0;
    char what[160], d[120];
    describe_run(v->spec, d, sizeof d);
    snprintf(what, sizeof what, "round %llu: %s", (unsigned long long)round, d);
    if (v->budget >= oc__memory_budget()) return oc__budget_check(total, what, why, len);
    char need[32], have[32];
    oc__format_bytes(need, sizeof need, total);
    oc__format_bytes(have, sizeof have, v->budget);
    return oc__fail(why, len, OC_ETOOBIG,
                    "%s (chunks %u..%u) needs %s, more than its share %s of the memory budget (set "
                    "OPTICOLL_MEMORY_BUDGET_MIB)",
                    what, v->lo, v->hi - 1, need, have);
}

static int fail_at(char *why, size_t len, const oc__spec *s, uint64_t round, const char *what,
                   uint32_t node, uint32_t chunk) {
    char c[96];
    oc__spec_describe_chunk(s, chunk, c, sizeof c);
    return oc__fail(why, len, OC_EVERIFY, "round %llu: node %u %s %s", (unsigned long long)round,
                    node, what, c);
}

/* Whether check_transfer() would pass t: the test alone, for the verifier's loops. */
static int transfer_ok(const oc__verifier *v, const oc__transfer *t) {
    const oc__spec *s = v->spec;
    return t->src < s->nodes && t->dst < s->nodes && t->src != t->dst && t->count &&
           (uint64_t)t->first + t->count <= s->chunks &&
           (t->op == OC_OP_COPY || (t->op == OC_OP_REDUCE && v->reduces));
}

/* Checks the fields every transfer must have right, whatever the collective. */
static int check_transfer(const oc__verifier *v, uint64_t round, const oc__transfer *t, char *why,
                          size_t len) {
    const oc__spec *s = v->spec;
    if (t->src >= s->nodes || t->dst >= s->nodes)
        return oc__fail(why, len, OC_EVERIFY,
                        "round %llu: transfer %u -> %u names a node out of range (0..%u)",
                        (unsigned long long)round, t->src, t->dst, s->nodes - 1);
    if (t->src == t->dst)
        return oc__fail(why, len, OC_EVERIFY, "round %llu: node %u sends to itself",
                        (unsigned long long)round, t->src);
    if (t->count == 0) /* [first, first) is no range anywhere: empty, not outside */
        return oc__fail(why, len, OC_EVERIFY,
                        "round %llu: transfer %u -> %u names no chunks (the empty range [%u, %u))",
                        (unsigned long long)round, t->src, t->dst, t->first, t->first);
    if ((uint64_t)t->first + t->count > s->chunks)
        return oc__fail(why, len, OC_EVERIFY,
                        "round %llu: transfer %u -> %u names chunks [%u, %llu) outside 0..%u",
                        (unsigned long long)round, t->src, t->dst, t->first,
                        (unsigned long long)t->first + t->count, s->chunks - 1);
    if (t->op != OC_OP_COPY && t->op != OC_OP_REDUCE)
        return oc__fail(why, len, OC_EVERIFY, "round %llu: transfer %u -> %u has an unknown op",
                        (unsigned long long)round, t->src, t->dst);
    if (t->op == OC_OP_REDUCE && !v->reduces)
        return oc__fail(why, len, OC_EVERIFY,
                        "round %llu: transfer %u -> %u reduces, but %s moves data without reducing",
                        (unsigned long long)round, t->src, t->dst, oc_collective_name(s->coll));
    return 0;
}

/* Records where the verifier failed (its key) and passes rc on. */
static int at_key(oc__verifier *v, int rc, uint64_t round, uint32_t phase, uint64_t pos,
                  uint32_t chunk) {
    v->key = (oc__verify_key){round, phase, pos, chunk};
    return rc;
}

/* Out of memory in round `round`. */
static int nomem(oc__verifier *v, uint64_t round, char *why, size_t len) {
    return at_key(v, oc__fail(why, len, OC_ENOMEM, "out of memory in the verifier"), round,
                  OC__VK_BUDGET, 0, 0);
}

/* The position of transfer i in its whole round (a windowed emitter keeps only part of it). */
static uint64_t pos_of(const oc__round *r, size_t i) {
    return r->index ? r->index[i] : i;
}

/* The part of t's chunks inside the window, in *lo..*hi; 0 when the transfer does not concern
 * this verifier. A transfer whose own range is malformed concerns every verifier: the check that
 * names it must run whatever the window. */
static int in_window(const oc__verifier *v, const oc__transfer *t, uint32_t *lo, uint32_t *hi) {
    if (t->count == 0 || (uint64_t)t->first + t->count > v->spec->chunks) {
        *lo = *hi = 0;
        return 1;
    }
    *lo = t->first > v->lo ? t->first : v->lo;
    *hi = t->first + t->count < v->hi ? t->first + t->count : v->hi;
    return *lo < *hi;
}

/* ---- copy collectives ---- */

static int range_cmp(const void *a, const void *b) {
    const oc__range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Counts the change of node n's range set (it had `cap` ranges of room) and refuses the run when
 * a growth passes the budget. */
static int held_grew(oc__verifier *v, uint32_t n, uint32_t cap, uint64_t round, char *why,
                     size_t len) {
    /* modular: a set that shrank (a union sizes it exactly) subtracts */
    v->heap_bytes += ((uint64_t)v->held[n].cap - cap) * sizeof(oc__range);
    if (v->held[n].cap <= cap) return 0;
    return at_key(v, state_budget(v, 0, round, why, len), round, OC__VK_BUDGET, 0, 0);
}

/* ---- uniform state: a ring's rounds taken whole ----
 * An all-gather (or gossip) whose blocks are not relabelled (or relabelled each to its own node)
 * starts the same at every node up to
 * a turn of the ring: node n holds block n, that is labels R = [0, q) turned by n * q (mod
 * C = N * q). A family round (core.h) in which every node k sends block (k - shift) mod N of
 * width q to node k + hop keeps it so: sender k's block is, relative to k, the labels
 * [a, a + q) with a = ((N - shift) mod N) * q, the same for every k, and the receiver k + hop
 * gets them at a - hop * q relative to itself, the same for every receiver. So while every round
 * is such a family, one set R (rel) stands for all N nodes' sets, and a round is checked and
 * applied once: the senders all hold their block iff [a, a + q) is in R, the destinations
 * k + hop are N distinct nodes (hop in 1..N-1), and each receives as many labels it already had
 * as [a - hop q, + q) shares with R, N times in all. Nothing is assumed of the round but what
 * its family says; any other round, or a family whose check fails, first writes every node's set
 * out (materialize) and goes through the plain path, which decides and names the failure as it
 * always did, so verdicts, messages and the redundant count are those of the transfers one by
 * one (tests/test_family.c holds both on whole and broken schedules). */

/* Whether every block b is node b's: no relabelling, or one that names every block's own node
 * (stride 1's: the bidirectional ring's labels are the nodes'). O(N), once a verifier. */
static int blocks_own(const oc__spec *s) {
    if (!s->block_node) return 1;
    for (uint32_t b = 0; b < s->nodes; b++)
        if (s->block_node[b] != b) return 0;
    return 1;
}

static int uniform_possible(const oc__verifier *v) {
    const oc__spec *s = v->spec;
    return !v->reduces && (s->coll == OC_ALLGATHER || s->coll == OC_GOSSIP) && blocks_own(s) &&
           s->nodes >= 2 && v->lo == 0 && v->hi == s->chunks &&
           (uint64_t)s->nodes * s->q == s->chunks;
}

/* Writes every node's set out from rel and leaves the uniform state. */
static int materialize(oc__verifier *v) {
    if (!v->uniform) return 0;
    const oc__spec *s = v->spec;
    const uint64_t C = s->chunks;
    if (oc__grow((void **)&v->merge, &v->merge_cap, 2 * (size_t)v->rel.n + 1, sizeof(oc__range)))
        return OC_ENOMEM;
    uint64_t bytes = 0;
    for (uint32_t node = 0; node < s->nodes; node++) {
        const uint64_t turn = (uint64_t)node * s->q;
        size_t m = 0;
        for (uint32_t k = 0; k < v->rel.n; k++) {
            const uint64_t a = (v->rel.iv[k].lo + turn) % C,
                           len = v->rel.iv[k].hi - v->rel.iv[k].lo;
            if (a + len <= C) {
                v->merge[m++] = (oc__range){(uint32_t)a, (uint32_t)(a + len)};
            } else {
                v->merge[m++] = (oc__range){(uint32_t)a, (uint32_t)C};
                v->merge[m++] = (oc__range){0, (uint32_t)(a + len - C)};
            }
        }
        qsort(v->merge, m, sizeof(oc__range), range_cmp);
        oc__rangeset *h = &v->held[node];
        h->n = 0;
        h->size = 0;
        if (oc__rangeset_union(h, v->merge, m, NULL)) return OC_ENOMEM;
        bytes += (uint64_t)h->cap * sizeof(oc__range);
    }
    v->heap_bytes = bytes;
    v->uniform = 0;
    return 0;
}

/* A family round in the uniform state: 1 when it was checked and applied whole (*rc: 0 or the
 * budget's refusal), 0 when the plain path must take it. */
static int uniform_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why, size_t len,
                         int *rc) {
    const oc__spec *s = v->spec;
    const oc__family *f = &r->family;
    const uint32_t N = s->nodes, q = s->q;
    if (!v->uniform || !r->is_family || f->op != OC_OP_COPY || f->n != N || f->width != q ||
        f->first != 0 || f->hop == 0 || f->hop >= N || f->shift >= N)
        return 0;
    /* the plain path's staging, asked for in the same words */
    if ((*rc = state_budget(v, (uint64_t)N * sizeof(pending), round, why, len))) {
        *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
        return 1;
    }
    const uint64_t a = (uint64_t)((N - f->shift) % N) * q;
    if (!oc__rangeset_contains(&v->rel, (uint32_t)a, (uint32_t)(a + q))) return 0;
    const uint64_t b = (uint64_t)((N - f->shift + (N - f->hop)) % N) * q;
    const oc__range got = {(uint32_t)b, (uint32_t)(b + q)};
    uint64_t dup = 0;
    if (oc__rangeset_union(&v->rel, &got, 1, &dup)) {
        *rc = nomem(v, round, why, len);
        return 1;
    }
    v->redundant += dup * N;
    *rc = 0;
    return 1;
}

/* ---- rotation rounds: a plain round made of whole rotations, in the uniform state ----
 * Let rho move a transfer by one node and one block: src + 1, dst + 1 (mod N), labels
 * first + q (mod C), the same count and op. A round of the uniform state is a rotation round
 * when its transfers fall into consecutive pieces, piece p being N k_p transfers of which the
 * one k_p further on is always this one moved by rho: t[i + k] = rho(t[i]) for every i of the
 * piece but its last k (the circulant all-gather's rounds, every block's arcs in label order;
 * the comb's, one piece a direction). Then the piece is exactly {rho^j(b) : b one of its first
 * k transfers, 0 <= j < N} (induction on j), and rho^N is the identity (N nodes, N q = C
 * labels), so no transfer of it is missing or extra.
 *
 * The orbit argument. While uniform, node n holds R = rel turned by n q. Transfer rho^j(b) sends
 * from b.src + j the labels [b.first + j q, + b.count), which relative to its sender are
 * [b.first - b.src q, + b.count) mod C: the same for every j, so every transfer of the piece
 * reads what its sender holds iff its base b does, checked on R once. It delivers to b.dst + j
 * the labels [b.first - b.dst q, + b.count) relative to its receiver, again the same for every
 * j, and as j runs over [0, N) every node receives each base's delivery exactly once. So every
 * node receives the same multiset D of relative ranges (one per base transfer of every piece),
 * the state after the round is uniform again with rel := rel u D, and the labels a node gets
 * that it already had, counted with multiplicity as the plain path counts them (a union's
 * overlap, core/rangeset.h; copies commute, so order is immaterial), are D's overlap with rel,
 * the same at every node: N times it in all. O(k) range-set work a piece instead of O(N k),
 * and one pass over the round comparing each transfer with its image.
 *
 * Nothing is taken on trust: a round that is not such a chain (a transfer changed, moved, left
 * out or added breaks it: its image, or the image of the one k before, is then missing), a
 * transfer the plain path would refuse (transfer_ok), or a base whose sender lacks its labels,
 * makes this path decline, and the round is materialised and goes through the plain path, which
 * decides and names any failure as it always did (tests/test_rotation.c: whole and broken
 * rounds against the plain verifier, verdicts, messages and redundant counts). */

/* Whether b is rho(a). */
static int rotation_next(const oc__transfer *a, const oc__transfer *b, uint32_t N, uint32_t q,
                         uint32_t C) {
    const uint32_t src = a->src + 1 == N ? 0 : a->src + 1, dst = a->dst + 1 == N ? 0 : a->dst + 1;
    const uint64_t first = (uint64_t)a->first + q;
    return b->src == src && b->dst == dst && b->count == a->count && b->op == a->op &&
           b->first == (first >= C ? first - C : first);
}

/* The relative labels [a, a + count) mod C as one or two ranges into out; their number. */
static uint32_t relative_ranges(uint64_t a, uint32_t count, uint32_t C, oc__range *out) {
    if (a + count <= C) {
        out[0] = (oc__range){(uint32_t)a, (uint32_t)(a + count)};
        return 1;
    }
    out[0] = (oc__range){(uint32_t)a, C};
    out[1] = (oc__range){0, (uint32_t)(a + count - C)};
    return 2;
}

/* (label - node q) mod C: a label relative to a node in the uniform state. */
static uint64_t relative_to(uint32_t label, uint32_t node, uint32_t q, uint32_t C) {
    const uint64_t back = (uint64_t)node * q % C;
    return label >= back ? label - back : label + C - back;
}

/* A plain round in the uniform state: 1 when it is a rotation round, checked and applied whole
 * (*rc: 0 or the budget's refusal), 0 when the plain path must take it. */
static int rotation_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why,
                          size_t len, int *rc) {
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    const size_t n = r->count;
    const oc__transfer *x = r->xfers;
    if (!v->uniform || v->rotation_off || r->is_family || r->index || n < N || n % N ||
        n > UINT32_MAX)
        return 0;
    /* 1. the pieces: each one's k found from its first transfer's image, then every transfer
     * of it but the last k checked against the one k further on */
    size_t bases = 0;
    for (size_t pos = 0; pos < n;) {
        size_t k = 1;
        while (pos + k < n && !rotation_next(&x[pos], &x[pos + k], N, q, C))
            k++;
        if (pos + k >= n || k > (n - pos) / N) return 0;
        const size_t end = pos + k * N;
        for (size_t i = pos; i < end; i++) {
            if (((i - pos) & 0xffff) == 0 && oc__stop_tick()) return 0; /* the plain path says */
            if (!transfer_ok(v, &x[i]) ||
                (i + k < end && !rotation_next(&x[i], &x[i + k], N, q, C)))
                return 0;
        }
        /* the bases, kept by their place: pos .. pos + k */
        if (oc__grow((void **)&v->scope, &v->scope_cap, bases + k, sizeof(pending))) return 0;
        for (size_t i = 0; i < k; i++)
            v->scope[bases + i] = (pending){(uint32_t)(pos + i), {0, 0}};
        bases += k;
        pos = end;
    }
    /* 2. the plain path's staging, asked for in the same words */
    if ((*rc = state_budget(v, (uint64_t)n * sizeof(pending), round, why, len))) {
        *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
        return 1;
    }
    /* 3. read: every base's sender holds its labels (then every transfer's does) */
    if (oc__grow((void **)&v->merge, &v->merge_cap, 2 * bases + 1, sizeof(oc__range))) return 0;
    size_t m = 0;
    for (size_t i = 0; i < bases; i++) {
        const oc__transfer *t = &x[v->scope[i].dst];
        oc__range iv[2];
        const uint32_t k = relative_ranges(relative_to(t->first, t->src, q, C), t->count, C, iv);
        for (uint32_t j = 0; j < k; j++)
            if (!oc__rangeset_contains(&v->rel, iv[j].lo, iv[j].hi)) return 0;
        m += relative_ranges(relative_to(t->first, t->dst, q, C), t->count, C, &v->merge[m]);
    }
    /* 4. write: every node gets D, the deliveries relative to their receivers */
    qsort(v->merge, m, sizeof(oc__range), range_cmp);
    uint64_t dup = 0;
    if (oc__rangeset_union(&v->rel, v->merge, m, &dup)) {
        *rc = nomem(v, round, why, len);
        return 1;
    }
    v->redundant += dup * N;
    v->rotation_rounds++;
    *rc = 0;
    return 1;
}

void oc__verifier_rotation_off(oc__verifier *v, int off) {
    v->rotation_off = off;
}

uint64_t oc__verifier_rotation_rounds(const oc__verifier *v) {
    return v->rotation_rounds;
}

/* ---- orbit state: a symmetric all-gather taken by its first nodes ----
 * An all-gather whose spec states a symmetry (oc__spec.orbit_*, "Orbit reductions" below: node n
 * to n + s, every label turned by t) with one part (P = C) and t = s q moves node n's block to
 * node n + s's, so the start is invariant; a round invariant under it (checked as there) keeps
 * it so, and node a s + i holds node i's set (orel[i]) turned by a t. A round is then its s
 * transfers from nodes [0, s), each turned back by its receiver's a: the senders must hold what
 * they send, the receivers be s distinct nodes of [0, s) and each transfer one range after the
 * turn; the redundant deliveries are N / s times theirs. Anything else writes every node's set
 * out (omaterialize_sets) and goes the plain path (neighbour exchange: tests/test_orbit.c). */

static int corbit_possible(const oc__verifier *v) {
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, S = s->orbit_stride;
    return !v->reduces && s->coll == OC_ALLGATHER && !s->block_node && N >= 2 && S >= 1 &&
           S < N && N % S == 0 && v->lo == 0 && v->hi == s->chunks &&
           (uint64_t)N * s->q == s->chunks && s->orbit_part == s->chunks &&
           (uint64_t)S * s->q == s->orbit_turn;
}

/* Writes every node's set out from orel and leaves the orbit state. */
static int omaterialize_sets(oc__verifier *v) {
    if (!v->corbit) return 0;
    const oc__spec *s = v->spec;
    const uint64_t C = s->chunks;
    const uint32_t S = v->ostride;
    uint64_t bytes = 0;
    for (uint32_t node = 0; node < s->nodes; node++) {
        const oc__rangeset *from = &v->orel[node % S];
        const uint64_t turn = (uint64_t)(node / S) * v->oturn % C;
        if (oc__grow((void **)&v->merge, &v->merge_cap, 2 * (size_t)from->n + 1,
                     sizeof(oc__range)))
            return OC_ENOMEM;
        size_t m = 0;
        for (uint32_t k = 0; k < from->n; k++) {
            const uint64_t a = (from->iv[k].lo + turn) % C, len = from->iv[k].hi - from->iv[k].lo;
            if (a + len <= C) {
                v->merge[m++] = (oc__range){(uint32_t)a, (uint32_t)(a + len)};
            } else {
                v->merge[m++] = (oc__range){(uint32_t)a, (uint32_t)C};
                v->merge[m++] = (oc__range){0, (uint32_t)(a + len - C)};
            }
        }
        qsort(v->merge, m, sizeof(oc__range), range_cmp);
        oc__rangeset *h = &v->held[node];
        h->n = 0;
        h->size = 0;
        if (m && oc__rangeset_union(h, v->merge, m, NULL)) return OC_ENOMEM;
        bytes += (uint64_t)h->cap * sizeof(oc__range);
    }
    v->heap_bytes = bytes;
    v->corbit = 0;
    return 0;
}

/* The labels [first, first + count) moved by sigma^k into *out: 0 when they are not one range
 * afterwards (a range across parts must be whole parts, which sigma leaves in place). */
static int orbit_labels(const oc__verifier *v, uint32_t first, uint32_t count, uint64_t k,
                        uint32_t *out) {
    const uint32_t P = v->opart, off = first % P;
    if (off == 0 && count % P == 0) {
        *out = first;
        return 1;
    }
    if (off + (uint64_t)count > P) return 0;
    const uint32_t moved = (uint32_t)((off + k % P * v->oturn) % P);
    if (moved + (uint64_t)count > P) return 0;
    *out = first - off + moved;
    return 1;
}

/* Whether transfer b is transfer a moved by sigma (orbit_labels' rule with k = 1, written out
 * without its divisions: it runs for every transfer of every round). */
static int orbit_moves(const oc__verifier *v, const oc__transfer *a, const oc__transfer *b) {
    const uint32_t N = v->spec->nodes, P = v->opart;
    const uint64_t to = (uint64_t)a->dst + v->ostride;
    if (b->op != a->op || b->count != a->count || b->dst != (to >= N ? to - N : to)) return 0;
    const uint32_t off = P == v->spec->chunks ? a->first : a->first % P;
    if (a->count >= P) return off == 0 && a->count % P == 0 && b->first == a->first;
    if ((uint64_t)off + a->count > P) return 0;
    const uint64_t moved = (uint64_t)off + v->oturn1; /* both below P */
    const uint32_t at = (uint32_t)(moved >= P ? moved - P : moved);
    return at + (uint64_t)a->count <= P && b->first == a->first - off + at;
}

/* Whether round r has one transfer from every node and is invariant under sigma (each sender's
 * transfer moved by sigma is the transfer of the sender s further on, around the whole ring);
 * then orbit_from() gives sender n's transfer, and *units the round's chunk-transfers. A round
 * in sender order (the generators' usual) is read in place; another is indexed by sender. */
static int orbit_one(oc__verifier *v, uint64_t round, const oc__round *r, uint64_t *units) {
    const uint32_t N = v->spec->nodes, S = v->ostride;
    if (r->count != N) return 0;
    const oc__transfer *x = r->xfers;
    const uint32_t stamp = (uint32_t)round + 1;
    uint64_t u = 0;
    uint32_t k = 0;
    /* In sender order (checked on the way: a round out of it goes to the indexed path below,
     * which decides it alone), in one pass: each transfer's own fields and its move onto the one
     * S further on, with the spec's numbers in registers. A failure counts only once the rest
     * of the round is seen to be in sender order (the transfer S further on must be its
     * sender's). */
    const uint32_t C = v->spec->chunks, P = v->opart, turn = v->oturn1;
    const int reduces = v->reduces;
    int ok = 1;
    for (k = 0; k < N; k++) {
        const oc__transfer *a = &x[k], *b = &x[k + S < N ? k + S : k + S - N];
        if (a->src != k) break;
        const uint64_t to = (uint64_t)a->dst + S;
        if (a->dst >= N || a->dst == k || !a->count || (uint64_t)a->first + a->count > C ||
            (a->op != OC_OP_COPY && (a->op != OC_OP_REDUCE || !reduces)) || b->op != a->op ||
            b->count != a->count || b->dst != (to >= N ? to - N : to)) {
            ok = 0;
            break;
        }
        const uint32_t off = P == C ? a->first : a->first % P;
        if (a->count >= P) {
            if (off || a->count % P || b->first != a->first) {
                ok = 0;
                break;
            }
        } else {
            const uint64_t moved = (uint64_t)off + turn; /* both below P */
            const uint32_t at = (uint32_t)(moved >= P ? moved - P : moved);
            if ((uint64_t)off + a->count > P || at + (uint64_t)a->count > P ||
                b->first != a->first - off + at) {
                ok = 0;
                break;
            }
        }
        u += a->count;
    }
    if (!ok) { /* not symmetric if in sender order; else the indexed path decides */
        while (k < N && x[k].src == k)
            k++;
        if (k == N) return 0;
    }
    v->osorted = k == N;
    if (v->osorted) {
        *units = u;
        return 1;
    }
    u = 0;
    for (k = 0; k < N; k++) {
        if (!transfer_ok(v, &x[k]) || v->oseen[x[k].src] == stamp) return 0;
        v->oseen[x[k].src] = stamp;
        v->oby[x[k].src] = k;
        u += x[k].count;
    }
    for (uint32_t n = 0; n < N; n++) /* every sender: N distinct, so each sent once */
        if (!orbit_moves(v, &x[v->oby[n]], &x[v->oby[n + S < N ? n + S : n + S - N]])) return 0;
    *units = u;
    return 1;
}

/* Sender n's transfer in a round orbit_one() accepted. */
static const oc__transfer *orbit_from(const oc__verifier *v, const oc__round *r, uint32_t n) {
    return &r->xfers[v->osorted ? n : v->oby[n]];
}

/* ---- rounds of several pieces, in the orbit state ----
 * orbit_one() takes a round of one transfer from every node. The bidirectional ring's rounds
 * (stride.c at stride 1: every node sends one block each way) have two, and a round may have any
 * number p of them a node. Such a round is taken whole when its transfers fall into consecutive
 * pieces, piece j being M k_j transfers (M = N / s, s = ostride) of which the one k_j further on
 * is always this one moved by sigma: t[i + k] = sigma(t[i]) for every i of the piece but its last
 * k, sigma moving the sender by s as well as the receiver and the labels (orbit_next). Then the
 * piece is exactly {sigma^a(b) : b one of its first k transfers, 0 <= a < M} (induction on a),
 * and sigma^M is the identity (N nodes; M turn is a multiple of the part, which
 * oc__verifier_orbit_fits asks), so no transfer of it is missing or extra: the round is invariant
 * under sigma, as orbit_one's are, and so is the state after it. The senders of one orbit
 * {sigma^a(b)} are b's sender's class mod s, each once, so exactly one of them is in [0, s): the
 * round's transfers from nodes [0, s) (orep) are one an orbit, and applied as orbit_one's are
 * (moved by the sigma^-a that brings the receiver into [0, s)) they write every cell the whole
 * round writes, seen from [0, s). Two transfers of the round writing one cell (legal for two
 * reduces, a failure for a copy and anything) are two of them writing one cell of [0, s) (a cell
 * written by t and t' is moved by sigma^-a onto the one the orbits' representatives write), so a
 * cell written twice there makes the path decline and the plain path decide, as it does for a
 * receiver of [0, s) written by two transfers in orbit_one's rounds. The pieces are found as
 * rotation_round finds its own: k from the first transfer's image, then one pass comparing every
 * transfer with its image. Anything else (a transfer changed, moved, left out or added breaks a
 * chain) declines, and the round goes the plain way after omaterialize, which decides and names
 * it (tests/test_orbit_pieces.c: whole and broken rounds with the path on and off). */

/* Whether b is a moved by sigma, its sender s further on too. */
static int orbit_next(const oc__verifier *v, const oc__transfer *a, const oc__transfer *b) {
    const uint32_t N = v->spec->nodes;
    const uint64_t from = (uint64_t)a->src + v->ostride;
    return b->src == (from >= N ? from - N : from) && orbit_moves(v, a, b);
}

/* Whether round r is made of whole pieces (above); then orep lists its transfers from nodes
 * [0, s), one an orbit, and *units is the round's chunk-transfers. */
static int orbit_pieces(oc__verifier *v, const oc__round *r, uint64_t *units) {
    const uint32_t N = v->spec->nodes, S = v->ostride, M = N / S;
    const size_t n = r->count;
    const oc__transfer *x = r->xfers;
    v->orep_n = 0;
    if (v->pieces_off || M < 2 || n == 0 || n % M || n > UINT32_MAX) return 0;
    uint64_t u = 0;
    size_t reps = 0;
    for (size_t pos = 0; pos < n;) {
        const size_t most = (n - pos) / M; /* pos + most < n, as M >= 2 */
        size_t k = 1;
        while (k <= most && !orbit_next(v, &x[pos], &x[pos + k]))
            k++;
        if (k > most) return 0;
        const size_t end = pos + k * M;
        for (size_t i = pos; i < end; i++) {
            if (((i - pos) & 0xffff) == 0 && oc__stop_tick()) return 0; /* the plain path says */
            if (!transfer_ok(v, &x[i]) || (i + k < end && !orbit_next(v, &x[i], &x[i + k])))
                return 0;
            u += x[i].count;
            if (x[i].src >= S) continue;
            if (oc__grow((void **)&v->orep, &v->orep_cap, reps + 1, sizeof(uint32_t))) return 0;
            v->orep[reps++] = (uint32_t)i;
        }
        pos = end;
    }
    v->orep_n = reps;
    *units = u;
    return 1;
}

/* orbit_one's rounds, then rounds of several pieces (orep_n > 0 says which). */
static int orbit_symmetric(oc__verifier *v, uint64_t round, const oc__round *r, uint64_t *units) {
    v->orep_n = 0;
    return orbit_one(v, round, r, units) || orbit_pieces(v, r, units);
}

/* By cell, then by place in the round (qsort is not stable; the first write leads its group). */
static int owrite_cmp(const void *a, const void *b) {
    const owrite *x = a, *y = b;
    if (x->at != y->at) return (x->at > y->at) - (x->at < y->at);
    return (x->k > y->k) - (x->k < y->k);
}

void oc__verifier_pieces_off(oc__verifier *v, int off) {
    v->pieces_off = off;
}

uint64_t oc__verifier_orbit_rounds(const oc__verifier *v) {
    return v->orbit_rounds;
}

/* A round in the orbit state: 1 when checked and applied whole (*rc: 0 or the budget's
 * refusal), 0 when the plain path must take it. */
static int corbit_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why, size_t len,
                        int *rc) {
    const uint32_t N = v->spec->nodes, S = v->ostride;
    if (r->count != N || round >= UINT32_MAX - 1) return 0;
    const uint32_t stamp = (uint32_t)round + 1;
    uint64_t units;
    if (!orbit_one(v, round, r, &units)) return 0;
    /* the plain path's staging, asked for in the same words */
    if ((*rc = state_budget(v, (uint64_t)N * sizeof(pending), round, why, len))) {
        *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
        return 1;
    }
    /* read: every sender of [0, S) holds what it sends; each receiver of [0, S) gets one range */
    if (oc__grow((void **)&v->scope, &v->scope_cap, S, sizeof(pending))) return 0;
    for (uint32_t i = 0; i < S; i++) {
        const oc__transfer *t = orbit_from(v, r, i);
        const uint32_t a = t->dst / S, to = t->dst % S;
        uint32_t into;
        if (!oc__rangeset_contains(&v->orel[i], t->first, t->first + t->count) ||
            !orbit_labels(v, t->first, t->count, (uint64_t)(N / S - a), &into) ||
            v->ostamp[to] == stamp)
            return 0;
        v->ostamp[to] = stamp; /* each receiver once */
        v->scope[i] = (pending){to, {into, into + t->count}};
    }
    /* write, at the end of the round */
    for (uint32_t i = 0; i < S; i++) {
        uint64_t dup = 0;
        if (oc__rangeset_union(&v->orel[v->scope[i].dst], &v->scope[i].r, 1, &dup)) {
            *rc = nomem(v, round, why, len);
            return 1;
        }
        v->redundant += dup * (N / S);
    }
    *rc = 0;
    return 1;
}

/* An all-to-all's node n starts with chunk (d N + n) q .. + q for every destination d: N ranges
 * a node, N^2 in all (3 GiB on 20000 nodes), made when the node is first looked at rather than
 * up front, so that a file wrong from its first transfer, or with no rounds, is answered at once.
 * The state of every node was checked against the budget up front (a complete schedule touches
 * them all); here it is only counted. */
static int make_node(oc__verifier *v, uint32_t n) {
    if (!v->made || v->made[n]) return 0;
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, q = s->q;
    oc__range *rs = oc__malloc_array(N, sizeof(oc__range));
    if (!rs) return OC_ENOMEM;
    size_t k = 0;
    for (uint32_t d = 0; d < N; d++) {
        uint32_t a = (uint32_t)(((uint64_t)d * N + n) * q), b = a + q;
        if (a < v->lo) a = v->lo;
        if (b > v->hi) b = v->hi;
        if (a < b) rs[k++] = (oc__range){a, b};
    }
    const int rc = k ? oc__rangeset_union(&v->held[n], rs, k, NULL) : 0;
    free(rs);
    if (rc) return OC_ENOMEM;
    v->made[n] = 1;
    v->heap_bytes += (uint64_t)v->held[n].cap * sizeof(oc__range);
    return 0;
}

/* A caller's request to stop, heard inside a round of millions of transfers (core/progress.h),
 * at the transfer in position i. */
static int stopped(oc__verifier *v, uint64_t round, const oc__round *r, size_t i, char *why,
                   size_t len) {
    return at_key(v,
                  oc__fail(why, len, OC_ECANCELED, "cancelled inside round %llu",
                           (unsigned long long)round + 1),
                  round, OC__VK_CHECK, pos_of(r, i), 0);
}

static int copy_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why, size_t len) {
    const oc__spec *s = v->spec;
    int rc;
    if (v->uniform) {
        if (uniform_round(v, round, r, why, len, &rc)) return rc;
        if (rotation_round(v, round, r, why, len, &rc)) return rc;
        if (materialize(v)) return nomem(v, round, why, len);
    }
    if (!(r = oc__round_plain(r, &v->flat, &rc))) return nomem(v, round, why, len);
    if (v->corbit) {
        if (corbit_round(v, round, r, why, len, &rc)) return rc;
        if (omaterialize_sets(v)) return nomem(v, round, why, len);
    }
    const oc__transfer *x = r->xfers;
    /* The round's transfers inside the window, clipped to it, go to v->scope (for a whole
     * verifier: every transfer as it is). */
    rc = state_budget(v, (uint64_t)r->count * sizeof(pending), round, why, len);
    if (rc) return at_key(v, rc, round, OC__VK_BUDGET, 0, 0);
    if (oc__grow((void **)&v->scope, &v->scope_cap, r->count ? r->count : 1, sizeof(pending)))
        return nomem(v, round, why, len);
    pending *sc = v->scope;
    size_t n = 0;
    /* Read phase: every sender holds what it sends at the start of the round. Alongside, note
     * whether every destination appears once (stamping last_round) and whether the transfers
     * come sorted by destination and label. */
    int in_order = 1, distinct = 1;
    const uint64_t stamp = round + 1;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &x[i];
        uint32_t lo, hi;
        if (oc__stop_tick()) return stopped(v, round, r, i, why, len);
        if (!in_window(v, t, &lo, &hi)) continue;
        if (!transfer_ok(v, t) && (rc = check_transfer(v, round, t, why, len)))
            return at_key(v, rc, round, OC__VK_CHECK, pos_of(r, i), 0);
        if (make_node(v, t->src) || make_node(v, t->dst)) return nomem(v, round, why, len);
        if (!oc__rangeset_contains(&v->held[t->src], lo, hi)) {
            uint32_t c = oc__rangeset_first_missing(&v->held[t->src], lo, hi);
            char what[64];
            snprintf(what, sizeof what, "sends to node %u, before it has it,", t->dst);
            return at_key(v, fail_at(why, len, s, round, what, t->src, c), round, OC__VK_CHECK,
                          pos_of(r, i), c + 1);
        }
        if (v->last_round[t->dst] == stamp) distinct = 0;
        v->last_round[t->dst] = stamp;
        if (n && (sc[n - 1].dst > t->dst || (sc[n - 1].dst == t->dst && sc[n - 1].r.lo > lo)))
            in_order = 0;
        sc[n++] = (pending){t->dst, {lo, hi}};
    }
    /* Write phase, at the end of the round. Most rounds give every destination one range: then
     * each is added on its own. */
    if (distinct) {
        for (size_t i = 0; i < n; i++) {
            uint64_t dup = 0;
            const uint32_t cap = v->held[sc[i].dst].cap;
            if (oc__rangeset_union(&v->held[sc[i].dst], &sc[i].r, 1, &dup))
                return nomem(v, round, why, len);
            v->redundant += dup;
            if ((rc = held_grew(v, sc[i].dst, cap, round, why, len))) return rc;
        }
        return 0;
    }
    rc = state_budget(v, (uint64_t)n * (sizeof(pending) + sizeof(oc__range)), round, why, len);
    if (rc) return at_key(v, rc, round, OC__VK_BUDGET, 0, 0);
    if (oc__grow((void **)&v->sorted, &v->sorted_cap, n, sizeof(pending)))
        return nomem(v, round, why, len);
    pending *p = sc;
    if (!in_order) {
        /* Counting sort by destination (groups in order of first appearance), then insertion
         * order by label inside each destination. */
        p = v->sorted;
        for (size_t i = 0; i < n; i++)
            v->bucket[sc[i].dst]++;
        uint32_t sum = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t d = sc[i].dst;
            if (v->bucket[d] & 0x80000000u) continue;
            uint32_t c = v->bucket[d];
            v->bucket[d] = sum | 0x80000000u;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t d = sc[i].dst;
            uint32_t at = v->bucket[d] & 0x7fffffffu;
            p[at] = sc[i];
            v->bucket[d] = (at + 1) | 0x80000000u;
        }
        for (size_t i = 0; i < n; i++)
            v->bucket[sc[i].dst] = 0;
    }
    /* Apply one destination at a time. */
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j].dst == p[i].dst)
            j++;
        size_t m = j - i;
        if (oc__grow((void **)&v->merge, &v->merge_cap, m, sizeof(oc__range)))
            return nomem(v, round, why, len);
        /* Sorted by label: the ranges of one destination usually arrive sorted already (one
         * pass); otherwise qsort, never an insertion sort (a gather of 262k ranges in
         * descending order took 13 s). */
        int sorted = 1;
        for (size_t k = 0; k < m; k++) {
            v->merge[k] = p[i + k].r;
            if (k && v->merge[k - 1].lo > v->merge[k].lo) sorted = 0;
        }
        if (!sorted) qsort(v->merge, m, sizeof(oc__range), range_cmp);
        uint64_t dup = 0;
        const uint32_t cap = v->held[p[i].dst].cap;
        if (oc__rangeset_union(&v->held[p[i].dst], v->merge, m, &dup))
            return nomem(v, round, why, len);
        v->redundant += dup;
        if ((rc = held_grew(v, p[i].dst, cap, round, why, len))) return rc;
        i = j;
    }
    return 0;
}

/* ---- reductions ---- */

/* Adds a cell's change of heap bytes (it held `before`) to the verifier's total and refuses the
 * run, naming the round, once cells and range sets together pass the memory budget. */
static int heap_budget(oc__verifier *v, const cell *c, uint64_t before, uint64_t round, char *why,
                       size_t len) {
    v->heap_bytes += cell_heap_bytes(c) - before; /* modular: a freed set subtracts */
    const int rc = state_budget(v, 0, round, why, len);
    return rc ? at_key(v, rc, round, OC__VK_BUDGET, 0, 0) : 0;
}

/* The failure of a reduce t whose receiver carries node dup's contribution in chunk c already. */
static int counted_twice(oc__verifier *v, uint64_t round, const oc__transfer *t, uint64_t pos,
                         uint32_t c, uint32_t dup, char *why, size_t len) {
    char c2[96];
    oc__spec_describe_chunk(v->spec, c, c2, sizeof c2);
    return at_key(v,
                  oc__fail(why, len, OC_EVERIFY,
                           "round %llu: node %u counts the contribution of node %u twice in %s "
                           "(reduce from node %u)",
                           (unsigned long long)round, t->dst, dup, c2, t->src),
                  round, OC__VK_WRITE, pos, c);
}

/* Scratch buffer i with room for `need` intervals, or NULL when out of memory. */
static oc__range *scratch(oc__verifier *v, int i, uint64_t need) {
    if (need > SIZE_MAX / sizeof(oc__range) ||
        oc__grow((void **)&v->scratch[i], &v->scratch_cap[i], (size_t)need, sizeof(oc__range)))
        return NULL;
    return v->scratch[i];
}

/* The cell as a periodic set (progression.h); a prog's pattern is unpacked into scratch[i]. */
static int cell_view(oc__verifier *v, const cell *c, int i, oc__pset *x) {
    const uint32_t N = v->spec->nodes;
    if (cell_is_plain(c)) {
        x->S = N;
        x->iv = cell_intervals(c, &x->n);
    } else if (cell_is_heap(c)) {
        x->S = c->heap.period ? c->heap.period : N;
        x->iv = c->heap.set->iv;
        x->n = c->heap.set->n;
    } else {
        const oc__prog p = {c->w[0] & ~CELL_TAGGED, c->w[1], c->w[2], c->w[3]};
        oc__range *buf = scratch(v, i, (uint64_t)p.m + 1);
        if (!buf) return OC_ENOMEM;
        x->S = p.S;
        x->iv = buf;
        x->n = oc__prog_unpack(&p, buf);
    }
    return 0;
}

/* x written over period L (a multiple of x->S, or N), in scratch[i] when it must be lifted. */
static int cell_lift(oc__verifier *v, oc__pset *x, uint32_t L, int i) {
    if (x->S == L) return 0;
    oc__range *buf = scratch(v, i, (uint64_t)x->n * ((L + x->S - 1) / x->S) + 1);
    if (!buf) return OC_ENOMEM;
    x->n = oc__pset_lift(x, L, buf);
    x->iv = buf;
    x->S = L;
    return 0;
}

/* Replaces dst with a copy of src (any forms). */
static int cell_copy(oc__verifier *v, cell *dst, const cell *src) {
    if (!cell_is_heap(src)) {
        cell_free(dst);
        *dst = *src;
        return 0;
    }
    const uint32_t N = v->spec->nodes;
    return cell_assign(dst, N, src->heap.period ? src->heap.period : N, src->heap.set->iv,
                       src->heap.set->n, 0);
}

/* Stores the set of period S with pattern iv[0..n) in dst, first shortening the period where the
 * set repeats with a shorter one (unless the verifier keeps plain sets only). */
static int cell_store(oc__verifier *v, cell *dst, uint32_t S, oc__range *iv, uint32_t n) {
    if (v->periodic) oc__pset_reduce(v->spec->nodes, &S, iv, &n);
    /* a verifier that looks for no periods keeps plain lists only (the tests compare) */
    return cell_assign(dst, v->spec->nodes, S, iv, n, v->periodic);
}

/* dst := dst + add, for cells of any form: *dup receives the smallest node whose contribution
 * both carry (dst unchanged then), or UINT32_MAX. Both are written over a common period, where
 * the smallest shared value is the sets' smallest shared node. */
static int cell_reduce(oc__verifier *v, cell *dst, const cell *add, uint32_t *dup) {
    oc__pset a, b;
    int rc = cell_view(v, dst, 0, &a);
    if (!rc) rc = cell_view(v, add, 1, &b);
    const uint32_t L = rc ? 0 : oc__pset_common_period(a.S, b.S, v->spec->nodes);
    if (!rc) rc = cell_lift(v, &a, L, 2);
    if (!rc) rc = cell_lift(v, &b, L, 3);
    if (rc) return rc;
    *dup = oc__pset_first_common(a.iv, a.n, b.iv, b.n);
    if (*dup != UINT32_MAX) return 0;
    if (oc__grow((void **)&v->merge, &v->merge_cap, (size_t)a.n + b.n, sizeof(oc__range)))
        return OC_ENOMEM;
    const uint32_t k = oc__pset_union(a.iv, a.n, b.iv, b.n, v->merge);
    return cell_store(v, dst, L, v->merge, k);
}

/* The smallest node missing from the cell, or N. */
static int cell_first_missing(oc__verifier *v, const cell *c, uint32_t *m) {
    if (cell_is_plain(c)) { /* every chunk at the end of most runs: [0, N) */
        *m = c->iv[0].lo > 0 ? 0 : c->iv[0].hi < v->spec->nodes ? c->iv[0].hi : v->spec->nodes;
        return 0;
    }
    oc__pset x;
    const int rc = cell_view(v, c, 0, &x);
    if (!rc) *m = oc__pset_first_missing(&x, v->spec->nodes);
    return rc;
}

/* ---- the last sum, reused ----
 * A sum is a function of the two sets alone, and rhd's transfers carry w chunks whose sets are
 * all alike (each sender's and each receiver's), so the write phase keeps its last sum past the
 * plain fast path and reuses it while the next chunk brings the same two sets: the merge work is
 * then per transfer, not per chunk. Sets on the heap are compared by their intervals, up to
 * MEMO_MAX of them (a larger one is merged every time). */
#define MEMO_MAX 64

static int memo_small(const cell *c) {
    return !cell_is_heap(c) || c->heap.set->n <= MEMO_MAX;
}

static int memo_same(const cell *m, const cell *c) {
    if (cell_is_heap(m) != cell_is_heap(c)) return 0;
    if (!cell_is_heap(m)) /* word by word: a call to memcmp per chunk showed in profiles */
        return m->w[0] == c->w[0] && m->w[1] == c->w[1] && m->w[2] == c->w[2] && m->w[3] == c->w[3];
    const oc__rangeset *a = m->heap.set, *b = c->heap.set;
    return m->heap.period == c->heap.period && a->n == b->n &&
           !memcmp(a->iv, b->iv, a->n * sizeof *a->iv);
}

/* memo[i] := a copy of c. */
static int memo_keep(oc__verifier *v, int i, const cell *c) {
    v->memo[i] = *c;
    if (!cell_is_heap(c)) return 0;
    v->memo[i].heap.set = &v->memo_sets[i];
    return oc__rangeset_copy(&v->memo_sets[i], c->heap.set);
}

/* dst := the last sum when dst and add are its two sets: 1 if so (*rc: 0 or the failure). */
static int memo_reuse(oc__verifier *v, cell *dst, const cell *add, uint64_t held, uint64_t round,
                      char *why, size_t len, int *rc) {
    if (!v->memo_ok || !memo_same(&v->memo[0], dst) || !memo_same(&v->memo[1], add)) return 0;
    *rc = 0;
    if (!cell_is_heap(dst) && !cell_is_heap(&v->memo[2])) { /* inline to inline: no heap moves */
        *dst = v->memo[2];
        return 1;
    }
    *rc = cell_copy(v, dst, &v->memo[2]) ? nomem(v, round, why, len)
                                         : heap_budget(v, dst, held, round, why, len);
    return 1;
}

/* The first half of keeping a sum: memo[0] := the receiver's set before it (0 when it is too
 * large to keep, then the sum is not kept). */
static int memo_before(oc__verifier *v, const cell *dst, int *kept) {
    v->memo_ok = 0;
    *kept = memo_small(dst);
    return *kept ? memo_keep(v, 0, dst) : 0;
}

/* The second half: the sender's set and the result, when all are small enough. */
static int memo_after(oc__verifier *v, int kept, const cell *add, const cell *dst) {
    if (!kept || !memo_small(add) || !memo_small(dst)) return 0;
    int rc = memo_keep(v, 1, add);
    if (!rc) rc = memo_keep(v, 2, dst);
    v->memo_ok = !rc;
    return rc;
}

void oc__verifier_plain_sets(oc__verifier *v) {
    v->periodic = 0;
}

/* ---- uniform reductions ----
 * A reduction whose algorithm says its rounds are families of every node (oc__spec.families: the
 * ring all-reduce and reduce-scatter) starts the same at every node up to a turn: node n's cell
 * of label l is {n}, that is {0} turned by n. With w = C / N, the state stays so under a family
 * of width w (node k reduces or copies block (k - shift) mod N into node k + hop): sender k's
 * cells of the block are, relative to k, offsets [x_s, x_s + w) with x_s = ((N - shift) mod N) w,
 * the receiver's are [x_d, x_d + w) with x_d = x_s - hop w (mod C), and a sender's set seen from
 * its receiver is turned back by hop. So one cell per offset (offset[], C cells) stands for the
 * N x C cells, and a round is w merges, whatever N: the senders hold their block iff its offset
 * cells are not empty, a reduce counts no contribution twice iff each receiver's offset cell and
 * the sender's turned one are disjoint, and the destinations are N distinct nodes, each written
 * once. Only plain cells (two intervals) are kept this way; anything else (a set of more
 * intervals, a failure, a round that is not such a family, a round number past the stamps)
 * writes the N x C cells out first (rmaterialize, within the verifier's budget) and goes through
 * the plain path, which decides and names it. The flag is the algorithm's word for planning only
 * (one pass, not shards): nothing in a round is taken on trust. */

/* The cell turned by t (node z to z + t mod N) into *out as a plain cell; 0 when it needs more
 * than two intervals. */
static int cell_turn(const cell *c, uint32_t t, uint32_t N, cell *out) {
    uint32_t n;
    const oc__range *iv = cell_intervals(c, &n);
    oc__range p[4];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t a = (uint64_t)iv[i].lo + t, b = (uint64_t)iv[i].hi + t;
        if (a >= N)
            p[k++] = (oc__range){(uint32_t)(a - N), (uint32_t)(b - N)};
        else if (b <= N)
            p[k++] = (oc__range){(uint32_t)a, (uint32_t)b};
        else {
            p[k++] = (oc__range){(uint32_t)a, N};
            p[k++] = (oc__range){0, (uint32_t)(b - N)};
        }
    }
    /* sort (at most four) and join touching intervals */
    for (uint32_t i = 1; i < k; i++)
        for (uint32_t j = i; j > 0 && p[j - 1].lo > p[j].lo; j--) {
            const oc__range x = p[j];
            p[j] = p[j - 1];
            p[j - 1] = x;
        }
    uint32_t m = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (m && p[i].lo <= p[m - 1].hi) {
            if (p[i].hi > p[m - 1].hi) p[m - 1].hi = p[i].hi;
        } else {
            p[m++] = p[i];
        }
    }
    if (m > 2) return 0;
    *out = (cell){{{0, 0}, {0, 0}}};
    for (uint32_t i = 0; i < m; i++)
        out->iv[i] = p[i];
    return 1;
}

/* a + b into *out when both are plain, disjoint and the sum is two intervals at most; else 0. */
static int cell_add_plain(const cell *a, const cell *b, cell *out) {
    uint32_t an, bn;
    const oc__range *x = cell_intervals(a, &an), *y = cell_intervals(b, &bn);
    for (uint32_t i = 0; i < bn; i++)
        if (cell_first_present(a, y[i].lo, y[i].hi) < y[i].hi) return 0;
    oc__range o[4];
    uint32_t i1 = 0, i2 = 0, k = 0;
    while (i1 < an || i2 < bn) {
        const oc__range next = i2 >= bn || (i1 < an && x[i1].lo <= y[i2].lo) ? x[i1++] : y[i2++];
        if (k && next.lo <= o[k - 1].hi) {
            if (next.hi > o[k - 1].hi) o[k - 1].hi = next.hi;
        } else {
            o[k++] = next;
        }
    }
    if (k > 2) return 0;
    *out = (cell){{{0, 0}, {0, 0}}};
    for (uint32_t i = 0; i < k; i++)
        out->iv[i] = o[i];
    return 1;
}

/* The plain path's N x C cells, allocated for a state that leaves a compact form (uniform, or
 * orbit), their bytes in *bytes_out: within the budget, else OC_ETOOBIG with the budget's key. */
static int plain_cells(oc__verifier *v, uint64_t round, uint64_t *bytes_out, char *why,
                       size_t len) {
    const oc__spec *s = v->spec;
    const uint64_t cells = (uint64_t)s->nodes * s->chunks;
    char what[160];
    describe_run(s, what, sizeof what);
    if (cells > (UINT64_C(1) << 31))
        return at_key(v,
                      oc__fail(why, len, OC_ETOOBIG, "round %llu: %s needs %llu chunk states",
                               (unsigned long long)round, what, (unsigned long long)cells),
                      round, OC__VK_BUDGET, 0, 0);
    const uint64_t bytes = oc__verifier_state_bytes(s, s->chunks);
    *bytes_out = bytes;
    int rc = state_budget(v, bytes, round, why, len);
    if (rc) return at_key(v, rc, round, OC__VK_BUDGET, 0, 0);
    v->contrib = oc__calloc((size_t)cells, sizeof(cell));
    v->written = oc__calloc((size_t)cells, sizeof(uint32_t));
    if (!v->contrib || !v->written) return nomem(v, round, why, len);
    return 0;
}

/* Makes the N x C cells from offset[] and leaves the uniform state: within the budget, else
 * OC_ETOOBIG with the budget's key (the pipeline then shards the run). */
static int rmaterialize(oc__verifier *v, uint64_t round, char *why, size_t len) {
    if (!v->runiform) return 0;
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, C = s->chunks;
    uint64_t bytes = 0;
    int rc = plain_cells(v, round, &bytes, why, len);
    if (rc) return rc;
    for (uint32_t node = 0; node < N; node++) {
        const uint64_t turn = (uint64_t)node * v->uw % C;
        for (uint32_t l = 0; l < C; l++) {
            const uint32_t x = (uint32_t)((l + C - turn) % C);
            /* a turn of a plain cell is two intervals but where it splits a third: kept as
             * the plain path would keep it (cell_store) */
            if (!cell_turn(&v->offset[x], node, N, &v->contrib[(uint64_t)node * C + l])) {
                oc__range iv[4];
                uint32_t n;
                const oc__range *o = cell_intervals(&v->offset[x], &n);
                uint32_t k = 0;
                for (uint32_t i = 0; i < n; i++) {
                    const uint64_t a = (uint64_t)o[i].lo + node, b = (uint64_t)o[i].hi + node;
                    if (a >= N)
                        iv[k++] = (oc__range){(uint32_t)(a - N), (uint32_t)(b - N)};
                    else if (b <= N)
                        iv[k++] = (oc__range){(uint32_t)a, (uint32_t)b};
                    else {
                        iv[k++] = (oc__range){(uint32_t)a, N};
                        iv[k++] = (oc__range){0, (uint32_t)(b - N)};
                    }
                }
                qsort(iv, k, sizeof *iv, range_cmp);
                if (cell_store(v, &v->contrib[(uint64_t)node * C + l], N, iv, k))
                    return nomem(v, round, why, len);
            }
        }
    }
    v->base_bytes = bytes;
    v->width = C;
    v->runiform = 0;
    return 0;
}

/* A family round in the uniform reduction state: 1 when checked and applied whole (*rc: 0 or a
 * refusal), 0 when the plain path must take it (after rmaterialize). */
static int runiform_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why,
                          size_t len, int *rc) {
    const oc__spec *s = v->spec;
    const oc__family *f = &r->family;
    const uint32_t N = s->nodes, C = s->chunks, w = v->uw;
    if (!r->is_family || f->n != N || f->width != w || f->first != 0 || f->hop == 0 ||
        f->hop >= N || f->shift >= N || (f->op != OC_OP_COPY && f->op != OC_OP_REDUCE) ||
        round >= UINT32_MAX / 2 - 1)
        return 0;
    /* the plain path's staging, asked for in the same words */
    const uint64_t units = (uint64_t)N * w;
    if (units > v->staged_cap &&
        (*rc = state_budget(v, units * (sizeof(cell) + sizeof(oc__rangeset)), round, why, len))) {
        *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
        return 1;
    }
    const uint32_t xs = (uint32_t)((uint64_t)((N - f->shift) % N) * w);
    const uint32_t xd = (uint32_t)((xs + (uint64_t)(N - f->hop) * w) % C);
    for (uint32_t j = 0; j < w; j++) {
        const cell *from = &v->offset[xs + j];
        cell turned;
        if (cell_empty(from) || !cell_turn(from, N - f->hop, N, &turned)) return 0;
        if (f->op == OC_OP_COPY)
            v->unext[j] = turned;
        else if (!cell_add_plain(&v->offset[xd + j], &turned, &v->unext[j]))
            return 0;
    }
    memcpy(&v->offset[xd], v->unext, (size_t)w * sizeof(cell));
    *rc = 0;
    return 1;
}

/* ---- orbit reductions ----
 * A reduction whose algorithm states a symmetry (oc__spec.orbit_*: hring's, stride g) need not
 * keep every node's cells. Let s be the stride, P the part and t the turn, and sigma the map that
 * moves node n to n + s (mod N) and label p P + o to p P + (o + t) mod P. The all-reduce starts
 * invariant under sigma (node n's cell of every label is {n}, and sigma moves {n} to {n + s}); a
 * round invariant under sigma (the transfer of sender n + s is the transfer of sender n moved by
 * sigma) keeps it so. While it is, node a s + i's cell of label l is the cell of node i at label
 * sigma^-a(l) with every node moved by a s, so the cells of nodes [0, s) (s x C cells, ocell)
 * stand for the N x C, and a round is applied by its transfers from nodes [0, s) alone, each
 * moved by the sigma^-a that brings its receiver into [0, s): s transfers instead of N.
 *
 * Nothing is taken from the algorithm's word: every round is checked, in O(N), to have one
 * transfer from every node and to be invariant (each sender's transfer against its neighbour's
 * at stride s, around the whole ring, so sigma^(N/s) closes too), and its s applied transfers to
 * find every sender's chunks present, no contribution twice, each node of [0, s) written by one
 * transfer, and every cell two intervals at most. Anything else (a round that fails one of these, a
 * broken one included) writes the N x C cells out (omaterialize, within the verifier's budget, else
 * the pipeline shards the run) and goes through the plain path, which decides and names it as it
 * always did (tests/test_orbit.c holds both on whole and broken schedules). */

/* The plain cell c with every node moved by m (mod N) into dst: kept as the plain path would
 * keep it when the move splits an interval into a third (cell_store). */
static int cell_move_store(oc__verifier *v, const cell *c, uint32_t m, cell *dst) {
    const uint32_t N = v->spec->nodes;
    if (cell_turn(c, m, N, dst)) return 0;
    oc__range iv[4];
    uint32_t n, k = 0;
    const oc__range *o = cell_intervals(c, &n);
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t a = (uint64_t)o[i].lo + m, b = (uint64_t)o[i].hi + m;
        if (a >= N)
            iv[k++] = (oc__range){(uint32_t)(a - N), (uint32_t)(b - N)};
        else if (b <= N)
            iv[k++] = (oc__range){(uint32_t)a, (uint32_t)b};
        else {
            iv[k++] = (oc__range){(uint32_t)a, N};
            iv[k++] = (oc__range){0, (uint32_t)(b - N)};
        }
    }
    qsort(iv, k, sizeof *iv, range_cmp);
    *dst = (cell){{{0, 0}, {0, 0}}};
    return cell_store(v, dst, N, iv, k);
}

/* Makes the N x C cells from ocell[] and leaves the orbit state: within the budget, else
 * OC_ETOOBIG with the budget's key (the pipeline then shards the run). */
static int omaterialize(oc__verifier *v, uint64_t round, char *why, size_t len) {
    if (!v->orbit) return 0;
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, C = s->chunks, S = v->ostride;
    uint64_t bytes = 0;
    int rc = plain_cells(v, round, &bytes, why, len);
    if (rc) return rc;
    for (uint32_t node = 0; node < N; node++) {
        const uint32_t a = node / S, i = node % S;
        for (uint32_t l = 0; l < C; l++) {
            uint32_t from = l; /* sigma^-a(l) = sigma^(N/S - a)(l): sigma^(N/S) is the identity */
            orbit_labels(v, l, 1, (uint64_t)(N / S - a), &from);
            if (cell_move_store(v, &v->ocell[(uint64_t)i * C + from], a * S,
                                &v->contrib[(uint64_t)node * C + l]))
                return nomem(v, round, why, len);
        }
    }
    v->base_bytes = bytes;
    v->width = C;
    v->orbit = 0;
    return 0;
}

/* A round in the orbit state: 1 when checked and applied whole (*rc: 0 or a refusal), 0 when the
 * plain path must take it (after omaterialize). */
static int orbit_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why, size_t len,
                       int *rc) {
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, C = s->chunks, S = v->ostride;
    if (round >= UINT32_MAX / 2 - 1) return 0;
    const uint32_t stamp = (uint32_t)round + 1;
    uint64_t units;
    if (!orbit_symmetric(v, round, r, &units)) return 0;
    /* the plain path's staging, asked for in the same words */
    if (units > v->staged_cap &&
        (*rc = state_budget(v, units * (sizeof(cell) + sizeof(oc__rangeset)), round, why, len))) {
        *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
        return 1;
    }
    /* the round's transfers from nodes [0, S): one a node, or one an orbit (orep) */
    const size_t reps = v->orep_n ? v->orep_n : S;
    uint64_t base = 0; /* the cells they write */
    for (size_t i = 0; i < reps; i++)
        base += (v->orep_n ? &r->xfers[v->orep[i]] : orbit_from(v, r, (uint32_t)i))->count;
    if (base > v->onew_cap) {
        cell *nc = realloc(v->onew, base * sizeof(cell));
        if (nc) v->onew = nc;
        uint64_t *na = nc ? realloc(v->oat, base * sizeof(uint64_t)) : NULL;
        if (na) v->oat = na;
        if (!nc || !na) {
            *rc = nomem(v, round, why, len);
            return 1;
        }
        v->onew_cap = base;
    }
    size_t w = 0;
    for (size_t i = 0; i < reps; i++) {
        const oc__transfer *t = v->orep_n ? &r->xfers[v->orep[i]] : orbit_from(v, r, (uint32_t)i);
        /* moved by sigma^-a, a = dst / S, it goes from node src - a S to node dst mod S */
        const uint32_t a = t->dst / S, to = t->dst % S, back = N - a * S;
        const uint32_t P = v->opart, turn = (uint32_t)((uint64_t)(N / S - a) % P * v->oturn % P);
        const cell *from = &v->ocell[(uint64_t)t->src * C + t->first];
        /* one transfer into each of the nodes [0, S) a round (hring's, NE's): two writes of a
         * cell in a round, legal or not, are the plain path's to decide (rounds of several
         * pieces: checked per cell below) */
        if (!v->orep_n) {
            if (v->ostamp[to] == stamp) return 0;
            v->ostamp[to] = stamp;
        }
        for (uint32_t c = 0; c < t->count; c++) {
            /* sigma^-a = sigma^(N/S - a) of the label, inside its part */
            const uint32_t l = t->first + c, off = l % P;
            const uint64_t o = (uint64_t)off + turn;
            const uint64_t at = (uint64_t)to * C + (l - off) + (o >= P ? o - P : o);
            cell moved;
            if (!cell_is_plain(&from[c]) || cell_empty(&from[c]) ||
                !cell_turn(&from[c], back == N ? 0 : back, N, &moved))
                return 0;
            if (v->orep_n) { /* the sums once every write of the cell is known (below) */
                if (oc__grow((void **)&v->ocheck, &v->ocheck_cap, w + 1, sizeof(owrite))) return 0;
                v->ocheck[w] = (owrite){at, (uint32_t)w, t->op == OC_OP_REDUCE};
            } else if (t->op == OC_OP_REDUCE && !cell_add_plain(&v->ocell[at], &moved, &moved)) {
                return 0;
            }
            v->onew[w] = moved;
            v->oat[w++] = at;
        }
    }
    if (v->orep_n) {
        /* Rounds of several pieces: the writes grouped by cell. A cell written once takes the
         * write; a cell written by several reduces (the bidirectional ring's last
         * reduce-scatter round: both neighbours into one cell) their sum, which must count
         * no contribution twice, in any order (the plain path's verdict); a copy and another
         * write into one cell are the plain path's to name. */
        qsort(v->ocheck, w, sizeof(owrite), owrite_cmp);
        for (size_t g = 0; g < w;) {
            size_t e = g + 1;
            while (e < w && v->ocheck[e].at == v->ocheck[g].at)
                e++;
            const uint32_t first = v->ocheck[g].k;
            if (v->ocheck[g].reduce) {
                cell sum = v->ocell[v->ocheck[g].at];
                for (size_t j = g; j < e; j++)
                    if (!v->ocheck[j].reduce ||
                        !cell_add_plain(&sum, &v->onew[v->ocheck[j].k], &sum))
                        return 0;
                v->onew[first] = sum;
            } else if (e > g + 1) {
                return 0;
            }
            for (size_t j = g + 1; j < e; j++) /* the group's result is written once */
                v->oat[v->ocheck[j].k] = UINT64_MAX;
            g = e;
        }
    }
    v->orbit_rounds++;
    for (size_t k = 0; k < w; k++)
        if (v->oat[k] != UINT64_MAX) v->ocell[v->oat[k]] = v->onew[k];
    *rc = 0;
    return 1;
}

/* ---- digit orbit reductions ----
 * A mixed-radix all-reduce (rhd with P = N: oc__spec.digit_*) has a symmetry of its own, which
 * the stride orbit above cannot state: read every node and every label (C = N) as a number of k
 * digits, digit p of radix r_p, and let tau_x add x to both digit by digit, without carries
 * (digit p becomes (d_p + x_p) mod r_p). A level of radix r_p exchanges along digit p only:
 * node z sends to the nodes that differ from it in digit p alone, the labels of an aligned
 * block (the w_p-blocks of its group, w_p = r_0 ... r_{p-1}), and tau_x moves the transfer of z
 * to the transfer of tau_x(z), an aligned block to an aligned block. The all-reduce starts
 * invariant (node n's cell of every label is {n}, moved to {tau_x(n)}), and a round invariant
 * under every tau_x keeps it so: then node n's cell of label l is node 0's cell of label
 * l - n (digit-wise) with every node moved by tau_n. So node 0's C cells (dcell) stand for the
 * N x C, and a round is applied by the transfers into node 0 alone, each sender's cell read as
 * node 0's moved: O(C) cells a round instead of O(N C). At N = 65536 the plain cells are 4.3e9,
 * verified in 65536 / 128 shards; here 65536.
 *
 * What a move does to a set: membership in a set of period S = w_m (a place value; a set of
 * another period is first written over the least place value it divides, or N) depends on the
 * low m digits only, and tau_x acts on them as a bijection of [0, S) that depends on x mod S.
 * So the moved set has period S and its pattern is the old one moved: each pattern interval is
 * cut into maximal aligned blocks (w_q nodes, q <= m, starting at a multiple of w_q), a block
 * moves to the block that starts at tau_x of its start with its low q digits cleared, and the
 * blocks are sorted and joined. Exact, whatever the set; only slow for patterns of many blocks,
 * which are left to the plain path.
 *
 * Nothing is taken from the plan: each round is checked, in O(T) for its T transfers, to be the
 * transfers of node 0 moved by every tau_x: node 0's transfers have distinct receivers and each
 * carries an aligned block (w_q labels at a multiple of w_q); every transfer, moved back by its
 * sender, is one of node 0's with the same op, count and labels; no (sender, transfer of node
 * 0) pair comes twice, and there are N times as many transfers as node 0 has: the round is
 * exactly the union of node 0's moved by every tau_x. The transfers into node 0 are then applied
 * to its cells: every sender's chunk present, no contribution counted twice, a copy the only
 * write of its cell in the round; the new cells are made before any is written. Anything else
 * (a round that is not such a round, a broken one included) writes the N x C cells out
 * (dmaterialize, within the verifier's budget, else the pipeline shards the run) and goes
 * through the plain path, which decides and names it as it always did. By the symmetry, what
 * holds at node 0 holds at every node: a sender's chunk present at node 0's image is present at
 * the sender, a double count or a copy clash at node 0 is one at every node and none at node 0
 * is none anywhere (tests/test_digit_orbit.c holds both paths equal on whole and broken
 * schedules). */

/* The most blocks a moved pattern may have before the round is left to the plain path. */
#define DMOVE_MAX (1u << 16)

/* a + b digit by digit (a, b < N). */
static uint32_t dadd(const oc__verifier *v, uint32_t a, uint32_t b) {
    uint32_t out = 0;
    if (v->dpow2) {
        for (uint32_t p = 0; p < v->dk; p++) {
            const uint32_t m = v->dmask[p];
            out |= ((a & m) + (b & m)) & m;
        }
        return out;
    }
    for (uint32_t p = 0; p < v->dk; p++) {
        const uint32_t r = v->dr[p];
        const uint64_t d = (uint64_t)(a % r) + b % r;
        out += (uint32_t)(d >= r ? d - r : d) * v->dw[p];
        a /= r;
        b /= r;
    }
    return out;
}

/* a - b digit by digit (a, b < N). */
static uint32_t dsub(const oc__verifier *v, uint32_t a, uint32_t b) {
    uint32_t out = 0;
    if (v->dpow2) {
        for (uint32_t p = 0; p < v->dk; p++) {
            const uint32_t m = v->dmask[p];
            out |= ((a & m) - (b & m)) & m;
        }
        return out;
    }
    for (uint32_t p = 0; p < v->dk; p++) {
        const uint32_t r = v->dr[p], da = a % r, db = b % r;
        out += (da >= db ? da - db : da + r - db) * v->dw[p];
        a /= r;
        b /= r;
    }
    return out;
}

static int block_cmp(const void *a, const void *b) {
    const oc__range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The set c with every node moved by tau_x into *out (a cleared cell): 1 when made, 0 when its
 * pattern needs more than `cap` blocks (cap 0: no limit) or memory is short (*rc). */
static int cell_dmove(oc__verifier *v, const cell *c, uint32_t x, uint32_t cap, cell *out,
                      int *rc) {
    const uint32_t N = v->spec->nodes;
    *rc = 0;
    if (cell_is_plain(c) && c->iv[0].lo == 0 && c->iv[0].hi == N) { /* every node */
        *out = *c;
        return 1;
    }
    oc__pset ps;
    if ((*rc = cell_view(v, c, 0, &ps))) return 0;
    uint32_t m = 0; /* the least place value the period divides (w_k = N: any) */
    while (m < v->dk && v->dw[m] % ps.S)
        m++;
    const uint32_t L = v->dw[m];
    if (cap && (uint64_t)ps.n * (L / ps.S + 1) > cap) return 0;
    if ((*rc = cell_lift(v, &ps, L, 1))) return 0;
    const uint32_t xm = x % L;
    size_t k = 0;
    for (uint32_t i = 0; i < ps.n; i++)
        for (uint32_t a = ps.iv[i].lo; a < ps.iv[i].hi;) {
            uint32_t q = 0; /* the largest aligned block at a inside the interval */
            while (q < m && a % v->dw[q + 1] == 0 && (uint64_t)a + v->dw[q + 1] <= ps.iv[i].hi)
                q++;
            if ((cap && k >= cap) ||
                oc__grow((void **)&v->dblocks, &v->dblocks_cap, k + 1, sizeof(oc__range))) {
                *rc = cap && k >= cap ? 0 : OC_ENOMEM;
                return 0;
            }
            uint32_t start = dadd(v, a, xm);
            start -= start % v->dw[q];
            v->dblocks[k++] = (oc__range){start, start + v->dw[q]};
            a += v->dw[q];
        }
    qsort(v->dblocks, k, sizeof *v->dblocks, block_cmp);
    uint32_t n = 0;
    for (size_t i = 0; i < k; i++) {
        if (n && v->dblocks[i].lo <= v->dblocks[n - 1].hi) {
            if (v->dblocks[i].hi > v->dblocks[n - 1].hi) v->dblocks[n - 1].hi = v->dblocks[i].hi;
        } else {
            v->dblocks[n++] = v->dblocks[i];
        }
    }
    *out = (cell){{{0, 0}, {0, 0}}};
    if ((*rc = cell_store(v, out, L, v->dblocks, n))) {
        cell_free(out);
        return 0;
    }
    return 1;
}

/* Makes the N x C cells from dcell[] and leaves the digit orbit: within the budget, else
 * OC_ETOOBIG with the budget's key (the pipeline then shards the run). */
static int dmaterialize(oc__verifier *v, uint64_t round, char *why, size_t len) {
    if (!v->dorbit) return 0;
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, C = s->chunks;
    uint64_t bytes = 0;
    int rc = plain_cells(v, round, &bytes, why, len);
    if (rc) return rc;
    v->base_bytes = bytes;
    v->heap_bytes = 0;
    v->width = C;
    for (uint32_t node = 0; node < N; node++)
        for (uint32_t l = 0; l < C; l++) {
            cell *to = &v->contrib[(uint64_t)node * C + l];
            if (!cell_dmove(v, &v->dcell[dsub(v, l, node)], node, 0, to, &rc))
                return nomem(v, round, why, len);
            v->heap_bytes += cell_heap_bytes(to);
        }
    for (uint32_t l = 0; l < C; l++)
        cell_free(&v->dcell[l]);
    v->dorbit = 0;
    rc = state_budget(v, 0, round, why, len);
    return rc ? at_key(v, rc, round, OC__VK_BUDGET, 0, 0) : 0;
}

/* Frees the first n of a round's new cells (a round given up, or written). */
static void dnew_drop(oc__verifier *v, size_t n) {
    for (size_t k = 0; k < n; k++)
        cell_free(&v->dnew[k]);
}

/* Whether node 0's round transfer z carries an aligned block: w_q labels at a multiple of w_q. */
static int aligned_block(const oc__verifier *v, const oc__transfer *z) {
    uint32_t q = 0;
    while (q < v->dk && v->dw[q] < z->count)
        q++;
    return v->dw[q] == z->count && z->first % z->count == 0;
}

/* Whether the round is node 0's transfers moved by every tau_x (the essay's check). The
 * transfers from node 0 are listed in dfrom0 (*n0 of them), those into it in dinto0 (*nin). */
static int dorbit_symmetric(oc__verifier *v, uint32_t stamp, const oc__round *r, size_t *n0,
                            size_t *nin) {
    const uint32_t N = v->spec->nodes;
    *n0 = *nin = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (!transfer_ok(v, t)) return 0;
        if (t->src == 0) {
            if (v->dstamp[t->dst] == stamp || !aligned_block(v, t) ||
                oc__grow((void **)&v->dfrom0, &v->dfrom0_cap, *n0 + 1, sizeof(uint32_t)))
                return 0;
            v->dstamp[t->dst] = stamp;
            v->dslot[t->dst] = (uint32_t)*n0;
            v->dfrom0[(*n0)++] = (uint32_t)i;
        }
        if (t->dst == 0) {
            if (oc__grow((void **)&v->dinto0, &v->dinto0_cap, *nin + 1, sizeof(uint32_t))) return 0;
            v->dinto0[(*nin)++] = (uint32_t)i;
        }
    }
    if (!*n0 || r->count != (uint64_t)N * *n0) return 0;
    const size_t words = (r->count + 63) / 64;
    if (oc__grow((void **)&v->dbits, &v->dbits_cap, words, sizeof(uint64_t))) return 0;
    memset(v->dbits, 0, words * sizeof(uint64_t));
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        const uint32_t x = t->src, y = dsub(v, t->dst, x);
        if (v->dstamp[y] != stamp) return 0;
        const uint32_t e = v->dslot[y];
        const oc__transfer *z = &r->xfers[v->dfrom0[e]];
        if (z->op != t->op || z->count != t->count || t->first % t->count) return 0;
        if (x) {
            uint32_t back = dsub(v, t->first, x);
            back -= back % t->count;
            if (back != z->first) return 0;
        }
        const uint64_t bit = (uint64_t)x * *n0 + e;
        if (v->dbits[bit / 64] >> (bit % 64) & 1) return 0;
        v->dbits[bit / 64] |= UINT64_C(1) << (bit % 64);
    }
    return 1;
}

/* A round in the digit orbit: 1 when checked and applied whole (*rc: 0 or a refusal), 0 when the
 * plain path must take it (after dmaterialize). */
static int dorbit_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why, size_t len,
                        int *rc) {
    if (round >= UINT32_MAX / 2 - 1) return 0;
    const uint32_t stamp = (uint32_t)round + 1, wst = stamp * 2;
    size_t n0, nin;
    if (!dorbit_symmetric(v, stamp, r, &n0, &nin)) return 0;
    uint64_t units = 0;
    for (size_t j = 0; j < nin; j++)
        units += r->xfers[v->dinto0[j]].count;
    if (units > v->dnew_cap) {
        cell *nc = realloc(v->dnew, units * sizeof(cell));
        if (nc) v->dnew = nc;
        uint32_t *na = nc ? realloc(v->dat, units * sizeof(uint32_t)) : NULL;
        if (na) v->dat = na;
        if (!nc || !na) {
            *rc = nomem(v, round, why, len);
            return 1;
        }
        v->dnew_cap = units;
    }
    size_t u = 0;
    for (size_t j = 0; j < nin; j++) {
        const oc__transfer *t = &r->xfers[v->dinto0[j]];
        const int is_copy = t->op == OC_OP_COPY;
        for (uint32_t c = t->first; c < t->first + t->count; c++) {
            const cell *from = &v->dcell[dsub(v, c, t->src)]; /* the sender's, seen from 0 */
            cell moved;
            int mrc = 0;
            if (cell_empty(from) || !cell_dmove(v, from, t->src, DMOVE_MAX, &moved, &mrc))
                goto plain;
            uint32_t dup = UINT32_MAX;
            if (v->dwritten[c] >= wst) { /* the cell's second write in the round */
                if (is_copy || (v->dwritten[c] & 1) ||
                    cell_reduce(v, &v->dnew[v->dpend[c]], &moved, &dup) || dup != UINT32_MAX) {
                    cell_free(&moved);
                    goto plain;
                }
                cell_free(&moved);
                continue;
            }
            v->dnew[u] = (cell){{{0, 0}, {0, 0}}};
            if (is_copy) {
                v->dnew[u] = moved;
            } else {
                const int bad = cell_copy(v, &v->dnew[u], &v->dcell[c]) ||
                                cell_reduce(v, &v->dnew[u], &moved, &dup) || dup != UINT32_MAX;
                cell_free(&moved);
                if (bad) {
                    cell_free(&v->dnew[u]);
                    goto plain;
                }
            }
            v->dwritten[c] = wst | (uint32_t)is_copy;
            v->dpend[c] = (uint32_t)u;
            v->dat[u++] = c;
        }
    }
    for (size_t k = 0; k < u; k++) {
        cell *to = &v->dcell[v->dat[k]];
        const uint64_t held = cell_heap_bytes(to);
        cell_free(to);
        *to = v->dnew[k];
        v->heap_bytes += cell_heap_bytes(to) - held; /* modular: a freed set subtracts */
    }
    *rc = state_budget(v, 0, round, why, len);
    if (*rc) *rc = at_key(v, *rc, round, OC__VK_BUDGET, 0, 0);
    return 1;
plain:
    dnew_drop(v, u);
    return 0;
}

static int reduce_round(oc__verifier *v, uint64_t round, const oc__round *r, char *why,
                        size_t len) {
    const oc__spec *s = v->spec;
    const uint64_t W = v->hi - v->lo; /* the window's width: cells are node * W + (c - lo) */
    const uint32_t base = v->lo;
    int rc;
    if (v->runiform) {
        if (runiform_round(v, round, r, why, len, &rc)) return rc;
        if ((rc = rmaterialize(v, round, why, len))) return rc;
    }
    if (!(r = oc__round_plain(r, &v->flat, &rc))) return nomem(v, round, why, len);
    if (v->orbit) {
        if (orbit_round(v, round, r, why, len, &rc)) return rc;
        if ((rc = omaterialize(v, round, why, len))) return rc;
    }
    if (v->dorbit) {
        if (dorbit_round(v, round, r, why, len, &rc)) return rc;
        if ((rc = dmaterialize(v, round, why, len))) return rc;
    }
    size_t units = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        uint32_t lo, hi;
        if (oc__stop_tick()) return stopped(v, round, r, i, why, len);
        if (!in_window(v, t, &lo, &hi)) continue;
        if (!transfer_ok(v, t) && (rc = check_transfer(v, round, t, why, len)))
            return at_key(v, rc, round, OC__VK_CHECK, pos_of(r, i), 0);
        units += hi - lo;
    }
    if (round >= UINT32_MAX / 2 - 1)
        return at_key(v,
                      oc__fail(why, len, OC_ETOOBIG, "round %llu: too many rounds to verify",
                               (unsigned long long)round),
                      round, OC__VK_ROUNDS, 0, 0);
    if (units > v->staged_cap) {
        /* the round's staging is counted before it is made: a small file can name a huge one */
        rc = state_budget(v, (uint64_t)units * (sizeof(cell) + sizeof(oc__rangeset)), round, why,
                          len);
        if (rc) return at_key(v, rc, round, OC__VK_BUDGET, 0, 0);
        cell *nc = realloc(v->staged, units * sizeof(cell));
        if (!nc) return nomem(v, round, why, len);
        v->staged = nc;
        v->staged_cap = units;
    }
    /* Read phase: what each sender holds at the start of the round. An inline cell is copied as
     * it is; a cell on the heap is copied into staged_sets[u], which the round reuses. */
    size_t u = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        uint32_t lo, hi;
        if (!in_window(v, t, &lo, &hi)) continue;
        const cell *row = &v->contrib[(uint64_t)t->src * W];
        /* The write phase will touch the receiver's cells: ask for them now, so that their
         * misses overlap (ring all-reduce's receivers walk a diagonal no prefetcher follows). */
        prefetch(&v->contrib[(uint64_t)t->dst * W + (lo - base)]);
        prefetch(&v->written[(uint64_t)t->dst * W + (lo - base)]);
        for (uint32_t c = lo; c < hi; c++, u++) {
            const cell *src = &row[c - base];
            if (cell_empty(src)) {
                char what[64];
                snprintf(what, sizeof what, "sends to node %u, before it has it,", t->dst);
                return at_key(v, fail_at(why, len, s, round, what, t->src, c), round, OC__VK_READ,
                              pos_of(r, i), c);
            }
            v->staged[u] = *src;
            if (cell_is_heap(src)) {
                if (u >= v->sets_cap) {
                    oc__rangeset *ns = realloc(v->staged_sets, units * sizeof(oc__rangeset));
                    if (!ns) return nomem(v, round, why, len);
                    memset(ns + v->sets_cap, 0, (units - v->sets_cap) * sizeof(oc__rangeset));
                    for (size_t k = 0; k < u; k++) /* the round's earlier ones moved with it */
                        if (cell_is_heap(&v->staged[k])) v->staged[k].heap.set = &ns[k];
                    v->staged_sets = ns;
                    v->sets_cap = units;
                }
                if (oc__rangeset_copy(&v->staged_sets[u], src->heap.set))
                    return nomem(v, round, why, len);
                v->staged[u].heap.set = &v->staged_sets[u];
            }
        }
    }
    /* Write phase. Reduces into one chunk commute with each other; a copy commutes with nothing. */
    u = 0;
    const uint32_t stamp = (uint32_t)(round + 1) * 2;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        uint32_t lo, hi;
        if (!in_window(v, t, &lo, &hi)) continue;
        const uint64_t pos = pos_of(r, i);
        for (uint32_t c = lo; c < hi; c++, u++) {
            uint64_t at = (uint64_t)t->dst * W + (c - base);
            cell *dst = &v->contrib[at];
            int is_copy = t->op == OC_OP_COPY;
            if (v->written[at] >= stamp && (is_copy || (v->written[at] & 1))) {
                char what[96];
                snprintf(what, sizeof what,
                         "receives a copy and another write in one round (from node %u) of",
                         t->src);
                return at_key(v, fail_at(why, len, s, round, what, t->dst, c), round, OC__VK_WRITE,
                              pos, c);
            }
            v->written[at] = stamp | (uint32_t)is_copy;
            const cell *staged = &v->staged[u];
            if (is_copy && !cell_is_heap(dst) && !cell_is_heap(staged)) {
                *dst = *staged; /* inline to inline: what cell_assign would store */
                continue;
            }
            const uint64_t held = cell_heap_bytes(dst);
            if (is_copy) {
                if (cell_copy(v, dst, staged)) return nomem(v, round, why, len);
                if ((rc = heap_budget(v, dst, held, round, why, len))) return rc;
                continue;
            }
            if (!cell_is_plain(dst) || !cell_is_plain(staged)) { /* a periodic or heap set */
                if (memo_reuse(v, dst, staged, held, round, why, len, &rc)) {
                    if (rc) return rc;
                    continue;
                }
                int kept; /* the receiver's set is kept before the sum rewrites it */
                if (memo_before(v, dst, &kept)) return nomem(v, round, why, len);
                uint32_t dup;
                if (cell_reduce(v, dst, staged, &dup)) return nomem(v, round, why, len);
                if (dup != UINT32_MAX) return counted_twice(v, round, t, pos, c, dup, why, len);
                if ((rc = heap_budget(v, dst, held, round, why, len))) return rc;
                if (memo_after(v, kept, staged, dst)) return nomem(v, round, why, len);
                continue;
            }
            uint32_t an;
            const oc__range *add = cell_intervals(staged, &an);
            for (uint32_t k = 0; k < an; k++) {
                uint32_t dup = cell_first_present(dst, add[k].lo, add[k].hi);
                if (dup < add[k].hi) return counted_twice(v, round, t, pos, c, dup, why, len);
            }
            /* An inline cell: merge its intervals with the added ones (disjoint from them, as
             * checked above), joining those that touch, then store the result. */
            uint32_t dn;
            const oc__range *have = cell_intervals(dst, &dn);
            /* two and two intervals merge on the stack; more (a heap cell's copy) in v->merge */
            oc__range out[4], *o = out;
            uint32_t i1 = 0, i2 = 0, k = 0;
            if (dn + an > 4) {
                if (oc__grow((void **)&v->merge, &v->merge_cap, (size_t)dn + an, sizeof(oc__range)))
                    return nomem(v, round, why, len);
                o = v->merge;
            }
            while (i1 < dn || i2 < an) {
                oc__range next;
                if (i2 >= an || (i1 < dn && have[i1].lo <= add[i2].lo))
                    next = have[i1++];
                else
                    next = add[i2++];
                if (k > 0 && next.lo <= o[k - 1].hi) {
                    if (next.hi > o[k - 1].hi) o[k - 1].hi = next.hi;
                } else {
                    o[k++] = next;
                }
            }
            if (k <= 2) { /* stays inline: no heap bytes change hands */
                dst->iv[0] = o[0];
                dst->iv[1] = k == 2 ? o[1] : (oc__range){0, 0};
                continue;
            }
            /* more than two intervals: a strided set on its way (rhd's upper levels), the same
             * for every chunk of the transfer */
            if (memo_reuse(v, dst, staged, held, round, why, len, &rc)) {
                if (rc) return rc;
                continue;
            }
            int kept;
            if (memo_before(v, dst, &kept)) return nomem(v, round, why, len);
            if (cell_store(v, dst, s->nodes, o, k)) return nomem(v, round, why, len);
            if ((rc = heap_budget(v, dst, held, round, why, len))) return rc;
            if (memo_after(v, kept, staged, dst)) return nomem(v, round, why, len);
        }
    }
    return 0;
}

static int verifier_round(oc__sink *self, uint64_t index, const oc__round *r, char *why,
                          size_t len) {
    oc__verifier *v = (oc__verifier *)self;
    return v->reduces ? reduce_round(v, index, r, why, len) : copy_round(v, index, r, why, len);
}

/* ---- initial and final states ---- */

int oc__verify_key_cmp(const oc__verify_key *a, const oc__verify_key *b) {
    if (a->round != b->round) return a->round < b->round ? -1 : 1;
    if (a->phase != b->phase) return a->phase < b->phase ? -1 : 1;
    if (a->pos != b->pos) return a->pos < b->pos ? -1 : 1;
    if (a->chunk != b->chunk) return a->chunk < b->chunk ? -1 : 1;
    return 0;
}

uint64_t oc__verifier_state_bytes(const oc__spec *s, uint32_t chunks) {
    const uint64_t N = s->nodes;
    if (oc_collective_reduces(s->coll)) return N * chunks * (sizeof(cell) + sizeof(uint32_t));
    const uint64_t ranges = s->coll == OC_ALLTOALL ? N * N : N;
    return N * (sizeof(oc__rangeset) + sizeof(uint32_t) + sizeof(uint64_t)) +
           ranges * sizeof(oc__range);
}

/* Whether the spec states a usable digit symmetry (oc__spec.digit_*): an all-reduce of C = N
 * labels, radices >= 2 whose product is N. */
static int digit_orbit_stated(const oc__spec *s) {
    if (s->coll != OC_ALLREDUCE || s->families || s->nodes < 2 || s->chunks != s->nodes ||
        s->digit_levels < 1 || s->digit_levels > 32)
        return 0;
    uint64_t prod = 1;
    for (uint32_t p = 0; p < s->digit_levels; p++) {
        if (s->digit_radix[p] < 2) return 0;
        prod *= s->digit_radix[p];
        if (prod > s->nodes) return 0;
    }
    return prod == s->nodes;
}

uint64_t oc__verifier_orbit_bytes(const oc__spec *s) {
    if (digit_orbit_stated(s)) /* node 0's cells, stamps and slots; per node two words */
        return (uint64_t)s->chunks * (sizeof(cell) + 2 * sizeof(uint32_t)) +
               (uint64_t)s->nodes * 2 * sizeof(uint32_t);
    return (uint64_t)s->orbit_stride * (s->chunks * sizeof(cell) + sizeof(uint32_t)) +
           (uint64_t)s->nodes * 2 * sizeof(uint32_t);
}

int oc__verifier_orbit_fits(const oc__spec *s, uint64_t budget) {
    if (digit_orbit_stated(s)) return oc__verifier_orbit_bytes(s) <= budget;
    const uint32_t N = s->nodes, S = s->orbit_stride, P = s->orbit_part;
    return s->coll == OC_ALLREDUCE && !s->families && N >= 2 && S >= 1 && S < N && N % S == 0 &&
           P >= 1 && s->chunks % P == 0 && (uint64_t)(N / S) * s->orbit_turn % P == 0 &&
           oc__verifier_orbit_bytes(s) <= budget;
}

int oc__verifier_new(const oc__spec *s, oc__verifier **out, char *why, size_t len) {
    return oc__verifier_new_window(s, 0, s->chunks, oc__memory_budget(), out, why, len);
}

/* Adds [lo, hi) clipped to the verifier's window to node n's held set. */
static int hold(oc__verifier *v, uint32_t n, uint32_t lo, uint32_t hi) {
    if (lo < v->lo) lo = v->lo;
    if (hi > v->hi) hi = v->hi;
    if (lo >= hi) return 0;
    oc__range one = {lo, hi};
    return oc__rangeset_union(&v->held[n], &one, 1, NULL);
}

/* A reduction's initial state in the window: every node holds its own contribution. */
static void start_cells(oc__verifier *v) {
    const uint64_t W = v->hi - v->lo;
    for (uint32_t n = 0; n < v->spec->nodes; n++)
        for (uint64_t c = 0; c < W; c++)
            v->contrib[n * W + c] = (cell){{{n, n + 1}, {0, 0}}};
}

int oc__verifier_reuse(oc__verifier *v, uint32_t lo, uint32_t hi) {
    if (!v->reduces || lo >= hi || hi > v->spec->chunks || hi - lo > v->width) return OC_EINVAL;
    const uint64_t held = (uint64_t)v->spec->nodes * (v->hi - v->lo);
    for (uint64_t i = 0; i < held; i++)
        if (cell_is_heap(&v->contrib[i])) cell_free(&v->contrib[i]);
    for (size_t i = 0; i < v->sets_cap; i++)
        oc__rangeset_free(&v->staged_sets[i]);
    free(v->staged_sets);
    free(v->staged);
    v->staged_sets = NULL, v->staged = NULL, v->staged_cap = 0, v->sets_cap = 0;
    v->memo_ok = 0; /* the last sum was another window's */
    v->lo = lo, v->hi = hi;
    v->redundant = 0;
    v->key = (oc__verify_key){0, OC__VK_SOURCE, 0, 0};
    v->base_bytes = oc__verifier_state_bytes(v->spec, hi - lo);
    v->heap_bytes = 0;
    start_cells(v);
    memset(v->written, 0, (size_t)v->spec->nodes * (hi - lo) * sizeof(uint32_t));
    return 0;
}

int oc__verifier_new_window(const oc__spec *s, uint32_t lo, uint32_t hi, uint64_t budget,
                            oc__verifier **out, char *why, size_t len) {
    *out = NULL;
    int rc = oc__spec_check_labels(s, why, len);
    if (rc) return rc;
    if (lo >= hi || hi > s->chunks)
        return oc__fail(why, len, OC_EINVAL, "internal: verifier window [%u, %u) outside 0..%u", lo,
                        hi, s->chunks);
    oc__verifier *v = calloc(1, sizeof *v);
    if (!v) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    v->sink.round = verifier_round;
    v->sink.takes_family = 1;
    v->spec = s;
    v->lo = lo;
    v->hi = hi;
    v->budget = budget;
    v->reduces = oc_collective_reduces(s->coll);
    v->periodic = 1;
    const uint32_t N = s->nodes, q = s->q, W = hi - lo;
    char what[120];
    describe_run(s, what, sizeof what);
    if (W < s->chunks) {
        const size_t n = strlen(what);
        snprintf(what + n, sizeof what - n, " (chunks %u..%u)", lo, hi - 1);
    }
    if (v->reduces && s->families && lo == 0 && hi == s->chunks && N >= 2 && s->chunks % N == 0 &&
        (s->coll == OC_ALLREDUCE ||
         (s->coll == OC_REDUCESCATTER && !s->block_node && s->q * N == s->chunks))) {
        /* uniform: one cell per offset; the N x C cells only if a round needs them */
        v->uw = s->chunks / N;
        v->base_bytes = (uint64_t)s->chunks * sizeof(cell) + (uint64_t)v->uw * sizeof(cell);
        if ((rc = oc__budget_check(v->base_bytes, what, why, len))) {
            free(v);
            return rc;
        }
        v->offset = oc__calloc(s->chunks, sizeof(cell));
        v->unext = oc__calloc(v->uw, sizeof(cell));
        if (!v->offset || !v->unext) goto nomem;
        for (uint32_t x = 0; x < s->chunks; x++)
            v->offset[x] = (cell){{{0, 1}, {0, 0}}}; /* every node its own: {0} turned by n */
        v->runiform = 1;
        v->width = 0; /* not reusable as a shard's */
    } else if (v->reduces && digit_orbit_stated(s) && oc__verifier_orbit_fits(s, budget) &&
               lo == 0 && hi == s->chunks) {
        /* the digit orbit: node 0's cells; the N x C only if a round needs them */
        const uint32_t C = s->chunks;
        v->dk = s->digit_levels;
        v->dw[0] = 1;
        v->dpow2 = 1;
        for (uint32_t p = 0; p < v->dk; p++) {
            v->dr[p] = s->digit_radix[p];
            v->dw[p + 1] = v->dw[p] * v->dr[p];
            v->dpow2 &= (v->dr[p] & (v->dr[p] - 1)) == 0;
            v->dmask[p] = (v->dr[p] - 1) * v->dw[p];
        }
        v->base_bytes = oc__verifier_orbit_bytes(s);
        if ((rc = oc__budget_check(v->base_bytes, what, why, len))) {
            free(v);
            return rc;
        }
        v->dcell = oc__calloc(C, sizeof(cell));
        v->dwritten = oc__calloc(C, sizeof(uint32_t));
        v->dpend = oc__calloc(C, sizeof(uint32_t));
        v->dslot = oc__calloc(N, sizeof(uint32_t));
        v->dstamp = oc__calloc(N, sizeof(uint32_t));
        if (!v->dcell || !v->dwritten || !v->dpend || !v->dslot || !v->dstamp) goto nomem;
        for (uint32_t l = 0; l < C; l++) /* node 0's own; node n's is it moved by tau_n */
            v->dcell[l] = (cell){{{0, 1}, {0, 0}}};
        v->dorbit = 1;
        v->width = 0; /* not reusable as a shard's */
    } else if (v->reduces && oc__verifier_orbit_fits(s, budget) && lo == 0 && hi == s->chunks) {
        /* the orbit: the cells of orbit_stride nodes; the N x C only if a round needs them */
        const uint32_t S = s->orbit_stride, C = s->chunks;
        v->ostride = S, v->opart = s->orbit_part, v->oturn = s->orbit_turn;
        v->oturn1 = s->orbit_turn % s->orbit_part;
        v->base_bytes = oc__verifier_orbit_bytes(s);
        if ((rc = oc__budget_check(v->base_bytes, what, why, len))) {
            free(v);
            return rc;
        }
        v->ocell = oc__malloc_array((uint64_t)S * C, sizeof(cell));
        v->ostamp = oc__calloc(S, sizeof(uint32_t));
        v->oseen = oc__calloc(N, sizeof(uint32_t));
        v->oby = oc__calloc(N, sizeof(uint32_t));
        if (!v->ocell || !v->ostamp || !v->oseen || !v->oby) goto nomem;
        for (uint32_t i = 0; i < S; i++) /* node i's own; node a S + i's is it moved by a S */
            for (uint32_t l = 0; l < C; l++)
                v->ocell[(uint64_t)i * C + l] = (cell){{{i, i + 1}, {0, 0}}};
        v->orbit = 1;
        v->width = 0; /* not reusable as a shard's */
    } else if (v->reduces) {
        uint64_t cells = (uint64_t)N * W;
        if (cells > (UINT64_C(1) << 31)) {
            free(v);
            return oc__fail(why, len, OC_ETOOBIG, "%s needs %llu chunk states", what,
                            (unsigned long long)cells);
        }
        /* The cells themselves: refused up front when they alone pass the budget. */
        v->base_bytes = oc__verifier_state_bytes(s, W);
        if (v->base_bytes > budget && budget < oc__memory_budget()) {
            char need[32], have[32];
            oc__format_bytes(need, sizeof need, v->base_bytes);
            oc__format_bytes(have, sizeof have, budget);
            free(v);
            return oc__fail(why, len, OC_ETOOBIG,
                            "%s needs %s, more than its share %s of the memory budget (set "
                            "OPTICOLL_MEMORY_BUDGET_MIB)",
                            what, need, have);
        }
        if ((rc = oc__budget_check(v->base_bytes, what, why, len))) {
            free(v);
            return rc;
        }
        v->contrib = oc__calloc((size_t)cells, sizeof(cell));
        v->written = oc__calloc((size_t)cells, sizeof(uint32_t));
        if (!v->contrib || !v->written) goto nomem;
        v->width = W;
        start_cells(v);
    } else {
        /* The nodes' range sets and their scratch, and the ranges they start with (an
         * all-to-all's N per node): checked up front, then counted as allocated (heap_bytes). */
        const uint64_t start = oc__verifier_state_bytes(s, W);
        v->base_bytes = (uint64_t)N * (sizeof(oc__rangeset) + sizeof(uint32_t) + sizeof(uint64_t));
        /* Against this verifier's share as well as the whole budget, as the cells above: the
         * round-0 check (state_budget) would refuse the same state, but only after it was made
         * (an all-to-all's N^2 ranges: 2 GiB on 16384 nodes). */
        if (start > budget && budget < oc__memory_budget()) {
            char need[32], have[32];
            oc__format_bytes(need, sizeof need, start);
            oc__format_bytes(have, sizeof have, budget);
            free(v);
            return oc__fail(why, len, OC_ETOOBIG,
                            "%s needs %s, more than its share %s of the memory budget (set "
                            "OPTICOLL_MEMORY_BUDGET_MIB)",
                            what, need, have);
        }
        if ((rc = oc__budget_check(start, what, why, len))) {
            free(v);
            return rc;
        }
        v->held = oc__calloc(N, sizeof(oc__rangeset));
        v->bucket = oc__calloc(N, sizeof(uint32_t));
        v->last_round = oc__calloc(N, sizeof(uint64_t));
        if (!v->held || !v->bucket || !v->last_round) goto nomem;
        switch (s->coll) {
        case OC_BROADCAST:
        case OC_SCATTER:
            if (hold(v, s->root, 0, s->chunks)) goto nomem;
            break;
        case OC_ALLTOALL: /* each node's N ranges when it is first looked at (make_node) */
            if (!(v->made = oc__calloc(N, 1))) goto nomem;
            break;
        default: /* allgather, gossip, gather: block b starts at node block_node[b] */
            for (uint32_t b = 0; b < N; b++)
                if (hold(v, oc__spec_block_node(s, b), b * q, (b + 1) * q)) goto nomem;
            break;
        }
    }
    for (uint32_t n = 0; v->held && n < N; n++)
        v->heap_bytes += (uint64_t)v->held[n].cap * sizeof(oc__range);
    if (corbit_possible(v)) {
        const uint32_t S = s->orbit_stride;
        v->ostride = S, v->opart = s->orbit_part, v->oturn = s->orbit_turn;
        v->oturn1 = s->orbit_turn % s->orbit_part;
        v->orel = oc__calloc(S, sizeof(oc__rangeset));
        v->ostamp = oc__calloc(S, sizeof(uint32_t));
        v->oseen = oc__calloc(N, sizeof(uint32_t));
        v->oby = oc__calloc(N, sizeof(uint32_t));
        if (!v->orel || !v->ostamp || !v->oseen || !v->oby) goto nomem;
        for (uint32_t i = 0; i < S; i++) { /* node i's block; node a S + i's is it turned */
            const oc__range own = {i * q, (i + 1) * q};
            if (oc__rangeset_union(&v->orel[i], &own, 1, NULL)) goto nomem;
        }
        v->corbit = 1;
    } else if (uniform_possible(v)) {
        const oc__range own = {0, q}; /* node 0's block; node n's is it turned by n * q */
        if (oc__rangeset_union(&v->rel, &own, 1, NULL)) goto nomem;
        v->uniform = 1;
    }
    *out = v;
    return 0;
nomem:
    oc__verifier_free(v);
    return oc__fail(why, len, OC_ENOMEM, "out of memory setting up the verifier");
}

oc__sink *oc__verifier_sink(oc__verifier *v) {
    return &v->sink;
}

uint64_t oc__verifier_redundant(const oc__verifier *v) {
    return v->redundant;
}

oc__verify_key oc__verifier_key(const oc__verifier *v) {
    return v->key;
}

/* Node `node` must hold [lo, hi) (its part in the window); `idx` is the final check's loop index
 * for the key. */
static int need_held(oc__verifier *v, uint64_t idx, uint32_t node, uint32_t lo, uint32_t hi,
                     char *why, size_t len) {
    if (lo < v->lo) lo = v->lo;
    if (hi > v->hi) hi = v->hi;
    if (lo >= hi) return 0;
    if (make_node(v, node))
        return at_key(v, oc__fail(why, len, OC_ENOMEM, "out of memory in the verifier"), OC__VK_END,
                      0, idx, lo);
    uint32_t c = oc__rangeset_first_missing(&v->held[node], lo, hi);
    if (c >= hi) return 0;
    char d[96];
    oc__spec_describe_chunk(v->spec, c, d, sizeof d);
    return at_key(v, oc__fail(why, len, OC_EVERIFY, "at the end: node %u is missing %s", node, d),
                  OC__VK_END, 0, idx, c);
}

static int need_reduced(oc__verifier *v, uint64_t idx, uint32_t node, uint32_t lo, uint32_t hi,
                        char *why, size_t len) {
    const oc__spec *s = v->spec;
    const uint64_t W = v->hi - v->lo;
    if (lo < v->lo) lo = v->lo;
    if (hi > v->hi) hi = v->hi;
    for (uint32_t c = lo; c < hi; c++) {
        const cell *cs = &v->contrib[(uint64_t)node * W + (c - v->lo)];
        uint32_t m;
        if (cell_first_missing(v, cs, &m))
            return at_key(v, oc__fail(why, len, OC_ENOMEM, "out of memory in the verifier"),
                          OC__VK_END, 0, idx, c);
        if (m < s->nodes) {
            char d[96];
            oc__spec_describe_chunk(s, c, d, sizeof d);
            return at_key(v,
                          oc__fail(why, len, OC_EVERIFY,
                                   "at the end: node %u is missing the contribution of node %u "
                                   "in %s",
                                   node, m, d),
                          OC__VK_END, 0, idx, c);
        }
    }
    return 0;
}

int oc__verifier_finish(oc__verifier *v, char *why, size_t len) {
    const oc__spec *s = v->spec;
    const uint32_t N = s->nodes, q = s->q;
    int rc = 0;
    /* uniform (an all-gather or gossip): every node holds everything iff rel is every label */
    if (v->uniform && v->rel.size == s->chunks) return 0;
    if (v->runiform) {
        /* all-reduce: every offset cell every node; reduce-scatter: node b's block b, offsets
         * [0, q), every node (a turn of every node is every node) */
        const uint32_t upto = s->coll == OC_ALLREDUCE ? s->chunks : q;
        uint32_t x = 0;
        while (x < upto && v->offset[x].iv[0].lo == 0 && v->offset[x].iv[0].hi == N)
            x++;
        if (x == upto) return 0;
        if ((rc = rmaterialize(v, OC__VK_END, why, len))) return rc;
    }
    if (v->orbit) {
        /* all-reduce: every cell every node (a move of every node is every node) */
        const uint64_t cells = (uint64_t)v->ostride * s->chunks;
        uint64_t x = 0;
        while (x < cells && v->ocell[x].iv[0].lo == 0 && v->ocell[x].iv[0].hi == N)
            x++;
        if (x == cells) return 0;
        if ((rc = omaterialize(v, OC__VK_END, why, len))) return rc;
    }
    if (v->dorbit) {
        /* every cell of node 0 every node (a move of every node is every node) */
        uint32_t x = 0;
        while (x < s->chunks && cell_is_plain(&v->dcell[x]) && v->dcell[x].iv[0].lo == 0 &&
               v->dcell[x].iv[0].hi == N)
            x++;
        if (x == s->chunks) return 0;
        if ((rc = dmaterialize(v, OC__VK_END, why, len))) return rc;
    }
    if (v->corbit) { /* every node holds everything iff every orel is every label */
        uint32_t i = 0;
        while (i < v->ostride && v->orel[i].size == s->chunks)
            i++;
        if (i == v->ostride) return 0;
    }
    if (materialize(v) || omaterialize_sets(v))
        return at_key(v, oc__fail(why, len, OC_ENOMEM, "out of memory in the verifier"), OC__VK_END,
                      0, 0, 0);
    switch (s->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_BROADCAST:
        for (uint32_t n = 0; n < N && !rc; n++)
            rc = need_held(v, n, n, 0, s->chunks, why, len);
        break;
    case OC_GATHER:
        rc = need_held(v, 0, s->root, 0, s->chunks, why, len);
        break;
    case OC_SCATTER:
        for (uint32_t b = 0; b < N && !rc; b++)
            rc = need_held(v, b, oc__spec_block_node(s, b), b * q, (b + 1) * q, why, len);
        break;
    case OC_ALLTOALL:
        for (uint32_t d = 0; d < N && !rc; d++)
            rc = need_held(v, d, d, (uint32_t)((uint64_t)d * N * q),
                           (uint32_t)((uint64_t)(d + 1) * N * q), why, len);
        break;
    case OC_ALLREDUCE:
        for (uint32_t n = 0; n < N && !rc; n++)
            rc = need_reduced(v, n, n, 0, s->chunks, why, len);
        break;
    case OC_REDUCESCATTER:
        for (uint32_t b = 0; b < N && !rc; b++)
            rc = need_reduced(v, b, oc__spec_block_node(s, b), b * q, (b + 1) * q, why, len);
        break;
    default:
        rc = oc__fail(why, len, OC_EINVAL, "unknown collective");
    }
    return rc;
}

/* ---- a schedule file, before any state ----
 * The fewest chunk-transfers a complete schedule needs, per collective. A copy delivers a chunk
 * to one node, so a copy collective needs one delivery of every chunk a node must end with and
 * did not start with: (N - 1) C for all-gather, gossip and broadcast (every node must end with
 * all C; together they start with C), N (N - 1) q for all-to-all, q for each block of a scatter
 * or a gather that does not start at its root. For a reduction, count per chunk the
 * transfers that carry it. Reduce-scatter: the contribution of each of the N - 1 nodes but the
 * block's owner must leave that node, in a transfer it sends: N - 1. All-reduce: 2 (N - 1), the
 * one-way gossip bound. Let K(n) be every contribution that ever reached node n (a superset of
 * its set: a copy may overwrite, K never shrinks); a schedule's rounds done one transfer at a
 * time, each reading the state as it is, leave every K a superset of what the rounds give, so
 * count in that order. At the first transfer t after which some node's K is whole, each of the
 * other N - 1 nodes has sent (its contribution reached that node): N - 1 transfers up to t. After
 * t every other node's K is still short (t changed one node's, and none was whole before), and a
 * K grows only by receiving: N - 1 more. */
static uint64_t min_units(const oc__spec *s) {
    const uint64_t N = s->nodes, C = s->chunks, q = s->q;
    uint64_t away = 0; /* blocks that do not start at the root (scatter, gather) */
    switch (s->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_BROADCAST:
    case OC_REDUCESCATTER:
        return (N - 1) * C;
    case OC_ALLTOALL:
        return N * (N - 1) * q;
    case OC_ALLREDUCE:
        return 2 * (N - 1) * C;
    case OC_SCATTER:
    case OC_GATHER:
        for (uint32_t b = 0; b < s->nodes; b++)
            away += oc__spec_block_node(s, b) != s->root;
        return away * q;
    default:
        return 0;
    }
}

int oc__verify_file_counts(const oc__spec *s, const oc__store *store, const char *path, char *why,
                           size_t len) {
    const uint64_t states = (uint64_t)s->nodes * s->chunks;
    if (oc__verifier_state_bytes(s, s->chunks) > OC__VERIFY_QUICK_BYTES) {
        /* only transfers whose fields are right count: one naming 4e9 chunks past the end is
         * refused by the verifier, but must not buy the state it would be refused in */
        oc__verifier probe = {.spec = s, .reduces = oc_collective_reduces(s->coll)};
        uint64_t units = 0, transfers = 0;
        for (size_t i = 0; i < store->count; i++)
            for (size_t k = 0; k < store->rounds[i].count; k++) {
                const oc__transfer *t = &store->rounds[i].xfers[k];
                if (transfer_ok(&probe, t)) units += t->count, transfers++;
            }
        const uint64_t need = min_units(s);
        if (units < need)
            return oc__fail(why, len, OC_EVERIFY,
                            "%s: its %llu well-formed transfers carry %llu chunks in all, fewer "
                            "than the %llu chunk-transfers any complete %s on %u nodes with %u "
                            "chunks needs: it cannot be complete",
                            path, (unsigned long long)transfers, (unsigned long long)units,
                            (unsigned long long)need, oc_collective_name(s->coll), s->nodes,
                            s->chunks);
    }
    if (oc_collective_reduces(s->coll) && states > OC__FILE_MAX_STATES)
        return oc__fail(why, len, OC_ETOOBIG,
                        "%s: verifying %s on %u nodes with %u chunks is %llu node-chunk states, "
                        "more than the %llu a schedule file may name",
                        path, oc_collective_name(s->coll), s->nodes, s->chunks,
                        (unsigned long long)states, (unsigned long long)OC__FILE_MAX_STATES);
    return 0;
}

void oc__verifier_free(oc__verifier *v) {
    if (!v) return;
    const oc__spec *s = v->spec;
    if (v->held) {
        for (uint32_t n = 0; n < s->nodes; n++)
            oc__rangeset_free(&v->held[n]);
        free(v->held);
    }
    free(v->scope);
    oc__rangeset_free(&v->rel);
    oc__round_free(&v->flat);
    free(v->offset);
    free(v->unext);
    for (uint32_t i = 0; v->orel && i < v->ostride; i++)
        oc__rangeset_free(&v->orel[i]);
    free(v->orel);
    free(v->ocell);
    free(v->ostamp);
    free(v->oseen);
    free(v->oby);
    free(v->orep);
    free(v->ocheck);
    free(v->onew);
    free(v->oat);
    if (v->dcell) {
        for (uint32_t l = 0; l < s->chunks; l++)
            cell_free(&v->dcell[l]);
        free(v->dcell);
    }
    free(v->dwritten);
    free(v->dpend);
    free(v->dslot);
    free(v->dstamp);
    free(v->dbits);
    free(v->dfrom0);
    free(v->dinto0);
    free(v->dnew); /* its cells were written or freed with their round */
    free(v->dat);
    free(v->dblocks);
    if (v->contrib) {
        uint64_t cells = (uint64_t)s->nodes * (v->hi - v->lo);
        for (uint64_t i = 0; i < cells; i++)
            cell_free(&v->contrib[i]);
        free(v->contrib);
    }
    for (size_t i = 0; i < v->sets_cap; i++)
        oc__rangeset_free(&v->staged_sets[i]);
    free(v->staged_sets);
    free(v->staged);
    free(v->written);
    free(v->sorted);
    free(v->bucket);
    free(v->last_round);
    free(v->made);
    free(v->merge);
    for (int i = 0; i < 4; i++)
        free(v->scratch[i]);
    for (int i = 0; i < 3; i++)
        oc__rangeset_free(&v->memo_sets[i]);
    free(v);
}
