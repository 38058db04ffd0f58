/*
 * circulant.h — the shortest spanning trees of a given depth on the ring, rotated to every
 * source, shared by the `circulant` all-gather and all-reduce (circulant.c holds the programme
 * and the trees' round loads; each algorithm file its essay).
 */
#ifndef OC_ALGO_CIRCULANT_H
#define OC_ALGO_CIRCULANT_H

#include "algo/algos.h"

enum { OC__CIRC_MAX_NODES = 4096, OC__CIRC_QUADRATIC_NODES = 1024, OC__CIRC_MAX_DEPTH = 48 };

/* One tree of offsets from its source 0: label[p] (p = 1..N-1) is the round in which offset p
 * first gets the chunk, parent[p] the offset it gets it from (0: the source), count[t] the
 * offsets of round t (t = 1..depth). */
typedef struct oc__circ_tree {
    uint32_t N, depth;
    uint32_t *label, *parent, *count;
} oc__circ_tree;

/* The programme's argmins for levels 1..kmax (level k: k + 1 labels left). */
typedef struct oc__circ_dp {
    uint32_t N, kmax;
    uint32_t *ly, *ma, *split; /* [k * (N + 1) + x] */
    /* NULL, or (oc__circ_dp_build_mirror) the mirrored programme's argmins: the left part's size
     * of a gap symmetric about the antipode */
    uint32_t *sym;
    /* with sym: each level's least gap lengths, D_k (plain) and Sym_k (mirrored), [k (N+1) + g] */
    uint64_t *dval, *sval;
} oc__circ_dp;

/* The programme on N nodes for trees of depth up to kmax + 1: 0 or OC_ENOMEM. slopes = 0: the
 * quadratic way, O(kmax N^2), its first minimisers; 1: the slope merges where the level is
 * convex (O(N log N)), their minimisers (circulant.c's essay). */
int oc__circ_dp_build(oc__circ_dp *dp, uint32_t N, uint32_t kmax, int slopes);
/* The same, and with mirror = 1 the mirrored programme too (O(kmax N^2 / 4) more): the shortest
 * trees symmetric under p -> -p, for oc__circ_tree_mirror_of. */
int oc__circ_dp_build_mirror(oc__circ_dp *dp, uint32_t N, uint32_t kmax, int slopes, int mirror);
void oc__circ_dp_free(oc__circ_dp *dp);
/* A shortest tree of depth `depth` (1..kmax + 1): 0 or OC_ENOMEM. */
int oc__circ_tree_of(const oc__circ_dp *dp, uint32_t depth, oc__circ_tree *t);
void oc__circ_tree_free(oc__circ_tree *t);
/* The shortest tree of depth `depth` among those symmetric under p -> -p (the mirrored tree:
 * offset -p has p's label and the mirror of p's parent), from a programme built with mirror = 1:
 * every round puts the same arc length on both directions (but for the antipode's arc on an even
 * ring). 0, OC_ENOMEM, or OC_EINVAL when the programme has no mirrored part. */
int oc__circ_tree_mirror_of(const oc__circ_dp *dp, uint32_t depth, oc__circ_tree *t);
/* The shortest mirrored tree of depth `depth` (2..kmax + 1) whose first round puts at most
 * `budget` arc units on each direction (a round that fits budget / (F w) steps), the rest at
 * their shortest: the balanced choice where the shortest trees' first round spills into one step
 * more. O(N^2 budget / 8) time, O(N budget) memory; 0, OC_ENOMEM, OC_EINVAL (no mirrored part,
 * a depth outside it). */
int oc__circ_tree_mirror_budget(const oc__circ_dp *dp, uint32_t depth, uint64_t budget,
                                oc__circ_tree *t);
/* The split tree with k arcs a side a round (circulant.c): each holder cuts its segment of the
 * ring into 2k + 1 parts and sends to the middle of every other part; depth about
 * log_{2k+1} N, each round's arcs of one holder inside its own segment. 0 or OC_ENOMEM. */
int oc__circ_tree_split(uint32_t N, uint32_t k, oc__circ_tree *t);

/* Round t's arc lengths by direction: clockwise, counter-clockwise, and of exactly half the ring
 * (routable either way). */
void oc__circ_round_arcs(const oc__circ_tree *t, uint32_t r, uint64_t *cw, uint64_t *ccw,
                         uint64_t *either);
/* The busiest directed link of round r when all N rotations of the tree run at once: the larger
 * direction's arc length, and at least the mean of both (an either-way arc counted on neither). */
uint64_t oc__circ_round_load(const oc__circ_tree *t, uint32_t r);
/* The depths the algorithms try: 1 .. min(floor(N/2), OC__CIRC_MAX_DEPTH). */
uint32_t oc__circ_depth_cap(uint32_t N);

/* The schedule of every block on one tree rotated to its node (circulant_rotated.c): the
 * all-gather's rounds forwards, the reduce-scatter's backwards as reductions (by the plan's
 * collective); parameters depth, variant and first, the search over them and its bound. */
extern const char *const oc__circ_rot_params[];
/* Their parameters in the words of `opticoll list` (both algorithms' table rows). */
#define OC__CIRC_ROT_PARAMS_DOC                                                                    \
    "depth=searched: the tree's depth, 1..min(floor(N/2), 48); variant=searched: which tree (0 "   \
    "the quadratic programme's shortest, N <= 1024; 1 the slope merges'; 2 the shortest "          \
    "mirror-symmetric, N <= 1024); first=searched: variant 2's first-round budget in arc units a " \
    "direction (N <= 256, depth >= 2; none: unbudgeted)"
int oc__circ_rot_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen);
int oc__circ_rot_generate(const oc__plan *plan, oc__emit *e);
void oc__circ_rot_release(oc__plan *plan);
int oc__circ_rot_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen);
int oc__circ_rot_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);

/* ---- the circulant all-reduces' search scaffolding (circulant_search.c) ---- */

/* The depth the plans take without a network to search on: about log3 N, at most cap. */
uint32_t oc__circ_default_depth(uint32_t N, uint32_t cap);

/* The shortest trees a search covers: depths d_lo..d_hi (none when d_hi < d_lo) of each variant
 * v_lo..v_hi (0 the quadratic programme's, N <= OC__CIRC_QUADRATIC_NODES; 1 the slope merges'). */
typedef struct oc__circ_span {
    uint64_t d_lo, d_hi, v_lo, v_hi;
} oc__circ_span;
/* Every depth and variant, the user's pins of `depth` and `variant` folded in: 0, 1 when the
 * pinned variant is one the plan refuses at N (the search offers nothing; the plan says why), or
 * the pin's parse error (a line in why). */
int oc__circ_pin_trees(const oc_kv *params, uint32_t N, oc__circ_span *sp, char *why,
                       size_t whylen);
/* Each variant's programme built once, its trees of every depth handed to take(ctx, i, t) (which
 * owns t from then on) with i = (variant - v_lo) (d_hi - d_lo + 1) + (depth - d_lo). 0, the
 * programme's OC_ENOMEM or take's error. */
int oc__circ_shortest_trees(uint32_t N, const oc__circ_span *sp, void *ctx,
                            int (*take)(void *ctx, uint64_t i, oc__circ_tree *t));

/* The grid's q and, for each, a step's time carrying one piece (in->figures at q; *f is left with
 * the last q's figures). */
typedef struct oc__circ_pieces {
    uint64_t n;
    uint32_t *q;
    double *step_time;
} oc__circ_pieces;
int oc__circ_pieces_grid(const oc__search_in *in, uint64_t lo, uint64_t hi, uint64_t every,
                         uint64_t step, oc__circ_pieces *g, oc__formula_in *f, char *why,
                         size_t whylen);
void oc__circ_pieces_free(oc__circ_pieces *g);

/* A candidate: a tree (an index into the search's trees) and a q (an index into its grid), with
 * its first bound. */
typedef struct oc__circ_cand {
    double time_s;
    uint64_t steps;
    uint32_t tree, qi;
} oc__circ_cand;

/* What differs per algorithm in the walk over the candidates. */
typedef struct oc__circ_walk {
    /* The first, cheap bound of tree i at the grid's j-th q, in steps (times that q's step time:
     * the candidate's time bound). */
    uint64_t (*first)(void *ctx, uint64_t i, uint64_t j);
    const char *first_name;    /* its name */
    const char *first_family;  /* the rest, pruned once one cannot win by it */
    const char *second_family; /* one candidate pruned by its second bound */
    /* Replaces *b (the first bound) by the candidate's second, tighter one: 0 or an error. */
    int (*second)(void *ctx, oc__search *s, const oc__circ_cand *c, oc__bound *b, char *why,
                  size_t whylen);
    /* The candidate's parameters as pairs in kv (at most 4, their values in buf): how many. */
    size_t (*params)(void *ctx, const oc__circ_cand *c, char (*buf)[24], const char **kv);
    void *ctx;
    /* 1: offer the candidates least second bound first (circulant_search.c's pool), asking a
     * candidate's second bound only while its first is below every second bound asked and not
     * offered yet; 0: in order of the first bound, each offered once its second can win. */
    int by_second;
} oc__circ_walk;
/* Every tree 0..trees-1 at every q of the grid, in order of the first bound (its time, then
 * steps, then tree, then q): a candidate whose first bound cannot win ends the walk (the rest
 * pruned as one family); one whose second bound cannot win is pruned alone; the others are
 * offered, each with 2 min(q, N) (N - 1) transfers (w->by_second: least second bound first).
 * 0, OC_ENOMEM or the search's error. */
int oc__circ_search_walk(oc__search *s, uint32_t N, uint64_t trees, const oc__circ_pieces *g,
                         const oc__circ_walk *w, char *why, size_t whylen);

#endif
