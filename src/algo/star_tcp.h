/*
 * star_tcp.h — the Tuning Communication Patterns of the passive optical star seed (section 2),
 * shared by the tcp1 / tcp2 algorithms (scatter_tcp1.c, gather_tcp1.c, broadcast_tcp1.c,
 * gossip_tcp2.c, alltoall_tcp2.c, broadcast_tcp1split.c).
 */
#ifndef OC_STAR_TCP_H
#define OC_STAR_TCP_H

#include "algo/algos.h"

/* The virtual machine: Pv = (k+1)^h >= P processors, h the least such. Virtual processors at or
 * above P are the seed's dummy nodes. */
typedef struct oc__tcp {
    uint32_t P, k, h;
    uint64_t Pv;
    uint64_t *pw;   /* pw[i] = (k+1)^i, i = 0..h */
    uint32_t *pos;  /* TCP1 labels: first label of virtual v's subtree (v < P) */
    uint32_t *size; /* real processors in virtual v's subtree */
} oc__tcp;

int oc__tcp_init(oc__tcp *t, uint32_t P, uint32_t k, char *why, size_t len);
void oc__tcp_free(oc__tcp *t);

/* h = ceil(log_{k+1} P): the TCP steps of P processors at fan-out k (0 for P = 1). */
uint32_t oc__tcp_steps(uint32_t P, uint64_t k);

/* A broadcast's m when a plan is made outside the pipeline's search (tests, direct callers):
 * (k+1)^h for k (capped at 2^16), so that every h' cuts it into equal pieces. */
uint64_t oc__tcp_bcast_m(uint32_t nodes, uint64_t k);

/* The workload in the seed's messages: m = ceil(SIZE / L), SIZE the run's bytes (a block, or the
 * broadcast's message) and L the star's message length in bytes (`--net L=`; one message costs
 * L tau). m is the problem, not a choice: a user's `-p m=` is refused (say -s or --net L=), and
 * an m above `cap` is refused with the L that would fit. */
int oc__tcp_messages(const oc__search_in *in, const char *algo, uint64_t cap, uint64_t *m,
                     char *why, size_t len);

/* The plan of every tcp algorithm: reads k (default 3) and m (default 1, messages per block or
 * per broadcast) and fills plan->used; state is an oc__tcp. */
int oc__tcp_plan(oc__plan *plan, const char *algo, oc_collective coll, uint32_t nodes,
                 uint32_t root, uint64_t bytes, const oc_kv *params, char *why, size_t len);
void oc__tcp_release(oc__plan *plan);

/* The k the search may use: the pinned one (refused with the valid range when it exceeds the
 * network's k) or 0 when k is free; *knet = the network's k. */
int oc__tcp_pinned_k(const oc__search_in *in, const char *algo, uint64_t *k, uint64_t *knet,
                     char *why, size_t len);
/* The search of tcp1 / tcp2: every k from the network's down to 1, m fixed (see the essay of
 * star_tcp_common.c for the space and the bound). */
int oc__tcp_search(const oc__search_in *in, oc__search *s, char *why, size_t len);
/* The section 3 figures, in messages and retunings, added to the report with the section 4 lower
 * bound of communication; steps_formula = h. The star model's step_fixed is D and step_time is
 * D + L tau, so the closed-form time (critical path: D once per step) and the seed's total (every
 * tuning paid) follow. */
int oc__tcp_report(const oc__plan *plan, const oc__formula_in *in, oc_report *rep, double comm,
                   double retunings, double lower_bound);
/* The same with the closed form's steps given (the three-phase broadcast's h + h'; the others
 * take h): steps_formula, the closed-form time and the padding note all use them. */
int oc__tcp_report_steps(const oc__plan *plan, const oc__formula_in *in, oc_report *rep,
                         uint32_t steps, double comm, double retunings, double lower_bound);

/* Section 3.2.2's h'_opt for P = (k+1)^h processors (h given, exact), m messages, tuning time D in
 * units of L tau. The seed's total T(h') = (2/k (K^h' - 1) + h - h') m / K^h' + ((P - 1) + h' P k)
 * D (K = k + 1) has the derivative T' = P k D - m K^-h' ((h - h' - 2/k) ln K + 1); with y = (h - h'
 * - 2/k) ln K
 * + 1, T' = 0 is y e^y = P^2 e k D / (m K^(2/k)), so the stationary point is
 *     h* = h - 2/k + (1 - W(P^2 e k D / (m K^(2/k)))) / ln K                 (every k);
 * the seed prints h - 1 + 1/ln K - W(P^2 e k^2 D / (2 m K)) / ln K, which is h* with 1 for 2/k
 * and 2K/k for K^(2/k) (its argument P^2 e k^2 D / (2 m K) is P^2 e k D / m x k / (2K)): equal
 * only at k = 2. T'' = m ln K K^-h' (y + 1) > 0 on 0..h (y >= 1 -
 * (2/k) ln K > -1), so T is convex there and the best whole h' is floor or ceil of h* (clamped). */
double oc__tcp_hp_opt_seed(double P, double h, double k, double m, double D);
double oc__tcp_hp_stationary(double P, double h, double k, double m, double D);
/* The seed's total T(h') above, with every tuning paid (D per tuning, in units of L tau). */
double oc__tcp_split_seed_total(double P, double h, double k, double m, double hp, double D);

/* TCP1 (section 2.1, corrected numbering): in step l = 1..h, virtual processor i < (k+1)^(l-1)
 * sends to (k+1)^(l-1) + i k + j, j = 0..k-1. */
static inline uint64_t oc__tcp1_child(const oc__tcp *t, uint32_t l, uint64_t i, uint32_t j) {
    return t->pw[l - 1] + i * t->k + j;
}

/* The rounds of a TCP1 tree, one a step, transfers to dummy nodes dropped (scatter_tcp1.c,
 * gather_tcp1.c, broadcast_tcp1.c). OC__TCP1_DOWN: step l = 1..h, every processor reached so far
 * sends to each of its k children; OC__TCP1_UP: steps h..1, every child sends to its parent (the
 * scatter run backwards). OC__TCP1_WHOLE: each transfer carries chunks [0, q), the whole
 * broadcast; OC__TCP1_SUBTREE: the child's subtree's blocks in TCP1 labels (oc__tcp1_subtree_plan). */
enum { OC__TCP1_DOWN = 0, OC__TCP1_UP = 1 };
enum { OC__TCP1_WHOLE = 0, OC__TCP1_SUBTREE = 1 };
int oc__tcp1_rounds(const oc__plan *plan, oc__emit *e, int direction, int what);
/* plan() of the TCP1 scatter and gather: oc__tcp_plan, then the blocks labelled in TCP1 preorder
 * (later steps' children first), so that every subtree's blocks are one range: what a processor
 * still holds is a prefix of its subtree's range and what it sends a child is the child's whole
 * range; fills spec->block_node (virtual v is real processor (v + root) mod P). */
int oc__tcp1_subtree_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t len);
/* formula() of the TCP1 scatter and gather (section 3.1, one the other's inverse): (Pv-1)/k
 * messages of the virtual machine, Pv - 1 retunings, lower bound (P-1)/k, each per message of a
 * block. */
int oc__tcp1_subtree_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);

/* plan() of the TCP2 algorithms (gossip, all-to-all). */
int oc__tcp2_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t len);

/* Sends src -> dst the q-chunk blocks first, first+1, ..., first+count-1 taken mod P, at label
 * base + block q: one transfer, or two where the range wraps past P - 1. */
int oc__tcp_send_wrapped(oc__emit *e, uint32_t src, uint32_t dst, uint64_t base, uint64_t first,
                         uint64_t count, uint64_t P, uint64_t q);

#endif
