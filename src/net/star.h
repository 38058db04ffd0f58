/*
 * star.h — what the passive optical star model (star.c) and its independent resource check
 * (star_check.c) share: one physical step's claimed wavelength assignment.
 *
 * A claim is one (transmitter, receiver) stream of a step: the processors, the transmitter laser
 * and receiver filter used (port numbers 0..k-1), the wavelength both are on, the messages it
 * carries, and whether the receiver's filter had to be retuned for it. The check recomputes
 * everything else from the logical round itself.
 */
#ifndef OC_STAR_H
#define OC_STAR_H

#include "core/core.h"

typedef struct oc__star_claim {
    uint32_t src, dst;
    uint32_t tx_port, rx_port;
    uint64_t wavelength;
    uint64_t messages; /* its chunks x ceil(chunk bytes / L), messages of L bytes (its chunks
                          when the run carries no payload): each costs L x tau */
    uint32_t step;     /* sub-step of the round, 0-based */
    uint32_t retuned;  /* 1 when the receiver filter changed wavelength for this stream */
} oc__star_claim;

typedef struct oc__star_checker oc__star_checker;

/* A checker for P processors with k lasers and k filters each, chunks of chunk_bytes and
 * messages of L bytes (a chunk's messages: ceil(chunk_bytes / L); one when chunk_bytes is 0). */
int oc__star_checker_new(uint32_t nodes, uint32_t k, uint64_t chunk_bytes, double L,
                         oc__star_checker **out);
void oc__star_checker_free(oc__star_checker *c);
/* Checks the claims of one logical round (index `round`; its physical steps are numbered from
 * `first_step`): every (src, dst) pair of the round is carried exactly once with all its messages;
 * in every step each processor uses at most k lasers and k filters, each on one wavelength; a
 * laser and the filter it feeds are on the same wavelength; every wavelength has at most one
 * transmitter; and the claimed retunings are exactly those the filters' history requires.
 * OC_ERESOURCE names the step, the wavelength and the processors. The cost is recomputed too:
 * *steps, *retunes and *messages (the sum over the round's steps of the largest stream) are the
 * check's own figures, which the model must match. */
int oc__star_check(oc__star_checker *c, uint64_t round, uint64_t first_step, const oc__round *r,
                   const oc__star_claim *claims, size_t n, uint64_t *steps, uint64_t *retunes,
                   uint64_t *messages, char *why, size_t whylen);

#endif
