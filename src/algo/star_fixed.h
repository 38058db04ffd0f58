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
