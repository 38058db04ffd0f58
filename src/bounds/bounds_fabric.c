/*
 * bounds_fabric.c — physical bounds on the circuit-switched photonic fabric (net/fabric.c; the
 * lumorph seed, sections 2-4).
 *
 * The model's rules the proofs use. A step is a set of circuits live at once (a round, or one
 * pass of a round split over the MZI degree or the fibres); a tile holds at most D circuits a
 * direction in a step, D = min(mzi_degree, W) (mzi_degree = 0: W), since every circuit takes at
 * least one of the tile's W wavelengths; a circuit gets w_c whole wavelengths, those of one tile
 * summing to at most W, each at bandwidth / W; a step costs alpha + its slowest circuit's bytes /
 * (w_c bandwidth / W), plus the reconfiguration when its circuits change, which the first step
 * always does.
 *  - relay depth: a holder hands a chunk to at most D others a step: ceil(log_{D+1} N) steps;
 *  - port volume: a step's slowest circuit is no faster than the busiest node's bytes in that
 *    step over the tile's whole bandwidth (its circuits share W wavelengths), so the steps'
 *    slowest circuits add up to at least the port volume (bounds_common.c) / bandwidth;
 *  - every step pays alpha, and one step at least pays the reconfiguration.
 * time >= reconfig + (relay depth) alpha + (port volume) / bandwidth. The fibres between servers
 * only add passes, and are not counted (weak where they are scarce).
 *
 * Configurations (where no round is split: mzi_split=0, and the fibres carry whatever a server's
 * tiles can send, tiles_per_server x D <= fibres x W, so no round runs in fibre passes). Then a
 * step is one round, and it pays the reconfiguration exactly when its transfers, as a multiset
 * of (src, dst), differ from the step before's (the first step always). Cut a schedule into runs:
 * maximal stretches of steps with the same multiset. Every run pays one reconfiguration and its
 * steps use one fixed digraph G of in- and out-degree at most D. Let K_t(v) be the nodes whose
 * data could have reached node v by step t (K_0(v) = {v}; a step adds the K of every node that
 * sends to v). Over a run of s steps on G, K(v) grows into the union of K(u) over the nodes u with
 * a walk of at most s arcs to v in G: at most M(s) = 1 + D + ... + D^s of them (the Moore count),
 * so the largest K grows at most M(s)-fold in a run; where the data starts at one node (broadcast,
 * scatter) the holders grow the same way along out-walks. Every collective here needs some K to
 * reach all N nodes (or all N to hold the root's data), so runs of s_1 .. s_c steps need
 * M(s_1) ... M(s_c) >= N: time >= c reconfig + (s_1 + ... + s_c) alpha + port volume / bandwidth
 * (the three sums are separate parts of every step's cost), minimised over c and the s_i. With
 * s_i = 1 this is the relay depth's c = L; one configuration may need more steps (M(s) <
 * (D + 1)^s for s >= 2): at D = 3 and N = 64, M(3) = 40 < 64, so one run needs 4 steps, and the
 * bound is 3.7 + 4 x 0.7 us (against 3.7 + 3 x 0.7 by the relay depth), and at N = 14 .. 16, M(2)
 * = 13, 3.7 + 3 x 0.7 (against 3.7 + 2 x 0.7). For a given c the largest product at S steps in all
 * is taken over every split of S (computed exactly, a small table), and S only up to where
 * c reconfig + S alpha passes the relay depth's L (reconfig + alpha), which is always feasible
 * (past the table's 256 steps, c runs count 257 steps: less than they need, still a bound).
 *
 * Label ranges (all-to-all only). A transfer moves one contiguous label range (core.h) whose
 * every label its sender holds, and the all-to-all's labels are destination-major: piece p of
 * node s's block for node d is ((d N + s) q + p) (core.h), so node u's own blocks sit N q labels
 * apart, and u starts holding nothing between them. Let m be the number of transfers out of u
 * whose range holds a piece of one of u's N - 1 blocks for other nodes (its own pieces). Each
 * own piece leaves u in at least one of them (u alone holds it at first and its destination is
 * another node), so their counts k_i of distinct own blocks sum to at least N - 1. Between the
 * last piece of own block d and the first of own block d' > d lie (d' - d) N q - q >= (N - 1) q
 * labels, none an own piece; a range holding pieces of k_i own blocks holds all k_i - 1 such
 * gaps and its own pieces besides. Summed over the m transfers: at least (sum k_i - m)(N - 1) q
 * gap labels plus the (N - 1) q own pieces, every label ceil(SIZE / q) bytes, so u sends at least
 * (max(0, N - 1 - m) + 1)(N - 1) SIZE bytes. Node u sends on at most D circuits a step, one
 * transfer each (the model counts a circuit per transfer), so the schedule has at least
 * ceil(m / D) steps, and at least the relay depth L; every step pays alpha, one at least the
 * reconfiguration, and u's bytes pass its port at the tile's whole bandwidth at most (the port
 * volume above, on the send side):
 *   time >= reconfig + min over m = 0 .. N-1 of
 *           max(L, ceil(m / D)) alpha + (max(0, N - 1 - m) + 1)(N - 1) SIZE / bandwidth.
 * Sending straight (m = N - 1) or relaying in long ranges (few m, each range carrying whole rows
 * of the label matrix) are its two ends; at 1 KiB and N = 100 (D = 3) the least is at m = 99:
 * 3.7 + 33 x 0.7 us + 99 KiB / 300 GB/s = 27.14 us, against 6.84 by the relay depth (m = 96: 32
 * steps but 4 x 99 KiB, 27.45). It holds with rounds split (each pass is a step of at most D
 * circuits) and with scarce fibres (more passes, more steps).
 */
#include "bounds/bounds.h"

#include <string.h>

/* The Moore count 1 + D + ... + D^s, saturating at `cap`. */
static uint64_t moore(uint64_t D, uint64_t s, uint64_t cap) {
    uint64_t sum = 1, term = 1;
    for (uint64_t i = 0; i < s && sum < cap; i++) {
        term = term > cap / (D ? D : 1) ? cap : term * D;
        sum = sum + term > cap ? cap : sum + term;
    }
    return sum < cap ? sum : cap;
}

/* The least c reconfig + S alpha over runs s_1 .. s_c (c >= 1, each s_i >= 1) with
 * M(s_1) ... M(s_c) >= N, given that c = L runs of one step each (cost L (reconfig + alpha)) are
 * feasible; *steps gets that optimum's S. The essay's "configurations". */
static double runs_bound(uint64_t N, uint64_t D, uint64_t L, double reconfig, double alpha,
                         uint64_t *steps) {
    enum { MAX_S = 256 };
    double best = (double)L * (reconfig + alpha);
    *steps = L;
    /* P[S]: the largest product over c runs of S steps in all (saturating at N); c grows */
    uint64_t P[MAX_S + 1], Q[MAX_S + 1];
    for (uint64_t S = 0; S <= MAX_S; S++)
        P[S] = S == 0 ? 1 : 0; /* zero runs: product 1 at S = 0 only */
    for (uint64_t c = 1; c <= L && (double)c * reconfig + (double)c * alpha < best; c++) {
        for (uint64_t S = 0; S <= MAX_S; S++) {
            Q[S] = 0;
            for (uint64_t s = 1; s <= S; s++) {
                if (!P[S - s]) continue;
                const uint64_t m = moore(D, s, N);
                const uint64_t v = P[S - s] > N / m ? N : P[S - s] * m;
                if (v > Q[S]) Q[S] = v;
            }
        }
        memcpy(P, Q, sizeof P);
        uint64_t S = c;
        for (; S <= MAX_S; S++) {
            const double t = (double)c * reconfig + (double)S * alpha;
            if (t >= best) break;
            if (P[S] >= N) {
                best = t;
                *steps = S;
                break;
            }
        }
        /* not settled within the table: c runs then take more than MAX_S steps, at least this */
        if (S > MAX_S && (double)c * reconfig + (double)(MAX_S + 1) * alpha < best) {
            best = (double)c * reconfig + (double)(MAX_S + 1) * alpha;
            *steps = MAX_S + 1;
        }
    }
    return best;
}

/* The essay's label ranges: min over m = 0 .. N-1 of max(L, ceil(m / D)) alpha + (N - m)(N - 1)
 * block_s, block_s one block's time at a tile's whole bandwidth. */
static double labels_bound(uint64_t N, uint64_t D, uint64_t L, double alpha, double block_s) {
    double best = -1;
    for (uint64_t m = 0; m < N; m++) {
        const uint64_t steps = (m + D - 1) / D > L ? (m + D - 1) / D : L;
        const double rest = (double)(N - m); /* max(0, N - 1 - m) + 1 for m < N */
        const double t = (double)steps * alpha + rest * (double)(N - 1) * block_s;
        if (best < 0 || t < best) best = t;
    }
    return best;
}

int oc__pbound_fabric(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    const oc__fabric_cfg *f = &in->cfg.fabric;
    if (f->wavelengths == 0 || !(f->bytes_per_s > 0))
        return oc__fail(why, len, OC_EINVAL, "no physical bound: the fabric has no wavelengths");
    uint64_t D = f->wavelengths;
    if (f->mzi_degree && f->mzi_degree < D) D = f->mzi_degree;
    const uint64_t L = oc__pb_relay_depth(in->nodes, D);
    const char *what;
    const double volume = oc__pb_port_bytes(in, &what);
    out->steps = L;
    out->steps_arg = "relay depth (a tile holds at most min(MZI degree, W) circuits a step)";
    out->time_s = f->reconfig_s + (double)L * f->alpha_s + volume / f->bytes_per_s;
    out->time_arg = "one reconfiguration + relay depth x alpha + port volume / bandwidth";
    out->gap_side = OC_LOOSE_BOUND; /* one reconfiguration and the relay depth: the fewest */
    /* configurations: runs of one circuit set, where every step is a round (the essay) */
    const int unsplit = !f->mzi_split && f->fibres > 0 &&
                        (uint64_t)f->tiles_per_server * D <= (uint64_t)f->fibres * f->wavelengths;
    if (unsplit && L > 0 && f->alpha_s > 0 && f->reconfig_s > 0) {
        uint64_t S;
        const double t =
            runs_bound(in->nodes, D, L, f->reconfig_s, f->alpha_s, &S) + volume / f->bytes_per_s;
        if (t > out->time_s) {
            out->time_s = t;
            out->time_arg = "configurations (runs of one circuit set, each a reconfiguration, "
                            "reach at most 1 + D + ... + D^s nodes in s steps) x alpha + port "
                            "volume / bandwidth";
        }
    }
    if (in->coll == OC_ALLTOALL && in->nodes >= 2 && f->alpha_s > 0) {
        const double t = f->reconfig_s + labels_bound(in->nodes, D, L, f->alpha_s,
                                                      (double)in->bytes / f->bytes_per_s);
        if (t > out->time_s) {
            out->time_s = t;
            out->time_arg = "label ranges (a transfer carrying two of a node's own blocks spans "
                            "a row of the label matrix: a node sends on m circuits, ceil(m/D) "
                            "steps, and (N-m)(N-1) blocks)";
            out->gap_side = OC_LOOSE_SCHEDULE; /* a count of circuits: a capacity */
        }
    }
    return 0;
}
