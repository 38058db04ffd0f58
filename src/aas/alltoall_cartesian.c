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
 *
 * Meshes. The notes cover "Higher-dimensional mesh/torus", but the schedule they give is the
 * torus's (its phases are T(z)'s cyclic pipeline, which needs the wrap-around link) and of the
 * mesh they say only "Analogous algorithm for 2-D mesh is similar". So `mesh` is listed and
 * refused by the search (which runs for every request on a network, pinned or not) with that
 * section cited, rather than run on a schedule of ours.
 */
#include "aas/mesh_xchg.h"

#include <stdlib.h>
#include <string.h>

static const char *const params_[] = {"dims", NULL};

typedef struct cart {
    uint32_t nd;                      /* sides, trailing 1s dropped (at least one) */
    uint32_t z[OC_DIRECT_MAX_DIMS];   /* z_0 .. z_(nd-1) */
    uint32_t st[OC_DIRECT_MAX_DIMS];  /* stride of dimension i: z_0 ... z_(i-1) */
} cart;

/* Drops trailing sides of 1 (T(z1, 1) is T(z1)); keeps one side. */
static uint32_t trim(const uint32_t *z, uint32_t nd) {
    while (nd > 1 && z[nd - 1] == 1)
        nd--;
    return nd;
}

static int ca_plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                   const oc_kv *params, char *why, size_t len) {
    cart c;
    memset(&c, 0, sizeof c);
    const char *d = oc_kv_get(params, "dims");
    if (d) {
        char valid[200];
        oc__dims_valid(valid, sizeof valid, nodes, 0, 0);
        int rc = oc__direct_parse_dims(d, c.z, &c.nd, why, len);
        if (rc) return rc;
        uint64_t n = 1;
        for (uint32_t i = 0; i < c.nd; i++)
            n *= c.z[i];
        if (n != nodes)
            return oc__fail(why, len, OC_EINVAL,
                            "cartesian: dims=%s has %llu nodes, not %u; valid (2-D): %s", d,
                            (unsigned long long)n, nodes, valid);
    } else {
        c.nd = 2;
        oc__direct_square_dims(nodes, &c.z[0], &c.z[1]);
    }
    c.nd = trim(c.z, c.nd);
    uint64_t sum = 0, st = 1;
    char buf[16 * OC_DIRECT_MAX_DIMS];
    size_t at = 0;
    for (uint32_t i = 0; i < c.nd; i++) {
        c.st[i] = (uint32_t)st;
        st *= c.z[i];
        sum += c.z[i];
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%u", i ? "x" : "", c.z[i]);
    }
    if (c.nd == 1) snprintf(buf + at, sizeof buf - at, "x1"); /* as before: AxB */
    const uint64_t N = nodes;
    int rc = oc__aas_plan(p, "cartesian", coll, nodes, root, bytes, params, params_,
                          N * N * sum / 2 + 1, why, len);
    if (rc) return rc;
    /* The work (core.h), upper bounds: the plan's count of transfers, and at most the N packets
     * a node holds in each (combined messages). */
    p->spec.transfers = N * N * sum / 2 + 1;
    p->spec.units = p->spec.transfers * N;
    cart *s = malloc(sizeof *s);
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

/* Phase i, the 1-D pipeline along dimension i in every line of it at once. Before it node v
 * holds every packet whose destination agrees with v on dimensions < i and whose source agrees
 * with v on dimensions >= i. Round k = 1 .. z_i - 1: v forwards to its neighbour one place on
 * the packets of the sources k-1 places back along i (all coordinates < i: one label range of
 * st_i sources per destination) destined for the z_i - k places further on (any coordinates
 * > i); the receiver keeps those for its own place. */
static int ca_generate(const oc__plan *p, oc__emit *e) {
    const cart *c = p->state;
    const uint32_t N = p->spec.nodes;
    for (uint32_t i = 0; i < c->nd; i++) {
        const uint32_t z = c->z[i], st = c->st[i], hi = N / (st * z);
        for (uint32_t k = 1; k < z; k++) {
            for (uint32_t v = 0; v < N; v++) {
                const uint32_t x = v / st % z, low = v % st, up = v / (st * z);
                const uint32_t sx = (x + z - (k - 1)) % z, to = v - x * st + (x + 1) % z * st;
                const uint32_t s0 = up * st * z + sx * st;
                for (uint32_t j = k; j < z; j++) {
                    const uint32_t dx = (sx + j) % z;
                    for (uint32_t h = 0; h < hi; h++) {
                        int rc = oc__aas_send(e, v, to, low + dx * st + h * st * z, s0, st);
                        if (rc) return rc;
                    }
                }
            }
            int rc = oc__emit_round(e);
            if (rc) return rc;
        }
    }
    return 0;
}

/* Offers dims z[0..nd). Each phase's rounds repeat one pattern (every node to its neighbour one
 * place on along dimension i), so a link the network's routes make the pattern share c_i times
 * stretches each of that phase's rounds to c_i steps of at least its message, (N / z_i)(z_i - k)
 * chunks in round k: phase i's part of the bound is multiplied by c_i. */
/* The transfers ca_generate emits on dims z[0..nd) (N nodes): phase i's round k sends, from
 * every node, z_i - k destinations' places times the N / (st_i z_i) lines above it, one transfer
 * each, so phase i is N (N / (st_i z_i)) z_i (z_i - 1) / 2. Exact: the search skips a candidate
 * over its mapping budget without generating it (N = 1000 on the torus's own 1000 x 1: 499.5 M,
 * 33.5 M of them generated before, seconds, to find that out). */
static uint64_t ca_transfers(uint64_t N, const uint32_t *z, uint32_t nd) {
    uint64_t sum = 0, st = 1;
    for (uint32_t i = 0; i < nd; i++) {
        const uint64_t above = N / (st * z[i]);
        sum += N * above * ((uint64_t)z[i] * (z[i] - 1) / 2);
        st *= z[i];
    }
    return sum;
}

static int ca_offer_k(const oc__search_in *in, oc__search *s, const uint32_t *z, uint32_t nd,
                      char *why, size_t len) {
    double rounds = 0, chunks = 0;
    for (uint32_t i = 0; i < nd; i++) {
        const double c = (double)oc__shift_congestion(&in->net->cfg, z, nd, i);
        rounds += c * (z[i] - 1);
        chunks += c * ((double)in->nodes / z[i]) * ((double)z[i] * (z[i] - 1) / 2);
    }
    const uint64_t transfers = ca_transfers(in->nodes, z, nd);
    if (nd == 2)
        return oc__dims_offer(in, s, z[0], z[1], (uint64_t)rounds, chunks, transfers, why, len);
    /* k-D: the network's own shape only; oc__dims_offer's bound with its own text */
    oc__formula_in f;
    int rc = in->figures(in, OC_ALLTOALL, 1, &f, why, len);
    if (rc) return rc;
    char d[16 * OC_DIRECT_MAX_DIMS];
    size_t at = 0;
    for (uint32_t i = 0; i < nd; i++)
        at += (size_t)snprintf(d + at, sizeof d - at, "%s%u", i ? "x" : "", z[i]);
    const char *kv[] = {"dims", d};
    const oc__bound b = {rounds * f.step_fixed + chunks * (f.step_time - f.step_fixed),
                         (uint64_t)rounds, "rounds x (start-up + hop) x congestion + blocks",
                         transfers};
    return oc__search_offer(s, &b, 1, kv) ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

static int ca_offer(const oc__search_in *in, oc__search *s, uint32_t A, uint32_t B, char *why,
                    size_t len) {
    const uint32_t d[2] = {A, B};
    return ca_offer_k(in, s, d, 2, why, len);
}

static int ca_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    const oc__direct_cfg *nc = oc__netcfg_direct(&in->net->cfg); /* NULL off the direct nets */
    /* The mesh is listed so that it is refused here with the notes' reason, not as unknown. */
    if (nc && nc->kind == OC_DIRECT_MESH)
        return oc__fail(why, len, OC_ENOTSUP,
                        "cartesian: the notes give its schedule on tori only (all-to-all notes, "
                        "\"Higher-dimensional mesh/torus\": the row and column phases repeat the "
                        "1-D torus pipeline, which needs T(z)'s wrap-around; for the mesh they "
                        "say only \"Analogous algorithm for 2-D mesh is similar\"): use -t "
                        "torus, or bex, qex, dex, dex-interleave on the mesh");
    if (oc_kv_get(in->params, "dims") || N < 2) return 0;
    /* The torus's own dims first: there every round is a neighbour step (the default follows
     * the network's shape, and a full tie goes to it); then the squarest, then by rounds. A
     * torus of 3 or more sides is offered its own shape, then the 2-D shapes. */
    uint32_t A0, B0, NA = 0, NB = 0;
    int own = 0, rc = 0;
    if (nc && nc->kind == OC_DIRECT_TORUS && nc->nodes == N) {
        const uint32_t tn = trim(nc->dims, nc->ndims);
        if (tn > 2) {
            rc = ca_offer_k(in, s, nc->dims, tn, why, len);
        } else {
            own = 1;
            NA = nc->dims[0];
            NB = tn == 2 ? nc->dims[1] : 1;
            rc = ca_offer(in, s, NA, NB, why, len);
        }
    }
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
    int same = n.kind == OC_DIRECT_TORUS && trim(n.dims, n.ndims) == c->nd;
    for (uint32_t i = 0; same && i < c->nd; i++)
        same = n.dims[i] == c->z[i];
    if (!same) {
        char dims[160];
        oc__direct_dims_text(&n, dims, sizeof dims);
        return oc__report_note(rep,
                               "cartesian was planned for -p dims=%s, which differs from the "
                               "network's dims=%s: no closed form applies",
                               oc_kv_get(p->used, "dims"), dims)
                   ? OC_ENOMEM
                   : 0;
    }
    /* phase i: z_i - 1 rounds, round k carrying (N / z_i)(z_i - k) packets */
    const double N = p->spec.nodes, mu = (double)p->spec.chunk_bytes;
    double R = 0;
    for (uint32_t i = 0; i < c->nd; i++)
        R += c->z[i] - 1;
    oc__aas_formula(rep, R, R * n.ts + mu * n.tm * N * R / 2);
    int rc = oc__aas_assumptions(rep, &n, 0, 1, -1, -1);
    if ((c->nd == 2 && c->z[0] != c->z[1]) || (c->nd == 1 && c->z[0] != 1)) /* T(z1) = T(z1, 1) */
        rc |= oc__report_note(rep, "z1 != z2: the notes treat T(z,z); the z1 x z2 sums are ours")
                  ? OC_ENOMEM
                  : 0;
    if (c->nd > 2)
        rc |= oc__report_note(rep, "k-D: the notes treat T(z,z); the sums over the sides "
                                   "(sum (z_i - 1) rounds, each (N/z_i)(z_i - k) packets) are ours")
                  ? OC_ENOMEM
                  : 0;
    return rc;
}

const oc__algo oc__algo_alltoall_cartesian = {
    .info = {"cartesian", OC_ALLTOALL, "torus,mesh",
             "k-D torus: the 1-port pipeline along dimension 1 in every line, then along "
             "dimension 2, ... (combined messages)",
             "dims (AxBx..) must be the network's; on a mesh refused: the notes give no mesh "
             "schedule (Higher-dimensional mesh/torus)",
             "T(z,z): t = (2 ts + mu tm z^2)(z-1), 2(z-1) steps",
             "dims=AxB..: the torus's sides (as --net dims); unset: the network's own, then "
             "every 2-D factorisation, by mapped time"},
    .param_names = params_,
    .plan = ca_plan,
    .generate = ca_generate,
    .release = ca_release,
    .search = ca_search,
    .formula = ca_formula,
};
