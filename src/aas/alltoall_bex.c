/*
 * alltoall_bex.c — `bex`: binary-exchange all-to-all scatter on the combining wormhole mesh
 * M(2^kx, 2^ky) (all-to-all-scatter-notes, "Combining model with WH switching", "Meshes/tori",
 * "Binary exchange AAS (BEX)").
 *
 * BEX simulates the hypercube's standard exchange (SEX) on the mesh: the mesh is halved
 * recursively, alternately in X and in Y (while both sides have halvings left), and across every
 * halving each node hands its partner one combined block of N/2 packets: all it holds for
 * the partner's half. A halving at distance D = 2^b along X pairs column x with column x XOR D in
 * every row; under XY routing the D pairs of one block of 2D columns overlap on the links of that
 * block, so the phase is D rounds, as the notes say ("one phase requires more rounds, due to WH
 * channel contention"): in round t the pairs whose x = t (mod D) exchange, and their paths
 * [x, x + D] are disjoint (full duplex: the two directions of a pair use different channels).
 * Every round is contention-free and every node sends at most one message per round (1-port), so
 * the network model needs no splitting: a round is a step.
 *
 * Order. We halve smallest distance first (X bit 0, Y bit 0, X bit 1, ...). A phase's rounds,
 * distance and block size do not depend on when it runs, so every figure equals the notes'
 * largest-first order; smallest first keeps the sources of one destination in runs of consecutive
 * node numbers, so a block is fewer label ranges (mesh_xchg.c).
 *
 * Cost, with R = (X - 1) + (Y - 1) rounds (phase D contributes D rounds of D hops):
 *     t = R ts + (sum over phases of D^2) td + R (N/2) mu tm,
 * for X = Y = sqrt(N): 2 (sqrt N - 1) ts + 2 (N - 1)/3 td + (sqrt N - 1) N mu tm.
 * The notes give "roughly" sqrt(N) ts + 2N td/3 + N sqrt(N) mu tm: the same td and tm terms up to
 * lower-order parts, but half our start-up term — the notes count sqrt(N) phases' worth of
 * start-ups where the D-round phases need 2 (sqrt N - 1) of them. We report both and do not
 * assert equality. Sides must be powers of two (dims=XxY); other meshes are refused.
 *
 * Search (the search contract, algos.h). The space is every mesh shape 2^a x 2^(n-a), a = 0..n
 * (N = 2^n; 1 x N and N x 1 included): n + 1 candidates, each mapped unless its bound already
 * loses. The network's own dims are among them, and on a mesh whose shape is not the squarest
 * (--net dims=16x4) they are usually the best: the rounds are contention-free only there. The
 * bound (oc__dims_offer): R = X - 1 + Y - 1 rounds, each at least one start-up and hop plus a
 * node's block of N/2 chunks. The mesh's own dims (the model's, in->net->cfg) are offered
 * first, so the default follows the network's shape and wins a full tie; then the squarest.
 */
#include "aas/mesh_xchg.h"

#include <stdlib.h>

typedef struct bex {
    uint32_t X, Y;
    unsigned kx, ky;
    uint64_t rounds;
    double sum_d2;
} bex;

static const char *const params_[] = {"dims", NULL};

/* The id bit of phase i (smallest first, X and Y alternating) and its distance. */
static void phase(const bex *b, unsigned i, unsigned *bit, uint32_t *dist, int *is_x) {
    unsigned m = b->kx < b->ky ? b->kx : b->ky;
    unsigned xi, yi;
    if (i < 2 * m) {
        *is_x = i % 2 == 0;
        xi = yi = i / 2;
    } else {
        *is_x = b->kx > b->ky;
        xi = yi = i - m;
    }
    *bit = *is_x ? xi : b->kx + yi;
    *dist = UINT32_C(1) << (*is_x ? xi : yi);
}

static void bex_release(oc__plan *p) {
    free(p->state);
    p->state = NULL;
}

static int bex_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                    const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_begin(p, coll, nodes, root, bytes, 1, why, len);
    if (rc) return rc;
    bex *b = calloc(1, sizeof *b);
    if (!b) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    p->state = b;
    if ((rc = oc__mesh_pow2_dims(p, "bex", nodes, params, 0, &b->X, &b->Y, why, len))) return rc;
    uint32_t kx, ky;
    oc__aas_pow2(b->X, &kx);
    oc__aas_pow2(b->Y, &ky);
    b->kx = kx;
    b->ky = ky;
    uint64_t work = 0;
    uint32_t done = 0;
    for (unsigned i = 0; i < b->kx + b->ky; i++) {
        unsigned bit;
        uint32_t D;
        int is_x;
        phase(b, i, &bit, &D, &is_x);
        b->rounds += D;
        b->sum_d2 += (double)D * D;
        work += (uint64_t)nodes * oc__xchg_transfers(b->kx + b->ky, done, 1u << bit);
        done |= 1u << bit;
    }
    /* the work (core.h): its transfers, each at most the N packets a node holds (a bound) */
    p->spec.transfers = work;
    p->spec.units = work * nodes;
    return oc__plan_work("bex", nodes, work, why, len);
}

static int bex_generate(const oc__plan *p, oc__emit *e) {
    const bex *b = p->state;
    const unsigned n = b->kx + b->ky;
    uint32_t done = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned bit;
        uint32_t D;
        int is_x;
        phase(b, i, &bit, &D, &is_x);
        for (uint32_t t = 0; t < D; t++) {
            for (uint32_t v = 0; v < p->spec.nodes; v++) {
                uint32_t c = is_x ? v % b->X : v / b->X;
                if (c % D != t) continue;
                int rc = oc__xchg_emit(e, n, v, v ^ (1u << bit), done, 1u << bit);
                if (rc) return rc;
            }
            int rc = oc__emit_round(e);
            if (rc) return rc;
        }
        done |= 1u << bit;
    }
    return 0;
}

static int bex_offer(const oc__search_in *in, oc__search *s, uint32_t n, uint32_t a, char *why,
                     size_t len) {
    const uint32_t X = UINT32_C(1) << a, Y = UINT32_C(1) << (n - a), R = (X - 1) + (Y - 1);
    return oc__dims_offer(in, s, X, Y, R, (double)R * (in->nodes / 2), 0, why, len);
}

/* A store-and-forward mesh of N = 2^n >= 8 nodes refuses every bex schedule (net/direct.c: a
 * transfer of more than one hop), whatever shape it was planned for: every shape exchanges across
 * every bit b of the node number, v with v XOR 2^b, and on the network's own X' x Y' (powers of
 * two, X' Y' = N) the bit at distance 2 along its longer side (X' or Y' >= 4 when n >= 3) is a
 * message of 2 hops. Said before any candidate maps its first rounds (N = 4096: the 13
 * shapes each mapped the two rounds of distance 1, 13 s, before the third was refused). */
static int bex_store_and_forward(const oc__search_in *in, uint32_t n, char *why, size_t len) {
    const oc__direct_cfg *c = oc__netcfg_direct(&in->net->cfg);
    if (!c || c->kind != OC_DIRECT_MESH || c->wormhole || c->nodes != in->nodes || n < 3) return 0;
    return oc__fail(why, len, OC_ENOTSUP,
                    "bex: its exchanges across a bit at distance 2 or more are messages of 2 or "
                    "more hops on the %u-node mesh, and this mesh is store-and-forward, which "
                    "moves messages between neighbours only (use --net switching=wh)",
                    in->nodes);
}

static int bex_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    uint32_t n;
    if (in->nodes < 2 || !oc__aas_pow2(in->nodes, &n)) return 0;
    int refused = bex_store_and_forward(in, n, why, len);
    if (refused || oc_kv_get(in->params, "dims")) return refused;
    /* the mesh's own dims first (the default follows the network's shape and wins a full tie),
     * then the squarest 2^ceil(n/2) x 2^floor(n/2), then outwards, the wider X first */
    uint32_t NX, NY, own = n + 1;
    if (oc__dims_of_net(in, OC_DIRECT_MESH, &NX, &NY) && oc__aas_pow2(NX, &own) &&
        oc__aas_pow2(NY, &n)) {
        int rc = bex_offer(in, s, n + own, own, why, len);
        if (rc) return rc;
        n += own;
    } else {
        own = n + 1;
    }
    const uint32_t sq = (n + 1) / 2;
    int rc = sq == own ? 0 : bex_offer(in, s, n, sq, why, len);
    for (uint32_t d = 1; d <= n && !rc; d++) {
        if (sq + d <= n && sq + d != own) rc = bex_offer(in, s, n, sq + d, why, len);
        if (!rc && sq >= d && sq - d != own) rc = bex_offer(in, s, n, sq - d, why, len);
    }
    return rc;
}

static int bex_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const bex *b = p->state;
    const double N = p->spec.nodes, R = (double)b->rounds;
    int rc = oc__report_num(rep, "bex_rounds", R);
    if (!rc) rc = oc__report_num(rep, "bex_packets_per_message", N / 2);
    oc__direct_cfg c;
    int go = 0;
    if (!rc) rc = oc__mesh_formula_net(in, rep, "bex", b->X, b->Y, &c, &go);
    if (rc || !go) return rc ? OC_ENOMEM : 0;
    /* Ours, exact for this schedule on the combining WH mesh: R rounds, one step each. */
    const double mu = (double)p->spec.chunk_bytes;
    const double exact = R * c.ts + b->sum_d2 * c.td + R * (N / 2) * mu * c.tm;
    rc = oc__report_num(rep, "time_closed_form_s", exact);
    if (!rc && b->X == b->Y) {
        /* The notes' rough form for M(sqrt N, sqrt N): sqrt(N) ts + 2N td/3 + N sqrt(N) mu tm;
         * its ts coefficient stands for sqrt(N) steps. */
        const double sq = b->X;
        oc__aas_formula(rep, sq, sq * c.ts + 2 * N * c.td / 3 + N * sq * mu * c.tm);
        rc = oc__report_note(
            rep,
            "bex: the notes' form is rough: it counts sqrt(N) = %.0f start-ups "
            "where the halvings need X-1 + Y-1 = %.0f contention-free rounds, and "
            "N sqrt(N) mu tm where they send (sqrt(N)-1) N mu tm; our exact form is "
            "time_closed_form_s",
            sq, R);
    }
    if (!rc) rc = oc__aas_assumptions(rep, &c, 1, 1, -1, 1);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_bex = {
    .info = {"bex", OC_ALLTOALL, "mesh,switch",
             "binary exchange: SEX on the WH mesh, halving X and Y alternately, N/2 packets per "
             "message, D contention-free rounds per halving at distance D",
             "mesh sides powers of two (N = 2^k x 2^l)",
             "roughly sqrt(N) ts + 2N td/3 + N sqrt(N) mu tm (notes); exactly "
             "(X+Y-2)(ts + N mu tm/2) + sum D^2 td",
             "dims=XxY: mesh shape (sides powers of two); unset: searched over every shape by "
             "mapped time"},
    .param_names = params_,
    .plan = bex_plan,
    .generate = bex_generate,
    .release = bex_release,
    .search = bex_search,
    .formula = bex_formula,
};
