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
};

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

static int data_round(oc__sink *self, uint64_t round, const oc__round *r, char *why, size_t len) {
    oc__datacheck *d = (oc__datacheck *)self;
    const oc__spec *s = d->spec;
    const uint64_t C = s->chunks;
    if (r->is_family) {
        const oc__family *f = &r->family;
        if (f->n == s->nodes && f->n >= 2 && f->hop >= 1 && f->hop < f->n && f->shift < f->n &&
            f->width >= 1 && (uint64_t)f->first + (uint64_t)f->n * f->width <= C &&
            (f->op == OC_OP_COPY || f->op == OC_OP_REDUCE)) {
            family_round(d, f);
            return 0;
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
    const uint32_t N = s->nodes, q = s->q;
    const uint64_t C = s->chunks;
    if (reduces) {
        d->vals = oc__calloc((size_t)cells * FLOATS_PER_CHUNK, sizeof(float));
        if (!d->vals) goto nomem;
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    d->vals[((uint64_t)n * C + c) * FLOATS_PER_CHUNK + e] = contribution(n, c, e);
    } else {
        d->words = oc__calloc((size_t)cells, sizeof(uint32_t));
        if (!d->words) goto nomem;
        switch (s->coll) {
        case OC_BROADCAST:
        case OC_SCATTER:
            for (uint32_t c = 0; c < C; c++)
                d->words[(uint64_t)s->root * C + c] = pattern(c);
            break;
        case OC_ALLTOALL:
            for (uint32_t c = 0; c < C; c++) {
                uint32_t src = (uint32_t)((c / q) % N);
                d->words[(uint64_t)src * C + c] = pattern(c);
            }
            break;
        default:
            for (uint32_t c = 0; c < C; c++) {
                uint32_t owner = oc__spec_block_node(s, c / q);
                d->words[(uint64_t)owner * C + c] = pattern(c);
            }
            break;
        }
    }
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
    const uint32_t got = d->words[(uint64_t)node * d->spec->chunks + c];
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
        float got = d->vals[((uint64_t)node * s->chunks + c) * FLOATS_PER_CHUNK + e];
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

int oc__datacheck_finish(oc__datacheck *d, char *why, size_t len) {
    const oc__spec *s = d->spec;
    const uint32_t N = s->nodes, q = s->q, C = s->chunks;
    int rc = 0;
    double *expect = NULL;
    if (d->reduces) {
        /* The plain sum over all nodes, computed directly from the inputs. */
        expect = oc__calloc((size_t)C * FLOATS_PER_CHUNK, sizeof(double));
        if (!expect) return oc__fail(why, len, OC_ENOMEM, "out of memory in the data check");
        for (uint32_t n = 0; n < N; n++)
            for (uint32_t c = 0; c < C; c++)
                for (uint32_t e = 0; e < FLOATS_PER_CHUNK; e++)
                    expect[(size_t)c * FLOATS_PER_CHUNK + e] += contribution(n, c, e);
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
