/*
 * wrht_tree.h — the WRHT hierarchy (wrht_tree.c).
 */
#ifndef OC_WRHT_TREE_H
#define OC_WRHT_TREE_H

#include "core/core.h"

enum { OC_WRHT_MAX_LEVELS = 40 };
/* The final all-to-all among r representatives is r (r - 1) transfers: at most 2^24, r <= 4096. */
#define OC_WRHT_A2A_MAX_TRANSFERS (UINT64_C(1) << 24)
#define OC_WRHT_A2A_MAX_REPS 4096u

/* Which member of a group becomes its representative (rep=): the seed's "intermediate" (middle)
 * member, index (size-1)/2 (III.C.1: it collects from both sides on ceil(m/2) wavelengths), or
 * the first or last member along the ring (every member then sends from one side). */
enum { OC_WRHT_REP_MIDDLE, OC_WRHT_REP_FIRST, OC_WRHT_REP_LAST, OC_WRHT_REPS };
extern const char *const oc__wrht_rep_names[OC_WRHT_REPS];

/* The index within a group of `size` members of its representative under `rule`. */
static inline uint32_t oc__wrht_rep_index(uint32_t size, int rule) {
    return rule == OC_WRHT_REP_FIRST ? 0 : rule == OC_WRHT_REP_LAST ? size - 1 : (size - 1) / 2;
}

typedef struct oc__wrht_tree {
    uint32_t m, levels;                 /* group size; grouping levels done */
    int rep;                            /* OC_WRHT_REP_*: the representative of each group */
    uint32_t pieces;                    /* chunks the vector is cut into (all-reduce) */
    uint32_t count[OC_WRHT_MAX_LEVELS]; /* representatives at each level (level 0: N) */
    uint32_t *reps[OC_WRHT_MAX_LEVELS]; /* their node numbers, in ring order */
    uint32_t *lo[OC_WRHT_MAX_LEVELS];   /* nodes [lo, hi) lie below each representative */
    uint32_t *hi[OC_WRHT_MAX_LEVELS];
} oc__wrht_tree;

/* Group a of level l: members reps[l][a*m .. a*m + size), representative reps[l+1][a]. */
static inline uint32_t oc__wrht_group_size(const oc__wrht_tree *t, uint32_t l, uint32_t a) {
    uint32_t first = a * t->m, r = t->count[l];
    return r - first < t->m ? r - first : t->m;
}

/* plan() and release() of the WRHT algorithms, the tree in plan->state. The all-gather moves one
 * chunk per block; the all-reduce may cut its vector into pieces= chunks (striped over several
 * wavelengths at once). */
typedef struct oc__plan oc__plan;
int oc__wrht_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t len);
int oc__wrht_plan_striped(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t len);
void oc__wrht_release(oc__plan *p);

/* Reads the pins m=, alltoall= (and pieces= when striped), each 0 when not pinned, and rep=
 * (*rep: an OC_WRHT_REP_*, or -1 when not pinned); refuses an unknown parameter or a value outside
 * its range (m 2..N, alltoall 1..N, pieces 1..65536, rep middle|first|last) with one line naming
 * the range. */
int oc__wrht_pins(uint32_t nodes, const oc_kv *params, int striped, uint64_t *m, uint64_t *a2a,
                  uint64_t *pieces, int *rep, char *why, size_t len);

/* The parameter search (wrht_search.c): offers the (m, alltoall[, pieces], rep) sets, the
 * all-gather's (striped = 0) or the all-reduce's, with proven bounds on the ring. */
typedef struct oc__search_in oc__search_in;
typedef struct oc__search oc__search;
int oc__wrht_search(const oc__search_in *in, oc__search *s, int striped, char *why, size_t len);

#endif
