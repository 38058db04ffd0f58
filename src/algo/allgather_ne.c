/*
 * allgather_ne.c — neighbour-exchange all-gather (optree III.D.2, Table I; Chen et al. [8]).
 *
 * N even. Round 0: nodes 2i and 2i+1 swap their blocks. Rounds 1 .. N/2-1: every node swaps the
 * pair of blocks it received in the previous round with its other neighbour (even nodes go left
 * on odd rounds and right on even rounds, odd nodes the opposite way). Pairs stay aligned on even
 * labels, so what a node forwards is always one contiguous range of two blocks.
 *   steps = N/2 (the seed); each round after the first moves 2d per transfer, which the ring model
 *   carries on two wavelengths at once (one data item per wavelength per step); with one channel
 *   per link that is two steps, 1 + 2 (N/2 - 1) in all, and the run's note says so.
 * Every round is the same seen from node 2 as from node 0, two labels on: the plan states it
 * (oc__spec.orbit_*), and the verifier keeps two nodes' sets, checking each round for it
 * (verify.c, "orbit state"); the ring model reuses the round before the last's mapping, since
 * the rounds alternate between two shapes (ring.c).
 */
#include "algo/algos.h"

static const char *const no_params[] = {NULL};

static int ne_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    if (nodes > 1 && nodes % 2)
        return oc__fail(why, len, OC_ENOTSUP,
                        "ne (neighbour exchange) needs an even number of nodes, not %u", nodes);
    int rc = oc__plan_work("ne", nodes, (uint64_t)nodes * nodes / 2, why, len);
    if (!rc) rc = oc__plan_plain(plan, "ne", coll, nodes, root, bytes, 1, params, why, len);
    plan->rounds = nodes / 2; /* one round, then N/2 - 1 */
    if (!rc) plan->spec.units = (uint64_t)nodes * (nodes - 1);   /* work: N-1 blocks a node, */
    if (!rc) plan->spec.transfers = (uint64_t)nodes * nodes / 2; /* in N/2 transfers */
    /* the symmetry (core.h): every round is the same from node 2 as from node 0, two labels on */
    if (!rc && nodes > 2) {
        plan->spec.orbit_stride = 2;
        plan->spec.orbit_part = nodes;
        plan->spec.orbit_turn = 2;
    }
    return rc;
}

/* The pair node i forwards in round r >= 1, in closed form: by induction on r (round 1 forwards
 * the pair received in round 0, i & ~1; round r + 1 what the partner of round r forwarded), an
 * even node forwards the pair at i + r - 1 on odd rounds and i - r on even ones, an odd node the
 * pair at i - r on odd rounds and i + r - 1 on even ones (mod N). So a round is written in one
 * pass without the holdings of the round before (two arrays of N read and scattered a round:
 * a fifth of the run's CPU at N = 16384); tests/test_ne_closed.c holds it against the recursion. */
static int ne_generate(const oc__plan *plan, oc__emit *e) {
    const uint32_t N = plan->spec.nodes;
    if (N < 2) return 0;
    int rc = 0;
    for (uint32_t i = 0; i < N && !rc; i++)
        rc = oc__emit_transfer(e, i, i ^ 1u, OC_OP_COPY, i, 1);
    if (rc || (rc = oc__emit_round(e))) return rc;
    for (uint32_t r = 1; r < N / 2; r++) {
        /* a round written in one call (oc__emit_many): its pairs are aligned labels below N */
        oc__transfer *x;
        if ((rc = oc__emit_many(e, N, &x))) return rc;
        const int odd = r % 2 == 1; /* even nodes go left on odd rounds, odd nodes right */
        const uint32_t even_off = odd ? r - 1 : N - r, odd_off = odd ? N - r : r - 1;
        for (uint32_t i = 0; i < N; i += 2) {
            const uint32_t le = i + even_off, lo = i + 1 + odd_off;
            const uint32_t pe = odd ? (i == 0 ? N - 1 : i - 1) : i + 1;
            const uint32_t po = odd ? (i + 2 == N ? 0 : i + 2) : i;
            x[i] = (oc__transfer){i, pe, le >= N ? le - N : le, 2, OC_OP_COPY};
            x[i + 1] = (oc__transfer){i + 1, po, lo >= N ? lo - N : lo, 2, OC_OP_COPY};
        }
        if ((rc = oc__emit_round(e))) return rc;
    }
    return 0;
}

static int ne_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const uint32_t N = plan->spec.nodes;
    oc__formula_steps(rep, in, N > 1 ? (double)N / 2 : 0);
    if (N < 4 || !in->cfg.cost.steps_by_link_load || !in->channels ||
        (double)rep->steps == rep->steps_formula)
        return 0;
    /* On the ring a transfer of b blocks takes b wavelength-slots on its one link: the first
     * round's single blocks one step, every later round's pairs ceil(2 / channels) steps. */
    const uint64_t C = in->channels, pair = (2 + C - 1) / C, ours = 1 + (uint64_t)(N / 2 - 1) * pair;
    return oc__report_note(rep,
                           "the seed counts N/2 = %u rounds of one step; rounds 2 .. N/2 send two "
                           "blocks over one link, two wavelength-slots, which take ceil(2 / %llu "
                           "channels) = %llu steps: 1 + (N/2 - 1) x %llu = %llu%s",
                           N / 2, (unsigned long long)C,
                           (unsigned long long)pair, (unsigned long long)pair,
                           (unsigned long long)ours,
                           ours == rep->steps ? " (mapped)" : " (not what was mapped)");
}

const oc__algo oc__algo_allgather_ne = {
    .info = {"ne", OC_ALLGATHER, "ring,fattree,switch",
             "neighbour exchange: pairs of blocks swapped with alternating neighbours, N/2 rounds",
             "N even (or N = 1)", "N/2 steps", ""},
    .param_names = no_params,
    .plan = ne_plan,
    .generate = ne_generate,
    .formula = ne_formula,
};
