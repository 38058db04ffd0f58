/*
 * data.c — the real-data executor: runs a schedule on actual buffers and compares the result with
 * the collective computed directly. It shares no state with the symbolic verifier (verify.c), so a
 * bug in one is caught by the other.
 *
 * Copy collectives move 32-bit words: label c carries the word pattern(c) (never 0) and every slot
 * a node does not hold starts as 0, so a missing or misplaced chunk shows as a wrong word.
 * Reductions sum floats: node v's contribution to element e of chunk c is a small integer, so every
 * partial sum is exact in float32 and the result must equal the plain sum over all nodes exactly.
 * Like the network rounds, a round reads every sender's buffer first (into a staging area) and
 * writes every receiver after. The state is skipped past its own threshold (or the memory budget,
 * if lower); a round's staging, whose size a small file can make huge (many transfers of every
 * chunk), is checked against the memory budget before it is made.
 *
 * Layout. The state is N x C slots, node n's slot of label c. Laid out node by node (n C + c), a
 * transfer of a label range is one contiguous copy; but a ring round taken whole (a family, every
 * node k sending block (k - shift) mod N to k + hop) then writes one slot per node a row apart,
 * a cache and TLB miss each (61 % of the real-data run of the ring all-gather at N = 4096). A
 * schedule whose first round is such a family (blocks of u = C / N labels from label 0) is
 * laid out by offset instead: slot (n, c) at o N + n with o = (c - n u) mod C. Node k's block b
 * of a family is at offset (b - k) u = -shift u (mod C) for every k, and lands at -(shift + hop)
 * u at node k + hop: a family round is u rows of N slots copied to u other rows turned by hop,
 * two contiguous copies a row. Only the addresses change: every round, family or not, still
 * moves every word it names (other rounds slot by slot in this layout), and the final check reads
 * every slot; where it finds a wrong one it looks again in node order, so that its message names
 * the same node and chunk as the node-by-node layout would (tests/test_data_layout.c).
 */
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLOATS_PER_CHUNK = 2 };

struct oc__datacheck {
    oc__sink sink;
    const oc__spec *spec;
    int reduces;
    uint32_t *words; /* copy collectives: node * C + label */
    float *vals;     /* reductions: (node * C + chunk) * FLOATS_PER_CHUNK + e */
    float *stage;
    size_t stage_cap;
    oc__round flat; /* a family round written out, when it is not taken whole */
    int layout;     /* LAYOUT_*: decided by the first round (the state is filled then) */
    uint32_t u;     /* C / N, the offset layout's block */
};

enum { LAYOUT_UNSET, LAYOUT_NODE, LAYOUT_OFFSET };

/* Node n's slot of label c. */
static uint64_t slot(const oc__datacheck *d, uint32_t n, uint32_t c) {
    const uint64_t C = d->spec->chunks;
    if (d->layout != LAYOUT_OFFSET) return (uint64_t)n * C + c;
    const uint64_t nu = (uint64_t)n * d->u; /* below C */
    return (c >= nu ? c - nu : c + C - nu) * d->spec->nodes + n;
}

static uint32_t pattern(uint32_t label) {
    uint32_t x = label * 2654435761u + 0x9e3779b9u;
    x ^= x >> 15;
    return x | 1u;
}

static float contribution(uint32_t node, uint32_t chunk, uint32_t e) {
    return (float)((node * 31u + chunk * 17u + e * 7u) % 13u + 1u);
}

/* A family round (core.h) of every node with a hop in 1..N-1, run on the buffers without
 * staging: its transfers read block (j - shift) mod N of each node j and write block
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

/* A family round in the offset layout (its blocks the layout's: width u from label 0): row os + j
 * of every node goes to row od + j of the node hop further on, j < u; os != od (hop is not 0
 * mod N), so no row is read after it is written. */
static void family_rows(oc__datacheck *d, const oc__family *f) {
    const uint64_t N = d->spec->nodes, C = d->spec->chunks, u = d->u, hop = f->hop;
    const uint64_t os = (uint64_t)((N - f->shift) % N) * u, od = (os + (N - hop) * u) % C;
    const uint64_t F = d->reduces ? FLOATS_PER_CHUNK : 1;
    for (uint64_t j = 0; j < u; j++) {
        if (!d->reduces) {
            const uint32_t *from = d->words + (os + j) * N;
            uint32_t *to = d->words + (od + j) * N;
            memcpy(to + hop, from, (N - hop) * sizeof *to);
            memcpy(to, from + (N - hop), hop * sizeof *to);
            continue;
        }
        const float *from = d->vals + (os + j) * N * F;
        float *to = d->vals + (od + j) * N * F;
        if (f->op == OC_OP_COPY) {
            memcpy(to + hop * F, from, (N - hop) * F * sizeof *to);
            memcpy(to, from + (N - hop) * F, hop * F * sizeof *to);
            continue;
        }
        for (uint64_t e = 0; e < (N - hop) * F; e++)
            to[hop * F + e] += from[e];
        for (uint64_t e = 0; e < hop * F; e++)
            to[e] += from[(N - hop) * F + e];
    }
}

/* Whether f is a family of every node the data check runs whole. */
static int family_whole(const oc__datacheck *d, const oc__family *f) {
    const oc__spec *s = d->spec;
    return f->n == s->nodes && f->n >= 2 && f->hop >= 1 && f->hop < f->n && f->shift < f->n &&
           f->width >= 1 && (uint64_t)f->first + (uint64_t)f->n * f->width <= s->chunks &&
           (f->op == OC_OP_COPY || f->op == OC_OP_REDUCE);
}

static void fill(oc__datacheck *d);

static int data_round(oc__sink *self, uint64_t round, const oc__round *r, char *why, size_t len) {
    oc__datacheck *d = (oc__datacheck *)self;
    const oc__spec *s = d->spec;
    const uint64_t C = s->chunks;
    if (d->layout == LAYOUT_UNSET) {
        /* the first round decides: a family in the offset layout's blocks, else node by node */
        const oc__family *f = &r->family;
        const int rows = r->is_family && family_whole(d, f) && C % s->nodes == 0 && f->first == 0 &&
                         f->width == C / s->nodes;
        d->layout = rows ? LAYOUT_OFFSET : LAYOUT_NODE;
        d->u = (uint32_t)(C / s->nodes);
        fill(d);
    }
    if (r->is_family) {
        const oc__family *f = &r->family;
        if (family_whole(d, f)) {
            if (d->layout == LAYOUT_OFFSET && f->first == 0 && f->width == d->u)
                family_rows(d, f);
            else if (d->layout == LAYOUT_NODE)
                family_round(d, f);
            else
                goto plain;
            return 0;
        }
    plain:;
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
        need += (size_t)t->count * (d->reduces ? FLOATS_PER_CHUNK : 1);
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
    /* Read phase. */
    size_t at = 0;
    if (d->layout == LAYOUT_OFFSET) { /* slot by slot: a label range is not contiguous here */
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *t = &r->xfers[i];
            for (uint32_t c = t->first; c < t->first + t->count; c++) {
                const uint64_t from = slot(d, t->src, c);
                if (d->reduces)
                    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                        d->stage[at++] = d->vals[from * FLOATS_PER_CHUNK + e];
                else
                    ((uint32_t *)(void *)d->stage)[at++] = d->words[from];
            }
        }
        at = 0;
        for (size_t i = 0; i < r->count; i++) {
            const oc__transfer *t = &r->xfers[i];
            for (uint32_t c = t->first; c < t->first + t->count; c++) {
                const uint64_t to = slot(d, t->dst, c);
                if (!d->reduces)
                    d->words[to] = ((uint32_t *)(void *)d->stage)[at++];
                else if (t->op == OC_OP_REDUCE)
                    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                        d->vals[to * FLOATS_PER_CHUNK + e] += d->stage[at++];
                else
                    for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                        d->vals[to * FLOATS_PER_CHUNK + e] = d->stage[at++];
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
        } else {
            memcpy((uint32_t *)(void *)d->stage + at, d->words + (uint64_t)t->src * C + t->first,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    /* Write phase. */
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
        } else {
            memcpy(d->words + (uint64_t)t->dst * C + t->first, (uint32_t *)(void *)d->stage + at,
                   (size_t)t->count * sizeof(uint32_t));
            at += t->count;
        }
    }
    return 0;
}

/* The starting state in the layout just chosen: every node's contributions (reductions), or each
 * label's word at the node that starts with it (every other slot stays 0). */
static void fill(oc__datacheck *d) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    if (d->reduces) {
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    d->vals[slot(d, n, c) * FLOATS_PER_CHUNK + e] = contribution(n, c, e);
        return;
    }
    switch (s->coll) {
    case OC_BROADCAST:
    case OC_SCATTER:
        for (uint32_t c = 0; c < C; c++)
            d->words[slot(d, s->root, c)] = pattern(c);
        break;
    case OC_ALLTOALL:
        for (uint32_t c = 0; c < C; c++)
            d->words[slot(d, (c / q) % N, c)] = pattern(c);
        break;
    default:
        for (uint32_t c = 0; c < C; c++)
            d->words[slot(d, oc__spec_block_node(s, c / q), c)] = pattern(c);
        break;
    }
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
    d->sink.round = data_round;
    d->sink.takes_family = 1;
    d->spec = s;
    d->reduces = reduces;
    if (reduces)
        d->vals = oc__calloc((size_t)cells * FLOATS_PER_CHUNK, sizeof(float));
    else
        d->words = oc__calloc((size_t)cells, sizeof(uint32_t));
    if (!d->vals && !d->words) goto nomem;
    *out = d;
    return 0;
nomem:
    oc__datacheck_free(d);
    return oc__fail(why, len, OC_ENOMEM, "out of memory setting up the data check");
}

oc__sink *oc__datacheck_sink(oc__datacheck *d) {
    return &d->sink;
}

static int want_word(const oc__datacheck *d, uint32_t node, uint32_t c, char *why, size_t len) {
    const uint32_t got = d->words[slot(d, node, c)];
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
        float got = d->vals[slot(d, node, c) * FLOATS_PER_CHUNK + e];
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

/* In the offset layout, row by row (in memory order): whether a collective every node ends
 * with whole (all-gather, gossip, broadcast: each label's word; all-reduce: the sums) is right at
 * every node. 0 also for the other collectives, which the node-order check reads (few slots). */
static int every_node_right(const oc__datacheck *d, const double *expect) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, C = s->chunks, u = d->u;
    const int words = s->coll == OC_ALLGATHER || s->coll == OC_GOSSIP || s->coll == OC_BROADCAST;
    if (!words && s->coll != OC_ALLREDUCE) return 0;
    if (words) {
        /* each label's word once; with u = 1 (C = N) row o is the words of labels o .. N - 1
         * then 0 .. o - 1: two comparisons of memory */
        uint32_t *want = oc__malloc_array(C, sizeof *want);
        if (!want) return 0; /* the node-order check decides */
        for (uint32_t c = 0; c < C; c++)
            want[c] = pattern(c);
        int ok = 1;
        for (uint32_t o = 0; o < C && ok; o++) {
            const uint32_t *row = d->words + (uint64_t)o * N;
            if (u == 1) {
                ok = !memcmp(row, want + o, (size_t)(N - o) * sizeof *row) &&
                     !memcmp(row + (N - o), want, (size_t)o * sizeof *row);
                continue;
            }
            uint32_t c = o; /* node n's label at offset o: o + n u (mod C) */
            for (uint32_t n = 0; n < N && ok; n++) {
                ok = row[n] == want[c];
                c += u;
                if (c >= C) c -= C;
            }
        }
        free(want);
        return ok;
    }
    for (uint32_t o = 0; o < C; o++) {
        uint32_t c = o;
        for (uint32_t n = 0; n < N; n++) {
            const uint64_t at = (uint64_t)o * N + n;
            for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                if ((double)d->vals[at * FLOATS_PER_CHUNK + e] !=
                    expect[(size_t)c * FLOATS_PER_CHUNK + e])
                    return 0;
            c += u;
            if (c >= C) c -= C;
        }
    }
    return 1;
}

int oc__datacheck_finish(oc__datacheck *d, char *why, size_t len) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    int rc = 0;
    double *expect = NULL;
    if (d->layout == LAYOUT_UNSET) { /* no round at all */
        d->layout = LAYOUT_NODE;
        fill(d);
    }
    if (d->reduces) {
        /* The plain sum over all nodes, computed directly from the inputs. */
        expect = oc__calloc((size_t)C * FLOATS_PER_CHUNK, sizeof(double));
        if (!expect) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    expect[(size_t)c * FLOATS_PER_CHUNK + e] += contribution(n, c, e);
    }
    if (d->layout == LAYOUT_OFFSET && every_node_right(d, expect)) {
        free(expect);
        return 0;
    }
    switch (s->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_BROADCAST:
        for (uint32_t n = 0; n < N && !rc; n++)
            for (uint32_t c = 0; c < C && !rc; c++)
                rc = want_word(d, n, c, why, len);
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
    free(d->stage);
    oc__round_free(&d->flat);
    free(d);
}
