/*
 * ring_check.c — the ring model's resource check, independent of the assignment code in ring.c.
 *
 * It takes the round's transfers and, for each, only the direction and the colour ranges the
 * assignment chose, and proves:
 *   1. every transfer's chunks are carried exactly once (the widths of its colour ranges add up to
 *      its chunk count, and it has no range in the other direction);
 *   2. no colour — that is no (step, fibre, wavelength) — carries two lightpaths over one directed
 *      link. Each lightpath's links are re-derived from its endpoints and direction.
 * Method (DESIGN.md: no walk over every link of every lightpath): sweep the colours of one
 * direction in order; the arcs alive at the current colour must be pairwise disjoint, so they are
 * kept by start position in a bitset, and a new arc only has to be compared with its predecessor
 * and its successor round the ring. O(F log) per range instead of O(links x wavelengths).
 */
#include "net/ring.h"
#include "core/bitset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct oc__ring_checker {
    uint32_t N;
    oc__bitset live;  /* live arcs by start position */
    uint32_t *owner;  /* transfer of the live arc starting at a position */
    uint32_t *span;   /* its length */
    uint64_t *covered;
    size_t covered_cap;
    uint32_t *by_c0, *by_c1; /* fragment indices sorted by c0 and by c1 */
    size_t sort_cap;
    uint32_t *count0, *count1;
    size_t count_cap;
};

int oc__ring_checker_new(uint32_t nodes, oc__ring_checker **out) {
    oc__ring_checker *c = calloc(1, sizeof *c);
    if (!c) return OC_ENOMEM;
    c->N = nodes;
    int bad = oc__bitset_init(&c->live, nodes);
    c->owner = oc__calloc(nodes, sizeof(uint32_t));
    c->span = oc__calloc(nodes, sizeof(uint32_t));
    if (bad || !c->owner || !c->span) {
        oc__ring_checker_free(c);
        return OC_ENOMEM;
    }
    *out = c;
    return 0;
}

void oc__ring_checker_free(oc__ring_checker *c) {
    if (!c) return;
    oc__bitset_free(&c->live);
    free(c->owner);
    free(c->span);
    free(c->covered);
    free(c->by_c0);
    free(c->by_c1);
    free(c->count0);
    free(c->count1);
    free(c);
}

/* Nearest live start strictly after p, round the ring; UINT32_MAX when there is none. */
static uint32_t next_after(const oc__bitset *b, uint32_t p) {
    uint32_t r = p + 1 < b->n ? oc__bitset_next(b, p + 1) : UINT32_MAX;
    return r != UINT32_MAX ? r : oc__bitset_next(b, 0);
}

/* Nearest live start at or before p, round the ring; UINT32_MAX when there is none. */
static uint32_t prev_at(const oc__bitset *b, uint32_t p) {
    uint32_t r = oc__bitset_prev(b, p);
    return r != UINT32_MAX ? r : oc__bitset_prev(b, b->n - 1);
}

static void describe(int d, const oc__round *r, uint32_t x, char *buf, size_t len) {
    snprintf(buf, len, "%u->%u %s", r->xfers[x].src, r->xfers[x].dst, d == RING_CW ? "cw" : "ccw");
}

int oc__ring_check(oc__ring_checker *c, uint64_t round, const oc__round *r,
                   const oc__ring_assignment *a, uint32_t fibres, uint32_t wavelengths,
                   char *why, size_t len) {
    const uint32_t N = c->N;
    const uint64_t channels = (uint64_t)fibres * wavelengths;
    /* 1. Coverage. */
    if (oc__grow((void **)&c->covered, &c->covered_cap, r->count, sizeof(uint64_t)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
    memset(c->covered, 0, r->count * sizeof(uint64_t));
    for (int d = 0; d < 2; d++) {
        for (size_t i = 0; i < a->nfrags[d]; i++) {
            const oc__ring_frag *f = &a->frags[d][i];
            if (f->xfer >= r->count || f->c0 >= f->c1 || f->c1 > a->colours[d])
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: a wavelength range [%u, %u) is malformed",
                                (unsigned long long)round, f->c0, f->c1);
            if (a->dir[f->xfer] != d)
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: transfer %u -> %u has wavelengths in the wrong "
                                "direction",
                                (unsigned long long)round, r->xfers[f->xfer].src,
                                r->xfers[f->xfer].dst);
            c->covered[f->xfer] += f->c1 - f->c0;
        }
    }
    for (size_t i = 0; i < r->count; i++)
        if (c->covered[i] != r->xfers[i].count)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: transfer %u -> %u of %u chunks got %llu wavelength-slots",
                            (unsigned long long)round, r->xfers[i].src, r->xfers[i].dst,
                            r->xfers[i].count, (unsigned long long)c->covered[i]);
    /* 2. No colour used twice on a link: sweep colours per direction. */
    for (int d = 0; d < 2; d++) {
        size_t nf = a->nfrags[d];
        uint64_t nc = a->colours[d];
        if (nf == 0) continue;
        if (oc__grow((void **)&c->by_c0, &c->sort_cap, nf, sizeof(uint32_t)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
        uint32_t *by_c1 = realloc(c->by_c1, c->sort_cap * sizeof(uint32_t));
        if (!by_c1) return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
        c->by_c1 = by_c1;
        size_t ccap = c->count_cap;
        if (oc__grow((void **)&c->count0, &ccap, nc + 2, sizeof(uint32_t)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
        uint32_t *c1 = realloc(c->count1, ccap * sizeof(uint32_t));
        if (!c1) return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
        c->count1 = c1;
        c->count_cap = ccap;
        memset(c->count0, 0, (nc + 2) * sizeof(uint32_t));
        memset(c->count1, 0, (nc + 2) * sizeof(uint32_t));
        for (size_t i = 0; i < nf; i++) {
            c->count0[a->frags[d][i].c0 + 1]++;
            c->count1[a->frags[d][i].c1 + 1]++;
        }
        for (uint64_t k = 0; k <= nc; k++) {
            c->count0[k + 1] += c->count0[k];
            c->count1[k + 1] += c->count1[k];
        }
        for (size_t i = 0; i < nf; i++) {
            c->by_c0[c->count0[a->frags[d][i].c0]++] = (uint32_t)i;
            c->by_c1[c->count1[a->frags[d][i].c1]++] = (uint32_t)i;
        }
        size_t i0 = 0, i1 = 0;
        while (i0 < nf) {
            uint32_t colour = a->frags[d][c->by_c0[i0]].c0;
            /* ranges ending at or before this colour leave the live set */
            while (i1 < nf && a->frags[d][c->by_c1[i1]].c1 <= colour) {
                const oc__ring_frag *f = &a->frags[d][c->by_c1[i1++]];
                const oc__transfer *t = &r->xfers[f->xfer];
                uint32_t s = d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
                oc__bitset_clear(&c->live, s);
            }
            const oc__ring_frag *f = &a->frags[d][c->by_c0[i0++]];
            const oc__transfer *t = &r->xfers[f->xfer];
            /* Re-derive the arc: start and length in this direction's forward coordinates. */
            uint32_t s = d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
            uint32_t e = d == RING_CW ? t->dst : oc__ring_sub(0, t->dst, N);
            uint32_t l = oc__ring_sub(e, s, N);
            uint32_t other = UINT32_MAX;
            uint32_t shared = 0;
            uint32_t pv = prev_at(&c->live, s);
            if (pv != UINT32_MAX && (pv == s || oc__ring_sub(s, pv, N) < c->span[pv])) {
                other = pv;
                shared = s;
            } else {
                uint32_t nx = next_after(&c->live, s);
                if (nx != UINT32_MAX && nx != s && oc__ring_sub(nx, s, N) < l) {
                    other = nx;
                    shared = nx;
                }
            }
            if (other != UINT32_MAX) {
                char x[64], y[64];
                describe(d, r, f->xfer, x, sizeof x);
                describe(d, r, c->owner[other], y, sizeof y);
                uint64_t step = colour / channels;
                uint64_t fibre = (colour / wavelengths) % fibres;
                uint64_t lambda = colour % wavelengths;
                uint32_t from = d == RING_CW ? shared : (N - shared) % N;
                uint32_t to = d == RING_CW ? (from + 1) % N : (from + N - 1) % N;
                oc__bitset_clear_all(&c->live); /* leave the checker clean for its next round */
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu, step %llu: lightpaths %s and %s both use fibre %llu "
                                "wavelength %llu on link %u->%u",
                                (unsigned long long)round, (unsigned long long)step, x, y,
                                (unsigned long long)fibre, (unsigned long long)lambda, from, to);
            }
            oc__bitset_set(&c->live, s);
            c->owner[s] = f->xfer;
            c->span[s] = l;
        }
        /* empty the live set for the next direction / round */
        while (i1 < nf) {
            const oc__ring_frag *f = &a->frags[d][c->by_c1[i1++]];
            const oc__transfer *t = &r->xfers[f->xfer];
            uint32_t s = d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
            oc__bitset_clear(&c->live, s);
        }
    }
    return 0;
}
