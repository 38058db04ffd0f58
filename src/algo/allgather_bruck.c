/*
 * allgather_bruck.c — Bruck's all-gather (Bruck, Ho, Kipnis, Upfal and Weathersby 1997; MPICH's
 * and Open MPI's allgather "bruck"): ceil(log2 N) rounds for any N. After round j node i holds
 * the blocks of nodes i, i+1, ..., i + 2^(j+1) - 1 (mod N). In round j node i sends the first
 * c_j = min(2^j, N - 2^j) blocks it holds, i .. i + c_j - 1, to node i - 2^j, which appends them
 * to its own window. It is one of the all-gathers; the switch and the ring both run it.
 *
 * Labels. A window of blocks is cyclic; labels are not. A window that runs past node N-1 is sent
 * as two transfers (its part up to N-1 and its part from 0) in the same round. MPI's Bruck sends
 * it as one message from a rotated buffer; on the ideal switch (one alpha per transfer, a port
 * serialises its transfers) each round with a wrapping window therefore costs one alpha more:
 *   switch:  time = (ceil(log2 N) + W) alpha + (N-1) b beta, exact, where W is the number of
 *            rounds with c_j >= 2 (exactly those have a window that wraps) and b one block;
 *            textbook Bruck: ceil(log2 N) alpha + (N-1) b beta, reported beside it;
 *   fabric, fat-tree: the textbook form with their per-message cost (they carry the two pieces
 *            of a window in parallel); circuit reconfiguration and contention come on top;
 *   ring:    round j is N lightpaths of length min(2^j, N - 2^j) = c_j carrying c_j blocks
 *            (N/2 per direction when 2^j = N/2), so its busiest link carries c_j^2 units per
 *            direction; a wavelength-slot holds at most floor(N/c_j) disjoint arcs of length c_j,
 *            so the round needs at least ceil(N c_j / floor(N/c_j)) colours, more than c_j^2 when
 *            c_j does not divide N: sum over j of ceil(colours_j / C) steps, a lower bound.
 */
#include "algo/algos.h"

#include <math.h>
#include <string.h>

static int bruck_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_plain(plan, "bruck", coll, nodes, root, bytes, 1, params, why, len);
    for (uint64_t dist = 1; dist < nodes; dist *= 2) {
        plan->rounds++; /* ceil(log2 N) */
        /* the work (core.h): N windows of min(dist, N - dist) blocks, one more transfer for
         * each window that wraps past node N-1 (those of the last c nodes but the first) */
        const uint64_t c = dist < nodes - dist ? dist : nodes - dist;
        if (!rc) plan->spec.units += nodes * c * plan->spec.q;
        if (!rc) plan->spec.transfers += nodes + c - 1;
    }
    return rc;
}

static int bruck_generate(const oc__plan *plan, oc__emit *e) {
    const uint64_t N = plan->spec.nodes, q = plan->spec.q;
    for (uint64_t dist = 1; dist < N; dist *= 2) {
        const uint64_t c = dist < N - dist ? dist : N - dist;
        for (uint64_t i = 0; i < N; i++) {
            const uint32_t to = (uint32_t)((i + N - dist) % N);
            const uint64_t head = i + c <= N ? c : N - i; /* blocks i .. N-1 first */
            int rc = oc__emit_transfer(e, (uint32_t)i, to, OC_OP_COPY, (uint32_t)(i * q),
                                       (uint32_t)(head * q));
            if (!rc && head < c)
                rc = oc__emit_transfer(e, (uint32_t)i, to, OC_OP_COPY, 0,
                                       (uint32_t)((c - head) * q));
            if (rc) return rc;
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int bruck_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const uint64_t N = plan->spec.nodes;
    const double q = plan->spec.q;
    double rounds = 0, wraps = 0, S = 0;
    const double C = (double)in->channels;
    for (uint64_t dist = 1; dist < N; dist *= 2) {
        const double c = (double)(dist < N - dist ? dist : N - dist);
        rounds++;
        wraps += c >= 2;
        /* N arcs of length c carrying c blocks (N/2 per direction at dist = N/2); one colour
         * holds at most floor(N/c) disjoint arcs of length c */
        const double arcs = 2 * dist == N ? (double)N / 2 : (double)N;
        S += ceil(ceil(arcs * c / floor((double)N / c)) * q / C);
    }
    int rc = oc__report_num(rep, "rounds_textbook", rounds);
    /* the model's rule for a round (core/netcfg.h: oc__netcost): its busiest link's colours
     * over the channels (the ring), or a port's transfers one alpha each (the switch) */
    const int ring = in->cfg.cost.steps_by_link_load;
    const int sw = in->cfg.cost.alpha_per_transfer;
    if (ring) {
        oc__formula_steps(rep, in, S);
    } else {
        /* a = one transfer's fixed cost, cb = one chunk's payload time; only the switch charges
         * the second transfer of a wrapped window another alpha */
        const double a = in->step_fixed, cb = in->step_time - in->step_fixed;
        const double alphas = rounds + (sw ? wraps : 0);
        rep->has_formula = 1;
        rep->steps_formula = alphas;
        rep->has_time_formula = 1;
        rep->time_formula_s = alphas * a + (double)(N ? N - 1 : 0) * q * cb;
        rc |= oc__report_num(rep, "time_textbook_s", rounds * a + (double)(N ? N - 1 : 0) * q * cb);
        if (sw && wraps > 0)
            rc |= oc__report_note(rep,
                                  "%.0f of the %.0f rounds send a window that wraps past node "
                                  "N-1 as two transfers (labels are not cyclic): %.0f alphas "
                                  "where MPI's rotated buffer needs %.0f",
                                  wraps, rounds, rounds + wraps, rounds);
    }
    if (rep->steps != (uint64_t)rep->steps_formula ||
        fabs(rep->time_s - rep->time_formula_s) > 1e-9 * rep->time_formula_s)
        rc |= oc__report_note(rep,
                              "the mapping differs from the closed form (%llu steps against "
                              "%.0f, %.6g s against %.6g s): %s",
                              (unsigned long long)rep->steps, rep->steps_formula, rep->time_s,
                              rep->time_formula_s,
                              ring ? "the closed form is a per-round colour bound; the ring's "
                                     "colouring of equal arcs round the whole ring, and its "
                                     "split of half-ring arcs between the directions, do not "
                                     "reach it"
                                   : "the network adds contention or circuit reconfiguration");
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_allgather_bruck = {
    .info = {"bruck", OC_ALLGATHER, "switch,fabric,fattree,ring",
             "Bruck: ceil(log2 N) rounds for any N, node i sends its window to i - 2^j", "",
             "ceil(log2 N) alpha + (N-1) b beta (+1 alpha per round whose window wraps)", ""},
    .param_names = NULL,
    .max_nodes = OC_MAX_NODES,
    .plan = bruck_plan,
    .generate = bruck_generate,
    .formula = bruck_formula,
};
