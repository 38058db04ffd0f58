/*
 * ring.h — pieces of the WDM ring model shared by the assignment (ring.c) and the independent
 * resource check (ring_check.c). Only the data format is shared, no code (tests/arch/layering.py
 * refuses an inline function here): the check re-derives every arc from the transfer's endpoints
 * and the chosen direction and trusts nothing else.
 */
#ifndef OC_NET_RING_H
#define OC_NET_RING_H

#include "core/core.h"

enum { RING_CW = 0, RING_CCW = 1 };

/* One piece of a transfer's wavelength assignment: colours [c0, c0 + n) of its direction in this
 * round. Colour c is (step c / (F*w), fibre (c / w) % F, wavelength c % w): a lightpath per colour.
 * Colours are 64-bit (a round of big bundles, Bruck's last rounds on 2^20 nodes, needs 2^37 of
 * them); 16 bytes a fragment, most transfers having one. */
typedef struct oc__ring_frag {
    uint64_t c0;
    uint32_t xfer; /* index of the transfer in the round */
    uint32_t n;    /* colours, at least 1 in a well-formed assignment */
} oc__ring_frag;

typedef struct oc__ring_assignment {
    /* Per transfer, a bit: RING_CW (0) or RING_CCW (1); transfer i's is bit i % 64 of word
     * i / 64. Each side reads it with its own code: this header holds the format only. */
    const uint64_t *dir;
    const oc__ring_frag *frags[2]; /* per direction */
    size_t nfrags[2];
    uint64_t colours[2]; /* colours used per direction */
} oc__ring_assignment;

typedef struct oc__ring_checker oc__ring_checker;

int oc__ring_checker_new(uint32_t nodes, oc__ring_checker **out);
void oc__ring_checker_free(oc__ring_checker *c);
/* Checks one round's assignment: every transfer's units are covered exactly once, and no colour
 * (= step, fibre, wavelength) carries two lightpaths on one directed link. OC_ERESOURCE with the
 * step, fibre, wavelength, link and both transfers named otherwise. */
int oc__ring_check(oc__ring_checker *c, uint64_t round, const oc__round *r,
                   const oc__ring_assignment *a, uint32_t fibres, uint32_t wavelengths, char *why,
                   size_t whylen);
/* Checks a family round (core.h) of which every transfer has the one colour range [c0, c0 + n)
 * in direction d, out of `colours` colours of d, without writing it out: *decided = 1 when that
 * is proven to pass (coverage and no shared colour on a link); *decided = 0 when it is not
 * decided here, and the caller checks the round written out with oc__ring_check, which decides
 * and names the failure. */
int oc__ring_check_family(oc__ring_checker *c, uint64_t round, const oc__family *f, int d,
                          uint64_t c0, uint64_t n, uint64_t colours, int *decided, char *why,
                          size_t whylen);

/* Tests' hooks into the ring model (ring.c, "the other direction's mirror image"): a run whose
 * direction 1 never takes direction 0's count (off = 1), and how many directions did. */
typedef struct oc__netrun oc__netrun;
void oc__ring_mirror_off(oc__netrun *m, int off);
uint64_t oc__ring_mirrored(const oc__netrun *m);

#endif
