/*
 * rhd.h — recursive halving and recursive doubling in mixed radix, shared by allreduce rhd,
 * reducescatter rh and allgather rd (rhd.c has the method, the parameters and the rounds;
 * rhd_search.c the closed forms and the parameter search).
 */
#ifndef OC_ALGO_RHD_H
#define OC_ALGO_RHD_H

#include "algo/algos.h"

enum { OC__RHD_MAX_LEVELS = 32 };

typedef struct oc__rhd {
    uint32_t N, P, k; /* P = the product of the k radices: N, or (folding) a power of r below N */
    uint32_t m;       /* extra nodes folded onto one core node: ceil((N - P) / P) */
    uint32_t r[OC__RHD_MAX_LEVELS];     /* radix of digit p, r[0] the least significant */
    uint32_t w[OC__RHD_MAX_LEVELS + 1]; /* place values: w[0] = 1, w[p+1] = w[p] r[p], w[k] = P */
    uint32_t *B;     /* P + 1 label boundaries: core node x owns [B[x], B[x+1]) */
    uint32_t *label; /* N entries: the label of node n's block (reduce-scatter, all-gather) */
} oc__rhd;

/* Which halves an algorithm runs (for its costs and its search). */
typedef enum { OC__RHD_BOTH, OC__RHD_HALVING, OC__RHD_DOUBLING } oc__rhd_kind;

/* The parameters rhd, rh and rd accept: radix, radices, fold. */
extern const char *const oc__rhd_params[];

/* Reads radix= / radices= / fold= (rhd.c's essay), plans the spec: allreduce gets P labels, one
 * per core node; reduce-scatter and all-gather one label per block, ordered so that core node x's
 * range holds its own block and those of the extra nodes folded onto it (spec.block_node). */
int oc__rhd_plan(oc__plan *p, const char *name, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, char *why, size_t len);
void oc__rhd_release(oc__plan *p);
/* The whole schedule of rhd (kind BOTH), rh (HALVING) or rd (DOUBLING): the fold in, the halving
 * and / or the doubling, the fold back. */
int oc__rhd_generate(const oc__rhd *h, oc__emit *e, oc__rhd_kind kind);

/* The rounds the search costs level by level (rhd_search.c): level p of the halving (halving set)
 * or the doubling over the core nodes, one round; the fold in (in set) or back. */
int oc__rhd_level(const oc__rhd *h, oc__emit *e, uint32_t p, int halving);
int oc__rhd_fold_round(const oc__rhd *h, oc__emit *e, oc__rhd_kind kind, int in);
/* The radices r[0..k) written from the most significant digit down ("4x4x4x2"). */
void oc__rhd_radices_text(const uint32_t *r, uint32_t k, char *buf, size_t len);
/* The prime factors of N into r, the smallest as the most significant digit; their count. */
uint32_t oc__rhd_prime_digits(uint32_t N, uint32_t *r);

/* The parameter search of rhd (kind BOTH), rh (HALVING) and rd (DOUBLING): rhd_search.c's essay. */
int oc__rhd_search(const oc__search_in *in, oc__search *s, oc__rhd_kind kind, char *why,
                   size_t len);

/* formula() of the one-way halves (rh reduce-scatter, rd all-gather): sum_p (r_p - 1) alpha +
 * (P-1)(m+1) chunk times, plus the fold's 2m transfers when P < N; a step count on networks with
 * wavelengths; the fabric's rounds, reconfigurations and split bandwidth. */
int oc__rhd_one_way_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep);
/* On the ring: the proven per-round bounds of the search (a node's chunks over its 2 links, a
 * round's link-hops over the 2N links) as words for the rounds that need more than one step, in
 * buf; returns the steps they prove in all (an all-reduce, kind BOTH: both halves). */
uint64_t oc__rhd_ring_detail(const oc__rhd *h, const oc__formula_in *in, oc__rhd_kind kind,
                            char *buf, size_t len);
/* Sum over the levels of (r_p - 1): the transfers a node sends in one direction. */
uint64_t oc__rhd_sends(const oc__rhd *h);
/* Sum over the levels of w_p x split(r_p - 1) (oc__formula_split): a direction's bandwidth on
 * the fabric in chunk times at the tile's full rate; 0 when a level has too few lanes. */
double oc__rhd_fabric_chunks(const oc__rhd *h, const oc__formula_in *in);

#endif
