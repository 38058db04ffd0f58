/*
 * alltoall_qex.c — `qex`: quadrant-exchange all-to-all scatter on the combining wormhole mesh
 * M(2^k, 2^k) (all-to-all-scatter-notes, "Combining model with WH switching", "Meshes/tori",
 * "Quadrant exchange AAS (QEX)"). The notes give only the figure's caption:
 *   (a) the 3-round micro-AAS step between four corners of a rectangle;
 *   (b) 2 phases (2-round and 1-round ones) of AAS on M(4,4);
 *   (c) phase 1 of QEX consisting of 4 micro-AASs on M(8,8).
 * Our design, read from those captions:
 *
 * Phases. A phase splits every current square submesh of side 2h into its four h x h quadrants
 * and sorts the packets by quadrant: node (x, y) groups with the three nodes that sit at the same
 * place in the other quadrants, (x^h, y), (x, y^h), (x^h, y^h) — the four corners of a square of
 * side h (caption (a)) — and hands each of them, in one combined message, all the packets it
 * holds for that corner's quadrant: N/4 packets per message. k phases, h = 2^(k-1) ... 1.
 *
 * Micro-AAS (caption (a)). The four corners exchange in 3 rounds: H (along the rows, h hops), V
 * (along the columns, h hops) and D (the diagonal, h + h hops under XY routing). In D the four
 * messages use the two rows in both directions and the two columns in both directions: eight
 * different directed channels, so a micro-AAS is contention-free, 1-port and full duplex.
 *
 * Micro-rounds (captions (b), (c)). A submesh of side 2h holds h^2 groups, labelled by the offset
 * (tx, ty) in [0, h)^2. Groups in the same row band (same ty) overlap on row channels, so we run
 * them as h micro-rounds of h micro-AASs each: micro-round c takes the groups with
 * ty = (tx + c) mod h — a Latin-square diagonal, so no two of its groups share a row or a column,
 * and all its micro-AASs (in every submesh at once) run together without contention. This gives
 * caption (b): on M(4,4) the h = 2 phase is 2 micro-rounds and the h = 1 phase 1 micro-round;
 * and caption (c): on M(8,8) a micro-round of the h = 4 phase is 4 micro-AASs.
 *
 * Rounds and cost: a phase of half side h is 3h rounds, each message h, h or 2h hops and N/4
 * packets, so with sqrt(N) = 2^k
 *     rounds = 3 (sqrt N - 1),
 *     t = 3 (sqrt N - 1) ts + 4 (N - 1)/3 td + (3/4)(sqrt N - 1) N mu tm:
 * three quarters of BEX's transmission term for one and a half times its start-ups. The notes
 * give no formula; this is ours, and the tests check the schedule against it.
 *
 * Order. As in bex.c we run the phases smallest quadrant first (h = 1, 2, ...): a phase's rounds,
 * hops and message sizes do not depend on its place in the order, and smallest first keeps the
 * sources of one destination in runs of consecutive node numbers. Not pipelined: a micro-round's
 * H of one set could overlap the V of the next (rows vs columns), which would save h - 1 rounds
 * per phase; we keep the captions' 3-round micro-AAS as the unit.
 *
 * Search (the search contract, algos.h): none is needed. The only shape qex can run is the square
 * sqrt(N) x sqrt(N) (its quadrants must be squares), so the pinnable space of dims= is one point
 * and the default is it; another pin is refused with one line naming it. On a mesh of another
 * shape (--net dims=8x2) the schedule still runs under wormhole switching, as planned for the
 * square.
 */
#include "aas/mesh_xchg.h"

#include <stdlib.h>

typedef struct qex {
    uint32_t side;
    uint32_t k;
} qex;

static const char *const params_[] = {"dims", NULL};

static void qex_release(oc__plan *p) {
    free(p->state);
    p->state = NULL;
}

static int qex_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                    const oc_kv *params, char *why, size_t len) {
    int rc = oc__plan_begin(p, coll, nodes, root, bytes, 1, why, len);
    if (rc) return rc;
    qex *q = calloc(1, sizeof *q);
    if (!q) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    p->state = q;
    uint32_t X, Y;
    if ((rc = oc__mesh_pow2_dims(p, "qex", nodes, params, 1, &X, &Y, why, len))) return rc;
    q->side = X;
    oc__aas_pow2(X, &q->k);
    uint64_t work = 0;
    uint32_t done = 0;
    for (unsigned b = 0; b < q->k; b++) {
        const uint32_t M = (1u << b) | (1u << (q->k + b));
        work += 3 * (uint64_t)nodes * oc__xchg_transfers(2 * q->k, done, M);
        done |= M;
    }
    /* the work (core.h): its transfers, each at most the N packets a node holds (a bound) */
    p->spec.transfers = work;
    p->spec.units = work * nodes;
    return oc__plan_work("qex", nodes, work, why, len);
}

static int qex_generate(const oc__plan *p, oc__emit *e) {
    const qex *q = p->state;
    const unsigned k = q->k, n = 2 * k;
    const uint32_t S = q->side, N = p->spec.nodes;
    uint32_t done = 0;
    for (unsigned b = 0; b < k; b++) {
        const uint32_t h = UINT32_C(1) << b;
        const uint32_t bx = 1u << b, by = 1u << (k + b), M = bx | by;
        for (uint32_t c = 0; c < h; c++) {
            /* the three rounds H, V, D of micro-round c */
            const uint32_t flip[3] = {bx, by, bx | by};
            for (int r = 0; r < 3; r++) {
                for (uint32_t v = 0; v < N; v++) {
                    const uint32_t tx = v % S % h, ty = v / S % h;
                    if (ty != (tx + c) % h) continue;
                    int rc = oc__xchg_emit(e, n, v, v ^ flip[r], done, M);
                    if (rc) return rc;
                }
                int rc = oc__emit_round(e);
                if (rc) return rc;
            }
        }
        done |= M;
    }
    return 0;
}

static int qex_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const qex *q = p->state;
    const double N = p->spec.nodes, S = q->side;
    int rc = oc__report_num(rep, "qex_rounds", 3 * (S - 1));
    if (!rc) rc = oc__report_num(rep, "qex_packets_per_message", N / 4);
    oc__direct_cfg c;
    int go = 0;
    if (!rc) rc = oc__mesh_formula_net(in, rep, "qex", q->side, q->side, &c, &go);
    if (rc || !go) return rc ? OC_ENOMEM : 0;
    /* Ours (the notes give no formula), exact for this schedule on the combining WH mesh. */
    const double mu = (double)p->spec.chunk_bytes;
    rc = oc__report_num(rep, "time_closed_form_s",
                        3 * (S - 1) * c.ts + 4 * (N - 1) / 3 * c.td +
                            0.75 * (S - 1) * N * mu * c.tm);
    if (!rc)
        rc = oc__report_note(rep, "qex: the notes give no formula; time_closed_form_s is ours: "
                                  "3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt N - 1) N mu tm");
    if (!rc) rc = oc__aas_assumptions(rep, &c, 1, 1, -1, 1);
    return rc ? OC_ENOMEM : 0;
}

const oc__algo oc__algo_alltoall_qex = {
    .info = {"qex", OC_ALLTOALL, "mesh,switch",
             "quadrant exchange: per phase h micro-rounds of 3-round micro-AASs among the corners "
             "of h x h squares, N/4 packets per message",
             "square mesh with power-of-two side (N = 4^k)",
             "ours (the notes give none): 3(sqrt N - 1) ts + 4(N-1)/3 td + 3/4 (sqrt N - 1) N mu "
             "tm",
             "dims=sqrt(N)xsqrt(N): mesh shape (must be square)"},
    .param_names = params_,
    .plan = qex_plan,
    .generate = qex_generate,
    .release = qex_release,
    .formula = qex_formula,
};
