/*
 * direct.h — the electrical direct networks of the all-to-all-scatter notes (CS838 section 14):
 * the hypercube Q_n, the torus T(z1,...,zk) and the mesh M(z1,...,zk). One implementation
 * (direct.c) serves the three registered models `hypercube`, `torus` and `mesh`; its independent
 * resource check is direct_check.c.
 *
 * This header is also the interface the all-to-all algorithms use: their formula() reads the
 * network's parameters back from the report (oc__direct_cfg_from_report) and prices the notes'
 * closed forms with oc__direct_msg_time, so a formula and the model never disagree on what a
 * parameter means. Network parameters (`--net key=value`, all optional):
 *   dims=AxBx..  torus/mesh side lengths (default: torus N = T(N), mesh the most square 2-D
 *                factorisation A x B of N with A >= B); their product must be N.
 *   dim=n        hypercube dimension (default log2 N; N must be 2^n).
 *   switching=sf|wh, ports=1|all, duplex=half|full, combining=yes|no
 *                (defaults sf, 1, full, yes).
 *   ts_us=1      start-up per message (us); tm_ns=1 per byte (ns: 1 GB/s links);
 *   td_us=0.05   per hop, wormhole only (us); mu=BYTES packet size (default: one chunk).
 * The defaults of ts, tm and td are ours: the notes give no numbers.
 */
#ifndef OC_NET_DIRECT_H
#define OC_NET_DIRECT_H

#include "core/core.h"
#include "core/result.h"

enum { OC_DIRECT_MAX_DIMS = 20 };
/* Packets in one round without combining (each is a step entry in the model and a few route
 * entries in the check, ~40 bytes in all): 2^22 packets is ~170 MB and a couple of seconds. */
#define OC_DIRECT_MAX_ROUND_PACKETS (UINT64_C(1) << 22)

typedef enum { OC_DIRECT_HYPERCUBE, OC_DIRECT_TORUS, OC_DIRECT_MESH } oc__direct_kind;

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
    uint64_t mu;                       /* packet bytes; 0 = one chunk */
} oc__direct_cfg;

/* Node numbering: node = c[0] + z1 (c[1] + z2 (c[2] + ...)); on the hypercube coordinate i is
 * bit i of the node's address. */

/* Parses and checks the parameters of network `kind` on `nodes` nodes; a clear reason and
 * OC_EINVAL (OC_ENOTSUP when N does not fit the network) on bad input. */
int oc__direct_cfg_parse(oc__direct_kind kind, uint32_t nodes, const oc_kv *params,
                         oc__direct_cfg *cfg, char *why, size_t whylen);
/* The configuration a run used, read back from its report (its network and net_params):
 * for an algorithm's formula(). OC_EINVAL if the report is not from a direct network. */
int oc__direct_cfg_from_report(const oc_report *rep, oc__direct_cfg *cfg);
/* Parses "8x8" / "12" into dims[0..*ndims); OC_EINVAL with a reason on anything else. */
int oc__direct_parse_dims(const char *text, uint32_t *dims, uint32_t *ndims, char *why,
                          size_t whylen);
/* The most square 2-D factorisation A x B of N (A >= B >= 1): the mesh's default. */
void oc__direct_square_dims(uint32_t nodes, uint32_t *a, uint32_t *b);
/* One message's time: SF ts + bytes tm (one hop); WH ts + hops td + bytes tm. */
double oc__direct_msg_time(const oc__direct_cfg *cfg, uint64_t hops, uint64_t bytes);
/* Hops of the dimension-order (e-cube / XY, torus: shortest direction) route from a to b. */
uint32_t oc__direct_hops(const oc__direct_cfg *cfg, uint32_t a, uint32_t b);

/* ---- the independent check (direct_check.c), called by direct.c ---------------------------- */

/* One message as the model scheduled it: packets npk, each of pkt_bytes, in the consecutive
 * steps [step, step + npk) of the round. */
typedef struct oc__direct_msg {
    uint32_t src, dst;
    uint64_t step, npk, pkt_bytes;
} oc__direct_msg;

/* What the model claims about one round. */
typedef struct oc__direct_claim {
    const oc__direct_msg *msgs;
    size_t nmsgs;
    uint64_t steps;      /* physical steps of the round */
    uint64_t crit_msgs;  /* sum over steps of 1 (= steps): the ts count */
    uint64_t crit_hops;  /* sum over steps of the slowest message's hops */
    uint64_t crit_bytes; /* sum over steps of the slowest message's bytes */
} oc__direct_claim;

typedef struct oc__direct_checker oc__direct_checker;
int oc__direct_checker_new(oc__direct_checker **out);
void oc__direct_checker_free(oc__direct_checker *c);
/* Re-derives every message's route and proves: the messages carry exactly the round's transfers
 * (per sender and receiver), SF messages go between neighbours, no port (1-port) and no link
 * (directed when full duplex, either direction when half) is used twice in a step, and the
 * round's steps and critical sums are what the model claims. OC_ERESOURCE with the reason. */
int oc__direct_check(oc__direct_checker *c, const oc__direct_cfg *cfg, uint64_t round,
                     const oc__round *r, uint64_t chunk_bytes, const oc__direct_claim *claim,
                     char *why, size_t whylen);

#endif
