/*
 * netcfg.h — a network's settings, typed: what a network model parsed from its `--net key=value`
 * parameters, in the form the algorithms read it.
 *
 * Why here. A model (src/net) parses its parameters once a run (its parse hook, net/netset.c)
 * and checks them; an algorithm (src/algo, src/aas) needs a few of them to price its seed's closed
 * form (the direct networks' t_s, t_m, t_d, switching and dims for the all-to-all-scatter notes'
 * formulas). The two rooms stand side by side on the core and may not include each other, so the
 * types they share live in the core: a model fills an oc__netcfg (its `config` hook, net/net.h),
 * the pipeline puts it in the algorithm's oc__formula_in (algo/algos.h: oc__formula_in.cfg), and
 * the algorithm reads it from there. No algorithm parses a network parameter or reads one back from
 * the run's report.
 *
 * What is typed here is what algorithms read, with the model's defaults already applied: the
 * direct networks' whole configuration (their closed forms use most of it), the ring's w and F,
 * the fat-tree's leaves, packets and router delay (dbtree's search bounds its rounds with them).
 * The physical bounds (src/bounds), which hold for every schedule a model accepts, read the
 * numbers that define a step and its cost from here too: the ring's rates, the switch's alpha and
 * beta, the star's k and tunings, the fabric's tiles and wavelengths. Every model fills its kind
 * and says how it costs a round (oc__netcost below); an algorithm never branches on the kind: it
 * reads that rule, or a family's settings through oc__netcfg_ring/star/direct when its registry
 * entry lists that family alone, and where a model says nothing it uses the figures of
 * oc__formula_in (its step time, channels, lanes), which every model gives.
 */
#ifndef OC_CORE_NETCFG_H
#define OC_CORE_NETCFG_H

#include "core/core.h"

/* ---- the direct networks: hypercube, torus, mesh (CS838 section 14; net/direct.h) ---------- */

enum { OC_DIRECT_MAX_DIMS = 20 };

typedef enum { OC_DIRECT_HYPERCUBE, OC_DIRECT_TORUS, OC_DIRECT_MESH } oc__direct_kind;

/* Node numbering: node = c[0] + z1 (c[1] + z2 (c[2] + ...)); on the hypercube coordinate i is
 * bit i of the node's address. */
typedef struct oc__direct_cfg {
    oc__direct_kind kind;
    uint32_t nodes;
    uint32_t ndims;                    /* hypercube: n; torus/mesh: number of dimensions */
    uint32_t dims[OC_DIRECT_MAX_DIMS]; /* side lengths; the hypercube's are all 2 */
    int wormhole;                      /* 0: store-and-forward, 1: wormhole */
    int allport;                       /* 0: 1-port, 1: all-port */
    int fullduplex;                    /* 0: half duplex, 1: full duplex */
    int combining;                     /* 1: a round's transfers src -> dst form one message */
    double ts, tm, td;                 /* seconds per message, per byte, per hop */
    /* Packet bytes. As parsed: 0 = one chunk. As handed to an algorithm (oc__formula_in.cfg):
     * the packet the model cuts this run's chunks into (the chunk itself when mu was not set or
     * is larger), as the report's network parameters print it. */
    uint64_t mu;
} oc__direct_cfg;

/* Parses "8x8" / "12" into dims[0..*ndims); OC_EINVAL with a reason on anything else. */
int oc__direct_parse_dims(const char *text, uint32_t *dims, uint32_t *ndims, char *why,
                          size_t whylen);
/* The most square 2-D factorisation A x B of N (A >= B >= 1): the mesh's default. */
void oc__direct_square_dims(uint32_t nodes, uint32_t *a, uint32_t *b);
/* dims as the user writes them, "3x5" (the hypercube's: 2x2x...), into buf. */
void oc__direct_dims_text(const oc__direct_cfg *cfg, char *buf, size_t len);
/* One message's time: SF ts + bytes tm (one hop); WH ts + hops td + bytes tm. */
double oc__direct_msg_time(const oc__direct_cfg *cfg, uint64_t hops, uint64_t bytes);

/* ---- the WDM ring (net/ring.h) ------------------------------------------------------------- */

/* What a step is and costs (ring.c): a node starts and ends at most 2 F w lightpaths, one chunk
 * each; a step costs reconfig_s + ceil(chunk / flit_bytes) oeo_s_per_flit + the chunk in whole
 * packets at bandwidth_bps (bits per second) on one wavelength. The physical bounds
 * (src/bounds/bounds_ring.c) read all of it; the algorithms read w, F and spread. */
typedef struct oc__ring_cfg {
    uint64_t wavelengths; /* w per fibre */
    uint64_t fibres;      /* F per direction */
    double bandwidth_bps, reconfig_s, oeo_s_per_flit;
    uint64_t flit_bytes, packet_bytes;
    /* 1: a transfer of b chunks may lay them on b wavelength-slots of one step; 0: a transfer
     * keeps to one lightpath, and a step lasts as its largest bundle (ring.c, item 6) */
    int spread;
} oc__ring_cfg;

/* ---- the ideal switch (net/switch.c) ---------------------------------------------------------- */

/* One port a node and direction; a port's transfers one after another, alpha_s + bytes beta_s
 * each. */
typedef struct oc__switch_cfg {
    double alpha_s, beta_s;
} oc__switch_cfg;

/* ---- the passive optical star (net/star.c) ---------------------------------------------------- */

/* k lasers and k filters a processor; a step costs D when a filter is retuned in it, plus its
 * largest stream's messages (chunks) x L tau. */
typedef struct oc__star_cfg {
    uint64_t k;
    double D, tau, L;
} oc__star_cfg;

/* ---- the photonic fabric (net/fabric.c) ------------------------------------------------------- */

/* A round's circuits share their tiles' W wavelengths (bytes_per_s over all of them); a step
 * costs alpha_s + its slowest circuit, plus reconfig_s when its circuits change (the first round
 * always). A tile holds at most mzi_degree concurrent circuits a direction (0: any, up to W). */
typedef struct oc__fabric_cfg {
    uint64_t tiles_per_server, wavelengths, fibres, mzi_degree;
    int mzi_split;
    double alpha_s, reconfig_s, bytes_per_s;
} oc__fabric_cfg;

/* ---- the two-level fat-tree (net/fattree.c) ------------------------------------------------- */

/* What a search's proven bound needs of the fat-tree: node v hangs off leaf v / leaf_down, a path
 * inside a leaf crosses one router and one through a spine three, and a transfer's packets leave
 * its busiest link at packet_s each. */
typedef struct oc__fattree_cfg {
    uint64_t leaf_down;    /* nodes per leaf router */
    uint64_t uplinks;      /* a leaf's cables to the spines, one a spine (ports - leaf_down) */
    uint64_t packet_bytes; /* a transfer is cut into whole packets of this many bytes */
    double packet_s;       /* one packet's time on a link */
    double router_s;       /* the delay of one router on a path */
} oc__fattree_cfg;

/* ---- how a model costs a round, for the algorithms -------------------------------------- */

typedef struct oc__netcfg oc__netcfg;

/* What an algorithm's closed form or search bound needs to know of how its network costs a round,
 * said by the model (its `config` hook fills oc__netcfg.cost; net/net.h), so that no algorithm
 * asks which network it is on: an algorithm reads the rule, and a new model that costs a round
 * the same way gets the same bounds and notes without a line of the algorithm changing. Zero (no
 * rule, no hook) is what a model that says nothing gives: the algorithms then fall back on the
 * figures every model gives (oc__formula_in's step time, channels, lanes). */
typedef struct oc__netcost {
    /* 1: a round takes ceil(its busiest directed link's units / channels) steps of one step's
     * time each, a unit a chunk (or a transfer, where transfers keep to one path): the WDM ring.
     * The algorithms' per-round colour bounds and their "rounds are not steps" notes are this. */
    int steps_by_link_load;
    /* 1: the transfers one port sends or receives in a round go one after another, each its own
     * fixed cost (alpha) besides its payload: the ideal switch. 0: a round's transfers go at once,
     * and a round pays its fixed cost once. */
    int alpha_per_transfer;
    /* The least time any path of the network adds beyond its payload, whatever it carries: the
     * routers it crosses times their delay (the fat-tree: one router inside a leaf). A round lasts
     * at least this long. 0 where a path crosses nothing that delays it. */
    double least_path_s;
    /* Set where the nodes hang in groups off one router each and a path between two groups
     * crosses more routers (the fat-tree's leaves: one router inside a leaf, three through a
     * spine): the nodes of a group (node v in group v / group_nodes) and the least time a path
     * between two groups adds beyond its payload (its routers' delays). A round's transfers are
     * then cut into packets that share the links of their paths, and a round lasts at least its
     * busiest node's packets plus least_path_s, or plus cross_group_s when it crosses groups.
     * 0 where the model has no such groups. */
    uint64_t group_nodes;
    double cross_group_s;
    /* Set where a transfer keeps to one path whatever its chunks, so that a step lasts as its
     * largest transfer (the ring at spread=0): the time of a step whose largest transfer moves
     * `bytes`; NULL where a transfer of b chunks may lay them on b channels at once. */
    double (*bundle_step_s)(const oc__netcfg *cfg, uint64_t bytes);
    /* Beside bundle_step_s, a line under it: bundle_step_s(bytes) >= bundle_fixed_s + bytes x
     * bundle_per_byte_s for every bytes (the reconfiguration, then the payload's conversion and
     * transmission without their rounding up to whole flits and packets). */
    double bundle_fixed_s, bundle_per_byte_s;
} oc__netcost;

/* ---- any model ----------------------------------------------------------------------------- */

typedef enum {
    OC_NETCFG_NONE = 0,
    OC_NETCFG_DIRECT,
    OC_NETCFG_RING,
    OC_NETCFG_FATTREE,
    OC_NETCFG_SWITCH,
    OC_NETCFG_STAR,
    OC_NETCFG_FABRIC
} oc__netcfg_kind;

struct oc__netcfg {
    oc__netcfg_kind kind; /* which member below is filled */
    oc__netcost cost;     /* how the model costs a round, for the algorithms (above) */
    union {
        oc__direct_cfg direct;   /* OC_NETCFG_DIRECT: the hypercube, torus and mesh models */
        oc__ring_cfg ring;       /* OC_NETCFG_RING */
        oc__fattree_cfg fattree; /* OC_NETCFG_FATTREE */
        oc__switch_cfg sw;       /* OC_NETCFG_SWITCH */
        oc__star_cfg star;       /* OC_NETCFG_STAR */
        oc__fabric_cfg fabric;   /* OC_NETCFG_FABRIC */
    };
};

/* One network family's settings, or NULL on any other network: how an algorithm that runs on one
 * family only (its registry entry's networks: the star's TCP algorithms, the notes' all-to-alls on
 * the direct networks, WRHT on the ring) reads the numbers its seed's formulas are written in,
 * without a branch of its own on the kind. The pipeline runs an algorithm only on the networks its
 * entry lists, so NULL there is a caller's mistake (a test calling a search directly). */
static inline const oc__ring_cfg *oc__netcfg_ring(const oc__netcfg *cfg) {
    return cfg->kind == OC_NETCFG_RING ? &cfg->ring : NULL;
}
static inline const oc__star_cfg *oc__netcfg_star(const oc__netcfg *cfg) {
    return cfg->kind == OC_NETCFG_STAR ? &cfg->star : NULL;
}
static inline const oc__direct_cfg *oc__netcfg_direct(const oc__netcfg *cfg) {
    return cfg->kind == OC_NETCFG_DIRECT ? &cfg->direct : NULL;
}

/* The unit a network's times are printed in (oc_format_time), from its settings: NULL for
 * seconds; the star's seed times are unitless (L tau = 1), so "tau" worth tau in their scale, or
 * "D" worth D when tau = 0. The star's run (its finish()) and its physical bound both ask this,
 * so a bound without a run (compare where nothing ran) prints in the run's unit. */
const char *oc__netcfg_time_unit(const oc__netcfg *cfg, double *value);

#endif
