/*
 * free_colours.h — the free colours of a ring round with no arc through the cut (ring.c's
 * colour_intervals): sorted, coalesced ranges in pages, so that no operation moves more than a
 * page of them however the ranges given back scatter.
 *
 * The colouring gives colours back as ranges, anywhere below the highest colour used, and takes
 * them from the top: the highest maximal run of free colours, as much of it as a bundle needs.
 * oc__fc_take answers exactly what one sorted array of coalesced ranges answers (its last range,
 * cut from the top), so the assignment is the same colour for colour; free_colours.c says how.
 * The steps every range takes (find, join, insert in a page, take) are inline here: a round
 * gives millions of ranges back, and a call each cost more than the work (OpTree on 2^15 nodes:
 * 3.1 M ranges, 1% of the run's instructions); splitting, dropping and repacking pages, which
 * a few ranges in a page's worth need, are in free_colours.c.
 */
#ifndef OC_NET_FREE_COLOURS_H
#define OC_NET_FREE_COLOURS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Ranges a page holds (16 bytes each: 4 KiB a page). */
enum { OC_FC_PAGE = 256 };

typedef struct oc__fc_range {
    uint64_t lo, hi; /* colours [lo, hi) */
} oc__fc_range;

typedef struct oc__fc_page {
    uint32_t n;
    oc__fc_range r[OC_FC_PAGE];
} oc__fc_page;

typedef struct oc__free_colours {
    oc__fc_page **page; /* in colour order, none empty but the only one when n = 0 */
    size_t npages, cap;
    oc__fc_page *spare; /* a page emptied, kept for the next (a round often empties and refills) */
    size_t n;           /* ranges held: disjoint, none touching the next */
    uint64_t moves;     /* ranges (and page pointers) moved so far: what the tests bound */
} oc__free_colours;

/* Starts empty (no memory until the first range is given back). */
void oc__fc_init(oc__free_colours *fc);
void oc__fc_free(oc__free_colours *fc);

/* free_colours.c: the first range of an empty set; a full page p cut in two (the upper half
 * becomes page p + 1); page p, emptied, dropped (and the pages repacked when they are thin). */
int oc__fc_first(oc__free_colours *fc, uint64_t lo, uint64_t hi);
int oc__fc_split(oc__free_colours *fc, size_t p);
void oc__fc_thinned(oc__free_colours *fc, size_t p);

/* Gives the free colours [lo, hi) back (none of them free already): OC_ENOMEM or 0. */
static inline int oc__fc_add(oc__free_colours *fc, uint64_t lo, uint64_t hi) {
    if (lo >= hi) return 0;
    if (fc->n == 0) { /* into the page kept (a round often empties the set and refills it) */
        if (fc->npages == 0) return oc__fc_first(fc, lo, hi);
        fc->page[0]->r[0] = (oc__fc_range){lo, hi};
        fc->page[0]->n = 1;
        fc->n = 1;
        return 0;
    }
    /* its page: the last one whose first range starts at or below lo (else the first) */
    size_t p = fc->npages - 1;
    if (fc->page[p]->r[0].lo > lo) {
        size_t a = 0, b = p;
        while (a < b) {
            const size_t mid = a + (b - a) / 2;
            if (fc->page[mid]->r[0].lo <= lo)
                a = mid + 1;
            else
                b = mid;
        }
        p = a ? a - 1 : 0;
    }
    oc__fc_page *pg = fc->page[p];
    /* its place: the first range of the page starting after lo; the one before it (in this
     * page whenever there is one) may end at lo, the one after it (maybe the next page's
     * first) may start at hi */
    uint32_t i = 0, j = pg->n;
    while (i < j) {
        const uint32_t mid = i + (j - i) / 2;
        if (pg->r[mid].lo <= lo)
            i = mid + 1;
        else
            j = mid;
    }
    oc__fc_range *prev = i ? &pg->r[i - 1] : NULL;
    const size_t np = i < pg->n ? p : p + 1;
    const uint32_t ni = i < pg->n ? i : 0;
    oc__fc_range *next = np < fc->npages ? &fc->page[np]->r[ni] : NULL;
    const int joins_prev = prev && prev->hi == lo, joins_next = next && next->lo == hi;
    if (joins_prev && joins_next) { /* next joins prev and leaves its page */
        prev->hi = next->hi;
        oc__fc_page *q = fc->page[np];
        memmove(&q->r[ni], &q->r[ni + 1], (q->n - ni - 1) * sizeof *q->r);
        fc->moves += q->n - ni - 1;
        q->n--;
        fc->n--;
        if (q->n == 0 || (fc->npages > 4 && fc->npages * (OC_FC_PAGE / 4) > fc->n + OC_FC_PAGE))
            oc__fc_thinned(fc, np);
    } else if (joins_prev) {
        prev->hi = hi;
    } else if (joins_next) {
        next->lo = lo;
    } else {
        if (pg->n == OC_FC_PAGE) {
            const int rc = oc__fc_split(fc, p);
            if (rc) return rc;
            if (i > OC_FC_PAGE / 2) {
                pg = fc->page[++p];
                i -= OC_FC_PAGE / 2;
            }
        }
        memmove(&pg->r[i + 1], &pg->r[i], (pg->n - i) * sizeof *pg->r);
        fc->moves += pg->n - i;
        pg->r[i] = (oc__fc_range){lo, hi};
        pg->n++;
        fc->n++;
    }
    return 0;
}

/* Takes up to `need` colours (need >= 1) off the top of the highest run of free colours: *c0 is
 * the first taken and the return value how many ([*c0, *c0 + taken)), 0 when none is free. */
static inline uint64_t oc__fc_take(oc__free_colours *fc, uint64_t need, uint64_t *c0) {
    if (fc->n == 0) return 0;
    oc__fc_page *pg = fc->page[fc->npages - 1];
    oc__fc_range *top = &pg->r[pg->n - 1];
    const uint64_t have = top->hi - top->lo, take = have < need ? have : need;
    *c0 = top->hi - take;
    top->hi = *c0;
    if (top->hi == top->lo) {
        fc->n--;
        /* the last page, emptied: dropped (nothing above it moves), unless it is the only one */
        if (--pg->n == 0 && fc->npages > 1) oc__fc_thinned(fc, fc->npages - 1);
    }
    return take;
}

#endif
