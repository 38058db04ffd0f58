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
 * The fat-tree. A round is one step with no port limit: one round can do any collective here, so
 * the steps bound is 1 (N > 1): weak, and named so. A transfer is done no sooner than its node
 * link (injection at the sender, ejection at the receiver) has drained every packet the round
 * puts on it, plus at least one router delay; a transfer's bytes are cut into whole packets. So
 * the rounds add up to at least one router delay plus ceil(B / packet) packet times, B the port
 * volume.
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
    for (uint64_t R = 1; R < K; R++) {
        const double a = (double)least_ports(in->nodes, R) * s->alpha_s;
        const double b = (double)R * s->alpha_s + B * s->beta_s;
        const double t = a > b ? a : b;
        if (t < best) {
            best = t;
            out->time_arg = a > b ? "rounds x ports (few rounds need many transfers a port)"
                                  : "rounds x alpha + port volume x beta";
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
    out->steps_arg = "one round (no port limit: weak)";
    /* B is (N-1) units or 2(N-1)/N of one: whole packets of it, rounded up with care for the
     * average's fraction */
    const double packets = ceil(B / (double)f->packet_bytes - 1e-9);
    out->time_s = f->router_s + (packets > 0 ? packets : 0) * f->packet_s;
    out->time_arg = "one router delay + port volume in packets on a node link";
    return 0;
}
