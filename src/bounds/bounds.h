/*
 * bounds.h — physical lower bounds: the fewest steps and the least time that EVERY schedule a
 * network model would accept needs for a collective, whatever algorithm made it (DESIGN.md,
 * "Bounds and optima").
 *
 * Where this room stands. It reads a model's settings typed (core/netcfg.h, filled by the model's
 * `config` hook) and the request's collective, N, root and SIZE, and nothing else: never an
 * algorithm, never a schedule, never a run's figures. The pipeline (src/run) asks it and puts the
 * answer in the report beside the algorithm's own `steps_lower_bound` (which bounds what the model
 * can do with that one schedule: a different thing, and the names say so).
 *
 * Every bound is the largest of several named arguments, each proven in the essay of the file
 * that computes it, from the rules of the model file it names (what a step is, what it may carry,
 * what it costs):
 *   bounds_common.c  what all networks share: relay depth, one-way gossip's 2(N-1) transfers,
 *                    the tree-length of a spanning tree of few levels on a ring;
 *   bounds_ring.c    the WDM ring (net/ring.c);
 *   bounds_star.c    the passive optical star (net/star.c);
 *   bounds_fabric.c  the photonic fabric (net/fabric.c);
 *   bounds_switch.c  the ideal switch (net/switch.c) and the fat-tree (net/fattree.c);
 *   bounds_direct.c  the hypercube, torus and mesh (net/direct.c).
 * The work is a few thousand arithmetic operations plus, on the ring, a dynamic programme over a
 * geometric grid of node counts: milliseconds at N = 131072.
 */
#ifndef OC_BOUNDS_H
#define OC_BOUNDS_H

#include "core/core.h"
#include "core/netcfg.h"

typedef struct oc__pbound_in {
    oc_collective coll;
    uint32_t nodes, root;
    uint64_t bytes; /* SIZE as the user gives it (spec.c: a block, or the whole vector) */
    oc__netcfg cfg; /* the model's settings; kind OC_NETCFG_NONE: no bound is known */
} oc__pbound_in;

typedef struct oc__pbound {
    uint64_t steps;        /* physical steps every accepted schedule needs */
    double time_s;         /* time every accepted schedule needs, in the model's time scale */
    const char *steps_arg; /* the argument that gave `steps` (a static string) */
    const char *time_arg;  /* the argument that gave `time_s` */
    /* what kind of argument time_arg is, so which side a gap points at (opticoll_core.h,
     * oc_loose_side): SCHEDULE for a capacity some schedule meets, BOUND for one that ignores
     * the data volume, BOTH where neither is known; set beside time_arg, never NONE */
    oc_loose_side gap_side;
} oc__pbound;

/* The bound for `in`; 0, or OC_ENOTSUP when the model hands nothing typed (kind NONE) or the
 * collective is unknown, with a reason. */
int oc__pbound_compute(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);

/* ---- shared arguments (bounds_common.c) ---- */

/* The fewest steps in which something held by one node reaches n nodes when a holder hands it
 * to at most `fanout` others a step: the least L with (fanout + 1)^L >= n (0 for n <= 1). */
uint64_t oc__pb_relay_depth(uint64_t n, uint64_t fanout);

/* c(n, p) = sum_{j=1..n} ceil(j / (2p)): the least total ring distance of n new nodes to their
 * nearest of p centres (at most 2p nodes lie at each distance). p >= 1. */
uint64_t oc__pb_level_cost(uint64_t n, uint64_t p);

/* T*(N, h) for h = 1..hmax, lower bounds on the total lightpath length (link slots) of any
 * spanning tree of an N-node ring rooted anywhere whose depth is at most h (bounds_common.c's
 * essay): out[h - 1]. Exact (the minimum over level compositions) for N <= OC_PB_EXACT_NODES,
 * a proven relaxation on a geometric grid above. 0, OC_ENOMEM. */
enum { OC_PB_EXACT_NODES = 512 };
int oc__pb_tree_length(uint32_t N, uint32_t hmax, uint64_t *out);

/* E(N, h) for h = 1..hmax: the least total lightpath length of a spanning tree of an N-node ring
 * of depth <= h, exactly (bounds_common.c's essay): out[h - 1]. A level costs O(N log N) while
 * the gap costs stay convex (checked as it goes), O(N^2) otherwise, and a level past
 * OC_PB_RING_TREE_WORK additions that way is given N - 1 (every tree's least) instead. Callers
 * keep hmax N (log2 N + 6) within OC_PB_RING_TREE_WORK (about 5 ms). 0, OC_ENOMEM.
 * oc__pb_ring_tree_exact_by with quadratic = 1 always takes the O(N^2) way (for the tests). */
#define OC_PB_RING_TREE_WORK 5000000.0
int oc__pb_ring_tree_exact(uint32_t N, uint32_t hmax, uint64_t *out);
int oc__pb_ring_tree_exact_by(uint32_t N, uint32_t hmax, uint64_t *out, int quadratic);

/* ---- per family ---- */
int oc__pbound_ring(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);
int oc__pbound_star(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);
int oc__pbound_fabric(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);
int oc__pbound_switch(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);
int oc__pbound_fattree(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);
int oc__pbound_direct(const oc__pbound_in *in, oc__pbound *out, char *why, size_t whylen);

/* What SIZE is per node for the collective (the unit a chunk count divides): one block (the
 * all-gather family, all-to-all per destination, reduce-scatter's vector / N rounded up) or the
 * whole message (all-reduce, broadcast). Chunks of a schedule are ceil(unit / q) bytes. */
uint64_t oc__pb_unit_bytes(const oc__pbound_in *in);
/* Bytes some one node's port must carry in the whole schedule (its receive side, or its send
 * side: the argument in bounds_common.c's essay), bytes counted as the models count them (count x
 * chunk bytes, which is at least the data): all-gather, gossip, all-to-all, the gather's root:
 * (N - 1) unit received; the scatter's root and every node of a reduce-scatter: (N - 1) unit sent;
 * broadcast: the message received; all-reduce: 2(N - 1) / N of the vector, an average over the
 * nodes (a round's busiest port carries at least the average). *what names it. */
double oc__pb_port_bytes(const oc__pbound_in *in, const char **what);
/* Chunks (q >= 1, so at least this many) some one node must receive or send, one per block it
 * lacks: N - 1 for the port-bytes collectives above, 1 for broadcast, and for all-reduce the
 * average 2(N - 1) / N rounded up. */
uint64_t oc__pb_port_chunks(const oc__pbound_in *in);
/* The largest chunks per unit any schedule may cut (spec.c: at most 2^32 - 1 labels). */
uint64_t oc__pb_max_q(const oc__pbound_in *in);

#endif
