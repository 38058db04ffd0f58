/*
 * algos.h — the algorithm interface and the registry: the only place an algorithm is listed.
 *
 * An algorithm is one file with one oc__algo. It validates its parameters and the problem
 * (restrictions are declared and enforced with a clear message), chooses how many chunks to cut
 * the data into and how to label them, then emits its rounds. It never times anything and never
 * knows about wavelengths: parameter searches (OpTree's radices) offer candidate parameter sets to
 * the pipeline, which maps each on the network model and keeps the best (the search contract below).
 */
#ifndef OC_ALGOS_H
#define OC_ALGOS_H

#include "core/core.h"
#include "core/netcfg.h"
#include "core/result.h"

typedef struct oc__plan {
    oc__spec spec; /* filled by plan(): q, labels */
    oc_kv *used;   /* the parameters actually used */
    void *state;   /* the algorithm's own */
    uint64_t rounds; /* the rounds generate() emits, for progress; 0 when not known before */
} oc__plan;

/* What the closed forms and the searches know about the network (the seed's terms): the
 * pipeline fills it from the network model (src/run/search.c, oc__net_figures), never from the
 * run's report; an algorithm learns the network from here (or its oc__search_in) alone, never by
 * the model's name nor by its kind: what differs per network is the model's rule for a round
 * (cfg.cost, core/netcfg.h: a round's steps by its busiest link, a port's transfers one alpha
 * each, a path's routers, a transfer on one lightpath), and a family's own numbers are read
 * through oc__netcfg_ring/star/direct by the algorithms whose registry entry lists that family
 * alone (tests/arch/layering.py, rule 5). */
typedef struct oc__formula_in {
    uint64_t channels;    /* wavelengths x fibres per direction (ring) */
    uint64_t wavelengths; /* w per fibre on the ring (cfg.ring); the channels elsewhere */
    double step_time;     /* the seed's (d/B + a): one step's time on the model */
    double step_fixed;    /* the part of a step that does not depend on its payload (a) */
    /* Circuit-switched models (fabric), from oc__model.circuits; 0 elsewhere. A node's egress is
     * split over its concurrent circuits in whole lanes (wavelengths): d circuits get floor(lanes
     * / d) lanes each, so a transfer takes lanes / floor(lanes / d) times its full-rate time. */
    uint64_t lanes;
    double reconfig_s; /* charged once per round whose circuit set differs from the last one's */
    /* A round whose busiest node has more circuits than this runs in passes of at most this many
     * (the fabric's mzi_split=1: ceil(d / split_degree) steps, each its own alpha and
     * reconfiguration); 0 when such a round is refused or there is no limit. The search then
     * maps every candidate: the closed forms' bounds assume unsplit rounds. */
    uint64_t split_degree;
    /* A round whose busiest node has more concurrent circuits than this is refused (the fabric's
     * mzi_degree with mzi_split=0); 0 when there is no such limit. */
    uint64_t max_degree;
    /* The model's settings as it parsed them when it was created (core/netcfg.h): the direct
     * networks' dims, switching, ports, t_s, t_m, t_d ...; kind OC_NETCFG_NONE on a model
     * with nothing typed to hand on. */
    oc__netcfg cfg;
} oc__formula_in;

/* ---- parameter searches: the search contract ----
 *
 * Where the user pins nothing, an algorithm's default is the optimum of the network model's mapped
 * cost over every parameter set the user could pin. The algorithm's search() offers candidates; the
 * pipeline (src/run/search.c) maps each on the network and keeps the best under the objective
 * (time, then steps, then the earliest offered: offer the simpler choice first). A candidate is
 * discarded without being mapped only when its oc__bound, a PROVEN lower bound on its mapped cost
 * (never an estimate), is worse than a candidate already mapped. For spaces too big to offer
 * whole, the algorithm asks oc__search_can_win() about a whole family's bound and records the
 * family it skips with oc__search_prune(). Each algorithm's file states its space and its bound. */

typedef struct oc__search_in oc__search_in;
struct oc__search_in {
    oc_collective coll;
    uint32_t nodes, root;
    uint64_t bytes;
    const oc_kv *params;       /* the user's pins */
    const oc__formula_in *net; /* the network's terms for one chunk of `bytes` (for bounds) */
    /* The network's terms for the spec a candidate would plan: collective `coll` cut into q
     * chunks per block (so step_time is a step carrying one such chunk). 0 or an error. */
    int (*figures)(const oc__search_in *in, oc_collective coll, uint32_t q, oc__formula_in *out,
                   char *why, size_t whylen);
};

/* A proven lower bound on a candidate's (or a family's) mapped cost on this network: no mapping
 * of it can take less time or fewer steps. Zeros: no bound (the candidate is always mapped). */
typedef struct oc__bound {
    double time_s;
    uint64_t steps;
    const char *name; /* which bound, in words ("ring load: ceil(load / w) steps"), or NULL */
    /* The candidate's transfers when the algorithm knows them ahead (0: not known). One over
     * the search's mapping budget is then not generated at all; and when no candidate fits
     * that budget, the one with the least bound that the tool can generate is chosen by its
     * bound and mapped by the run itself (search.c). */
    uint64_t transfers;
} oc__bound;

typedef struct oc__search oc__search;
struct oc__search {
    /* Records a complete parameter set (copied) to be mapped. */
    int (*offer)(oc__search *s, const oc__bound *bound, const oc_kv *params);
    /* Maps what was offered so far, then sets *yes to 0 when nothing bounded by `bound` can beat
     * the best mapped candidate (so a family with that bound can be skipped), 1 otherwise. */
    int (*can_win)(oc__search *s, const oc__bound *bound, int *yes);
    /* Records a family of `count` candidates (0: unknown) skipped by its bound. */
    int (*prune)(oc__search *s, const char *family, const oc__bound *bound, uint64_t count);
    /* Maps a complete parameter set now, without offering it: its mapped cost becomes an
     * incumbent, and from then on a candidate or family whose bound is strictly worse than it
     * (on the objective, or equal there and worse on the tie-break; never a full tie, which
     * goes to the earlier offer) is skipped. The set must be one the search offers later, in
     * its own place (so the order of offer, and with it the tie rule, is unchanged, and the
     * winner is at least as good as the hint). A set that fails to map is no incumbent. */
    int (*hint)(oc__search *s, const oc_kv *params);
    /* Costs the rounds gen() emits under `spec`, each mapped alone on a fresh network as the
     * round cache maps them (search.c): their steps and times, summed. On a model whose cost is
     * additive over rounds (oc__model.additive: the ring, the switch, the fat-tree) that sum is
     * exactly what those rounds add to the cost of any candidate that has them (up to the
     * rounding of a sum of doubles), so an algorithm may build exact bounds from it. OC_ENOTSUP
     * (no text) on any other model or where the searcher has no such entry (NULL); OC_ETOOBIG
     * past `budget` transfers. */
    int (*round_costs)(oc__search *s, const oc__spec *spec, int (*gen)(void *ctx, oc__emit *e),
                       void *ctx, uint64_t *steps, double *time_s, char *why, size_t whylen);
    /* The transfers a candidate may have to be mapped during the search (0: no limit given). */
    uint64_t budget;
};

/* Offers the parameter set of `pairs` key=value pairs (keys and values alternate in kv[]). */
int oc__search_offer(oc__search *s, const oc__bound *bound, size_t pairs, const char *const *kv);
/* 1 when a candidate or family bounded by `bound` can still win, 0 when not, <0 on error. */
int oc__search_can_win(oc__search *s, const oc__bound *bound);
int oc__search_prune(oc__search *s, const char *family, const oc__bound *bound, uint64_t count);
/* Maps the parameter set of `pairs` key=value pairs as an incumbent (oc__search.hint). */
int oc__search_hint(oc__search *s, size_t pairs, const char *const *kv);
/* oc__search.round_costs, or OC_ENOTSUP where the searcher has none. */
int oc__search_round_costs(oc__search *s, const oc__spec *spec, int (*gen)(void *ctx, oc__emit *e),
                           void *ctx, uint64_t *steps, double *time_s, char *why, size_t whylen);

typedef struct oc__algo {
    oc_algorithm_info info;
    /* The names of the parameters it accepts (NULL-terminated). */
    const char *const *param_names;
    /* The largest N it takes: 0 is OC_NODE_CAP; raised (up to OC_MAX_NODES) where its transfers
     * and its verifier's and model's memory were measured at that N (oc__algo_node_cap). */
    uint32_t max_nodes;
    /* Validates and fills plan->spec (via oc__spec_init), plan->used and plan->state. */
    int (*plan)(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t whylen);
    int (*generate)(const oc__plan *plan, oc__emit *e);
    void (*release)(oc__plan *plan);
    /* Optional: the parameter search (see "Parameter searches" below). Offers to `s` every
     * complete parameter set the user could have pinned, with the user's pins folded in, each with
     * a proven lower bound on its mapped cost; offers nothing when the user pinned everything. */
    int (*search)(const oc__search_in *in, oc__search *s, char *why, size_t whylen);
    /* 1: its search's bounds are proven also where the network splits a round above its degree
     * into passes (oc__formula_in.split_degree > 0, the fabric's mzi_split=1); elsewhere the
     * search ignores the bounds on such a network and maps every candidate. */
    int bounds_hold_split;
    /* 1: its search's bounds read the ring's spreading rule (core/netcfg.h: oc__ring_cfg.spread)
     * and are proven at spread=0 too; elsewhere the search ignores the bounds on a ring at
     * spread=0 (where a lightpath carries a whole transfer) and maps every candidate. */
    int bounds_hold_unspread;
    /* Optional: the seed's closed forms at these parameters, and notes on where the mapped
     * schedule differs (rep->steps and rep->time_s are already filled). */
    int (*formula)(const oc__plan *plan, const oc__formula_in *in, oc_report *rep);
} oc__algo;

size_t oc__algo_count(void);
const oc__algo *oc__algo_at(size_t i);
const oc__algo *oc__algo_find(oc_collective coll, const char *name);
/* 1 if the comma-separated list `networks` names `net`. */
int oc__algo_supports(const oc__algo *a, const char *net);

/* Shared by plan() implementations: the common start (spec with q chunks per block). */
int oc__plan_begin(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, uint32_t q, char *why, size_t whylen);
void oc__plan_free(const oc__algo *a, oc__plan *plan);

/* plan() of an algorithm without parameters: refuses any parameter, then oc__plan_begin. */
int oc__plan_plain(oc__plan *plan, const char *algo, oc_collective coll, uint32_t nodes,
                   uint32_t root, uint64_t bytes, uint32_t q, const oc_kv *params, char *why,
                   size_t whylen);

/* Refuses N above the algorithm's node cap (oc__algo.max_nodes) before any search or plan, in one
 * line: the transfers its plan would refuse (when its plan counts them) or the cap. */
int oc__algo_node_cap(const oc__algo *a, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen);

/* Refuses a schedule of more than OC_MAX_TRANSFERS transfers before it is generated. */
int oc__plan_work(const char *algo, uint32_t nodes, uint64_t transfers, char *why, size_t whylen);

/* Sets the closed form to `steps` steps of the seed's per-step time (a + d/B). */
void oc__formula_steps(oc_report *rep, const oc__formula_in *in, double steps);

/* On the ring, where a closed form counts rounds (one step each when a node's transfers of a
 * round all go at once) and the model's load bound is above it, the note that says why: a round
 * takes ceil(its busiest directed link's lightpaths / channels) steps. `detail` is the algorithm's
 * own computed part ("" for none), whose proven bounds sum to `proven` steps (0: none); the note
 * says what the busiest links add above them. Nothing on other networks or when the bound is not
 * above. 0 or OC_ENOMEM. */
int oc__note_rounds_on_ring(oc_report *rep, const oc__formula_in *in, const char *detail,
                            uint64_t proven);

/* How a network costs a round, as its model says it (core/netcfg.h: oc__netcost; the circuits
 * hook's lanes): what a search's bounds are written for, one bound per rule, so that a search
 * never asks which network it is on and a new model that costs a round by one of these rules gets
 * its bounds. */
typedef enum {
    OC_RULE_NONE = 0, /* the model says nothing a search's bounds use */
    OC_RULE_PORTS,    /* a port's transfers one after another, alpha each (alpha_per_transfer) */
    OC_RULE_CIRCUITS, /* a round's circuits share their tiles' lanes, a reconfiguration when they
                         change (lanes > 0: the circuits hook) */
    OC_RULE_LINKS,    /* a round takes its busiest link's units / channels steps
                         (steps_by_link_load) */
    OC_RULE_PACKETS   /* packets share the links of a tree of routers, nodes in groups
                         (group_nodes > 0) */
} oc__round_rule;
oc__round_rule oc__round_rule_of(const oc__formula_in *in);

/* On a circuit-switched model (in->lanes > 0): how much longer a transfer takes when its node has
 * `circuits` concurrent circuits, lanes / floor(lanes / circuits); 0 when it has too few lanes. */
double oc__formula_split(const oc__formula_in *in, uint64_t circuits);
/* Sets the closed form on a circuit-switched model to `rounds` rounds of alpha, `reconfigs`
 * reconfigurations and `bandwidth_s` of payload time, and records the three terms in the report
 * (formula_alpha_s, formula_reconfig_s, formula_bandwidth_s) beside the model's own. 0 or
 * OC_ENOMEM. */
int oc__formula_circuits(oc_report *rep, const oc__formula_in *in, double rounds, double reconfigs,
                         double bandwidth_s);

/* Ring reduce-scatter / all-gather rounds over the nodes P[0..n-1] (ring_phases.c): block k is the
 * label range [first + k*width, first + (k+1)*width); P[i] ends the reduce-scatter with block i. */
int oc__ring_rs_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r);
int oc__ring_ag_round(oc__emit *e, const uint32_t *P, uint32_t n, uint32_t first, uint32_t width,
                      uint32_t r);
/* The whole ring on nodes 0..N-1, one label per block: N-1 reduce-scatter rounds (if rs), then
 * N-1 all-gather rounds (if ag). */
int oc__ring_phases(oc__emit *e, uint32_t N, int rs, int ag);

#define OC_ALGO_LIST(X)                                                                            \
    X(allgather_ring)                                                                              \
    X(allgather_ne)                                                                                \
    X(allgather_onestage)                                                                          \
    X(allgather_optree)                                                                            \
    X(allgather_wrht)                                                                              \
    X(allgather_bidir)                                                                             \
    X(allgather_stride)                                                                            \
    X(allgather_multilevel)                                                                        \
    X(allgather_bistride)                                                                       \
    X(allgather_comb)                                                                           \
    X(allgather_circulant)                                                                      \
    X(reducescatter_ring)                                                                          \
    X(reducescatter_bidir)                                                                         \
    X(reducescatter_stride)                                                                        \
    X(reducescatter_multilevel)                                                                    \
    X(reducescatter_bistride)                                                                   \
    X(reducescatter_circulant)                                                                  \
    X(allreduce_ring)                                                                              \
    X(allreduce_hring)                                                                             \
    X(allreduce_bt)                                                                                \
    X(allreduce_rd)                                                                                \
    X(allreduce_wrht)                                                                              \
    X(allreduce_rhd)                                                                               \
    X(allreduce_sipco)                                                                             \
    X(allreduce_bidir)                                                                             \
    X(allreduce_stride)                                                                            \
    X(allreduce_multilevel)                                                                        \
    X(allreduce_bistride)                                                                       \
    X(allreduce_circulant)                                                                      \
    X(allreduce_circpipe)                                                                       \
    X(allreduce_rdk)                                                                            \
    X(allreduce_rdg)                                                                            \
    X(allgather_rdg)                                                                            \
    X(reducescatter_rdg)                                                                        \
    X(scatter_tcp1)                                                                                \
    X(gather_tcp1)                                                                                 \
    X(broadcast_tcp1)                                                                              \
    X(gossip_tcp2)                                                                                 \
    X(alltoall_tcp2)                                                                               \
    X(reducescatter_rh)                                                                            \
    X(allgather_rd)                                                                                \
    X(allreduce_dbtree)                                                                            \
    X(broadcast_tcp1split)                                                                         \
    X(broadcast_chains)                                                                            \
    X(broadcast_ktree)                                                                          \
    X(broadcast_ktrees)                                                                         \
    X(gather_ktree)                                                                             \
    X(gossip_kautz)                                                                             \
    X(alltoall_kautz)                                                                           \
    X(alltoall_onestage)                                                                           \
    X(alltoall_optree)                                                                             \
    X(alltoall_pairwise)                                                                           \
    X(alltoall_kshift)                                                                             \
    X(alltoall_twophase)                                                                           \
    X(allgather_bruck)                                                                             \
    X(alltoall_sex)                                                                                \
    X(alltoall_pipeline)                                                                           \
    X(alltoall_cartesian)                                                                          \
    X(alltoall_dex)                                                                                \
    X(alltoall_dextorus)                                                                           \
    X(alltoall_dex_micro)                                                                          \
    X(alltoall_dex_interleave)                                                                     \
    X(alltoall_hypercube_opt)                                                                      \
    X(alltoall_bex)                                                                                \
    X(alltoall_qex)

#define OC__ALGO_DECL(id) extern const oc__algo oc__algo_##id;
OC_ALGO_LIST(OC__ALGO_DECL)
#undef OC__ALGO_DECL

#endif
