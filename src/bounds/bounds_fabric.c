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
 */
#include "bounds/bounds.h"

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
    return 0;
}
