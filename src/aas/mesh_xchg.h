/*
 * mesh_xchg.h — what the binary-exchange (bex) and quadrant-exchange (qex) all-to-alls on the
 * wormhole mesh share (all-to-all-scatter-notes, "Combining model with WH switching",
 * "Meshes/tori"): the mesh shape with power-of-two sides, and the combined block one node hands
 * its partner in one exchange of the hypercube-style recursion.
 *
 * Nodes are numbered row by row, node = x + X y (the mesh model's numbering, core/netcfg.h), so
 * with X = 2^kx the low kx bits of a node are its column x and the high bits its row y: exchanging
 * across one bit of the node number is an exchange along X or along Y at distance 2^(bit within
 * the coordinate).
 */
#ifndef OC_MESH_XCHG_H
#define OC_MESH_XCHG_H

#include "aas/aas.h"

/* Reads the mesh shape for N nodes: the parameter dims=XxY (the mesh model's syntax), or by
 * default the mesh model's default, the squarest X x Y with X >= Y (2^ceil(n/2) x 2^floor(n/2)).
 * Refuses sides that are not powers of two, X Y != N and (square) X != Y, naming the algorithm.
 * Records dims in plan->used. */
int oc__mesh_pow2_dims(oc__plan *p, const char *algo, uint32_t N, const oc_kv *params, int square,
                       uint32_t *X, uint32_t *Y, char *why, size_t len);

/* Writes the shapes A x B = N a dims= pin may name, "1x12, 2x6, ..." (pow2: sides powers of two;
 * square: A = B), for the error line that refuses another one; a long list ends with "...". */
void oc__dims_valid(char *buf, size_t len, uint32_t N, int pow2, int square);


/* The start of a mesh exchange's formula: copies the direct network the run used into c
 * (oc__aas_network: the model's settings in in->cfg) and checks it is the X x Y mesh the plan was
 * made for; when it is another one, a note naming algo says that no closed form applies. *go = 1:
 * on that mesh, go on to the closed form; 0: none applies. Returns 0 or OC_ENOMEM. */
int oc__mesh_formula_net(const oc__formula_in *in, oc_report *rep, const char *algo, uint32_t X,
                         uint32_t Y, oc__direct_cfg *c, int *go);

/* The all-to-alls' dims searches (bex, cartesian): offers dims=AxB, whose schedule is `rounds`
 * rounds in each of which a node sends one other node a block (combined or serialised on one
 * link or port) and the largest blocks of the rounds add up to `chunks` chunks, with the bound
 *     time >= rounds x fixed + chunks x (step - fixed),   steps >= rounds,
 * where `step` is the network's time for one chunk over one hop and `fixed` that with no payload
 * (in->figures for the all-to-all's chunk): on the direct networks every step's slowest message
 * costs ts (+ td per hop under wormhole) plus tm per byte, and a node's block to one neighbour
 * costs at least its bytes x tm whether it goes as one message or packet by packet; on the switch
 * a port busy with a block costs at least alpha + its bytes x beta. `transfers`: the candidate's
 * exact transfers when known (0: not known), so that one over the search's mapping budget is not
 * generated to find out (oc__bound.transfers). */
int oc__dims_offer(const oc__search_in *in, oc__search *s, uint32_t A, uint32_t B, uint64_t rounds,
                   double chunks, uint64_t transfers, char *why, size_t len);

/* The direct network the search maps on, when it is a torus or mesh of one or two sides whose
 * product is N: *A x *B its dims (B = 1 for one side), returns 1; else 0 (another network, or
 * more sides). kind < 0: either of torus and mesh. */
int oc__dims_of_net(const oc__search_in *in, int kind, uint32_t *A, uint32_t *B);

/* The largest number of messages one link of the direct network `net` carries (its
 * dimension-order routes, as the model routes them: shortest way round a torus side of 3 or
 * more, the positive way on a tie; half duplex counts both directions of a link) when every
 * node v = c_0 + z_0 (c_1 + ...) of the candidate shape `dims` (ndims sides, product N) sends
 * one message to its neighbour one place on along candidate dimension `along` (cyclically).
 * The model puts the messages that share a link in different steps, so a round of this pattern
 * takes at least that many steps. 1 when net is not a direct network of N nodes, or on no
 * memory (still a bound). */
uint64_t oc__shift_congestion(const oc__netcfg *net, const uint32_t *dims, uint32_t ndims,
                              uint32_t along);

/* Emits node v's combined block for partner w in an exchange across the node bits M after the
 * bits `done` have been exchanged (SEX's invariant: v holds every packet (s -> d) with d agreeing
 * with v on `done` and s agreeing with v elsewhere): every held packet whose destination agrees
 * with w on M. One transfer per run of consecutive sources (the low bits of `done` that are
 * consecutive from bit 0 make a run). nbits = log2 N. */
int oc__xchg_emit(oc__emit *e, unsigned nbits, uint32_t v, uint32_t w, uint32_t done, uint32_t M);

/* Transfers oc__xchg_emit emits for one node (for oc__plan_work). */
uint64_t oc__xchg_transfers(unsigned nbits, uint32_t done, uint32_t M);

#endif
