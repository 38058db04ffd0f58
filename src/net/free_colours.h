/*
 * free_colours.h — the free colours of a ring round with no arc through the cut (ring.c's
 * colour_intervals), kept so that every operation is O(log n) in the ranges held.
 *
 * The colouring gives colours back as ranges, anywhere below the highest colour used, and takes
 * them from the top: the highest maximal run of free colours, as much of it as a bundle needs.
 * oc__fc_take answers exactly what a sorted array of coalesced ranges would (its last range, cut
 * from the top), so the assignment is the same colour for colour; free_colours.c says how.
 */
#ifndef OC_NET_FREE_COLOURS_H
#define OC_NET_FREE_COLOURS_H

#include <stddef.h>
#include <stdint.h>

typedef struct oc__fc_range {
    uint64_t lo, hi; /* colours [lo, hi) */
} oc__fc_range;

typedef struct oc__free_colours {
    oc__fc_range *heap; /* a binary max-heap on lo; adjacent ranges may sit apart until the top */
    size_t n, cap;
    uint64_t moves; /* ranges moved or merged in the heap so far (the tests bound it) */
} oc__free_colours;

/* Starts empty (no memory until the first range is given back). */
void oc__fc_init(oc__free_colours *fc);
/* Empties it, keeping its memory for the next round. */
void oc__fc_clear(oc__free_colours *fc);
void oc__fc_free(oc__free_colours *fc);

/* Gives the free colours [lo, hi) back (lo < hi, none of them free already): OC_ENOMEM or 0. */
int oc__fc_add(oc__free_colours *fc, uint64_t lo, uint64_t hi);

/* Takes up to `need` colours (need >= 1) off the top of the highest maximal run of free
 * colours: *c0 is the first taken and the return value how many ([*c0, *c0 + taken)), 0 when no
 * colour is free. */
uint64_t oc__fc_take(oc__free_colours *fc, uint64_t need, uint64_t *c0);

#endif
