/*
 * bounds_switch.c — physical bounds on the electrical baselines with ports: the ideal switch
 * (net/switch.c; lumorph section 4, TACCL's alpha-beta) and the two-level fat-tree
 * (net/fattree.c; wrht Table II).
 *
 * The switch. A node has one send and one receive port; a round whose busiest port has k_r
 * transfers is k_r steps, and lasts as long as its busiest port, sum over that port's transfers
 * of alpha + bytes beta. So round r lasts at least k_r alpha, and at least alpha + b_r(v) beta for
 * every node v (b_r(v): v's bytes on one side in round r; a round has one transfer at least).
 *  - relay depth: in round r a holder of a chunk sends it to at most k_r others, so holders
 *    multiply by at most k_r + 1 <= 2^{k_r}: the steps sum_r k_r are at least K = ceil(log2 N);
 *  - rounds x ports: with R rounds, T >= sum_r k_r alpha >= Kmin(R) alpha, where Kmin(R) is the
 *    least sum of R positive k_r with prod (k_r + 1) >= N (balanced k_r, computed exactly), and
 *    T >= R alpha + B beta with B the port volume (bounds_common.c). So T >= min over R of
 *    max(Kmin(R) alpha, R alpha + B beta); for R >= K this is at least K alpha + B beta, so R runs
 *    over 1..K. At alpha = 0 the ring all-gather meets it ((N-1) blocks at beta each), and
 *    recursive doubling meets K alpha + B beta at powers of two when its last round moves half:
 *    tests/test_bounds.c checks both.
 *
 * The fat-tree (net/fattree.c). A round is one step with no port limit: one round can do any
 * collective here (every node sends what it has to everyone who needs it), so the steps bound is
 * 1 (N > 1), and it is met. The time. A transfer is done no sooner than every link on its path
 * has drained every packet the round puts on it, plus one router delay rho per router on its
 * path (1 inside a leaf, 3 through a spine); a transfer's bytes are cut into whole packets of
 * packet_s each; a round lasts as its slowest transfer. Let P be the port volume in packets (the
 * bytes of bounds_common.c over the packet, rounded up: a node link's packets are a sum of whole
 * packets per transfer).
 *  - node link: every round in which node v is busy lasts at least rho plus v's packets on its
 *    link that round, so the rounds add up to at least rho + P packet_s;
 *  - a path between leaves (L = ceil(N / leaf_down) >= 2 leaves, each with a node): every
 *    collective moves some data from a node of one leaf to a node of another (a broadcast's or
 *    scatter's root to the other leaves, the others' data into the gather's root, every node's
 *    data to everyone in the rest), so some transfer t crosses a spine, and its round lasts at
 *    least 3 rho + one packet. Where every node's own link carries at least the port volume
 *    (all-gather, gossip and all-to-all receive (N-1) units at every node, broadcast the message
 *    at every other node, reduce-scatter sends (N-1) units from every node), take v the receiver
 *    of t (the sender for reduce-scatter; for broadcast a crossing transfer into a node that is
 *    not the root exists, the first crossing of a chain out of the root's leaf): the rounds add
 *    up to rho + P packet_s over v's busy rounds, and t's round takes 2 rho more than that sum
 *    counts for it, so 3 rho + P packet_s. For scatter, gather and all-reduce (the all-reduce's
 *    port volume is an average over the nodes) only the larger of the two;
 *  - leaf downlinks (all-to-all): the n nodes of a leaf need n (N - n) distinct units from the
 *    other leaves, all of which enter the leaf over its U = ports - leaf_down cables from the
 *    spines; in a round the busiest of them holds at least 1/U of what enters, and every transfer
 *    over it waits for it, so the rounds add up to 3 rho + ceil(packets / U) packet_s, packets at
 *    least n (N - n) unit / packet. It binds under oversubscription (leaf_down > U); the leaf of
 *    largest n (N - n) is taken. The all-gather's data can cross once and spread inside a leaf,
 *    so there it is weaker than the node link and not used.
 * What stays loose: nothing here counts the spines' sharing by destination (D-mod-k), and the
 * router delays of rounds beyond the first three.
 */
#include "bounds/bounds.h"

#include <math.h>

/* The least K = k_1 + ... + k_R (k_r >= 1) with prod (k_r + 1) >= n: the balanced split is the
 * best for a given sum, so the least K whose balanced product reaches n. */
static uint64_t least_ports(uint64_t n, uint64_t R) {
    uint64_t lo = R, hi = n > R ? n : R; /* K = n - 1 + R ... a single round of n-1 suffices */
    while (lo < hi) {
        const uint64_t K = lo + (hi - lo) / 2, a = K / R, b = K % R;
        uint64_t prod = 1;
        for (uint64_t r = 0; r < R && prod < n; r++) {
            const uint64_t f = (r < b ? a + 2 : a + 1);
            prod = prod > UINT64_MAX / f ? UINT64_MAX : prod * f;
        }
        if (prod >= n)
            hi = K;
        else
            lo = K + 1;
    }
    return lo;
}

int oc__pbound_switch(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    (void)why, (void)len;
    const oc__switch_cfg *s = &in->cfg.sw;
    const uint64_t K = oc__pb_relay_depth(in->nodes, 1);
    const char *what;
    const double B = oc__pb_port_bytes(in, &what);
    out->steps = K;
    out->steps_arg = "relay depth (a port sends one transfer a step: holders at most double)";
    double best = (double)K * s->alpha_s + B * s->beta_s;
    out->time_arg = "relay depth x alpha + port volume x beta";
    out->gap_side = OC_LOOSE_BOUND; /* the relay depth's start-ups are a schedule's fewest */
    for (uint64_t R = 1; R < K; R++) {
        const double a = (double)least_ports(in->nodes, R) * s->alpha_s;
        const double b = (double)R * s->alpha_s + B * s->beta_s;
        const double t = a > b ? a : b;
        if (t < best) {
            best = t;
            out->time_arg = a > b ? "rounds x ports (few rounds need many transfers a port)"
                                  : "rounds x alpha + port volume x beta";
            out->gap_side = OC_LOOSE_SCHEDULE; /* a port's transfers or volume: capacities */
        }
    }
    out->time_s = best;
    return 0;
}

int oc__pbound_fattree(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    const oc__fattree_cfg *f = &in->cfg.fattree;
    if (f->packet_bytes == 0)
        return oc__fail(why, len, OC_EINVAL, "no physical bound: packets of 0 bytes");
    const char *what;
    const double B = oc__pb_port_bytes(in, &what);
    out->steps = 1;
    out->steps_arg = "one round (no port limit: any collective fits in one round)";
    /* B is (N-1) units or 2(N-1)/N of one: whole packets of it, rounded up with care for the
     * average's fraction */
    const double packets = fmax(ceil(B / (double)f->packet_bytes - 1e-9), 0);
    const double rho = f->router_s, pkt = f->packet_s;
    out->time_s = rho + packets * pkt;
    out->time_arg = "one router delay + port volume in packets on a node link";
    out->gap_side = OC_LOOSE_SCHEDULE; /* the node link's volume, and below a spine's: capacities */
    const uint64_t N = in->nodes, down = f->leaf_down;
    if (down == 0 || N <= down) return 0; /* one leaf: no path through a spine */
    const int per_node = in->coll == OC_ALLGATHER || in->coll == OC_GOSSIP ||
                         in->coll == OC_ALLTOALL || in->coll == OC_BROADCAST ||
                         in->coll == OC_REDUCESCATTER;
    const double across = per_node ? 3 * rho + packets * pkt : 3 * rho + pkt;
    if (across > out->time_s) {
        out->time_s = across;
        out->time_arg = per_node ? "three router delays (a path between leaves) + port volume "
                                   "in packets on a node link"
                                 : "three router delays (a path between leaves) + a packet";
    }
    if (in->coll == OC_ALLTOALL && f->uplinks > 0) {
        /* the leaves' sizes: full ones of leaf_down nodes and the last of what is left */
        const uint64_t last = N - (oc__ceil_div(N, down) - 1) * down;
        const uint64_t sizes[2] = {down, last};
        double most = 0;
        for (int i = 0; i < 2; i++)
            most = fmax(most, (double)sizes[i] * (double)(N - sizes[i]));
        const double unit = (double)oc__pb_unit_bytes(in);
        const double entering = ceil(most * unit / (double)f->packet_bytes - 1e-9);
        const double t = 3 * rho + ceil(entering / (double)f->uplinks - 1e-9) * pkt;
        if (t > out->time_s) {
            out->time_s = t;
            out->time_arg = "three router delays + a leaf's incoming units over its spine cables "
                            "(oversubscribed leaves)";
        }
    }
    return 0;
}
