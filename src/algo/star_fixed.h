/*
 * star_fixed.h — schedules on one fixed digraph of the passive optical star, shared by the
 * algorithms that tune once (gather_ktree.c, broadcast_ktree.c, gossip_kautz.c,
 * alltoall_kautz.c; the essay of star_fixed.c says why and how).
 */
#ifndef OC_STAR_FIXED_H
#define OC_STAR_FIXED_H

#include "algo/algos.h"

/* The digraph families of the kautz algorithms: Imase and Itoh's generalised Kautz digraph
 * (u -> -d u - j mod P, j = 1..d) and Reddy, Pradhan and Kuhl's generalised de Bruijn digraph
 * (u -> d u + j mod P, j = 0..d-1), both without loops and repeated arcs; degree 1 is the
 * directed ring u -> u + 1 in both. */
enum { OC_SF_KAUTZ = 0, OC_SF_DEBRUIJN = 1 };

/* The most processors of a fixed-digraph schedule (its routes keep a label a delivery). */
#define OC_SF_MAX_NODES 1024u

typedef struct oc__sf_graph {
    uint32_t P, d;         /* processors; at most d arcs out of and into each */
    uint32_t *out;         /* P x d out-neighbours, UINT32_MAX past the last */
    uint32_t *in;          /* P x d in-neighbours, UINT32_MAX past the last */
    uint32_t *in_arc;      /* P x d: the arc (u d + i) of each in-neighbour */
    uint32_t diameter;     /* UINT32_MAX when not strongly connected */
    uint64_t distance_sum; /* the sum of dist(s, v) over ordered pairs */
} oc__sf_graph;

/* Builds the family's digraph of degree d on P processors (d >= 1), with its diameter and
 * distance sum (a BFS from every processor, O(P^2 d)). 0, OC_ENOMEM, or the memory budget's
 * refusal. */
int oc__sf_graph_build(oc__sf_graph *g, uint32_t P, uint32_t d, int family, char *why, size_t len);
void oc__sf_graph_free(oc__sf_graph *g);

/* The routes of a store-and-forward schedule on a fixed digraph: entries (round, arc, label),
 * grouped by round and, within a round, by arc in the order they were added. */
typedef struct oc__sf_routes {
    uint32_t rounds;
    uint64_t arcs;   /* P x d arc slots: arc u d + i is u -> out[u d + i] */
    uint64_t *start; /* rounds x arcs + 1 bucket starts into label[] */
    uint32_t *label; /* the labels (a block, or an all-to-all packet) */
    uint64_t entries;
    uint64_t padded;    /* entries added only to keep an arc busy (see star_fixed.c) */
    uint64_t max_round; /* the most entries of one round */
} oc__sf_routes;

/* Gossip (all-gather) routes: every processor's block to every other along a shortest path,
 * one arc a round, the parents chosen to balance each round's arcs; then every arc of every
 * round carries something (a block its receiver may already hold where nothing new is due).
 * Labels are block numbers. */
int oc__sf_routes_gossip(const oc__sf_graph *g, oc__sf_routes *r, char *why, size_t len);
/* All-to-all routes: packet s -> v (label v P + s) along a shortest path of s's balanced BFS
 * tree, hop h in round h; every arc busy every round as above. */
int oc__sf_routes_alltoall(const oc__sf_graph *g, oc__sf_routes *r, char *why, size_t len);
void oc__sf_routes_free(oc__sf_routes *r);
/* Emits the routes: round by round, one transfer of q chunks (label x q) a label, runs of
 * consecutive labels on one arc merged. */
int oc__sf_routes_emit(const oc__sf_graph *g, const oc__sf_routes *r, uint32_t q, oc__emit *e);

/* The complete d-ary tree on P processors rooted at position 0 (processor root + x mod P for
 * position x), its last level spread round-robin over the root's subtrees: parent[x] (parent[0]
 * = 0) and depth[x]; *height its depth. */
int oc__sf_tree(uint32_t P, uint32_t d, uint32_t **parent, uint32_t **depth, uint32_t *height,
                char *why, size_t len);
/* The least S with 1 + d + ... + d^S >= P: the height of that tree (P - 1 at d = 1). */
uint32_t oc__sf_tree_height(uint64_t P, uint64_t d);

/* The kautz algorithms' plan (degree=, family=; q = 1), generator, release and search: every
 * degree from the network's k down to 1 in both families, bounded by the Moore depth and a
 * processor's receptions over d streams (star_fixed.c). */
int oc__sf_kautz_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len);
int oc__sf_kautz_generate(const oc__plan *plan, oc__emit *e);
void oc__sf_kautz_release(oc__plan *plan);
int oc__sf_kautz_search(const oc__search_in *in, oc__search *s, char *why, size_t len);

/* The search's space of degrees: the network's k (capped at 64 and at P - 1), read from the
 * star's settings; OC_ENOTSUP off the star. */
int oc__sf_degrees(const oc__search_in *in, const char *algo, uint32_t *dmax, char *why,
                   size_t len);

#endif
