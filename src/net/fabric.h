/*
 * fabric.h — the photonic rack's independent resource check (fabric_check.c), called by fabric.c.
 */
#ifndef OC_NET_FABRIC_H
#define OC_NET_FABRIC_H

#include "core/core.h"

typedef struct oc__fab_checker oc__fab_checker;

/* The rack: nodes (one GPU per tile) numbered server by server. */
typedef struct oc__fab_shape {
    uint32_t nodes;
    uint32_t tiles_per_server;
    uint64_t wavelengths; /* per tile and direction */
    uint64_t fibres;      /* per ordered pair of servers */
    uint32_t mzi_degree;  /* concurrent circuits a tile's MZI switch holds per direction; 0: any */
} oc__fab_shape;

int oc__fab_checker_new(oc__fab_checker **out);
void oc__fab_checker_free(oc__fab_checker *c);
/* Checks the model's claim for one round: wl[i] wavelengths for the circuit of transfer i. Proves,
 * from the transfers alone, that every circuit's path exists, that no tile sends or receives on
 * more than its wavelengths or on more circuits than its MZI degree, that no pair of servers uses more than its fibres, and that wl[i] is
 * the share the fabric's rule gives. OC_ERESOURCE with a reason naming the round otherwise. */
int oc__fab_check(oc__fab_checker *c, uint64_t round, const oc__round *r, const oc__fab_shape *s,
                  const uint32_t *wl, char *why, size_t len);

#endif
