/*
 * free_colours.c — the free colours of a ring round with no arc through the cut, for ring.c's
 * colour_intervals (see free_colours.h).
 *
 * What the colouring needs: give a range of colours back anywhere; take colours from the top of
 * the highest maximal run of free colours. It was a sorted array of coalesced ranges, with a
 * binary search and a memmove on every insertion: a round whose intervals end in decreasing
 * order of colour, each leaving a gap (a long arc holding the next colour), inserted every range
 * at the front, n^2 / 2 moves for n ranges (200k short arcs: 2e10 range moves, 320 GB of memmove).
 *
 * Now a binary max-heap on the ranges' low ends, coalesced lazily: a range given back is pushed
 * as it is (O(log n), O(1) when it lands below its parent, as returns in decreasing order do),
 * and only the top is ever coalesced, when colours are taken. Ranges are disjoint, so the second
 * highest range is the larger child of the root; while it ends where the root starts it joins the
 * root (which stays the highest) and leaves the heap. Then the root is the highest maximal run of
 * free colours, exactly the last range of the sorted, coalesced array, and the colours taken (as
 * many as the run has, at most `need`, from its top) are the same colour for colour. Every range
 * joins another at most once, so a take costs O(log n) amortised.
 */
#include "net/free_colours.h"
#include "core/core.h"

#include <stdlib.h>

void oc__fc_init(oc__free_colours *fc) {
    fc->heap = NULL;
    fc->n = fc->cap = 0;
    fc->moves = 0;
}

void oc__fc_clear(oc__free_colours *fc) {
    fc->n = 0;
}

void oc__fc_free(oc__free_colours *fc) {
    free(fc->heap);
    oc__fc_init(fc);
}

static void sift_up(oc__free_colours *fc, size_t i) {
    oc__fc_range *h = fc->heap;
    const oc__fc_range x = h[i];
    while (i > 0) {
        const size_t parent = (i - 1) / 2;
        if (h[parent].lo > x.lo) break;
        h[i] = h[parent];
        fc->moves++;
        i = parent;
    }
    h[i] = x;
}

static void sift_down(oc__free_colours *fc, size_t i) {
    oc__fc_range *h = fc->heap;
    const oc__fc_range x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= fc->n) break;
        if (c + 1 < fc->n && h[c + 1].lo > h[c].lo) c++;
        if (h[c].lo < x.lo) break;
        h[i] = h[c];
        fc->moves++;
        i = c;
    }
    h[i] = x;
}

/* Removes the range at i: the last one takes its place and moves up or down to where it fits. */
static void remove_at(oc__free_colours *fc, size_t i) {
    fc->n--;
    if (i == fc->n) return;
    fc->heap[i] = fc->heap[fc->n];
    if (i > 0 && fc->heap[(i - 1) / 2].lo < fc->heap[i].lo)
        sift_up(fc, i);
    else
        sift_down(fc, i);
}

int oc__fc_add(oc__free_colours *fc, uint64_t lo, uint64_t hi) {
    if (lo >= hi) return 0;
    if (fc->n == fc->cap &&
        oc__grow((void **)&fc->heap, &fc->cap, fc->n + 1, sizeof(oc__fc_range)))
        return OC_ENOMEM;
    fc->heap[fc->n] = (oc__fc_range){lo, hi};
    sift_up(fc, fc->n++);
    return 0;
}

uint64_t oc__fc_take(oc__free_colours *fc, uint64_t need, uint64_t *c0) {
    if (fc->n == 0) return 0;
    oc__fc_range *h = fc->heap;
    for (;;) { /* the root joins the ranges just below it: the highest maximal run */
        size_t c = 1;
        if (c >= fc->n) break;
        if (c + 1 < fc->n && h[c + 1].lo > h[c].lo) c++;
        if (h[c].hi != h[0].lo) break;
        h[0].lo = h[c].lo;
        fc->moves++;
        remove_at(fc, c);
    }
    const uint64_t have = h[0].hi - h[0].lo, take = have < need ? have : need;
    *c0 = h[0].hi - take;
    h[0].hi = *c0;
    if (h[0].hi == h[0].lo) remove_at(fc, 0);
    return take;
}
