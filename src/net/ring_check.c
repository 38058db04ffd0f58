/*
 * ring_check.c — the ring model's resource check, independent of the assignment code in ring.c.
 *
 * It takes the round's transfers and, for each, only the direction and the colour ranges the
 * assignment chose, and proves:
 *   1. every transfer's chunks are carried exactly once (the widths of its colour ranges add up to
 *      its chunk count, and it has no range in the other direction);
 *   2. no colour — that is no (step, fibre, wavelength) — carries two lightpaths over one directed
 *      link. Each lightpath's links are re-derived from its endpoints and direction.
 * Method (no walk over every link of every lightpath): sweep the colours of one
 * direction in order; the arcs alive at the current colour must be pairwise disjoint, so they are
 * kept by start position in a bitset, and a new arc only has to be compared with its predecessor
 * and its successor round the ring. O(F log) per range instead of O(links x wavelengths). The
 * ranges are put in colour order by a counting sort as compact records (the arc, re-derived from
 * the transfer as the record is made, and the width: 12 bytes), so the sweep reads them in order
 * and does not jump between ranges and transfers. The counting sort costs a counter per colour:
 * when a direction has more colours than four per range (big bundles: Bruck's and recursive
 * doubling's last rounds, up to 2^37 colours on 2^20 nodes), the ranges are sorted by first
 * colour by comparison instead. One buffer serves first the coverage (4 bytes a transfer), then
 * the records. Rounds whose ranges are all one colour range on arcs that follow each other round
 * the ring (the ring algorithms) pass by a single O(ranges) look instead, and anything else goes
 * through the sweep.
 */
#include "core/bitset.h"
#include "core/progress.h"
#include "net/ring.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A range in the counting sort's order: its arc (start and length in its direction's forward
 * coordinates) and its width; its first colour is its place in the order. */
typedef struct range_rec {
    uint32_t s, l, n;
} range_rec;

/* A range in the comparison sort's order: its first colour and its place in the list. */
typedef struct wide_rec {
    uint64_t c0;
    uint32_t i, pad;
} wide_rec;

struct oc__ring_checker {
    uint32_t N;
    oc__bitset live; /* live arcs by start position, some perhaps expired (see the sweep) */
    uint32_t *span;  /* length of the live arc starting at a position */
    uint64_t *until; /* the colour at which it expires (its range's end) */
    void *buf;       /* the coverage, then the records */
    size_t buf_cap;  /* in bytes */
    uint32_t *count0;
    size_t count_cap;
};

/* The direction the assignment chose for transfer i: bit i % 64 of word i / 64 (ring.h). */
static int chosen_direction(const uint64_t *bits, size_t i) {
    return (int)((bits[i / 64] >> (i % 64)) & 1u);
}

int oc__ring_checker_new(uint32_t nodes, oc__ring_checker **out) {
    oc__ring_checker *c = calloc(1, sizeof *c);
    if (!c) return OC_ENOMEM;
    c->N = nodes;
    int bad = oc__bitset_init(&c->live, nodes);
    c->span = oc__calloc(nodes, sizeof(uint32_t));
    c->until = oc__calloc(nodes, sizeof(uint64_t));
    if (bad || !c->span || !c->until) {
        oc__ring_checker_free(c);
        return OC_ENOMEM;
    }
    *out = c;
    return 0;
}

void oc__ring_checker_free(oc__ring_checker *c) {
    if (!c) return;
    oc__bitset_free(&c->live);
    free(c->span);
    free(c->until);
    free(c->buf);
    free(c->count0);
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

/* The start of transfer t's arc in direction d's forward coordinates (counter-clockwise arcs are
 * mirrored, p -> N - p, so that they run forward too). */
static uint32_t arc_start(int d, const oc__transfer *t, uint32_t N) {
    return d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
}

static uint32_t arc_length(int d, const oc__transfer *t, uint32_t N) {
    uint32_t e = d == RING_CW ? t->dst : oc__ring_sub(0, t->dst, N);
    return oc__ring_sub(e, arc_start(d, t, N), N);
}

/* Whether the nf ranges f[] of direction d trivially pass: all of them are one colour range
 * [c0, c1), and their arcs, re-derived from the transfers, follow each other round the ring in
 * the order listed, each ending before the next starts. Then no link carries two of them in any
 * colour. Proof: with g_k the distance from arc k's start to the next arc's start (taken in
 * 1..N), the g_k adding up to N means the starts go round the ring exactly once, so the stretches
 * [s_k, s_k + g_k) split the ring into disjoint pieces, and arc k (of length l_k <= g_k) stays in
 * its own. It is a shortcut only: a 0 sends the ranges through the sweep below, which decides
 * (and names the conflict) in every case. O(nf), without the sorts and the live set, for the
 * rounds of the ring algorithms: one block to the next node on one wavelength. */
static int one_range_in_ring_order(const oc__ring_checker *c, int d, const oc__round *r,
                                   const oc__ring_frag *f, size_t nf) {
    const uint32_t N = c->N;
    for (size_t i = 1; i < nf; i++)
        if (f[i].c0 != f[0].c0 || f[i].n != f[0].n) return 0;
    const uint32_t s0 = arc_start(d, &r->xfers[f[0].xfer], N);
    uint64_t around = 0;
    uint32_t s = s0;
    for (size_t i = 0; i < nf; i++) {
        uint32_t l = arc_length(d, &r->xfers[f[i].xfer], N);
        uint32_t next = i + 1 < nf ? arc_start(d, &r->xfers[f[i + 1].xfer], N) : s0;
        uint32_t gap = oc__ring_sub(next, s, N);
        if (gap == 0) gap = N;
        if (l > gap) return 0;
        around += gap;
        s = next;
    }
    return around == N;
}

/* Names the lightpath of the arc (s, l) of direction d by its transfer's endpoints, mapped back
 * from the forward coordinates. */
static void describe(int d, uint32_t s, uint32_t l, uint32_t N, char *buf, size_t len) {
    uint32_t e = s + l >= N ? s + l - N : s + l;
    uint32_t src = d == RING_CW ? s : oc__ring_sub(0, s, N);
    uint32_t dst = d == RING_CW ? e : oc__ring_sub(0, e, N);
    snprintf(buf, len, "%u->%u %s", src, dst, d == RING_CW ? "cw" : "ccw");
}

/* The wavelength-slots all ranges give transfer i (the error path's exact count). */
static uint64_t slots_of(const oc__ring_assignment *a, uint32_t i) {
    uint64_t sum = 0;
    for (int d = 0; d < 2; d++)
        for (size_t k = 0; k < a->nfrags[d]; k++)
            if (a->frags[d][k].xfer == i) sum += a->frags[d][k].n;
    return sum;
}

/* 1. Every range well formed, in its transfer's direction, and every transfer's chunks carried
 * exactly once. The sums saturate at 2^32 - 1 (no transfer has more chunks); a transfer whose
 * sum is off is counted again exactly for the message. */
static int coverage(oc__ring_checker *c, uint64_t round, const oc__round *r,
                    const oc__ring_assignment *a, char *why, size_t len) {
    uint32_t *cov = c->buf;
    if (r->count) memset(cov, 0, r->count * sizeof(uint32_t)); /* an empty round: no buffer */
    for (int d = 0; d < 2; d++) {
        for (size_t i = 0; i < a->nfrags[d]; i++) {
            const oc__ring_frag *f = &a->frags[d][i];
            if (f->xfer >= r->count || f->n == 0 || f->c0 > a->colours[d] ||
                f->n > a->colours[d] - f->c0)
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: a wavelength range [%llu, %llu) is malformed",
                                (unsigned long long)round, (unsigned long long)f->c0,
                                (unsigned long long)(f->c0 + f->n));
            if (chosen_direction(a->dir, f->xfer) != d)
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: transfer %u -> %u has wavelengths in the wrong "
                                "direction",
                                (unsigned long long)round, r->xfers[f->xfer].src,
                                r->xfers[f->xfer].dst);
            const uint64_t sum = (uint64_t)cov[f->xfer] + f->n;
            cov[f->xfer] = sum < UINT32_MAX ? (uint32_t)sum : UINT32_MAX;
        }
    }
    for (size_t i = 0; i < r->count; i++) {
        if (cov[i] == r->xfers[i].count && cov[i] != UINT32_MAX) continue;
        const uint64_t slots = slots_of(a, (uint32_t)i);
        if (slots != r->xfers[i].count)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: transfer %u -> %u of %u chunks got %llu wavelength-slots",
                            (unsigned long long)round, r->xfers[i].src, r->xfers[i].dst,
                            r->xfers[i].count, (unsigned long long)slots);
    }
    return 0;
}

/* The sweep's state for one direction. An arc leaves the live set when its range ends, that is
 * before the first range starting at or after its end; rather than sorting the ranges by end
 * too, an arc stays in the bitset until it is met as a neighbour at a colour >= its end (until[]),
 * and is dropped then. So the neighbours found are those of the live arcs only. */
typedef struct sweep {
    oc__ring_checker *c;
    int d;
    uint64_t round, channels;
    uint32_t fibres, wavelengths;
} sweep;

/* Adds the range of colours [colour, c1) on arc (s, l) to the live set, or fails naming the
 * live lightpath it meets. Ranges come in order of their first colour. */
static int sweep_add(const sweep *w, uint64_t colour, uint32_t s, uint32_t l, uint64_t c1,
                     char *why, size_t len) {
    oc__ring_checker *c = w->c;
    const uint32_t N = c->N;
    uint32_t other = UINT32_MAX;
    uint32_t shared = 0;
    uint32_t pv, nx;
    while ((pv = prev_at(&c->live, s)) != UINT32_MAX && c->until[pv] <= colour)
        oc__bitset_clear(&c->live, pv);
    if (pv != UINT32_MAX && (pv == s || oc__ring_sub(s, pv, N) < c->span[pv])) {
        other = pv;
        shared = s;
    } else {
        while ((nx = next_after(&c->live, s)) != UINT32_MAX && c->until[nx] <= colour)
            oc__bitset_clear(&c->live, nx);
        if (nx != UINT32_MAX && nx != s && oc__ring_sub(nx, s, N) < l) {
            other = nx;
            shared = nx;
        }
    }
    if (other != UINT32_MAX) {
        char x[64], y[64];
        const int d = w->d;
        describe(d, s, l, N, x, sizeof x);
        describe(d, other, c->span[other], N, y, sizeof y);
        uint64_t step = colour / w->channels;
        uint64_t fibre = (colour / w->wavelengths) % w->fibres;
        uint64_t lambda = colour % w->wavelengths;
        uint32_t from = d == RING_CW ? shared : (N - shared) % N;
        uint32_t to = d == RING_CW ? (from + 1) % N : (from + N - 1) % N;
        oc__bitset_clear_all(&c->live); /* leave the checker clean for its next round */
        return oc__fail(why, len, OC_ERESOURCE,
                        "round %llu, step %llu: lightpaths %s and %s both use fibre "
                        "%llu wavelength %llu on link %u->%u",
                        (unsigned long long)w->round, (unsigned long long)step, x, y,
                        (unsigned long long)fibre, (unsigned long long)lambda, from, to);
    }
    oc__bitset_set(&c->live, s);
    c->span[s] = l;
    c->until[s] = c1;
    return 0;
}

/* A caller's request to stop, heard inside the sweep of a round of millions of lightpaths
 * (core/progress.h): the checker is left clean for a next round, as after a conflict. */
static int stopped(oc__ring_checker *c, const sweep *w, char *why, size_t len) {
    oc__bitset_clear_all(&c->live);
    return oc__fail(why, len, OC_ECANCELED, "cancelled inside round %llu",
                    (unsigned long long)w->round + 1);
}

/* Ranges of one colour keep their listed order (the counting sort is stable; here the place in
 * the list breaks ties). */
static int by_first_colour(const void *p, const void *q) {
    const wide_rec *a = p, *b = q;
    if (a->c0 != b->c0) return a->c0 < b->c0 ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Whether direction d's ranges are sorted by counting (a counter per colour) or by comparison. */
static int counting(const oc__ring_assignment *a, int d) {
    return a->colours[d] <= 4 * (uint64_t)a->nfrags[d] + 64;
}

/* 2. for direction d: no colour used twice on a link. */
static int sweep_direction(oc__ring_checker *c, const sweep *w, const oc__round *r,
                           const oc__ring_assignment *a, char *why, size_t len) {
    const uint32_t N = c->N;
    const int d = w->d;
    const size_t nf = a->nfrags[d];
    const uint64_t nc = a->colours[d];
    const oc__ring_frag *frags = a->frags[d];
    int rc = 0;
    if (counting(a, d)) {
        if (oc__grow((void **)&c->count0, &c->count_cap, (size_t)nc + 2, sizeof(uint32_t)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
        /* A stable counting sort by first colour. Afterwards count0[k] is the number of ranges
         * with c0 <= k. */
        range_rec *rec = c->buf;
        memset(c->count0, 0, ((size_t)nc + 2) * sizeof(uint32_t));
        for (size_t i = 0; i < nf; i++)
            c->count0[frags[i].c0 + 1]++;
        for (uint64_t k = 0; k <= nc; k++)
            c->count0[k + 1] += c->count0[k];
        for (size_t i = 0; i < nf; i++) {
            const oc__transfer *t = &r->xfers[frags[i].xfer];
            rec[c->count0[frags[i].c0]++] =
                (range_rec){arc_start(d, t, N), arc_length(d, t, N), frags[i].n};
        }
        size_t i0 = 0;
        for (uint64_t colour = 0; i0 < nf && !rc; colour++)
            for (; i0 < c->count0[colour] && !rc; i0++)
                rc = oc__stop_tick()
                         ? stopped(c, w, why, len)
                         : sweep_add(w, colour, rec[i0].s, rec[i0].l, colour + rec[i0].n, why, len);
    } else {
        wide_rec *rec = c->buf;
        for (size_t i = 0; i < nf; i++)
            rec[i] = (wide_rec){frags[i].c0, (uint32_t)i, 0};
        qsort(rec, nf, sizeof *rec, by_first_colour);
        for (size_t i = 0; i < nf && !rc; i++) {
            const oc__ring_frag *f = &frags[rec[i].i];
            const oc__transfer *t = &r->xfers[f->xfer];
            rc = oc__stop_tick() ? stopped(c, w, why, len)
                                 : sweep_add(w, f->c0, arc_start(d, t, N), arc_length(d, t, N),
                                             f->c0 + f->n, why, len);
        }
    }
    if (!rc) oc__bitset_clear_all(&c->live); /* empty for the next direction / round */
    return rc;
}

/* A family round: transfer k goes from node k to node (k + hop) mod N, each with width chunks,
 * and each has the colours [c0, c0 + n) in direction d. Coverage: each transfer's chunks are
 * carried exactly once iff n = width, and the range is well formed iff n >= 1 and
 * c0 + n <= colours. Links: in direction d's forward coordinates transfer k's arc starts at k
 * (clockwise) or at N - k (counter-clockwise, mirrored), N distinct starts, and is hop or N - hop
 * links long. Arcs of length 1 from N distinct starts use N distinct links, so no link carries
 * two of them in any colour. Any other case (longer arcs on one colour range do share links, or
 * the family is not of this ring) is left to the full check on the transfers written out. */
int oc__ring_check_family(oc__ring_checker *c, uint64_t round, const oc__family *f, int d,
                          uint64_t c0, uint64_t n, uint64_t colours, int *decided, char *why,
                          size_t len) {
    (void)round, (void)why, (void)len;
    *decided = 0;
    if (f->n != c->N || f->n < 2 || f->hop == 0 || f->hop >= f->n || f->shift >= f->n) return 0;
    if ((d != RING_CW && d != RING_CCW) || n == 0 || n != f->width || c0 > colours ||
        n > colours - c0)
        return 0;
    const uint32_t length = d == RING_CW ? f->hop : f->n - f->hop;
    *decided = length == 1;
    return 0;
}

int oc__ring_check(oc__ring_checker *c, uint64_t round, const oc__round *r,
                   const oc__ring_assignment *a, uint32_t fibres, uint32_t wavelengths, char *why,
                   size_t len) {
    /* One buffer: the coverage's 4 bytes a transfer, then a direction's records. */
    size_t need = r->count * sizeof(uint32_t);
    for (int d = 0; d < 2; d++) {
        const size_t rec = a->nfrags[d] * (counting(a, d) ? sizeof(range_rec) : sizeof(wide_rec));
        if (rec > need) need = rec;
    }
    if (oc__grow(&c->buf, &c->buf_cap, need, 1))
        return oc__fail(why, len, OC_ENOMEM, "out of memory in the ring check");
    int rc = coverage(c, round, r, a, why, len);
    for (int d = 0; d < 2 && !rc; d++) {
        const sweep w = {c, d, round, (uint64_t)fibres * wavelengths, fibres, wavelengths};
        if (a->nfrags[d] && !one_range_in_ring_order(c, d, r, a->frags[d], a->nfrags[d]))
            rc = sweep_direction(c, &w, r, a, why, len);
    }
    return rc;
}
