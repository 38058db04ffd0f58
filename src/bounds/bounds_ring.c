/*
 * bounds_ring.c — physical bounds on the WDM ring (net/ring.c; optree III.A, wrht III.A).
 *
 * The model's rules the proofs use, and only these. N nodes, F fibres per direction, w
 * wavelengths per fibre; write X = 2Fw. In one step a lightpath runs from its source along one
 * direction on one (fibre, wavelength) and carries one chunk; no (directed link, fibre,
 * wavelength) carries two lightpaths, so a node starts at most X lightpaths a step (its two
 * outgoing links) and ends at most X (its two incoming ones), and the ring offers 2N F w = N X
 * link slots a step. Transfers read the state at the start of their round. Every step of a run
 * costs the same, g(c) = reconfig + ceil(c / flit) O/E/O + ceil(c / packet) packet bytes at one
 * wavelength's rate, c the run's chunk size; a schedule that cuts the unit (one block, or the
 * whole vector or message: bounds.h) into q chunks has c >= ceil(unit / q), so its time is at
 * least S(q) g(ceil(unit / q)) where S(q) is a bound on its steps.
 *
 * S(q), each argument for a schedule of q chunks per unit (the largest applies):
 *  - receive capacity: a node that must receive m chunks ends at most X lightpaths a step, so
 *    it needs ceil(m / X) steps: m = (N - 1) q for all-gather, gossip, all-to-all and the gather's
 *    root; q for broadcast. Send capacity, the same for a node that must send m distinct chunks:
 *    the scatter's root, (N - 1) q; reduce-scatter, whose every node must send its contribution to
 *    the (N - 1) q chunks it does not own (the chunk's label is the only way it leaves).
 *  - relay depth: ceil(log_{X+1} N) (bounds_common.c), for every collective.
 *  - source pipeline (all-gather, gossip, broadcast; reduce-scatter reversed in time): a source
 *    starts at most X lightpaths a step, so the last of its q chunks first leaves it at step
 *    t >= ceil(q / X); at that step's end at most X + 1 nodes hold it, and X + 1 times more each
 *    step after: S >= ceil(q / X) + ceil(log_{X+1} N) - 1.
 *  - tree length (all-gather, gossip, reduce-scatter, broadcast): every one of the chunks that
 *    must reach all nodes (N q of them; q for broadcast) needs a first-arrival tree of depth at
 *    most S, so at least T(N, S) link slots, T the larger of T*(N, S) and, where the budget
 *    allows, the exact E(N, S) (bounds_common.c); the ring has N X a step: (chunks) T(N, S) <=
 *    N X S. It binds when the steps are few: N = 1024, w = 64: 19 steps (E(1024, 18) = 2349 >
 *    128 x 18), against 12 from the antipode path and 8 from receive capacity. Reduce-scatter is the same read backwards in time: each
 *    contribution reaches the owner along a chain of transfers; reversing time turns the chains'
 *    last-use trees into a broadcast of the same lightpaths.
 *  - antipode path (all-gather, gossip, reduce-scatter, broadcast): in the first-arrival tree
 *    of a chunk (depth at most S) the path to a node at ring distance floor(N/2) from the root
 *    has k <= S arcs whose lengths sum to at least floor(N/2) (the ring metric's triangle
 *    inequality); the other N - 1 - k arcs take at least one link slot each. So one chunk's
 *    tree takes at least N - 1 + floor(N/2) - S slots, and with the tree-length argument's
 *    capacity, q (N - 1 + floor(N/2) - S) <= X S for the N q chunks of an all-gather (N X S
 *    for broadcast's q): S >= q (N - 1 + floor(N/2)) / (X + q). It is 1.5 times the receive
 *    bound as Fw grows and binds between the tree length's few steps and the receive bound
 *    (N = 1024, w = 64: 12 steps against 9 and 8). Reduce-scatter reads it backwards in time,
 *    as the tree length does.
 *  - link load (all-to-all): the chunk from u to v crosses at least dist(u, v) links; the
 *    distances from a node sum to floor(N^2 / 4), so N q floor(N^2 / 4) <= N X S.
 *  - gossip transfers (all-reduce): each chunk is moved at least 2(N - 1) times (bounds_common.c)
 *    and each move ends one of the N X lightpaths a step: S >= 2(N - 1) q / (N X).
 *  - reduction spread (all-reduce). Fix a chunk and any node u. For every other node v, the
 *    transfer of that chunk that first brings v a value containing u's contribution came from a
 *    node whose value contained it at the start of that round; these N - 1 transfers form a tree
 *    rooted at u of depth at most S (the tree-length argument, with contributions in place of
 *    blocks), so they take at least T(N, S) link slots, and also the antipode path's N - 1 +
 *    floor(N/2) - S. They are N - 1 of the chunk's transfers; the chunk has at least 2(N - 1)
 *    (gossip), so at least N - 1 more, each at least one link slot. A lightpath carries one
 *    chunk, so the q chunks' lightpaths are distinct: q (max(T(N, S), N - 1 + floor(N/2) - S) +
 *    N - 1) <= N X S. It generalises the gossip count (T >= N - 1) and binds on the time where
 *    few steps of large chunks would be cheapest: N = 1024, w = 64, 4 MiB: two steps allow at
 *    most 15 chunks (E(1024, 2) = 15433), not 128, and the time bound rises from 65 us to 134 us.
 * The steps bound is S(1) (every argument grows with q). The time bound is the least over q of
 * S(q) g(ceil(unit / q)): q is scanned one by one up to 4096 and in ranges [qa, qb] growing by
 * 0.2% above, a range costed as S(qa) g(ceil(unit / qb)) (S grows with q, g falls), and the scan
 * stops once S(qa) g(smallest chunk) passes the best found: a few hundred evaluations.
 * At spread=0 (net/ring.c, item 6) a lightpath carries a whole transfer, several chunks: every
 * argument above that counts chunks on lightpaths fails, and only the relay depth stands (a
 * node still ends at most X lightpaths a step, each from one source), with each step costing at
 * least g of the smallest chunk.
 * Not used (no proof yet): a second tree for all-reduce (a reduction's in-tree and a broadcast's
 * out-tree together, about 2 T where this argument has T + N - 1), and any interplay between the
 * wavelength-continuity of arcs and colours (the bound counts link slots only).
 */
#include "bounds/bounds.h"

#include <stdlib.h>

enum { A_RECV, A_SEND, A_RELAY, A_PIPE, A_TREE, A_PATH, A_LINK, A_GOSSIP, A_SPREAD, A_COUNT };

static const char *const steps_name[A_COUNT] = {
    "receive capacity (2Fw lightpaths end at a node a step)",
    "send capacity (2Fw lightpaths start at a node a step)",
    "relay depth (holders grow by at most 2Fw+1 a step)",
    "source pipeline (a source's chunks leave 2Fw a step, then relay)",
    "tree length (a few-level spanning tree's link slots against 2NFw a step)",
    "antipode path (a tree reaching the far side in S arcs against 2NFw link slots a step)",
    "link load (all-to-all distances against 2NFw link slots a step)",
    "gossip transfers (2(N-1) per chunk against 2NFw lightpaths a step)",
    "reduction spread (a contribution's first-arrival tree plus N-1 more lightpaths per chunk against 2NFw link slots a step)"};

static const char *const time_name[A_COUNT] = {
    "receive capacity x step cost, at the best chunk size",
    "send capacity x step cost, at the best chunk size",
    "relay depth x step cost, at the best chunk size",
    "source pipeline x step cost, at the best chunk size",
    "tree length x step cost, at the best chunk size",
    "antipode path x step cost, at the best chunk size",
    "link load x step cost, at the best chunk size",
    "gossip transfers x step cost, at the best chunk size",
    "reduction spread x step cost, at the best chunk size"};

/* Which side a gap points at, per time argument (oc_loose_side): the relay depth ignores the
 * volume (the bound); the reduction spread charges one tree a chunk where a reduction then a
 * broadcast pays two and no schedule meets it (both); the others are capacities a schedule that
 * fills every receiver or link slot each step would meet (the schedules). */
static const oc_loose_side time_side[A_COUNT] = {
    OC_LOOSE_SCHEDULE, OC_LOOSE_SCHEDULE, OC_LOOSE_BOUND,    OC_LOOSE_SCHEDULE, OC_LOOSE_SCHEDULE,
    OC_LOOSE_SCHEDULE, OC_LOOSE_SCHEDULE, OC_LOOSE_SCHEDULE, OC_LOOSE_BOTH};

typedef struct ring_ctx {
    const oc__pbound_in *in;
    uint64_t N, X, L;
    const uint64_t *T; /* T*(N, h) for h = 1..H */
    uint32_t H;
} ring_ctx;

static void raise_to(uint64_t v, int arg, uint64_t *S, int *why) {
    if (v > *S) {
        *S = v;
        *why = arg;
    }
}

/* Saturating a * b. */
static uint64_t mul_sat(uint64_t a, uint64_t b) {
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* S(q) and the argument that gave it. */
static uint64_t steps_for(const ring_ctx *c, uint64_t q, int *arg) {
    const uint64_t N = c->N, X = c->X;
    uint64_t S = c->L;
    *arg = A_RELAY;
    uint64_t tree_chunks_per_slot = 0; /* the tree argument: q T* <= (this) S */
    switch (c->in->coll) {
    case OC_ALLGATHER:
    case OC_GOSSIP:
    case OC_REDUCESCATTER:
        raise_to(oc__ceil_div(mul_sat(N - 1, q), X), c->in->coll == OC_REDUCESCATTER ? A_SEND : A_RECV,
                 &S, arg);
        raise_to(oc__ceil_div(q, X) + c->L - 1, A_PIPE, &S, arg);
        tree_chunks_per_slot = X;
        break;
    case OC_BROADCAST:
        raise_to(oc__ceil_div(q, X) + c->L - 1, A_PIPE, &S, arg);
        tree_chunks_per_slot = N * X;
        break;
    case OC_SCATTER:
        raise_to(oc__ceil_div(mul_sat(N - 1, q), X), A_SEND, &S, arg);
        break;
    case OC_GATHER:
        raise_to(oc__ceil_div(mul_sat(N - 1, q), X), A_RECV, &S, arg);
        break;
    case OC_ALLTOALL:
        raise_to(oc__ceil_div(mul_sat(N - 1, q), X), A_RECV, &S, arg);
        raise_to(oc__ceil_div(mul_sat(N * N / 4, q), X), A_LINK, &S, arg);
        break;
    case OC_ALLREDUCE:
        raise_to(oc__ceil_div(mul_sat(2 * (N - 1), q), N * X), A_GOSSIP, &S, arg);
        if (N >= 2) {
            /* the reduction spread (essay): a chunk's lightpaths take at least its
             * first-arrival tree's slots plus N - 1; by the antipode path, q (2N - 2 +
             * floor(N/2) - S) <= N X S, then the tree length while it binds */
            const uint64_t need = mul_sat(q, 2 * (N - 1) + N / 2);
            raise_to(oc__ceil_div(need, N * X + q), A_SPREAD, &S, arg);
            while (S < c->H && S >= 1 &&
                   mul_sat(q, c->T[S - 1] + N - 1) > mul_sat(N * X, S)) {
                S++;
                *arg = A_SPREAD;
            }
        }
        break;
    default:
        break;
    }
    if (tree_chunks_per_slot) {
        /* The antipode path (essay): q (N - 1 + floor(N/2) - S) <= (slots per chunk tree) S. */
        const uint64_t need = mul_sat(q, N - 1 + N / 2);
        raise_to(oc__ceil_div(need, tree_chunks_per_slot + q), A_PATH, &S, arg);
        /* For S >= H, T* = N - 1 and the receive (or pipeline) bound already covers it. */
        while (S < c->H && S >= 1 &&
               mul_sat(q, c->T[S - 1]) > mul_sat(tree_chunks_per_slot, S)) {
            S++;
            *arg = A_TREE;
        }
    }
    return S;
}

static double step_cost(const oc__ring_cfg *r, uint64_t chunk) {
    const double reconf = r->reconfig_s;
    const double oeo = (double)oc__ceil_div(chunk, r->flit_bytes) * r->oeo_s_per_flit;
    const double tx = (double)(oc__ceil_div(chunk, r->packet_bytes) * r->packet_bytes) * 8.0 /
                      r->bandwidth_bps;
    return reconf + oeo + tx;
}

int oc__pbound_ring(const oc__pbound_in *in, oc__pbound *out, char *why, size_t len) {
    const oc__ring_cfg *r = &in->cfg.ring;
    ring_ctx c = {.in = in, .N = in->nodes, .X = 2 * r->fibres * r->wavelengths};
    if (c.X == 0 || r->flit_bytes == 0 || r->packet_bytes == 0 || !(r->bandwidth_bps > 0))
        return oc__fail(why, len, OC_EINVAL, "no physical bound: the ring has no capacity");
    c.L = oc__pb_relay_depth(c.N, c.X);
    /* T* reaches N - 1 by the level h with 3^h >= N (bounds_common.c); the exact E(N, h) only
     * at N - 1 by h = floor(N / 2), and costs about N (log2 N + 6) operations a level: as many
     * levels as the budget allows (all of them up to N of about 800, 306 at N = 1024, 68 at
     * N = 4096, 2 at N = 131072) */
    const uint32_t h_star = (uint32_t)oc__pb_relay_depth(c.N, 2);
    uint32_t h_exact = 0;
    if (c.N >= 2) {
        double log2n = 0;
        for (uint64_t v = c.N; v > 1; v >>= 1)
            log2n++;
        const double levels = 1 + OC_PB_RING_TREE_WORK / ((double)c.N * (log2n + 6));
        const uint64_t chain = c.N / 2;
        h_exact = (uint32_t)(levels < (double)chain ? (uint64_t)levels : chain);
    }
    c.H = h_star > h_exact ? h_star : h_exact;
    uint64_t *T = calloc(c.H ? c.H : 1, sizeof *T);
    uint64_t *E = calloc(h_exact ? h_exact : 1, sizeof *E);
    int rc = !T || !E ? OC_ENOMEM : oc__pb_tree_length(in->nodes, h_star, T);
    if (!rc) rc = oc__pb_ring_tree_exact(in->nodes, h_exact, E);
    if (rc) {
        free(T);
        free(E);
        return oc__fail(why, len, rc, "out of memory");
    }
    for (uint32_t h = h_star; h < c.H; h++)
        T[h] = c.N - 1;
    for (uint32_t h = 0; h < h_exact; h++)
        if (E[h] > T[h]) T[h] = E[h];
    free(E);
    c.T = T;
    int arg;
    if (!r->spread) { /* the relay depth alone (the essay) */
        const uint64_t unit1 = oc__pb_unit_bytes(in);
        uint64_t q1 = oc__pb_max_q(in);
        if (unit1 < q1) q1 = unit1 ? unit1 : 1;
        out->steps = c.L;
        out->steps_arg = steps_name[A_RELAY];
        out->time_s = (double)c.L * step_cost(r, oc__ceil_div(unit1, q1));
        out->time_arg = time_name[A_RELAY];
        out->gap_side = time_side[A_RELAY];
        free(T);
        return 0;
    }
    out->steps = steps_for(&c, 1, &arg);
    out->steps_arg = steps_name[arg];
    const uint64_t unit = oc__pb_unit_bytes(in);
    uint64_t qmax = oc__pb_max_q(in);
    if (unit < qmax) qmax = unit ? unit : 1; /* beyond one byte a chunk only adds steps */
    const double g_min = step_cost(r, oc__ceil_div(unit, qmax));
    double best = -1;
    int best_arg = arg;
    for (uint64_t qa = 1; qa <= qmax;) {
        const uint64_t qb = qa <= 4096 ? qa : (qmax - qa < qa / 500 ? qmax : qa + qa / 500);
        int a;
        const uint64_t S = steps_for(&c, qa, &a);
        if (best >= 0 && (double)S * g_min >= best) break;
        const double t = (double)S * step_cost(r, oc__ceil_div(unit, qb));
        if (best < 0 || t < best) {
            best = t;
            best_arg = a;
        }
        qa = qb + 1;
    }
    out->time_s = best;
    out->time_arg = time_name[best_arg];
    out->gap_side = time_side[best_arg];
    free(T);
    return 0;
}
