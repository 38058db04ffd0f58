/*
 * bounds_direct.c — physical bounds on the electrical direct networks: hypercube, torus and mesh
 * (net/direct.c; the all-to-all-scatter notes, CS838 section 14).
 *
 * The model's rules the proofs use. A round is split into steps; in a step a node injects and
 * consumes at most one message (1-port) or at most one per link (all-port: at most its degree
 * Delta, two per dimension of side >= 3 and one per side of 2); store-and-forward (SF) moves a
 * message one hop, between neighbours only; a step lasts as long as its slowest message, and a
 * message costs ts (+ h td under wormhole, h >= 1) + bytes tm. Non-combining networks send every
 * packet of at most mu bytes as its own message.
 *  - relay depth: a holder hands a chunk to at most Delta others a step (1 with one port):
 *    ceil(log_{Delta+1} N) steps;
 *  - distance (SF only): a chunk moves one hop a step, so a collective in which some node's data
 *    must reach a node at distance d needs d steps: the diameter (sum of floor(z/2) over a torus's
 *    wrapping sides, z - 1 over the others) for the all-to-all family, the root's eccentricity for
 *    broadcast, scatter and gather;
 *  - messages (non-combining only): a node that must receive m chunks (bounds_common.c, port
 *    chunks) receives at least m ceil(unit / mu) packets, Delta a step;
 *  - volume: in a step a node consumes at most Delta messages, so the step's slowest message has
 *    at least 1/Delta of that node's bytes in the step: over the schedule, at least the port
 *    volume (bounds_common.c) / Delta at tm a byte; and every step pays ts (+ td under wormhole).
 *  - bisection (all-to-all): cut dimension i (side z >= 2) between slices floor(z/2) and
 *    ceil(z/2): A = floor(z/2) N / z nodes on one side, B = N - A on the other, and every one of
 *    the A B units of the one side's nodes for the other's (distinct data, nothing to combine)
 *    crosses the cut. In a step a directed link carries one message (full duplex; half duplex:
 *    one a link, both ways together), and the cut has c = 2 N / z links a direction on a torus
 *    side >= 3 (it wraps: two boundaries), N / z otherwise, so a step's slowest message holds at
 *    least 1/c of what crosses in it (2/c at half duplex): over the schedule A B unit tm / c
 *    (x 2 at half duplex). A step's slowest message is at least both it and the node's share, so
 *    time >= steps bound x (ts [+ td]) + max(port volume tm / Delta, bisection). Non-combining,
 *    every packet crosses as its own message: at least A B ceil(unit / mu) / c steps (x 2 at half
 *    duplex). The notes' Lemma, the model's own bound for one schedule, proven here for all:
 *    all-port, it is about N/4 x the port volume's share on a torus, as the notes say.
 * time >= steps bound x (ts [+ td]) + max(port volume tm / Delta, bisection volume tm).
 */
#include "bounds/bounds.h"

int oc__pbound_direct(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    (void)why, (void)len;
    const oc__direct_cfg *c = &in->cfg.direct;
    uint64_t degree = 0, diameter = 0, ecc = 0, below = 1;
    for (uint32_t i = 0; i < c->ndims; i++) {
        const uint64_t z = c->dims[i], at = in->root / below % z;
        const int wraps = c->kind == OC_DIRECT_TORUS && z >= 3;
        degree += z >= 3 ? 2 : z == 2 ? 1 : 0;
        diameter += wraps ? z / 2 : z - 1;
        ecc += wraps ? z / 2 : (at > z - 1 - at ? at : z - 1 - at);
        below *= z;
    }
    const uint64_t fan = c->allport ? degree : 1;
    if (fan == 0) return oc__fail(why, len, OC_EINVAL, "no physical bound: no links");
    uint64_t steps = oc__pb_relay_depth(in->nodes, fan);
    out->steps_arg = c->allport ? "relay depth (a node sends on its links, Delta a step)"
                                : "relay depth (one port: holders at most double a step)";
    if (!c->wormhole) {
        const int rooted =
            in->coll == OC_BROADCAST || in->coll == OC_SCATTER || in->coll == OC_GATHER;
        const uint64_t d = rooted ? ecc : diameter;
        if (d > steps) {
            steps = d;
            out->steps_arg = rooted ? "distance (store-and-forward: the root's eccentricity)"
                                    : "distance (store-and-forward: the diameter)";
        }
    }
    const uint64_t unit = oc__pb_unit_bytes(in);
    if (!c->combining && unit > 0 && c->mu > 0) {
        const uint64_t packets = oc__pb_port_chunks(in) * oc__ceil_div(unit, c->mu);
        const uint64_t need = oc__ceil_div(packets, fan);
        if (need > steps) {
            steps = need;
            out->steps_arg = "messages (non-combining: a node's packets, Delta a step)";
        }
    }
    const char *what;
    const double B = oc__pb_port_bytes(in, &what);
    double volume = B / (double)fan; /* bytes some step's slowest messages add up to, at least */
    out->time_arg = "steps bound x start-up + port volume x tm / ports";
    out->gap_side = OC_LOOSE_SCHEDULE; /* the port volume, and below the bisection: capacities */
    if (in->coll == OC_ALLTOALL && unit > 0) {
        const uint64_t N = in->nodes, duplex = c->fullduplex ? 1 : 2;
        for (uint32_t i = 0; i < c->ndims; i++) {
            const uint64_t z = c->dims[i];
            if (z < 2) continue;
            const uint64_t slice = N / z, A = z / 2 * slice, Bn = N - A;
            const uint64_t cut = (c->kind == OC_DIRECT_TORUS && z >= 3 ? 2 : 1) * slice;
            const double crossing = (double)A * (double)Bn * (double)duplex / (double)cut;
            if (crossing * (double)unit > volume) {
                volume = crossing * (double)unit;
                out->time_arg = "steps bound x start-up + bisection volume x tm (all-to-all: "
                                "A B units over the cut's links)";
            }
            if (!c->combining && c->mu > 0) {
                const uint64_t pk = oc__ceil_div(unit, c->mu);
                const uint64_t need = oc__ceil_div(A * Bn * pk * duplex, cut);
                if (need > steps) {
                    steps = need;
                    out->steps_arg = "bisection (non-combining: A B units' packets over the cut's "
                                     "links, one a link a step)";
                }
            }
        }
    }
    out->steps = steps;
    out->time_s = (double)steps * (c->ts + (c->wormhole ? c->td : 0)) + volume * c->tm;
    return 0;
}
