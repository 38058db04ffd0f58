/*
 * data.c — the real-data executor: runs a schedule on actual buffers and compares the result with
 * the collective computed directly. It shares no state with the symbolic verifier (verify.c), so a
 * bug in one is caught by the other.
 *
 * Copy collectives move 32-bit words: label c carries the word pattern(c) (never 0) and every slot
 * a node does not hold starts as 0, so a missing or misplaced chunk shows as a wrong word.
 * Reductions sum floats: node v's contribution to element e of chunk c is a small integer, so every
 * partial sum is exact in float32 and the result must equal the plain sum over all nodes exactly.
 * A chunk is one word (two floats for a reduction), whatever its size in bytes: a chunk is moved or
 * added whole or not at all, so one word a chunk shows every misplaced, lost, doubled or wrongly
 * summed chunk that a chunk's full bytes would.
 * Like the network rounds, a round reads every sender's buffer first (into a staging area) and
 * writes every receiver after. The state is skipped past its own threshold (or the memory budget,
 * if lower); a round's staging, whose size a small file can make huge (many transfers of every
 * chunk), is checked against the memory budget before it is made.
 *
 * Layout. The state is N x C slots, node n's slot of label c. Laid out node by node (n C + c), a
 * transfer of a label range is one contiguous copy; but a ring round taken whole (a family, every
 * node k sending block (k - shift) mod N to k + hop) then writes one slot per node a row apart,
 * a cache and TLB miss each. A schedule whose first round is such a family (blocks of u = C / N
 * labels from label 0) is laid out by offset instead: row o holds slot (n, c) with
 * o = (c - n u) mod C, for every node n. Node k's block b of a family is at offset (b - k) u =
 * -shift u (mod C) for every k, and lands at -(shift + hop) u at node k + hop: a family round
 * writes u whole rows, each another row turned by hop.
 *
 * Rows turned, not copied. In the offset layout a row is a view: a buffer of N slots and a turn
 * t, node n's slot at index (n - t) mod N of the buffer (or no buffer: every slot 0). A family
 * copy round overwrites every slot of its u destination rows, each with a source row turned by
 * hop, so the destination row becomes the source's buffer with the turn t + hop: the words are
 * not moved, the view says where each one now is. A buffer is shared by every row that views it
 * and counted; any other write to a row (a reduce, a plain transfer's slot) first gives the row a
 * buffer of its own (copied, or zeroed for a row of none), so a write never reaches another row.
 * A reduce family adds the source row, turned, into the destination's own buffer: every float of
 * a reduction is really added. Freed buffers are reused, so the state never holds more than C
 * buffers, the N x C slots the budget was checked for.
 *
 * The final check reads every buffer some row views, in full, against that row's words; a row
 * viewing a buffer already found right is right without reading when its turn puts the same
 * words at the same nodes. Proof: buffer B found right as row o' with turn t' holds at index m the
 * word of label (o' + (m + t') u) mod C (C = N u); row o with turn t reads node n at m = (n - t)
 * mod N, the word of label (o' + t' u - t u + n u) mod C, which is node n's label of row o,
 * (o + n u) mod C, for every n exactly when o + t u = o' + t' u (mod C). Any other row is read in
 * full. So what the check proves is unchanged: at the end every node's every slot holds the
 * collective's word or sum, where the state got there only through the rounds as given (a wrong
 * hop or shift turns or picks the wrong row; a wrong reduction adds wrong floats; a lost round
 * leaves a row of zeros). Where the check finds a wrong slot it looks again in node order, so
 * that its message names the same node and chunk as the node-by-node layout would
 * (tests/test_data_layout.c). A ring all-gather at N = 4096 then costs one row of N words and O(1)
 * a round instead of N x C words (64 MiB) and a pass over them a round.
 */
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLOATS_PER_CHUNK = 2 };

enum { LAYOUT_UNSET, LAYOUT_NODE, LAYOUT_OFFSET };

/* A row of the offset layout: buffer `buf` (0: none, every slot 0) read with turn `turn`. */
typedef struct rowview {
    uint32_t buf, turn;
} rowview;

struct oc__datacheck {
    oc__sink sink;
    const oc__spec *spec;
    int reduces;
    uint32_t F; /* 32-bit elements a slot: 1 word, or FLOATS_PER_CHUNK floats */
    /* node by node: */
    uint32_t *words; /* copy collectives: node * C + label */
    float *vals;     /* reductions: (node * C + chunk) * FLOATS_PER_CHUNK + e */
    /* by offset: C rows viewing buffers 1 .. nbufs of N slots (uint32_t words or floats) */
    rowview *rows;
    void **bufs;    /* bufs[0] unused: buffer 0 is the row of zeros */
    uint32_t *refs; /* rows viewing each buffer; 0: on the free list */
    uint32_t *free_ids;
    size_t nbufs, bufs_cap, refs_cap, nfree, free_cap;
    float *stage;
    size_t stage_cap;
    oc__round flat; /* a family round written out, when it is not taken whole */
    int layout;     /* LAYOUT_*: decided by the first round (the state is filled then) */
    uint32_t u;     /* C / N, the offset layout's block */
};

static uint32_t pattern(uint32_t label) {
    uint32_t x = label * 2654435761u + 0x9e3779b9u;
    x ^= x >> 15;
    return x | 1u;
}

/* Node v's contribution to element e of chunk c depends on c and e only through their key,
 * (17 c + 7 e) mod 13: the expected sums are then one per key, each summed over the nodes
 * directly (13 N additions, not N C). The contribution is (31 v + 17 c + 7 e) mod 13 + 1, in
 * 1 .. 13: a lost contribution always lowers a sum, a doubled one always raises it. */
enum { CONTRIBUTION_KEYS = 13 };

static uint32_t contribution_key(uint32_t chunk, uint32_t e) {
    return (uint32_t)(((uint64_t)chunk * 17u + e * 7u) % CONTRIBUTION_KEYS);
}

static float contribution_of(uint32_t node, uint32_t key) {
    return (float)(((uint64_t)node * 31u + key) % CONTRIBUTION_KEYS + 1u);
}

static float contribution(uint32_t node, uint32_t chunk, uint32_t e) {
    return contribution_of(node, contribution_key(chunk, e));
}

/* ---- the offset layout's rows ---- */

/* The row of node n's label c. */
static uint64_t row_of(const oc__datacheck *d, uint32_t n, uint32_t c) {
    const uint64_t C = d->spec->chunks, nu = (uint64_t)n * d->u; /* nu below C */
    return c >= nu ? c - nu : c + C - nu;
}

/* Node n's slot in a buffer viewed with turn t. */
static uint32_t at_turn(uint32_t N, uint32_t t, uint32_t n) {
    return n >= t ? n - t : n + (N - t);
}

static void buf_drop(oc__datacheck *d, uint32_t id) {
    if (!id || --d->refs[id]) return;
    d->free_ids[d->nfree++] = id; /* free_cap >= nbufs: every buffer fits on the list */
}

/* A buffer of no row yet (its slots as they were), from the free list or new; 0 when memory is
 * short. */
static uint32_t buf_take(oc__datacheck *d) {
    if (d->nfree) {
        const uint32_t id = d->free_ids[--d->nfree];
        d->refs[id] = 1;
        return id;
    }
    const size_t id = d->nbufs + 1;
    if (oc__grow((void **)&d->bufs, &d->bufs_cap, id + 1, sizeof *d->bufs) ||
        oc__grow((void **)&d->refs, &d->refs_cap, id + 1, sizeof *d->refs) ||
        oc__grow((void **)&d->free_ids, &d->free_cap, id + 1, sizeof *d->free_ids))
        return 0;
    void *b = oc__malloc_array((size_t)d->spec->nodes * d->F, sizeof(uint32_t));
    if (!b) return 0;
    d->bufs[0] = NULL; /* the row of zeros has none */
    d->bufs[id] = b;
    d->refs[id] = 1;
    d->nbufs = id;
    return (uint32_t)id;
}

/* Gives row o a buffer no other row views (copied from the one it viewed, or zeroed), so that it
 * can be written; its turn stays. 0 or OC_ENOMEM. */
static int row_own(oc__datacheck *d, uint64_t o) {
    rowview *v = &d->rows[o];
    if (v->buf && d->refs[v->buf] == 1) return 0;
    const uint32_t id = buf_take(d);
    if (!id) return OC_ENOMEM;
    const size_t bytes = (size_t)d->spec->nodes * d->F * sizeof(uint32_t);
    if (v->buf)
        memcpy(d->bufs[id], d->bufs[v->buf], bytes);
    else
        memset(d->bufs[id], 0, bytes);
    buf_drop(d, v->buf);
    v->buf = id;
    return 0;
}

/* Node n's slot of label c in the node-by-node layout: its F elements. */
static uint32_t *node_slot(const oc__datacheck *d, uint32_t n, uint32_t c) {
    const uint64_t at = (uint64_t)n * d->spec->chunks + c;
    return d->reduces ? (uint32_t *)(void *)(d->vals + at * FLOATS_PER_CHUNK) : d->words + at;
}

/* Node n's slot of label c, for reading: its F elements, or NULL for a slot of a row of zeros. */
static const void *slot_read(const oc__datacheck *d, uint32_t n, uint32_t c) {
    if (d->layout != LAYOUT_OFFSET) return node_slot(d, n, c);
    const rowview v = d->rows[row_of(d, n, c)];
    if (!v.buf) return NULL;
    return (const uint32_t *)d->bufs[v.buf] + (size_t)at_turn(d->spec->nodes, v.turn, n) * d->F;
}

/* Node n's slot of label c, for writing (in the offset layout its row is given a buffer of its
 * own first); NULL when memory is short. */
static void *slot_write(oc__datacheck *d, uint32_t n, uint32_t c) {
    if (d->layout != LAYOUT_OFFSET) return node_slot(d, n, c);
    const uint64_t o = row_of(d, n, c);
    if (row_own(d, o)) return NULL;
    const rowview v = d->rows[o];
    return (uint32_t *)d->bufs[v.buf] + (size_t)at_turn(d->spec->nodes, v.turn, n) * d->F;
}

static uint32_t word_at(const oc__datacheck *d, uint32_t n, uint32_t c) {
    const uint32_t *w = slot_read(d, n, c);
    return w ? *w : 0;
}

static float val_at(const oc__datacheck *d, uint32_t n, uint32_t c, uint32_t e) {
    const float *v = slot_read(d, n, c);
    return v ? v[e] : 0.0f;
}

/* A family round in the offset layout (its blocks the layout's: width u from label 0): row os + j
 * of every node goes to row od + j of the node hop further on, j < u. The source rows os .. os +
 * u - 1 and the destination rows od .. od + u - 1 are disjoint (od = os - hop u mod C, hop not 0
 * mod N, both multiples of u), so no row is read after it is written. A copy makes the destination
 * view the source's buffer with the turn + hop; a reduce adds the source, turned, into the
 * destination's own buffer. */
static int family_rows(oc__datacheck *d, const oc__family *f) {
    const uint32_t N = d->spec->nodes, hop = f->hop;
    const uint64_t C = d->spec->chunks, u = d->u;
    const uint64_t os = (uint64_t)((N - f->shift) % N) * u, od = (os + (N - hop) * u) % C;
    for (uint64_t j = 0; j < u; j++) {
        const rowview from = d->rows[os + j];
        rowview *to = &d->rows[od + j];
        if (f->op == OC_OP_COPY || !d->reduces) { /* words are copied by either op */
            if (from.buf) d->refs[from.buf]++;
            buf_drop(d, to->buf);
            to->buf = from.buf;
            to->turn = from.turn + hop >= N ? from.turn + hop - N : from.turn + hop;
            continue;
        }
        if (!from.buf) continue; /* adds zeros */
        if (row_own(d, od + j)) return OC_ENOMEM;
        /* node m of the destination: its slot (m - to->turn) mod N += the source's slot of node
         * m - hop, (m - hop - from.turn) mod N; walked in at most three runs, no index wrapping
         * inside a run */
        const uint32_t F = d->F;
        float *dst = d->bufs[to->buf];
        const float *src = d->bufs[from.buf];
        uint32_t id = at_turn(N, to->turn, 0);
        uint32_t is = at_turn(N, (uint32_t)(((uint64_t)from.turn + hop) % N), 0);
        for (uint32_t m = 0; m < N;) {
            uint32_t run = N - m;
            if (N - id < run) run = N - id;
            if (N - is < run) run = N - is;
            float *a = dst + (size_t)id * F;
            const float *b = src + (size_t)is * F;
            for (size_t e = 0; e < (size_t)run * F; e++)
                a[e] += b[e];
            m += run;
            id = id + run == N ? 0 : id + run;
            is = is + run == N ? 0 : is + run;
        }
    }
    return 0;
}

/* A family round (core.h) of every node with a hop in 1..N-1, node by node, run on the buffers
 * without staging: its transfers read block (j - shift) mod N of each node j and write block
 * (j - hop - shift) mod N of each node j, never the same block of a node (hop is not 0 mod N), so
 * no write of the round lands where one of its reads looks, and each transfer can be done as it
 * comes: one pass, block by block, instead of a staged copy of every chunk. */
static void family_round(oc__datacheck *d, const oc__family *f) {
    const uint64_t C = d->spec->chunks, w = f->width;
    uint32_t dst = f->hop, block = f->shift ? f->n - f->shift : 0;
    for (uint32_t k = 0; k < f->n; k++) {
        const uint64_t lbl = f->first + (uint64_t)block * w;
        if (d->reduces) {
            const float *from = d->vals + ((uint64_t)k * C + lbl) * FLOATS_PER_CHUNK;
            float *to = d->vals + ((uint64_t)dst * C + lbl) * FLOATS_PER_CHUNK;
            if (f->op == OC_OP_REDUCE)
                for (uint64_t e = 0; e < w * FLOATS_PER_CHUNK; e++)
                    to[e] += from[e];
            else
                for (uint64_t e = 0; e < w * FLOATS_PER_CHUNK; e++)
                    to[e] = from[e];
        } else {
            const uint32_t *from = d->words + (uint64_t)k * C + lbl;
            uint32_t *to = d->words + (uint64_t)dst * C + lbl;
            for (uint64_t e = 0; e < w; e++)
                to[e] = from[e];
        }
        if (++dst == f->n) dst = 0;
        if (++block == f->n) block = 0;
    }
}

/* Whether f is a family of every node the data check runs whole. */
static int family_whole(const oc__datacheck *d, const oc__family *f) {
    const oc__spec *s = d->spec;
    return f->n == s->nodes && f->n >= 2 && f->hop >= 1 && f->hop < f->n && f->shift < f->n &&
           f->width >= 1 && (uint64_t)f->first + (uint64_t)f->n * f->width <= s->chunks &&
           (f->op == OC_OP_COPY || f->op == OC_OP_REDUCE);
}

/* The starting state in the layout just chosen: every node's contributions (reductions), or each
 * label's word at the node that starts with it (every other slot stays 0). 0 or OC_ENOMEM. */
static int fill(oc__datacheck *d) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    const uint64_t cells = (uint64_t)N * C;
    if (d->layout == LAYOUT_OFFSET) {
        if (!(d->rows = oc__calloc(C, sizeof *d->rows))) return OC_ENOMEM;
    } else if (d->reduces) {
        if (!(d->vals = oc__calloc((size_t)cells * FLOATS_PER_CHUNK, sizeof(float))))
            return OC_ENOMEM;
    } else if (!(d->words = oc__calloc((size_t)cells, sizeof(uint32_t)))) {
        return OC_ENOMEM;
    }
    if (d->reduces && d->layout == LAYOUT_OFFSET) {
        /* every row a buffer of its own, turn 0: node n's slot of row o is label (o + n u) */
        for (uint32_t o = 0; o < C; o++) {
            const uint32_t id = buf_take(d);
            if (!id) return OC_ENOMEM;
            d->rows[o] = (rowview){id, 0};
            float *v = d->bufs[id];
            uint32_t c = o;
            for (uint32_t n = 0; n < N; n++) {
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    *v++ = contribution(n, c, e);
                c += d->u;
                if (c >= C) c -= C;
            }
        }
        return 0;
    }
    if (d->reduces) {
        float *v = d->vals;
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    *v++ = contribution(n, c, e);
        return 0;
    }
    for (uint32_t c = 0; c < C; c++) {
        uint32_t n;
        switch (s->coll) {
        case OC_BROADCAST:
        case OC_SCATTER:
            n = s->root;
            break;
        case OC_ALLTOALL:
            n = (c / q) % N;
            break;
        default:
            n = oc__spec_block_node(s, c / q);
            break;
        }
        uint32_t *w = slot_write(d, n, c);
        if (!w) return OC_ENOMEM;
        *w = pattern(c);
    }
    return 0;
}

static int data_round(oc__sink *self, uint64_t round, const oc__round *r, char *why, size_t len) {
    oc__datacheck *d = (oc__datacheck *)self;
    const oc__spec *s = d->spec;
    const uint64_t C = s->chunks;
    const uint32_t F = d->F;
    if (d->layout == LAYOUT_UNSET) {
        /* the first round decides: a family in the offset layout's blocks, else node by node */
        const oc__family *f = &r->family;
        const int rows = r->is_family && family_whole(d, f) && C % s->nodes == 0 && f->first == 0 &&
                         f->width == C / s->nodes;
        d->layout = rows ? LAYOUT_OFFSET : LAYOUT_NODE;
        d->u = (uint32_t)(C / s->nodes);
        if (fill(d)) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    }
    if (r->is_family) {
        const oc__family *f = &r->family;
        if (family_whole(d, f)) {
            if (d->layout == LAYOUT_OFFSET && f->first == 0 && f->width == d->u) {
                if (family_rows(d, f))
                    return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
                return 0;
            }
            if (d->layout == LAYOUT_NODE) {
                family_round(d, f);
                return 0;
            }
        }
        int rc;
        if (!(r = oc__round_plain(r, &d->flat, &rc)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    }
    size_t need = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (t->src >= s->nodes || t->dst >= s->nodes || (uint64_t)t->first + t->count > C)
            return oc__fail(why, len, OC_EVERIFY, "round %llu: transfer %u -> %u is out of range",
                            (unsigned long long)round, t->src, t->dst);
        need += (size_t)t->count * F;
    }
    if (need > d->stage_cap) {
        char what[96];
        snprintf(what, sizeof what, "round %llu of the data check (staging)",
                 (unsigned long long)round);
        int rc = oc__budget_check((uint64_t)need * sizeof(float), what, why, len);
        if (rc) return rc;
    }
    if (oc__grow((void **)&d->stage, &d->stage_cap, need, sizeof(float)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    uint32_t *stage_words = (uint32_t *)(void *)d->stage;
    /* Read phase, then write phase. */
    size_t at = 0;
    if (d->layout == LAYOUT_OFFSET) { /* slot by slot: a label range is not contiguous here */
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *t = &r->xfers[i];
            for (uint32_t c = t->first; c < t->first + t->count; c++) {
                if (d->reduces)
                    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                        d->stage[at++] = val_at(d, t->src, c, e);
                else
                    stage_words[at++] = word_at(d, t->src, c);
            }
        }
        at = 0;
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *t = &r->xfers[i];
            for (uint32_t c = t->first; c < t->first + t->count; c++) {
                void *to = slot_write(d, t->dst, c);
                if (!to) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
                if (!d->reduces) {
                    *(uint32_t *)to = stage_words[at++];
                    continue;
                }
                float *v = to;
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++, at++)
                    v[e] = t->op == OC_OP_REDUCE ? v[e] + d->stage[at] : d->stage[at];
            }
        }
        return 0;
    }
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (d->reduces) {
            size_t n = (size_t)t->count * FLOATS_PER_CHUNK;
            memcpy(d->stage + at, d->vals + ((uint64_t)t->src * C + t->first) * FLOATS_PER_CHUNK,
                   n * sizeof(float));
            at += n;
        } else if (t->count <= 2) { /* one or two labels: words, not a call */
            const uint32_t *from = d->words + (uint64_t)t->src * C + t->first;
            stage_words[at++] = from[0];
            if (t->count == 2) stage_words[at++] = from[1];
        } else {
            memcpy(stage_words + at, d->words + (uint64_t)t->src * C + t->first,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    at = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (d->reduces) {
            size_t n = (size_t)t->count * FLOATS_PER_CHUNK;
            float *dst = d->vals + ((uint64_t)t->dst * C + t->first) * FLOATS_PER_CHUNK;
            if (t->op == OC_OP_REDUCE)
                for (size_t k = 0; k < n; k++)
                    dst[k] += d->stage[at + k];
            else
                memcpy(dst, d->stage + at, n * sizeof(float));
            at += n;
        } else if (t->count <= 2) {
            uint32_t *to = d->words + (uint64_t)t->dst * C + t->first;
            to[0] = stage_words[at++];
            if (t->count == 2) to[1] = stage_words[at++];
        } else {
            memcpy(d->words + (uint64_t)t->dst * C + t->first, stage_words + at,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    return 0;
}

int oc__datacheck_new(const oc__spec *s, uint64_t budget, oc__datacheck **out, char *why,
                      size_t len) {
    *out = NULL;
    int reduces = oc_collective_reduces(s->coll);
    uint64_t cells = (uint64_t)s->nodes * s->chunks;
    uint64_t bytes = cells * (reduces ? FLOATS_PER_CHUNK * sizeof(float) : sizeof(uint32_t));
    if (bytes > budget || bytes > oc__memory_budget()) return 0;
    oc__datacheck *d = calloc(1, sizeof *d);
    if (!d) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    /* the state is made when the first round has chosen its layout (fill) */
    d->sink.round = data_round;
    d->sink.takes_family = 1;
    d->spec = s;
    d->reduces = reduces;
    d->F = reduces ? FLOATS_PER_CHUNK : 1;
    *out = d;
    return 0;
}

oc__sink *oc__datacheck_sink(oc__datacheck *d) {
    return &d->sink;
}

static int want_word(const oc__datacheck *d, uint32_t node, uint32_t c, char *why, size_t len) {
    const uint32_t got = word_at(d, node, c);
    if (got == pattern(c)) return 0;
    char desc[96];
    oc__spec_describe_chunk(d->spec, c, desc, sizeof desc);
    return oc__fail(why, len, OC_EVERIFY,
                    "data check: node %u holds 0x%08x instead of 0x%08x in %s", node, got,
                    pattern(c), desc);
}

static int want_sum(const oc__datacheck *d, const double *expect, uint32_t node, uint32_t c,
                    char *why, size_t len) {
    const oc__spec *s = d->spec;
    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++) {
        double sum = expect[(size_t)c * FLOATS_PER_CHUNK + e];
        float got = val_at(d, node, c, e);
        if ((double)got != sum) {
            char desc[96];
            oc__spec_describe_chunk(s, c, desc, sizeof desc);
            return oc__fail(why, len, OC_EVERIFY,
                            "data check: node %u has %.1f instead of the sum %.1f in %s", node,
                            (double)got, sum, desc);
        }
    }
    return 0;
}

/* Every node holds every label's word: node by node, each node's C words compared with the
 * labels' words at once (one memcmp a node, in the node-by-node layout), and a node that differs
 * read slot by slot for the first wrong one, so the message is that of the slot-by-slot check. */
static int every_word(const oc__datacheck *d, char *why, size_t len) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks;
    uint32_t *want = d->layout == LAYOUT_NODE ? oc__malloc_array(C, sizeof *want) : NULL;
    if (want)
        for (uint32_t c = 0; c < C; c++)
            want[c] = pattern(c);
    int rc = 0;
    for (uint32_t n = 0; n < N && !rc; n++) {
        if (want && !memcmp(d->words + (uint64_t)n * C, want, (size_t)C * sizeof *want)) continue;
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, n, c, why, len);
    }
    free(want);
    return rc;
}

/* Whether row o (viewing a buffer) holds, at every node n, label (o + n u) mod C's word
 * (want) or sums (expect), read in full. */
static int row_right(const oc__datacheck *d, uint64_t o, const uint32_t *want,
                     const double *expect) {
    const uint32_t N = d->spec->nodes, C = d->spec->chunks, u = d->u;
    const rowview v = d->rows[o];
    uint32_t c = (uint32_t)o, m = at_turn(N, v.turn, 0);
    for (uint32_t n = 0; n < N; n++) {
        if (want) {
            if (((const uint32_t *)d->bufs[v.buf])[m] != want[c]) return 0;
        } else {
            const float *got = (const float *)d->bufs[v.buf] + (size_t)m * FLOATS_PER_CHUNK;
            for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                if ((double)got[e] != expect[(size_t)c * FLOATS_PER_CHUNK + e]) return 0;
        }
        if (++m == N) m = 0;
        c += u;
        if (c >= C) c -= C;
    }
    return 1;
}

/* In the offset layout: whether a collective every node ends with whole (all-gather, gossip,
 * broadcast: each label's word; all-reduce: the sums) is right at every node, each buffer read in
 * full once and a row viewing a buffer found right taken by its turn (the essay's proof). 0 also
 * for the other collectives, which the node-order check reads (few slots), and when memory is
 * short (the node-order check decides). */
static int every_node_right(const oc__datacheck *d, const double *expect) {
    const oc__spec *s = d->spec;
    const uint32_t C = s->chunks, u = d->u;
    const int words = s->coll == OC_ALLGATHER || s->coll == OC_GOSSIP || s->coll == OC_BROADCAST;
    if (!words && s->coll != OC_ALLREDUCE) return 0;
    uint32_t *want = NULL;
    /* the key of a buffer found right as row o with turn t: (o + t u) mod C; C + 1 unset */
    uint64_t *key = oc__malloc_array(d->nbufs + 1, sizeof *key);
    if (!key) return 0;
    for (size_t b = 0; b <= d->nbufs; b++)
        key[b] = (uint64_t)C + 1;
    int ok = 1;
    if (words) {
        if (!(want = oc__malloc_array(C, sizeof *want))) {
            ok = 0;
            goto out;
        }
        for (uint32_t c = 0; c < C; c++)
            want[c] = pattern(c);
    }
    for (uint64_t o = 0; o < C && ok; o++) {
        const rowview v = d->rows[o];
        if (!v.buf) { /* zeros, never a word nor a sum */
            ok = 0;
            break;
        }
        const uint64_t k = (o + (uint64_t)v.turn * u) % C;
        if (key[v.buf] == k) continue;
        ok = row_right(d, o, want, words ? NULL : expect);
        if (ok && key[v.buf] > C) key[v.buf] = k;
    }
out:
    free(want);
    free(key);
    return ok;
}

int oc__datacheck_finish(oc__datacheck *d, char *why, size_t len) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    int rc = 0;
    double *expect = NULL;
    if (d->layout == LAYOUT_UNSET) { /* no round at all */
        d->layout = LAYOUT_NODE;
        if (fill(d)) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
    }
    if (d->reduces) {
        /* The plain sum over all nodes, computed directly from the inputs: once a key. */
        double by_key[CONTRIBUTION_KEYS] = {0};
        for (uint32_t k = 0; k < CONTRIBUTION_KEYS; k++)
            for (uint32_t n = 0; n < N; n++)
                by_key[k] += contribution_of(n, k);
        expect = oc__malloc_array((size_t)C * FLOATS_PER_CHUNK, sizeof(double));
        if (!expect) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
        for (uint32_t c = 0; c < C; c++)
            for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                expect[(size_t)c * FLOATS_PER_CHUNK + e] = by_key[contribution_key(c, e)];
    }
    if (d->layout == LAYOUT_OFFSET && every_node_right(d, expect)) {
        free(expect);
        return 0;
    }
    switch (s->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_BROADCAST:
        rc = every_word(d, why, len);
        break;
    case OC_GATHER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, s->root, c, why, len);
        break;
    case OC_SCATTER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, oc__spec_block_node(s, c / q), c, why, len);
        break;
    case OC_ALLTOALL:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_word(d, (c / q) / N, c, why, len);
        break;
    case OC_ALLREDUCE:
        for (uint32_t n = 0; n < N && !rc; n++)
            for (uint32_t c = 0; c < C && !rc; c++)
                rc = want_sum(d, expect, n, c, why, len);
        break;
    case OC_REDUCESCATTER:
        for (uint32_t c = 0; c < C && !rc; c++)
            rc = want_sum(d, expect, oc__spec_block_node(s, c / q), c, why, len);
        break;
    default:
        rc = oc__fail(why, len, OC_EINVAL, "unknown collective");
    }
    free(expect);
    return rc;
}

void oc__datacheck_free(oc__datacheck *d) {
    if (!d) return;
    free(d->words);
    free(d->vals);
    for (size_t b = 1; b <= d->nbufs; b++)
        free(d->bufs[b]);
    free(d->bufs);
    free(d->refs);
    free(d->free_ids);
    free(d->rows);
    free(d->stage);
    oc__round_free(&d->flat);
    free(d);
}
