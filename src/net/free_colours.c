/*
 * free_colours.c — the free colours of a ring round with no arc through the cut, for ring.c's
 * colour_intervals (see free_colours.h).
 *
 * What the colouring needs: give a range of colours back anywhere; take colours from the top of
 * the highest run of free colours. It was one sorted array of coalesced ranges, with a binary
 * search and a memmove on every insertion: a round whose intervals end in decreasing order of
 * colour, each leaving a gap (a long arc holding the next colour), inserted every range at the
 * front, n^2 / 2 moves for n ranges (200k short arcs: 2e10 range moves, 320 GB of memmove).
 *
 * Now the same sorted, coalesced ranges cut into pages of at most OC_FC_PAGE, with a directory of
 * the pages in order. A range given back finds its page by the pages' first ranges (the last page
 * first: binary search only below it), its place in the page (binary search), and joins its
 * neighbours exactly as before (the neighbour above may be the next page's first range); a range
 * that joins neither is inserted in its page, a memmove of at most a page, and a full page splits
 * in two halves. So the ranges, in order, are at every moment those of the one array, and a take
 * (the last range of the last page, cut from the top) gives the same colours; on the rounds the
 * seeds make, a few pages hold them all and the work is the array's. Pages thinned by joins are
 * repacked half full once they average under a quarter full, O(n) once every Omega(n)
 * operations, so the directory holds at most 4n / OC_FC_PAGE + 4 pages and an operation moves
 * O(OC_FC_PAGE + n / OC_FC_PAGE^2) ranges and page pointers, amortised: hundreds, not n.
 */
#include "net/free_colours.h"
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

void oc__fc_init(oc__free_colours *fc) {
    memset(fc, 0, sizeof *fc);
}

void oc__fc_free(oc__free_colours *fc) {
    for (size_t p = 0; p < fc->npages; p++)
        free(fc->page[p]);
    free(fc->page);
    free(fc->spare);
    oc__fc_init(fc);
}

/* An empty page: the spare one, else a new one (NULL without memory). */
static oc__fc_page *new_page(oc__free_colours *fc) {
    oc__fc_page *pg = fc->spare ? fc->spare : malloc(sizeof *pg);
    fc->spare = NULL;
    if (pg) pg->n = 0;
    return pg;
}

/* Keeps an emptied page as the spare one (or frees it when there is one). */
static void drop_page(oc__free_colours *fc, oc__fc_page *pg) {
    if (fc->spare)
        free(pg);
    else
        fc->spare = pg;
}

/* Puts page pg at place i of the directory. */
static int dir_insert(oc__free_colours *fc, size_t i, oc__fc_page *pg) {
    if (fc->npages == fc->cap &&
        oc__grow((void **)&fc->page, &fc->cap, fc->npages + 1, sizeof *fc->page))
        return OC_ENOMEM;
    memmove(&fc->page[i + 1], &fc->page[i], (fc->npages - i) * sizeof *fc->page);
    fc->moves += fc->npages - i;
    fc->page[i] = pg;
    fc->npages++;
    return 0;
}

int oc__fc_first(oc__free_colours *fc, uint64_t lo, uint64_t hi) {
    oc__fc_page *pg = new_page(fc);
    if (!pg) return OC_ENOMEM;
    if (dir_insert(fc, 0, pg)) {
        drop_page(fc, pg);
        return OC_ENOMEM;
    }
    pg->r[0] = (oc__fc_range){lo, hi};
    pg->n = 1;
    fc->n++;
    return 0;
}

int oc__fc_split(oc__free_colours *fc, size_t p) {
    oc__fc_page *pg = fc->page[p], *upper = new_page(fc);
    const uint32_t half = OC_FC_PAGE / 2;
    if (!upper) return OC_ENOMEM;
    if (dir_insert(fc, p + 1, upper)) {
        drop_page(fc, upper);
        return OC_ENOMEM;
    }
    memcpy(upper->r, pg->r + half, (OC_FC_PAGE - half) * sizeof *pg->r);
    upper->n = OC_FC_PAGE - half;
    pg->n = half;
    fc->moves += OC_FC_PAGE - half;
    return 0;
}

/* Repacks the ranges half a page a page, in order, into the first pages, and drops the others.
 * Only for speed: without the memory for it, the pages stay as they are (still correct). */
static void repack(oc__free_colours *fc) {
    oc__fc_range *all = malloc(fc->n * sizeof *all);
    if (!all) return;
    size_t k = 0;
    for (size_t p = 0; p < fc->npages; p++) {
        memcpy(all + k, fc->page[p]->r, fc->page[p]->n * sizeof *all);
        k += fc->page[p]->n;
    }
    const size_t half = OC_FC_PAGE / 2, used = (k + half - 1) / half;
    for (size_t p = 0; p < fc->npages; p++) {
        if (p >= used) {
            drop_page(fc, fc->page[p]);
            continue;
        }
        const size_t n = k - p * half < half ? k - p * half : half;
        memcpy(fc->page[p]->r, all + p * half, n * sizeof *all);
        fc->page[p]->n = (uint32_t)n;
    }
    fc->npages = used;
    fc->moves += 2 * k;
    free(all);
}

void oc__fc_thinned(oc__free_colours *fc, size_t p) {
    if (fc->page[p]->n == 0) {
        drop_page(fc, fc->page[p]);
        memmove(&fc->page[p], &fc->page[p + 1], (fc->npages - p - 1) * sizeof *fc->page);
        fc->moves += fc->npages - p - 1;
        fc->npages--;
    }
    if (fc->npages > 4 && fc->npages * (OC_FC_PAGE / 4) > fc->n + OC_FC_PAGE) repack(fc);
}
