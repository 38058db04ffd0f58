/*
 * bounds_star.c — physical bounds on the passive optical star (net/star.c; the
 * passive-optical-star seed, section 1).
 *
 * The model's rules the proofs use. P processors; in one step a processor sends on at most k
 * lasers and receives on at most k filters (one stream each: the transfers of a round between
 * two processors); a step costs D when any filter is retuned in it (filters start untuned, so
 * the first step always pays it) plus its largest stream's messages x L tau, a message being one
 * chunk whatever its bytes. So the time is (steps that retune) D + (sum over steps of the largest
 * stream) L tau, and the bytes never enter.
 *  - relay depth: a holder hands a chunk to at most k others a step (its lasers), so the steps
 *    are at least ceil(log_{k+1} P) (bounds_common.c);
 *  - receive (send) capacity: a node that must receive m chunks (bounds_common.c, port chunks:
 *    P - 1 in an all-gather, gossip, all-to-all and at the gather's root; sent by the scatter's
 *    root and by every node of a reduce-scatter; 1 in a broadcast; 2(P-1)/P on average in an
 *    all-reduce) gets at most k streams a step, each no longer than the step's largest, so the
 *    sum of the largest streams is at least ceil(m / k); and each step has a largest stream of at
 *    least one message, so that sum is also at least the steps' bound;
 *  - tuning: D once at least.
 * time >= D + max(relay depth, ceil(m / k)) L tau. Weak where the seed's algorithms retune every
 * step (TCP2): nothing here forces a second tuning.
 */
#include "bounds/bounds.h"

int oc__pbound_star(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    const oc__star_cfg *s = &in->cfg.star;
    if (s->k == 0) return oc__fail(why, len, OC_EINVAL, "no physical bound: k = 0");
    const uint64_t L = oc__pb_relay_depth(in->nodes, s->k);
    const uint64_t m = oc__ceil_div(oc__pb_port_chunks(in), s->k);
    out->steps = L;
    out->steps_arg = "relay depth (holders grow by at most k+1 a step)";
    const uint64_t longest = m > L ? m : L;
    out->time_s = s->D + (double)longest * s->L * s->tau;
    out->time_arg = m > L ? "one tuning + receive capacity (k filters a step, messages x L tau)"
                          : "one tuning + relay depth (a message a step at least)";
    return 0;
}
