/*
 * alltoall_cartesian.c — the cartesian-product all-to-all on the 2-D torus T(z1, z2)
 * (all-to-all-scatter notes, "Higher-dimensional mesh/torus"): the 1-port pipeline of the 1-D
 * torus (alltoall_pipeline.c, directions=1) first in every row in parallel, then in every column.
 *
 * Node (x, y) is x + z1 y (the torus model's numbering: dimension 1 of dims=z1xz2 is the row).
 * Row phase, round k = 1..z1-1: node (x, y) forwards to (x+1, y) the packets of the source k-1
 * places to its left destined for the z1-k columns further right, all z2 rows each: z2 (z1-k)
 * packets in one message; the receiver keeps those for its column. After it, node (x, y) holds
 * every packet for column x from the sources of row y. Column phase, round k = 1..z2-1: node
 * (x, y) forwards to (x, y+1) the packets of the sources of row y-k+1 (all z1 of them: one label
 * range per destination) destined for the z2-k rows further on: z1 (z2-k) packets.
 *     t = sum_{k=1}^{z1-1} (ts + mu tm z2 (z1-k)) + sum_{k=1}^{z2-1} (ts + mu tm z1 (z2-k))
 *       = (z1 + z2 - 2) ts + mu tm z1 z2 (z1 + z2 - 2)/2,   z1 + z2 - 2 steps;
 * for T(z, z) the notes' (2 ts + mu tm z^2)(z-1). The general z1 x z2 form is ours (same sums).
 * The algorithm's dims should be the network's (--param dims=AxB and --net dims=AxB): elsewhere
 * its neighbour steps are several hops (refused under store-and-forward). Any sides >= 1 work.
 *
 * Search (the search contract, algos.h). The space is every ordered factorisation A x B = N
 * (N x 1, the 1-D pipeline, included): d(N) candidates, each mapped unless its bound already
 * loses. The torus's own dims (the model's, in->net->cfg) are offered first, so the default
 * follows the network's shape (the torus's own default is 1-D, T(N)) and wins a full tie; then
 * the most square A x B with A >= B, then by rounds. The bound (oc__dims_offer): A + B - 2
 * rounds, each at least one start-up and hop plus the node's message, z2 (z1 - k) or z1 (z2 - k)
 * chunks; on a torus of another shape a row (column) round's pattern shares some link c_row
 * (c_col) times under the network's dimension-order routes (oc__shift_congestion), and the
 * model puts those messages in c different steps, so the row (column) phase's part of the bound
 * is multiplied by c_row (c_col). That is what prunes the other shapes of a non-square torus
 * (N = 720 on dims=45x16: 7 shapes were mapped, each up to a second, before).
 */
#include "aas/mesh_xchg.h"

#include <stdlib.h>
#include <string.h>

static const char *const params_[] = {"dims", NULL};

typedef struct cart {
    uint32_t z1, z2;
} cart;

static int ca_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    cart c;
    const char *d = oc_kv_get(params, "dims");
    if (d) {
        uint32_t dims[OC_DIRECT_MAX_DIMS], nd;
        char valid[200];
        oc__dims_valid(valid, sizeof valid, nodes, 0, 0);
        int rc = oc__direct_parse_dims(d, dims, &nd, why, len);
        if (rc) return rc;
        c.z1 = dims[0];
        c.z2 = nd == 2 ? dims[1] : 1;
        if (nd > 2)
            return oc__fail(why, len, OC_EINVAL,
                            "cartesian: dims=%s: at most 2 dimensions; valid: %s", d, valid);
        if ((uint64_t)c.z1 * c.z2 != nodes)
            return oc__fail(why, len, OC_EINVAL, "cartesian: dims=%s has %llu nodes, not %u; valid: %s",
                            d, (unsigned long long)c.z1 * c.z2, nodes, valid);
    } else {
        oc__direct_square_dims(nodes, &c.z1, &c.z2);
    }
    const uint64_t N = nodes;
    int rc = oc__aas_plan(p, "cartesian", coll, nodes, root, bytes, params, params_,
                          N * N * (c.z1 + c.z2) / 2 + 1, why, len);
    if (rc) return rc;
    cart *s = malloc(sizeof *s);
    char buf[32];
    snprintf(buf, sizeof buf, "%ux%u", c.z1, c.z2);
    if (!s || oc_kv_set(p->used, "dims", buf)) {
        free(s);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    *s = c;
    p->state = s;
    return 0;
}

static void ca_release(oc__plan *p) {
    free(p->state);
    p->state = NULL;
}

static int ca_generate(const oc__plan *p, oc__emit *e) {
    const cart *c = p->state;
    const uint32_t A = c->z1, B = c->z2;
    for (uint32_t k = 1; k < A; k++) { /* rows */
        for (uint32_t y = 0; y < B; y++)
            for (uint32_t x = 0; x < A; x++) {
                const uint32_t sx = (x + A - (k - 1)) % A, to = (x + 1) % A + A * y;
                for (uint32_t j = k; j < A; j++) {
                    const uint32_t dx = (sx + j) % A;
                    for (uint32_t dy = 0; dy < B; dy++) {
                        int rc = oc__aas_send(e, x + A * y, to, dx + A * dy, sx + A * y, 1);
                        if (rc) return rc;
                    }
                }
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    for (uint32_t k = 1; k < B; k++) { /* columns */
        for (uint32_t y = 0; y < B; y++)
            for (uint32_t x = 0; x < A; x++) {
                const uint32_t sy = (y + B - (k - 1)) % B, to = x + A * ((y + 1) % B);
                for (uint32_t j = k; j < B; j++) {
                    const uint32_t dy = (sy + j) % B;
                    int rc = oc__aas_send(e, x + A * y, to, x + A * dy, A * sy, A);
                    if (rc) return rc;
                }
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int ca_offer(const oc__search_in *in, oc__search *s, uint32_t A, uint32_t B, char *why,
                    size_t len) {
    /* Each phase's rounds repeat one pattern (every node to its row, or column, neighbour), so
     * a link the network's routes make the pattern share c times stretches each of those rounds
     * to c steps of at least that round's message: the phases' bounds scale by c_row, c_col. */
    const uint32_t d[2] = {A, B};
    const double cr = (double)oc__shift_congestion(&in->net->cfg, d, 2, 0),
                 cc = (double)oc__shift_congestion(&in->net->cfg, d, 2, 1);
    const double rounds = cr * (A - 1) + cc * (B - 1);
    const double chunks = cr * B * ((double)A * (A - 1) / 2) + cc * A * ((double)B * (B - 1) / 2);
    return oc__dims_offer(in, s, A, B, (uint64_t)rounds, chunks, why, len);
}

static int ca_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "dims") || N < 2) return 0;
    /* The torus's own dims first: there every round is a neighbour step (the default follows
     * the network's shape, and a full tie goes to it); then the squarest, then by rounds. */
    uint32_t A0, B0, NA = 0, NB = 0;
    const int own = oc__dims_of_net(in, OC_DIRECT_TORUS, &NA, &NB);
    int rc = own ? ca_offer(in, s, NA, NB, why, len) : 0;
    oc__direct_square_dims(N, &A0, &B0);
    if (!rc && !(own && NA == A0 && NB == B0)) rc = ca_offer(in, s, A0, B0, why, len);
    /* the others by their number of rounds A + B - 2 (the wider A first among equals): the
     * divisors B <= sqrt(N) from the squarest down, each as A x B and B x A */
    for (uint32_t B = B0; B >= 1 && !rc; B--) {
        if (N % B) continue;
        const uint32_t A = N / B;
        if (B != B0 && !(own && A == NA && B == NB)) rc = ca_offer(in, s, A, B, why, len);
        if (!rc && A != B && !(own && B == NA && A == NB)) rc = ca_offer(in, s, B, A, why, len);
    }
    return rc;
}

static int ca_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    oc__direct_cfg n;
    if (oc__aas_network(in, &n)) return 0;
    const cart *c = p->state;
    /* Under wormhole a schedule planned for other dims still runs (messages go several hops),
     * but its rounds are no longer the notes' neighbour steps: say so, give no closed form. */
    const int same = n.kind == OC_DIRECT_TORUS && n.ndims >= 1 && n.ndims <= 2 &&
                     n.dims[0] == c->z1 && (n.ndims == 2 ? n.dims[1] : 1) == c->z2;
    if (!same) {
        char dims[160];
        oc__direct_dims_text(&n, dims, sizeof dims);
        return oc__report_note(rep,
                               "cartesian was planned for -p dims=%ux%u, which differs from the "
                               "network's dims=%s: no closed form applies",
                               c->z1, c->z2, dims)
                   ? OC_ENOMEM
                   : 0;
    }
    const double A = c->z1, B = c->z2, mu = (double)p->spec.chunk_bytes;
    oc__aas_formula(rep, A + B - 2, (A + B - 2) * n.ts + mu * n.tm * A * B * (A + B - 2) / 2);
    int rc = oc__aas_assumptions(rep, &n, 0, 1, -1, -1);
    if (c->z1 != c->z2)
        rc |= oc__report_note(rep, "z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours")
                  ? OC_ENOMEM
                  : 0;
    return rc;
}

const oc__algo oc__algo_alltoall_cartesian = {
    .info = {"cartesian", OC_ALLTOALL, "torus",
             "2-D torus: the 1-port pipeline in every row, then in every column (combined "
             "messages)",
             "dims (AxB) must be the network's",
             "T(z,z): t = (2 ts + mu tm z^2)(z-1), 2(z-1) steps",
             "dims=AxB: the torus's sides (as --net dims); unset: searched over every "
             "factorisation by mapped time"},
    .param_names = params_,
    .plan = ca_plan,
    .generate = ca_generate,
    .release = ca_release,
    .search = ca_search,
    .formula = ca_formula,
};
