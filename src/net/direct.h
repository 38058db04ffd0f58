/*
 * direct.h — the electrical direct networks of the all-to-all-scatter notes (CS838 section 14):
 * the hypercube Q_n, the torus T(z1,...,zk) and the mesh M(z1,...,zk). One implementation
 * (direct.c) serves the three registered models `hypercube`, `torus` and `mesh`; its independent
 * resource check is direct_check.c.
 *
 * The configuration the parameters parse into (oc__direct_cfg) is in core/netcfg.h: the model
 * parses it once, in create(), and hands it typed to the all-to-all algorithms' closed forms
 * (oc__formula_in.cfg, through the model's `config` hook), so a formula and the model never
 * disagree on what a parameter means. Network parameters (`--net key=value`, all optional):
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
#include "core/netcfg.h"
#include "core/result.h"

/* Packets in one round without combining (each is a step entry in the model and a few route
 * entries in the check, ~40 bytes in all): 2^22 packets is ~170 MB and a couple of seconds. */
#define OC_DIRECT_MAX_ROUND_PACKETS (UINT64_C(1) << 22)

/* Parses and checks the parameters of network `kind` on `nodes` nodes; a clear reason and
 * OC_EINVAL (OC_ENOTSUP when N does not fit the network) on bad input. */
int oc__direct_cfg_parse(oc__direct_kind kind, uint32_t nodes, const oc_kv *params,
                         oc__direct_cfg *cfg, char *why, size_t whylen);

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
