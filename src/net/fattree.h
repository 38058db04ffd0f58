/*
 * fattree.h — pieces of the two-level fat-tree model shared by the routing and costing code
 * (fattree.c) and the independent resource check (fattree_check.c). Only the data format is
 * shared: the check re-derives which vertices are adjacent, which path is shortest, how many
 * packets a transfer is and how many land on every directed link, and trusts nothing else.
 */
#ifndef OC_NET_FATTREE_H
#define OC_NET_FATTREE_H

#include "core/core.h"

/* The tree: `leaves` leaf routers with `down` node ports each (node n hangs off leaf n / down) and
 * `up` spine ports each; spine s (0 <= s < up) has one link to every leaf. Vertices are numbered
 * nodes 0..N-1, then leaves N..N+L-1, then spines N+L..N+L+up-1. */
typedef struct oc__ft_topo {
    uint32_t nodes, down, up, leaves;
} oc__ft_topo;

enum { OC_FT_MAXPATH = 5 }; /* node, leaf, spine, leaf, node */

/* A transfer's route as the vertices it visits, source first and destination last. */
typedef struct oc__ft_path {
    uint32_t v[OC_FT_MAXPATH];
    uint32_t n; /* vertices on the path: 3 inside a leaf, 5 through a spine */
} oc__ft_path;

/* What the routing code says one directed link carries in the round. */
typedef struct oc__ft_link_load {
    uint32_t from, to;  /* vertices */
    uint64_t packets;   /* packets of all transfers routed over it */
    uint32_t transfers; /* how many transfers share it */
} oc__ft_link_load;

/* The routing code's account of one round. */
typedef struct oc__ft_assignment {
    const oc__ft_path *paths;      /* per transfer */
    const uint64_t *bottleneck;    /* per transfer: packets on its most loaded link */
    const oc__ft_link_load *links; /* every link that carries something, each once */
    size_t nlinks;
    double round_time; /* seconds: the slowest transfer */
} oc__ft_assignment;

/* The cost terms, so that the check can recompute packets and times on its own. */
typedef struct oc__ft_cost {
    uint64_t chunk_bytes, packet_bytes;
    double packet_s; /* one packet on one link */
    double router_s; /* one router traversed */
} oc__ft_cost;

typedef struct oc__ft_checker oc__ft_checker;

int oc__ft_checker_new(const oc__ft_topo *t, oc__ft_checker **out);
void oc__ft_checker_free(oc__ft_checker *c);
/* Checks one round's assignment: every path starts at its source, ends at its destination, moves
 * only along links of the tree and is shortest; the claimed per-link packets and sharing counts
 * equal the ones recomputed from the paths, for every loaded link and no other; every transfer's
 * bottleneck and the round's time follow from them. OC_ERESOURCE naming the round, the transfer
 * or link and the two values otherwise. O(transfers + loaded links). */
int oc__ft_check(oc__ft_checker *c, uint64_t round, const oc__round *r, const oc__ft_assignment *a,
                 const oc__ft_cost *cost, char *why, size_t whylen);

#endif
