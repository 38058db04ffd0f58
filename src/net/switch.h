/*
 * switch.h — the ideal switch's independent check (switch_check.c), called by switch.c.
 */
#ifndef OC_NET_SWITCH_H
#define OC_NET_SWITCH_H

#include "core/core.h"

typedef struct oc__sw_checker oc__sw_checker;

/* What the model claims about one round. */
typedef struct oc__sw_claim {
    uint64_t degree;      /* the largest number of transfers on one port */
    uint64_t msgs, bytes; /* the busiest port's transfers and bytes */
} oc__sw_claim;

int oc__sw_checker_new(oc__sw_checker **out);
void oc__sw_checker_free(oc__sw_checker *c);
/* Recomputes the round's port loads from the transfers alone and compares them with the claim:
 * OC_ERESOURCE with the reason when they differ. */
int oc__sw_check(oc__sw_checker *c, uint64_t round, const oc__round *r, uint32_t nodes,
                 uint64_t chunk_bytes, double alpha_s, double beta_s, const oc__sw_claim *claim,
                 char *why, size_t len);

/* A family round (core.h) claimed whole, without its transfers written out: *decided = 1 when
 * the claim is proven to be the round's port loads; *decided = 0 when it is not decided here
 * (the caller then checks the transfers written out with oc__sw_check, which names what is
 * wrong). */
int oc__sw_check_family(uint64_t round, const oc__family *f, uint32_t nodes, uint64_t chunk_bytes,
                        const oc__sw_claim *claim, int *decided);

#endif
