/*
 * alltoall_pairwise.c — the pairwise exchange (MPI's alltoall "pairwise" algorithm; Thakur,
 * Rabenseifner and Gropp 2005, used by MPICH and Open MPI for long messages): N - 1 rounds; in
 * round r = 1 .. N-1 node i sends its packet for (i + r) mod N straight to it (and so receives from
 * (i - r) mod N). No packet is relayed and every node has one send and one receive per round, so
 * it runs on every network as it is: the baseline a user compares the optical all-to-alls with.
 *
 * Cost with m = SIZE (one destination's packet):
 *   switch (alpha-beta, one port per node):  (N-1)(alpha + m beta), exact;
 *   ring: round r is N lightpaths of length L = min(r, N-r) carrying one packet each, all in
 *         one direction (r = N/2: split between the two). A wavelength-slot holds at most
 *         floor(N/L) disjoint arcs of length L, so the round needs at least
 *         ceil(N / floor(N/L)) colours (N/4 at r = N/2), more than its link load L when L does
 *         not divide N: sum over r of ceil(colours_r / C) steps, C = wavelengths x fibres, a
 *         lower bound the ring's colouring meets when L divides N and can exceed otherwise;
 *   fabric (circuit-switched, in->lanes > 0): every round is a new permutation, so a new circuit
 *         set: N-1 rounds of alpha, N-1 reconfigurations and N-1 one-packet circuit times at one
 *         circuit per tile (oc__formula_circuits); a lower bound where circuits cross servers on
 *         fewer wavelengths than a tile's;
 *   elsewhere: N-1 steps of the network's one-packet step, a lower bound (the fat-tree's
 *         shared uplinks and the star's retuning can add to it).
 */
#include "algo/algos.h"
#include "algo/alltoall_shift.h"

#include <math.h>
#include <string.h>

static int pw_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_work("pairwise", nodes, (uint64_t)nodes * (nodes - 1), why, len);
    if (rc) return rc;
    rc = oc__plan_plain(plan, "pairwise", coll, nodes, root, bytes, 1, params, why, len);
    if (!rc) plan->spec.units = plan->spec.transfers = (uint64_t)nodes * (nodes - 1); /* work */
    return rc;
}

/* Round r: node i sends its block for i + r (kshift's rounds with one shift a round). */
static int pw_generate(const oc__plan *plan, oc__emit *e) {
    return oc__alltoall_shift_rounds(e, plan->spec.nodes, plan->spec.q, 1);
}

static int pw_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const uint64_t N = plan->spec.nodes;
    if (in->lanes && N > 1) { /* the fabric: one new circuit set per round */
        const double R = (double)(N - 1);
        int rc = oc__formula_circuits(rep, in, R, R, R * (in->step_time - in->step_fixed));
        if (!rc && fabs(rep->time_s - rep->time_formula_s) > 1e-9 * rep->time_formula_s)
            rc = oc__report_note(rep,
                                 "time differs from N-1 rounds of alpha + reconfiguration + one "
                                 "packet on a full tile circuit: circuits between servers get "
                                 "fewer wavelengths")
                     ? OC_ENOMEM
                     : 0;
        return rc;
    }
    if (!in->cfg.cost.steps_by_link_load) { /* every round is one step */
        oc__formula_steps(rep, in, (double)(N ? N - 1 : 0));
        if (fabs(rep->time_s - rep->time_formula_s) > 1e-9 * rep->time_formula_s)
            return oc__report_note(rep,
                                   "time differs from (N-1) one-packet steps: the network adds "
                                   "contention or retuning the alpha-beta form does not count")
                       ? OC_ENOMEM
                       : 0;
        return 0;
    }
    const double C = (double)in->channels, q = plan->spec.q;
    double S = 0;
    for (uint64_t r = 1; r < N; r++) {
        /* N arcs of length L (N/2 per direction at L = N/2), q units each; one colour holds at
         * most floor(N/L) disjoint arcs of length L */
        const uint64_t L = r < N - r ? r : N - r, arcs = 2 * r == N ? N / 2 : N;
        S += ceil(ceil((double)arcs / (double)(N / L)) * q / C);
    }
    oc__formula_steps(rep, in, S);
    if (rep->steps != (uint64_t)S)
        return oc__report_note(rep,
                               "steps differ from the per-round colour bound: %llu steps "
                               "against %.0f (the ring's colouring of equal arcs round the whole "
                               "ring is not optimal)",
                               (unsigned long long)rep->steps, S)
                   ? OC_ENOMEM
                   : 0;
    return 0;
}

const oc__algo oc__algo_alltoall_pairwise = {
    .info = {"pairwise", OC_ALLTOALL, "switch,fabric,fattree,ring,star",
             "pairwise exchange: N-1 rounds, in round r node i sends to (i+r) mod N", "",
             "(N-1)(alpha + m beta) on the switch; fabric: (N-1)(alpha + reconfig + m/B); ring: sum_r ceil(N/floor(N/min(r,N-r))/C) steps",
             ""},
    .param_names = NULL,
    .plan = pw_plan,
    .generate = pw_generate,
    .formula = pw_formula,
};
