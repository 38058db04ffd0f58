/*
 * rhd_search.c — the costs of rhd, rh and rd (rhd.c has the method, its parameters and its
 * rounds): the one-way halves' closed forms, and the parameter search, which radices and whether
 * to fold, chosen by the network model's mapped cost under the search contract of algos.h, with a
 * proven bound on every family it skips.
 *
 * The parameter search (the contract of algos.h). The space: every ordered factorisation of N
 * into factors >= 2 (offered as radix=r when all are equal, else radices=), then fold=1 with
 * every radix 2..N of which N is not a power, and radix N+1 (all onto node 0, as any r > N). The
 * user's pins narrow it (radix= or radices=: nothing to search; fold=0 or fold=1: that half).
 * Factorisations are enumerated digit by digit from the least significant (place value 1) up, so
 * that each level's place value is known when it is chosen; a family (every completion of a chosen
 * tail of digits) is skipped when a proven lower bound on all of its members cannot beat the best
 * mapped candidate. The bounds follow the models' own costing: switch  (switch.c): a round costs
 * its busiest port's transfers; a level of radix r at place value w puts r-1 transfers of w chunks
 * on every core node's ports: (r-1)(a + w c), r-1 steps, exactly. The rest of a family (the factor
 * M still to split, above place value W) costs at least sum over M's prime factors of (p-1) alphas
 * (splitting a factor never adds alphas: (a-1) + (b-1) <= ab - 1) and exactly W (M-1) chunk times.
 *   fabric  (fabric.c): a round costs alpha, plus 3.7 us when its circuit set changes, plus its
 *           slowest circuit; a level's r-1 circuits get floor(W/(r-1)) of a tile's W lanes, so
 *           its w chunks take w c W / floor(W/(r-1)); every level's circuits are new except the
 *           first doubling level's (the last halving level's peers). Exact for every candidate
 *           with P = N. The rest of a family: at least ceil(log_{W+1} M) levels (a radix above
 *           W + 1 needs more circuits than a tile has lanes: those families are refused by the
 *           model and skipped as such) and W (M-1) chunks at the full rate (W/floor(W/d) >= d).
 *   ring    (ring.c): a round takes at least one step, at least ceil(load / (F w)) where the
 *           busiest link's load is, for a level whose groups (r w nodes) are at most half the
 *           ring, exactly w^2 floor(r^2 / 4) (group_load), else at least the round's unit-hops
 *           over the 2N directed links; at least a node's units over its 2 outgoing links, and a
 *           fold round at least its busiest link's units (fold_busiest_link); every step costs
 *           the model's step time for the candidate's chunk. The rest of a family: one step per
 *           direction, or its W (M-1) units per node over 2 links, or (exact levels, below) the
 *           least completion under the levels' values.
 * On the ring and the fat-tree, whose models cost every round alone, the levels themselves are
 * mapped (exact levels, below) and a factorisation's bound is then its cost.
 *   fattree (fattree.c): every round costs at least one router delay (the model's router_s, typed
 *           in core/netcfg.h) plus the time the busiest node's injection link takes to drain its
 *           sends: r-1 transfers of w chunks, a chunk more than npk - 1 packets when it is npk
 *           (the packet's time is that of a one-byte chunk). A round in which some transfer joins
 *           two leaves (node v on leaf v / leaf_down) lasts at least as long as that transfer:
 *           three routers (leaf, spine, leaf) and its own packets through its busiest link
 *           (the round takes as long as its slowest transfer). A level of radix r at place
 *           value w has one once (r - 1) w >= leaf_down (core node 0 sends to (r - 1) w); a fold
 *           round once P >= leaf_down (extra P folds onto core node 0). Without it the folds'
 *           bounds, one router a round, were a third of their cost, and at a prime N = 4093 with
 *           4 KiB the search mapped 1329 folds against the one factorisation (over 56 s of CPU).
 * The folded variants (radix r >= 2 in turn) are cut off as a family once even their radix's
 * cheapest rounds cannot win: dirs x (r-1) transfers per port on the switch, dirs + 2 rounds on the
 * fabric, ceil((r-1) / 2F w) steps per direction on the ring; or once the least floor of every
 * radix from r up cannot (fold_tail): a candidate's floor (fold_floor) is its bound with no
 * payload time (every term of the costs above is non-decreasing in a chunk's time, and the steps
 * do not read it), so the least floor over r .. N bounds every member. On the ring the folds of
 * large radix P = r carry an all-to-all of P core nodes (about P^2 / 4 chunks on a link), and the
 * family ends a little past the best fold (N = 131072: radix 363 wins; the loop went on to N, each
 * radix with the network made twice for its chunk size, minutes of CPU). A candidate whose floor
 * cannot win is offered at its floor, and one whose bound cannot win without its fold rounds
 * mapped alone (cost_folds): a larger bound could not win either, so the search decides as with
 * the full bound (the log shows the floor, named as such). The one-way folds' core parts are
 * uneven: their bounds take every part as small as the smallest (w blocks), still a lower bound.
 * Split rounds (the fabric with mzi_split=1: a round whose busiest tile has d > D circuits, D the
 * MZI degree, runs in ceil(d / D) passes, each a step with its alpha and, after the first, a
 * reconfiguration of its own; fabric.c). The unsplit closed form (every circuit at floor(W / d)
 * lanes at once) is then no bound: a pass gives its circuits more lanes. What holds: a tile with
 * k circuits in a pass has one of them at floor(W / k) <= W / k lanes or fewer, so a pass lasts at
 * least k times that circuit's chunks at the tile's full rate; summed over the passes, the busiest
 * tile's d circuits of at least `units` chunks take at least d x units chunk times at full rate
 * (fibre passes and narrower shares only add). A round of a level, or a fold round, whose
 * busiest tile has d <= D circuits is not split (every core node of a level has the same r - 1,
 * and a fold round's d is its most loaded core node's), so its unsplit form stays exact. For
 * the rest of a family, a level of radix r takes at least ceil((r - 1) / K) passes, K = min(D,
 * W) (a pass of more than W circuits at a tile is refused), and r <= (K + 1)^passes, so the
 * levels splitting M take at least ceil(log_{K+1} M) passes, each an alpha and, but for the
 * first doubling pass, a reconfiguration (a level's pairs differ from every other level's).
 * tests/test_rhd_split.c runs every candidate pinned against its bound.
 * Times are shaded by 1e-12 relative so that floating-point rounding never lifts a bound above the
 * model's own sum.
 * The four cases above are the four rules by which a model says it costs a round (algos.h:
 * oc__round_rule, from core/netcfg.h's oc__netcost and the circuits hook): ports (the switch),
 * circuits (the fabric), link loads (the ring), packets on a tree of routers in groups (the
 * fat-tree). cost_net branches on the rule, never on which network it is: a model that costs a
 * round by one of these rules gets these bounds.
 */
#include "algo/rhd.h"
#include "algo/radix.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- closed forms ---- */

uint64_t oc__rhd_sends(const oc__rhd *h) {
    uint64_t s = 0;
    for (uint32_t p = 0; p < h->k; p++)
        s += h->r[p] - 1;
    return s;
}

double oc__rhd_fabric_chunks(const oc__rhd *h, const oc__formula_in *in) {
    double s = 0;
    for (uint32_t p = 0; p < h->k; p++) {
        const double split = oc__formula_split(in, h->r[p] - 1);
        if (split == 0) return 0;
        s += h->w[p] * split;
    }
    return s;
}

int oc__rhd_one_way_formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const oc__rhd *h = p->state;
    const int fold = h->N > h->P;
    if (in->lanes) {
        /* The photonic fabric, P = N: k rounds of r_p - 1 concurrent circuits, each a new circuit
         * set (other peers every level); the fold's uneven ranges have no closed form here. */
        if (fold)
            return oc__report_note(rep, "no closed form on the fabric when folding onto P < N: "
                                        "the fold makes the ranges uneven");
        const double chunks = oc__rhd_fabric_chunks(h, in);
        if (chunks == 0) return 0;
        const double c = in->step_time - in->step_fixed;
        return oc__formula_circuits(rep, in, h->k, h->k, chunks * c);
    }
    if (in->wavelengths > 1) { /* the optical ring: a node's r-1 transfers go in parallel */
        oc__formula_steps(rep, in, (double)h->k + (fold ? 2 : 0));
        char detail[1024];
        const oc__rhd_kind kind = p->spec.coll == OC_ALLGATHER ? OC__RHD_DOUBLING : OC__RHD_HALVING;
        const uint64_t proven = oc__rhd_ring_detail(h, in, kind, detail, sizeof detail);
        return oc__note_rounds_on_ring(rep, in, detail, proven);
    }
    const double a = in->step_fixed, c = in->step_time - in->step_fixed, m = h->m;
    const double lv = (double)oc__rhd_sends(h);
    rep->has_formula = 1;
    rep->steps_formula = lv + 2 * m;
    rep->has_time_formula = 1;
    rep->time_formula_s =
        lv * a + (double)(h->P - 1) * (m + 1) * c + (fold ? m * (a + c) + m * (a + h->N * c) : 0);
    return 0;
}

/* ---- the network's terms (the essay above: the space and the bounds) ---- */

/* A network's terms, as the bounds use them. */
typedef struct cost_net {
    oc__round_rule rule; /* how the model costs a round (algos.h, core/netcfg.h) */
    uint32_t N;
    double a;       /* the fixed part of a step: alpha (switch, fabric), a step without payload */
    double c;       /* one chunk's payload time (fabric: on all of a tile's lanes) */
    double step;    /* ring: one step's time for the candidate's chunk */
    double reconf;  /* fabric: one reconfiguration */
    uint64_t lanes; /* fabric: wavelengths per tile */
    uint64_t split; /* fabric: circuits per pass when it splits a round (mzi_split), else 0 */
    uint64_t degree; /* fabric: circuits per tile above which a round is refused (mzi_degree) */
    uint64_t ch;    /* ring: fibres x wavelengths per direction */
    double pkt;     /* fattree: one packet on a link (0: unknown) */
    double router;  /* fattree: one router's delay, the least a round can take */
    double cross;   /* fattree: the routers of a path between two leaves (three) */
    uint64_t npk;   /* fattree: packets per chunk */
    uint64_t leaf;  /* fattree: nodes per leaf router (node v on leaf v / leaf), else 0 */
} cost_net;

/* Whether the fabric refuses a level of r-1 circuits per tile: more than its lanes in one step
 * (split into passes of `split` circuits when the fabric splits rounds), or, when it does not
 * split, more than its MZI switch's degree. Known before anything is generated, so such
 * candidates are skipped unmapped (at N = 65536 the least bound, radix 16, was refused only
 * after its schedule was made). */
static int fabric_refuses(const cost_net *n, uint32_t r) {
    const uint64_t d = n->split && r - 1 > n->split ? n->split : r - 1;
    return n->rule == OC_RULE_CIRCUITS && (d > n->lanes || (n->degree && d > n->degree));
}

/* Why: "needs 15 circuits per tile, more than its 16 wavelengths" / "... than its 1x3 MZI
 * switch holds". */
static void refusal_text(const cost_net *n, uint32_t r, char *buf, size_t len) {
    if (r - 1 > n->lanes || !n->degree)
        snprintf(buf, len, "needs %u circuits per tile, more than its %llu wavelengths", r - 1,
                 (unsigned long long)n->lanes);
    else
        snprintf(buf, len, "needs %u concurrent circuits per tile, more than its 1x%llu MZI "
                 "switch holds (mzi_degree)", r - 1, (unsigned long long)n->degree);
}

/* A bound being summed. */
typedef struct tally {
    double t;
    uint64_t st;
    uint32_t exact, proven; /* levels added at their exact cost / at a proven bound only */
} tally;

static cost_net net_of(const oc__formula_in *f, uint32_t N) {
    const oc__round_rule rule = oc__round_rule_of(f);
    cost_net n = {.rule = rule,
                  .N = N,
                  .a = f->step_fixed,
                  .c = f->step_time - f->step_fixed,
                  .step = f->step_time,
                  .reconf = f->reconfig_s,
                  .lanes = f->lanes,
                  .split = f->split_degree,
                  .degree = f->max_degree,
                  .ch = f->channels ? f->channels : 1,
                  .router = rule == OC_RULE_PACKETS ? f->cfg.cost.least_path_s : 0,
                  .cross = rule == OC_RULE_PACKETS ? f->cfg.cost.cross_group_s : 0,
                  .leaf = rule == OC_RULE_PACKETS ? f->cfg.cost.group_nodes : 0};
    return n;
}

static const char *bound_name(const cost_net *n) {
    switch (n->rule) {
    case OC_RULE_PORTS:
        return "switch: each round's busiest port, (r-1) x (alpha + w chunks beta)";
    case OC_RULE_CIRCUITS:
        return "fabric: alpha and a reconfiguration per new circuit set, w chunks on "
               "floor(W/(r-1)) lanes per level";
    case OC_RULE_LINKS:
        return "ring: per round max(1, the busiest link's load (exact in a level's groups of at "
               "most N/2 nodes, else unit-hops / 2N links), a node's units / 2 links, a fold's "
               "busiest link) / (F w) steps";
    case OC_RULE_PACKETS:
        return "fattree: a router delay per round and the busiest node's packets on its link";
    default:
        return NULL;
    }
}

static const char *const exact_name = "exact: the sum of its levels' costs, each level mapped "
                                     "alone on the network (the model costs every round alone)";

/* Shortest-path hops between nodes t apart on the ring. */
static double hops(const cost_net *n, uint64_t t) {
    t %= n->N;
    return (double)(t < n->N - t ? t : n->N - t);
}

/* One round in which the busiest node has d transfers of `units` chunks (each at least that
 * many) and, on the ring, the busiest directed link carries at least `link_units` chunks; on the
 * fat-tree, `cross`: some transfer of the round joins nodes of two leaves. */
static void round_cost(const cost_net *n, uint64_t d, uint64_t units, double link_units,
                       int cross, tally *b) {
    switch (n->rule) {
    case OC_RULE_PORTS:
        b->st += d;
        b->t += (double)d * (n->a + (double)units * n->c);
        break;
    case OC_RULE_CIRCUITS: {
        if (n->split && d > n->split) {
            /* mzi_split=1 and more circuits than a pass holds: the essay's split rounds */
            const uint64_t passes = oc__ceil_div(d, n->split);
            b->st += passes;
            b->t += (double)passes * n->a + (double)(passes - 1) * n->reconf +
                    (double)d * (double)units * n->c;
            break;
        }
        const uint64_t l = d <= n->lanes ? n->lanes / d : 1;
        b->st += 1;
        b->t += n->a + (double)units * n->c * (double)n->lanes / (double)l;
        break;
    }
    case OC_RULE_LINKS: {
        const double link = ceil(ceil(link_units) / (double)n->ch);
        const double node = ceil((double)d * (double)units / (2.0 * (double)n->ch));
        const double s = fmax(1, fmax(link, node));
        b->st += (uint64_t)s;
        b->t += s * n->step;
        break;
    }
    case OC_RULE_PACKETS: {
        /* the busiest node's injection link drains its d transfers, each more than
         * units x (npk - 1) packets (a chunk is more than npk - 1 packets), then a router delay */
        const double per = fmax(1, (double)units * (double)(n->npk ? n->npk - 1 : 0));
        b->st += 1;
        /* a transfer between two leaves passes three routers (leaf, spine, leaf) and its own
         * packets through its busiest link: the round, as long as its slowest transfer, lasts
         * at least that too */
        const double crossing = cross ? n->cross + per * n->pkt : 0;
        b->t += fmax(n->router + (double)d * per * n->pkt, crossing);
        break;
    }
    default:
        break;
    }
}

/* sum over delta = 1 .. r-1 of (r - delta) hops(delta w), for (r - 1) w < N: hops is delta w up
 * to N / 2 and N - delta w past it, so each range sums in closed form (O(1) where a loop over
 * delta made the fold candidates' bounds O(N) each, O(N^2) in all). Every term is an integer
 * and the sums stay below 2^60 (r w <= N <= 2^20), so this is exact. */
static uint64_t pair_hops(const cost_net *n, uint32_t r, uint64_t w) {
    const uint64_t R = r, N = n->N, half = N / (2 * w); /* delta <= half: delta w <= N / 2 */
    const uint64_t a = half < R - 1 ? half : R - 1;
    /* F(x) = sum_{delta <= x} (r - delta); G(x) = sum_{delta <= x} (r - delta) delta */
#define F(x) (R * (x) - (x) * ((x) + 1) / 2)
#define G(x) (R * (x) * ((x) + 1) / 2 - (x) * ((x) + 1) * (2 * (x) + 1) / 6)
    const uint64_t near = w * G(a);
    const uint64_t far = N * (F(R - 1) - F(a)) - w * (G(R - 1) - G(a));
#undef F
#undef G
    return near + far;
}

/* Whether a level's group (r w consecutive core nodes) is at most half the ring: then every
 * transfer (at most (r - 1) w < N / 2 apart) goes the short way inside its group, no arc passes
 * a group's boundary, and the busiest link's load is known exactly (group_load). */
static int group_local(const cost_net *n, uint32_t r, uint64_t w) {
    return n->rule == OC_RULE_LINKS && 2 * (uint64_t)r * w <= n->N;
}

/* The busiest directed link's chunks in a group-local level: in a group, node (d, i) (digit d,
 * offset i < w) sends w chunks to (j, i) for every j != d. Clockwise (j > d), the link after
 * position a w + b is crossed by the arcs of the i <= b with d <= a < j, (a + 1)(r - 1 - a)
 * digit pairs, and of the i > b with d < a <= j, a (r - a) pairs: w [(b + 1)(a + 1)(r - 1 - a)
 * + (w - 1 - b) a (r - a)] chunks, largest at b = w - 1, a + 1 = floor(r / 2): w^2
 * floor(r^2 / 4). Counter-clockwise is the mirror image. (test_search_ring_levels checks it
 * against the model's own load on every such level up to N = 720.) */
static double group_load(uint32_t r, uint64_t w) {
    return (double)w * (double)w * (double)((uint64_t)r * r / 4);
}

/* Whether a level of radix r at place value w joins nodes of two fat-tree leaves: core node 0
 * (digit 0) sends to (r - 1) w, a core node (below r w <= P), on leaf (r - 1) w / leaf >= 1
 * once (r - 1) w >= leaf. (A sufficient test: a level may cross leaves without it.) In
 * fold_family_cost a radix r' >= r has its first level, at w = 1, crossing when r - 1 >= leaf. */
static int level_crosses(const cost_net *n, uint32_t r, uint64_t w) {
    return n->leaf && (uint64_t)(r - 1) * w >= n->leaf;
}

/* A level of radix r at place value w among P core nodes, `dirs` times (halving, doubling). */
static void level_cost(const cost_net *n, uint32_t r, uint64_t w, uint32_t P, uint32_t dirs,
                       tally *b) {
    double load = 0;
    if (group_local(n, r, w)) {
        load = group_load(r, w);
    } else if (n->rule == OC_RULE_LINKS) {
        /* the round's unit-hops over the 2N directed links: digit pairs (d, j) at distance
         * delta, 2 (r - delta) of them in each of the P / r groups */
        const double uh = 2.0 * (double)pair_hops(n, r, w);
        load = uh * (double)(P / r) * (double)w / (2.0 * n->N);
    }
    for (uint32_t i = 0; i < dirs; i++)
        round_cost(n, r - 1, w, load, level_crosses(n, r, w), b);
}

/* The fabric's reconfigurations: `count` of them. */
static void reconfigs(const cost_net *n, uint64_t count, tally *b) {
    if (n->rule == OC_RULE_CIRCUITS) b->t += (double)count * n->reconf;
}

static oc__bound to_bound(const tally *b, const char *name) {
    return (oc__bound){.time_s = b->t * (1 - 1e-12), .steps = b->st, .name = name};
}

/* The ring's busiest directed link in a fold round (rhd_fold: extra x and core (x - P) mod P),
 * in transfers. Group j of the extras, x in [(j+1)P, (j+2)P), sits D = (j+1)P clockwise of its
 * core, and x = core + D < N, so a clockwise path core -> x never wraps past node 0 and crosses
 * the link P-1 -> P (core <= P-1 < P <= x), while a counter-clockwise one runs from the core down
 * through node 0 and crosses 0 -> N-1: every transfer the model routes one way (2D < N clockwise,
 * 2D > N counter-clockwise, ring.c) shares one link with all the others routed that way. The
 * copy back is the same transfers reversed. A tie (2D = N) may go either way and is counted in
 * neither, so the figure is a lower bound on the busiest link's transfers, exact without ties. On
 * 1024 nodes it lifts the bound of radix=3 fold=1 from 1670 to about 8000 of its 8881 steps. */
static double fold_busiest_link(uint32_t N, uint32_t P) {
    uint64_t cw = 0, ccw = 0;
    for (uint64_t D = P; D < N; D += P) {
        const uint64_t s = N - D < P ? N - D : P; /* the group's extras */
        if (2 * D < N)
            cw += s;
        else if (2 * D > N)
            ccw += s;
    }
    return (double)(cw > ccw ? cw : ccw);
}

/* The hops of a fold round: extra x = (j + 1) P + i folds onto core node i, (j + 1) P away, so
 * each group of extras (the last one short) is one distance. */
static double fold_hops(const cost_net *n, uint32_t P) {
    double uh = 0;
    for (uint64_t D = P; D < n->N; D += P) {
        const uint64_t s = n->N - D < P ? n->N - D : P;
        uh += (double)s * hops(n, D);
    }
    return uh;
}

/* The bound of a complete candidate: digits r[0..k-1] on P core nodes (P < N: folded), its fold
 * rounds at their proven bounds or, given folds_exact, at their cost mapped alone. */
static void candidate_cost(const cost_net *n, oc__rhd_kind kind, const uint32_t *r, uint32_t k,
                           uint32_t P, const tally *folds_exact, tally *b) {
    const uint32_t dirs = kind == OC__RHD_BOTH ? 2 : 1, N = n->N;
    uint64_t w = 1;
    for (uint32_t p = 0; p < k; p++) {
        level_cost(n, r[p], w, P, dirs, b);
        w *= r[p];
    }
    uint64_t rounds = (uint64_t)dirs * k;
    if (P < N) {
        /* the fold rounds: core node 0 has m extras; units per extra, in and out */
        const uint64_t m = oc__ceil_div(N - P, P);
        const uint64_t in = kind == OC__RHD_BOTH ? P : kind == OC__RHD_HALVING ? N : 1;
        const uint64_t out = kind == OC__RHD_BOTH ? P : kind == OC__RHD_HALVING ? 1 : N;
        double uh = 0, busiest = 0;
        if (n->rule == OC_RULE_LINKS) {
            uh = fold_hops(n, P);
            busiest = fold_busiest_link(N, P);
        }
        /* the busiest link carries at least the average of the round's unit-hops over the 2N
         * links, and at least the fold's busiest link's transfers */
        const double links = 2.0 * (double)N;
        if (folds_exact) { /* the two rounds mapped alone (cost_folds) */
            b->t += folds_exact->t;
            b->st += folds_exact->st;
        } else {
            const int cross = n->leaf && P >= n->leaf; /* extra P folds onto core node 0 */
            round_cost(n, m, in, fmax(uh * (double)in / links, busiest * (double)in), cross, b);
            round_cost(n, m, out, fmax(uh * (double)out / links, busiest * (double)out), cross,
                       b);
        }
        rounds += 2;
    }
    reconfigs(n, rounds - (kind == OC__RHD_BOTH && k ? 1 : 0), b);
}

uint64_t oc__rhd_ring_detail(const oc__rhd *h, const oc__formula_in *in, oc__rhd_kind kind,
                            char *buf, size_t len) {
    const cost_net n = net_of(in, h->N);
    const uint32_t dirs = kind == OC__RHD_BOTH ? 2 : 1;
    uint64_t all = 0;
    size_t at = (size_t)snprintf(buf, len,
                                 "steps proven per round (a node's chunks on its 2 links, the "
                                 "busiest link's load: exact in a level's groups of at most N/2 "
                                 "nodes, else the round's link-hops on the 2N links):");
    uint64_t w = 1;
    for (uint32_t p = 0; p < h->k; p++) { /* `dirs` rounds per level */
        tally b = {0};
        level_cost(&n, h->r[p], w, h->P, dirs, &b);
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at, "%s radix %u, place %llu: %llu",
                                   p ? "," : "", h->r[p], (unsigned long long)w,
                                   (unsigned long long)(b.st / dirs));
        all += b.st;
        w *= h->r[p];
    }
    if (h->N > h->P) { /* the fold rounds, as candidate_cost counts them */
        const uint64_t m = oc__ceil_div(h->N - h->P, h->P);
        const double uh = fold_hops(&n, h->P);
        tally b = {0};
        round_cost(&n, m, h->P, uh * h->P / (2.0 * h->N), 0, &b);
        all += 2 * b.st;
        if (at < len)
            at += (size_t)snprintf(buf + at, len - at,
                                   "%s each fold (%llu extras x %u chunks into a core node, %.0f "
                                   "link-hops): %llu",
                                   h->k ? "," : "", (unsigned long long)m, h->P, uh * h->P,
                                   (unsigned long long)b.st);
    }
    if (at < len) snprintf(buf + at, len - at, "; at least %llu in all", (unsigned long long)all);
    return all;
}

/* The least sum of (r_p - 1) over the factorisations of M: its prime factors' (p - 1) (splitting
 * a factor never adds: (a-1) + (b-1) <= ab - 1). Also the least alphas on the switch. */
static uint64_t prime_excess(uint64_t M) {
    uint64_t sum = 0;
    for (uint64_t p = 2; p * p <= M; p++)
        while (M % p == 0) {
            sum += p - 1;
            M /= p;
        }
    return M > 1 ? sum + M - 1 : sum;
}

/* The transfers of a candidate: r_p - 1 per core node per level and direction, and one per extra
 * node in each of the two fold rounds (as the generators emit them). */
static uint64_t candidate_transfers(oc__rhd_kind kind, uint32_t N, uint32_t P, const uint32_t *r,
                                    uint32_t k) {
    uint64_t sends = 0;
    for (uint32_t p = 0; p < k; p++)
        sends += r[p] - 1;
    return (kind == OC__RHD_BOTH ? 2 : 1) * (uint64_t)P * sends + 2 * (uint64_t)(N - P);
}

/* The rest of a family: the factor M still to split into digits above place value W. */
static void completion_cost(const cost_net *n, oc__rhd_kind kind, uint64_t W, uint32_t M,
                            tally *b) {
    const uint32_t dirs = kind == OC__RHD_BOTH ? 2 : 1;
    const double units = (double)W * (M - 1); /* sum of (r_p - 1) w_p over the rest */
    switch (n->rule) {
    case OC_RULE_PORTS: {
        const uint64_t alphas = prime_excess(M);
        b->st += dirs * alphas;
        b->t += dirs * ((double)alphas * n->a + units * n->c);
        break;
    }
    case OC_RULE_CIRCUITS: {
        /* passes of at most K circuits per tile (the essay's split rounds: a level of radix r
         * takes at least ceil((r - 1) / K) passes, and r <= (K + 1)^passes) */
        const uint64_t K = n->split && n->split < n->lanes ? n->split : n->lanes;
        uint64_t levels = 0;
        for (uint64_t x = 1; x < M; x *= K + 1)
            levels++;
        b->st += dirs * levels;
        b->t += (double)(dirs * levels) * n->a + dirs * units * n->c;
        reconfigs(n, dirs * levels - (kind == OC__RHD_BOTH && W == 1 ? 1 : 0), b);
        break;
    }
    case OC_RULE_LINKS: {
        const double s = fmax(1, ceil(units / (2.0 * (double)n->ch)));
        b->st += dirs * (uint64_t)s;
        b->t += dirs * s * n->step;
        break;
    }
    case OC_RULE_PACKETS: {
        const double per = fmax(1, units * (double)(n->npk ? n->npk - 1 : 0));
        b->st += dirs;
        b->t += dirs * (n->router + per * n->pkt);
        break;
    }
    default:
        break;
    }
}

typedef struct rsearch {
    const oc__search_in *in;
    oc__search *s;
    oc__rhd_kind kind;
    cost_net net;
    uint32_t N;
    uint32_t *div;  /* the divisors of N, ascending */
    uint64_t *ways; /* ways[i]: ordered factorisations of div[i] */
    uint64_t *excess; /* excess[i]: prime_excess(div[i]), the fewest sends a split of it has */
    size_t ndiv;
    uint32_t r[OC__RHD_MAX_LEVELS], k;        /* the digits chosen, r[0] the least significant */
    uint32_t seed[OC__RHD_MAX_LEVELS], nseed; /* the least bound's factorisation (0: none) */
    int seed_offered;                         /* offered first (switch, fabric), else a hint */
    tally seed_cost;
    const char *fold; /* the user's fold= pin, or NULL */
    char *why;
    size_t len;
    /* Exact level costs (additive models, P = N: exact_levels() below). memo[i * ndiv + j]: the
     * level from place value div[i] to div[j] (radix div[j] / div[i]); rest[i]: a proven bound on
     * the levels above place value div[i], in time and in steps (each the least over every
     * completion, not necessarily the same one). */
    struct level_memo *memo;
    tally *rest;
    int exact;       /* memo in use: the model costs rounds alone (oc__search_round_costs) */
    uint64_t limit;  /* the most sum of (r_p - 1) a candidate mapped in the search may have */
    oc__plan lvplan; /* a P = N plan: its spec and identity label bounds for the levels costed */
    oc__rhd lv;      /* the one level being costed */
    const oc__rhd *fold_shape; /* the folded candidate whose fold rounds are being costed */
} rsearch;

/* A level's costs: its proven bound (computed once) and, once mapped alone, its exact cost. */
enum { LEVEL_UNKNOWN, LEVEL_EXACT, LEVEL_NOT_COSTED };
typedef struct level_memo {
    uint8_t has_bound, state;
    tally bound, cost;
} level_memo;

/* The index in div[] of v, a divisor of N. */
static size_t div_index(const rsearch *c, uint64_t v) {
    size_t lo = 0, hi = c->ndiv;
    while (lo + 1 < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->div[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t ways(const rsearch *c, uint32_t M) {
    return c->ways[div_index(c, M)];
}

static int divisors(rsearch *c) {
    size_t cap = 0;
    for (uint32_t d = 1; (uint64_t)d * d <= c->N; d++)
        if (c->N % d == 0) {
            if (oc__grow((void **)&c->div, &cap, c->ndiv + 2, sizeof *c->div)) return OC_ENOMEM;
            c->div[c->ndiv++] = d;
            if (d != c->N / d) c->div[c->ndiv++] = c->N / d;
        }
    for (size_t i = 1; i < c->ndiv; i++) /* insertion sort: a few hundred at most */
        for (size_t j = i; j > 0 && c->div[j - 1] > c->div[j]; j--) {
            uint32_t t = c->div[j];
            c->div[j] = c->div[j - 1];
            c->div[j - 1] = t;
        }
    if (!(c->ways = oc__calloc(c->ndiv, sizeof *c->ways))) return OC_ENOMEM;
    for (size_t i = 0; i < c->ndiv; i++) {
        uint64_t h = i == 0 ? 1 : 0; /* div[0] = 1: the empty factorisation */
        for (size_t j = 1; j <= i; j++)
            if (c->div[i] % c->div[j] == 0) {
                h += ways(c, c->div[i] / c->div[j]);
                if (h > UINT64_MAX / 2) h = UINT64_MAX / 2;
            }
        c->ways[i] = h;
    }
    if (!(c->excess = oc__calloc(c->ndiv, sizeof *c->excess))) return OC_ENOMEM;
    for (size_t i = 0; i < c->ndiv; i++)
        c->excess[i] = prime_excess(c->div[i]);
    return 0;
}

/* ---- exact level costs ----
 *
 * On a model that costs every round alone (oc__model.additive: the ring, the fat-tree), a
 * factorisation with P = N costs exactly the sum of its levels' rounds, and a level's rounds
 * (radix r at place value W: every core node x sends to x + (j - d) W, w chunks each, sends())
 * are the same in every factorisation that has the level. So the search maps levels, not
 * candidates: a level is mapped alone once (oc__search_round_costs) and its cost is then exact
 * wherever it appears, while the levels not yet mapped count at their proven bounds. The least
 * factorisation under those values (within the search's transfer budget) is found by branch and
 * bound (least()); its levels not yet mapped are mapped, and again, until the least is made of
 * mapped levels only: its cost is then exact and no other factorisation's proven value is below
 * it, so it is the optimum, found by mapping a few dozen levels instead of hundreds of candidates
 * (rd all-gather on the ring at N = 8192 mapped 259 candidates, 46 s). It is mapped whole as the
 * search's hint, and the enumeration offers every factorisation with these exact bounds, so the
 * others are pruned unmapped (and counted in the log as such). */

static level_memo *memo_at(const rsearch *c, uint64_t W, uint32_t r) {
    return c->memo ? &c->memo[div_index(c, W) * c->ndiv + div_index(c, W * r)] : NULL;
}

/* Adds the level of radix r at place value W (every direction the algorithm runs) to t: its
 * exact cost once mapped alone, else its proven bound (level_cost, the fabric's
 * reconfigurations), computed once. */
static void level_value(const rsearch *c, uint64_t W, uint32_t r, tally *t) {
    const uint32_t dirs = c->kind == OC__RHD_BOTH ? 2 : 1;
    level_memo *m = memo_at(c, W, r);
    tally b = {0};
    if (m && m->state == LEVEL_EXACT) {
        b = m->cost;
        b.exact = 1;
    } else if (m && m->has_bound) {
        b = m->bound;
    } else {
        level_cost(&c->net, r, W, c->N, dirs, &b);
        reconfigs(&c->net, dirs - (c->kind == OC__RHD_BOTH && W == 1 ? 1 : 0), &b);
        b.proven = 1;
        if (m) {
            m->bound = b;
            m->has_bound = 1;
        }
    }
    t->t += b.t;
    t->st += b.st;
    t->exact += b.exact;
    t->proven += b.proven;
}

/* rest[]: for each place value, the least time and the fewest steps of any completion, from the
 * top place value down (each completion's value: its levels' exact costs or bounds). */
static void compute_rest(rsearch *c) {
    for (size_t i = c->ndiv; i-- > 0;) {
        const uint64_t W = c->div[i];
        tally best = {0};
        if (W < c->N) {
            best.t = DBL_MAX;
            best.st = UINT64_MAX;
            for (size_t j = i + 1; j < c->ndiv; j++) {
                if (c->div[j] % W) continue;
                tally v = c->rest[j];
                level_value(c, W, (uint32_t)(c->div[j] / W), &v);
                best.t = fmin(best.t, v.t);
                if (v.st < best.st) best.st = v.st;
            }
        }
        best.exact = 0;
        best.proven = 1;
        c->rest[i] = best;
    }
}

/* Adds to b a proven bound on the levels that split M above place value W: completion_cost,
 * and with exact levels the larger of it and rest[] (each a bound, in time and in steps). */
static void completion_value(const rsearch *c, uint64_t W, uint32_t M, tally *b) {
    tally cc = {0};
    completion_cost(&c->net, c->kind, W, M, &cc);
    if (c->exact) {
        const tally *r = &c->rest[div_index(c, W)];
        cc.t = fmax(cc.t, r->t);
        if (r->st > cc.st) cc.st = r->st;
    }
    b->t += cc.t;
    b->st += cc.st;
    b->proven++;
}

/* The round of c->lv's one level: the halving's (rhd, rh) or the doubling's (rd). rhd's
 * doubling level is the halving's round transfer for transfer (the same ends, and with P = N
 * and one label per core node, sends() gives both the same w chunks), bar the op, which no
 * additive model reads (search.c's round cache takes the two as one round): cost_level counts
 * the halving twice instead of generating, hashing and comparing the doubling (the all-to-all
 * of 4096 nodes, 16.7 M transfers) only to find it in the cache. */
static int level_rounds(void *ctx, oc__emit *e) {
    const rsearch *c = ctx;
    return oc__rhd_level(&c->lv, e, 0, c->kind != OC__RHD_DOUBLING);
}

/* Maps the level of radix r at place value W alone. A model that cannot cost rounds alone ends
 * the exact mode (the bounds alone, as on other models); a level the model refuses, or over
 * the budget, is not costed (a candidate with it would fail to map as well). */
static int cost_level(rsearch *c, uint64_t W, uint32_t r, level_memo *m) {
    c->lv = *(const oc__rhd *)c->lvplan.state;
    c->lv.k = 1;
    c->lv.r[0] = r;
    c->lv.w[0] = (uint32_t)W;
    c->lv.w[1] = (uint32_t)(W * r);
    /* the level's transfers in every direction, against the search's budget as its rounds
     * were counted when both were generated */
    const uint64_t dirs = c->kind == OC__RHD_BOTH ? 2 : 1;
    if (dirs * (uint64_t)c->N * (r - 1) > c->s->budget) {
        m->state = LEVEL_NOT_COSTED;
        return 0;
    }
    uint64_t steps = 0;
    double t = 0;
    int rc = oc__search_round_costs(c->s, &c->lvplan.spec, level_rounds, c, &steps, &t, c->why,
                                    c->len);
    steps *= dirs;
    t *= (double)dirs;
    if (rc == OC_ENOMEM) return rc;
    c->why[0] = 0;
    if (rc == OC_ENOTSUP) {
        c->exact = 0;
        return 0;
    }
    if (rc) {
        m->state = LEVEL_NOT_COSTED;
        return 0;
    }
    m->state = LEVEL_EXACT;
    m->cost = (tally){.t = t, .st = steps};
    return 0;
}

/* The two fold rounds of c->fold_shape. */
static int fold_rounds(void *ctx, oc__emit *e) {
    const rsearch *c = ctx;
    int rc = oc__rhd_fold_round(c->fold_shape, e, c->kind, 1);
    return rc ? rc : oc__rhd_fold_round(c->fold_shape, e, c->kind, 0);
}

/* A folded candidate (fold=1, radix r) that its bound says could win is about to be mapped whole;
 * its two fold rounds, mapped alone first, often show it cannot (on the fat-tree its fold rounds'
 * bounds are far under their cost). *out gets their summed cost with out->exact = 1, or exact = 0
 * when they could not be costed. */
static int cost_folds(rsearch *c, uint32_t r, tally *out) {
    *out = (tally){0};
    char radix[16];
    snprintf(radix, sizeof radix, "%u", r);
    oc_kv *kv = oc_kv_new();
    if (!kv || oc_kv_set(kv, "radix", radix) || oc_kv_set(kv, "fold", "1")) {
        oc_kv_free(kv);
        return OC_ENOMEM;
    }
    oc__plan plan = {0};
    int rc = oc__rhd_plan(&plan, "rhd", c->in->coll, c->N, c->in->root, c->in->bytes, kv, c->why,
                          c->len);
    oc_kv_free(kv);
    uint64_t steps = 0;
    double t = 0;
    if (!rc) {
        c->fold_shape = plan.state;
        rc = oc__search_round_costs(c->s, &plan.spec, fold_rounds, c, &steps, &t, c->why, c->len);
    }
    if (plan.state) oc__rhd_release(&plan);
    oc__plan_free(NULL, &plan);
    if (rc == OC_ENOMEM) return rc;
    c->why[0] = 0;
    if (!rc) *out = (tally){.t = t, .st = steps, .exact = 1};
    return 0;
}

/* Exact mode where the model may cost rounds alone: a plan with P = N (the prime factors: the
 * fewest transfers) gives the spec and the identity label bounds every level reads. */
static int exact_setup(rsearch *c) {
    if ((c->net.rule != OC_RULE_LINKS && c->net.rule != OC_RULE_PACKETS) || c->ndiv > 512) return 0;
    uint32_t r[OC__RHD_MAX_LEVELS];
    char text[512];
    oc__rhd_radices_text(r, oc__rhd_prime_digits(c->N, r), text, sizeof text);
    oc_kv *kv = oc_kv_new();
    if (!kv || oc_kv_set(kv, "radices", text)) {
        oc_kv_free(kv);
        return OC_ENOMEM;
    }
    int rc = oc__rhd_plan(&c->lvplan, "rhd", c->in->coll, c->N, c->in->root, c->in->bytes, kv,
                          c->why, c->len);
    oc_kv_free(kv);
    if (rc == OC_ENOMEM) return rc;
    c->why[0] = 0;
    if (rc) return 0; /* no plan of P = N (too many transfers): the bounds alone */
    if (!(c->memo = oc__calloc(c->ndiv * c->ndiv, sizeof *c->memo)) ||
        !(c->rest = oc__calloc(c->ndiv, sizeof *c->rest)))
        return OC_ENOMEM;
    c->limit = c->s->budget ? c->s->budget / ((c->kind == OC__RHD_BOTH ? 2 : 1) * (uint64_t)c->N)
                            : UINT64_MAX;
    c->exact = 1;
    return 0;
}

/* The fat-tree's packet: the time of a chunk of one byte (the vector cut into `bytes` chunks),
 * and how many packets a chunk of the search's chunking is. */
static int fattree_packets(const oc__search_in *in, cost_net *n, char *why, size_t len) {
    if (n->rule != OC_RULE_PACKETS || in->bytes < 1 || in->bytes > UINT32_MAX / 2) return 0;
    oc__formula_in one;
    int rc = in->figures(in, OC_ALLREDUCE, (uint32_t)in->bytes, &one, why, len);
    if (rc) return rc;
    n->pkt = one.step_time - one.step_fixed;
    n->npk = n->pkt > 0 ? (uint64_t)llround(n->c / n->pkt) : 0;
    return 0;
}

/* Offers the parameter set of digits r[0..k-1] (folded: fold=1 with that radix). */
static int offer(rsearch *c, const uint32_t *r, uint32_t k, uint32_t folded, const oc__bound *b) {
    /* b NULL: hand the set to the search as a hint (mapped now, offered later in its place) */
    char text[512], radix[16];
    int uniform = 1;
    for (uint32_t i = 1; i < k; i++)
        uniform &= r[i] == r[0];
    snprintf(radix, sizeof radix, "%u", folded ? folded : r[0]);
    oc__rhd_radices_text(r, k, text, sizeof text);
    const char *kv[6] = {uniform ? "radix" : "radices", uniform ? radix : text};
    size_t pairs = 1;
    if (folded || c->fold) {
        kv[2] = "fold";
        kv[3] = folded ? "1" : c->fold;
        pairs++;
    }
    return b ? oc__search_offer(c->s, b, pairs, kv) : oc__search_hint(c->s, pairs, kv);
}

/* Every ordered factorisation of the factor M = N / W still to split, digits above place
 * value W (the prefix's bound so far in `pre`). */
static int factorise(rsearch *c, uint64_t W, const tally *pre) {
    const uint32_t M = (uint32_t)(c->N / W);
    if (M == 1) {
        if (c->seed_offered && c->nseed == c->k && !memcmp(c->seed, c->r, c->k * sizeof *c->r))
            return 0;
        oc__bound b = to_bound(pre, c->exact && !pre->proven ? exact_name : bound_name(&c->net));
        b.transfers = candidate_transfers(c->kind, c->N, c->N, c->r, c->k);
        return offer(c, c->r, c->k, 0, &b);
    }
    for (size_t i = 1; i < c->ndiv && c->div[i] <= M; i++) {
        const uint32_t r = c->div[i];
        if (M % r) continue;
        char family[1200], tail[512];
        c->r[c->k] = r;
        oc__rhd_radices_text(c->r, c->k + 1, tail, sizeof tail);
        if (fabric_refuses(&c->net, r)) {
            /* refused by the model: a tile has fewer lanes than the level has circuits */
            char reason[160];
            refusal_text(&c->net, r, reason, sizeof reason);
            snprintf(family, sizeof family,
                     "radices ending x%s: a level of radix %u %s (the fabric refuses it)", tail, r,
                     reason);
            const oc__bound never = {.time_s = DBL_MAX, .steps = UINT64_MAX, .name = "refused"};
            int rc = oc__search_prune(c->s, family, &never, ways(c, M / r));
            if (rc) return rc;
            continue;
        }
        tally t = *pre;
        level_value(c, W, r, &t);
        if (M / r > 1) {
            tally fam = t;
            completion_value(c, W * r, M / r, &fam);
            const oc__bound fb = to_bound(&fam, bound_name(&c->net));
            int yes = oc__search_can_win(c->s, &fb);
            if (yes < 0) return yes;
            if (!yes) {
                snprintf(family, sizeof family,
                         "radices ending x%s (the factor %u above it in any "
                         "order)",
                         tail, M / r);
                int rc = oc__search_prune(c->s, family, &fb, ways(c, M / r));
                if (rc) return rc;
                continue;
            }
        }
        c->k++;
        int rc = factorise(c, W * r, &t);
        c->k--;
        if (rc) return rc;
    }
    return 0;
}

/* 1 when bound a is below b: less time (beyond the search's 1e-9), or as much and fewer steps. */
static int below(const tally *a, const tally *b) {
    const double tol = 1e-9 * fmax(a->t, b->t);
    return a->t < b->t - tol || (fabs(a->t - b->t) <= tol && a->st < b->st);
}

/* Branch and bound on the bounds alone: the first factorisation, in the order factorise() offers
 * them, whose bound is the least (on the switch and the fabric the bound is the model's cost, so
 * this is the optimum; offered first, it is mapped first and the rest is pruned against it). */
static void least(rsearch *c, uint64_t W, const tally *pre, uint64_t sends) {
    const uint32_t M = (uint32_t)(c->N / W);
    if (M == 1) {
        if (!c->nseed || below(pre, &c->seed_cost)) {
            memcpy(c->seed, c->r, c->k * sizeof *c->r);
            c->nseed = c->k;
            c->seed_cost = *pre;
        }
        return;
    }
    for (size_t i = 1; i < c->ndiv && c->div[i] <= M; i++) {
        const uint32_t r = c->div[i];
        if (M % r || (fabric_refuses(&c->net, r))) continue;
        /* exact mode: only what the search can map (its levels costed, its transfers within
         * the budget: at least the prime factors' sends above) */
        if (c->exact && (memo_at(c, W, r)->state == LEVEL_NOT_COSTED ||
                         sends + (r - 1) + c->excess[div_index(c, M / r)] > c->limit))
            continue;
        tally t = *pre;
        level_value(c, W, r, &t);
        tally fam = t;
        if (M / r > 1) completion_value(c, W * r, M / r, &fam);
        if (c->nseed && !below(&fam, &c->seed_cost)) continue;
        c->r[c->k++] = r;
        least(c, W * r, &t, sends + r - 1);
        c->k--;
    }
}

/* The optimum over the factorisations the search maps (P = N, within its transfer budget), in
 * exact mode: the least under the levels' values (least()), its levels not yet costed mapped
 * alone, again, until the least is made of costed levels only. In c->seed (nseed 0: none). */
static int exact_levels(rsearch *c) {
    const tally none = {0};
    for (;;) {
        compute_rest(c);
        c->nseed = 0;
        least(c, 1, &none, 0);
        if (!c->nseed) return 0;
        int fresh = 0;
        uint64_t W = 1;
        for (uint32_t p = 0; p < c->nseed; p++) {
            level_memo *m = memo_at(c, W, c->seed[p]);
            /* a group-local level on the ring is left at its bound, the busiest link's exact
             * load: no arc passes its groups' boundaries, where the model's colouring meets the
             * load (ring.c), so mapping it would only confirm it; were it ever above, the hint
             * (mapped whole) and the candidates' bounds below its cost still decide */
            if (m->state == LEVEL_UNKNOWN && !group_local(&c->net, c->seed[p], W)) {
                int rc = cost_level(c, W, c->seed[p], m);
                if (rc) return rc;
                if (!c->exact) return 0;
                fresh = 1;
            }
            W *= c->seed[p];
        }
        if (!fresh) return 0;
    }
}

/* The least any folded candidate of radix >= r costs (non-decreasing in r). */
static void fold_family_cost(const cost_net *n, oc__rhd_kind kind, uint32_t r, tally *b) {
    const uint32_t dirs = kind == OC__RHD_BOTH ? 2 : 1;
    if (n->rule == OC_RULE_LINKS) {
        const double s = fmax(1, ceil((r - 1) / (2.0 * (double)n->ch)));
        b->st += dirs * (uint64_t)s + 2;
        b->t += (dirs * s + 2) * n->a; /* a step never costs less than one without payload */
        return;
    }
    for (uint32_t i = 0; i < dirs; i++)
        round_cost(n, r - 1, 0, 0, level_crosses(n, r, 1), b);
    /* fold rounds: extra P onto core node 0, P >= r */
    round_cost(n, 1, 0, 0, n->leaf && r >= n->leaf, b);
    round_cost(n, 1, 0, 0, n->leaf && r >= n->leaf, b);
    reconfigs(n, dirs + 2 - (kind == OC__RHD_BOTH ? 1 : 0), b);
}

/* The folded candidate of radix r (fold=1, 2 <= r <= N): its core P = r^k <= N and digits; 0
 * when N is a power of r (then it is a factorisation, not a fold). */
static int fold_shape(uint32_t N, uint32_t r, uint32_t *P, uint32_t *digits, uint32_t *k) {
    *P = 1;
    *k = 0;
    while ((uint64_t)*P * r <= N) {
        *P *= r;
        digits[(*k)++] = r;
    }
    return *P != N;
}

static const char *const floor_name =
    "the same rounds' proven steps, each at the least a step costs (no payload): its chunk "
    "size's terms were not needed";

/* The floor of the folded candidate of radix r: candidate_cost on the network with no payload
 * time (every chunk costs nothing, a ring step its fixed part, a fat-tree transfer one packet).
 * Every term of round_cost and reconfigs is non-decreasing in the payload's terms (c, the ring's
 * step, the fat-tree's packets per chunk), and the steps do not read them at all, so this is at
 * most candidate_cost with the candidate's own terms, a proven bound, and it needs no model made
 * for the candidate's chunk size (in->figures, which creates the network twice: O(N) each, and
 * O(N^2) over the N folds of N = 131072 nodes). */
static void fold_floor(const rsearch *c, uint32_t r, tally *t) {
    uint32_t P, k, digits[OC__RHD_MAX_LEVELS];
    *t = (tally){0};
    if (!fold_shape(c->N, r, &P, digits, &k)) {
        t->t = DBL_MAX;
        t->st = UINT64_MAX;
        return;
    }
    cost_net z = c->net;
    z.c = 0;
    z.step = z.a;
    z.npk = 0;
    candidate_cost(&z, c->kind, digits, k, P, NULL, t);
}

/* tail[r - 2] for r = 2 .. N: the least time and, apart, the fewest steps of fold_floor over the
 * radices r .. N, a proven bound on every folded candidate of radix r or more (each member's
 * floor is at most its cost). fold_family_cost's bound grows only as (r - 1) / 2Fw steps of a
 * step's fixed part, far under a ring's folds of large radix (the all-to-all of P = r core
 * nodes loads a link with about P^2 / 4 chunks), so without it the loop ran on to r = N. */
static int fold_tail(rsearch *c, tally **out) {
    const uint32_t N = c->N;
    tally *tail = oc__calloc((size_t)N - 1, sizeof *tail);
    if (!tail) return OC_ENOMEM;
    tally least = {.t = DBL_MAX, .st = UINT64_MAX};
    for (uint32_t r = N; r >= 2; r--) {
        tally t;
        fold_floor(c, r, &t);
        least.t = fmin(least.t, t.t);
        if (t.st < least.st) least.st = t.st;
        tail[r - 2] = least;
    }
    *out = tail;
    return 0;
}

/* fold=1 with radix r = 2, 3, ... (N not a power of r), while the family can still win; the
 * last, r = N + 1, folds every node onto node 0 (every r > N is that schedule). A candidate
 * whose floor (fold_floor) cannot win is offered at its floor, unmapped, without its network's
 * terms; one whose bound cannot win is offered without its fold rounds mapped alone (a larger
 * bound could not win either): either way the search decides as with the full bound. */
static int folds(rsearch *c) {
    const oc__search_in *in = c->in;
    tally *tail = NULL;
    int rc = c->N >= 2 ? fold_tail(c, &tail) : 0;
    if (rc) return rc;
    for (uint32_t r = 2; r <= c->N + 1; r++) {
        uint32_t P, k, digits[OC__RHD_MAX_LEVELS];
        if (r <= c->N && !fold_shape(c->N, r, &P, digits, &k)) continue;
        if (r > c->N) fold_shape(c->N, r, &P, digits, &k);
        /* radices r..N: at least one level of r-1 circuits; radix N + 1: N - 1 into node 0 */
        const int refused = fabric_refuses(&c->net, r <= c->N ? r : c->N);
        const oc__bound never = {.time_s = DBL_MAX, .steps = UINT64_MAX, .name = "refused"};
        char family[400], reason[160];
        refusal_text(&c->net, r <= c->N ? r : c->N, reason, sizeof reason);
        if (r <= c->N) {
            tally fam = {0};
            fold_family_cost(&c->net, c->kind, r, &fam);
            fam.t = fmax(fam.t, tail[r - 2].t);
            if (tail[r - 2].st > fam.st) fam.st = tail[r - 2].st;
            const oc__bound fb = to_bound(&fam, bound_name(&c->net));
            int yes = refused ? 0 : oc__search_can_win(c->s, &fb);
            if (yes < 0) {
                rc = yes;
                goto out;
            }
            if (!yes) {
                snprintf(family, sizeof family, "fold=1 with radix %u to %u%s%s%s", r, c->N,
                         refused ? ": a level " : "", refused ? reason : "",
                         refused ? " (the fabric refuses it)" : "");
                if ((rc = oc__search_prune(c->s, family, refused ? &never : &fb, c->N + 1 - r)))
                    goto out;
                r = c->N; /* on to radix N + 1 */
                continue;
            }
            tally floor;
            fold_floor(c, r, &floor);
            oc__bound b = to_bound(&floor, floor_name);
            if ((yes = oc__search_can_win(c->s, &b)) < 0) {
                rc = yes;
                goto out;
            }
            if (!yes) {
                b.transfers = candidate_transfers(c->kind, c->N, P, digits, k);
                if ((rc = offer(c, digits, k, r, &b))) goto out;
                continue;
            }
        } else if (refused) {
            snprintf(family, sizeof family,
                     "fold=1 with radix %u (all onto node 0): its fold round %s (the fabric "
                     "refuses it)", r, reason);
            rc = oc__search_prune(c->s, family, &never, 1);
            goto out;
        }
        cost_net net = c->net;
        if (c->kind == OC__RHD_BOTH) { /* the vector in P chunks: the network's terms for them */
            oc__formula_in f;
            if ((rc = in->figures(in, in->coll, P, &f, c->why, c->len))) goto out;
            net = net_of(&f, c->N);
            net.pkt = c->net.pkt;
            net.npk = net.pkt > 0 ? (uint64_t)llround(net.c / net.pkt) : 0;
        }
        tally t = {0};
        candidate_cost(&net, c->kind, digits, k, P, NULL, &t);
        oc__bound b = to_bound(&t, bound_name(&net));
        int yes = 0;
        if (c->exact && c->nseed && below(&t, &c->seed_cost) &&
            (yes = oc__search_can_win(c->s, &b)) < 0) {
            rc = yes;
            goto out;
        }
        if (yes) {
            /* it could beat the factorisations' optimum and the best mapped: its fold rounds'
             * costs first */
            tally fx;
            if ((rc = cost_folds(c, r, &fx))) goto out;
            if (fx.exact) {
                t = (tally){0};
                candidate_cost(&net, c->kind, digits, k, P, &fx, &t);
                b = to_bound(&t, bound_name(&net));
            }
        }
        b.transfers = candidate_transfers(c->kind, c->N, P, digits, k);
        if ((rc = offer(c, digits, k, r, &b))) goto out;
    }
out:
    free(tail);
    return rc;
}

int oc__rhd_search(const oc__search_in *in, oc__search *s, oc__rhd_kind kind, char *why,
                   size_t len) {
    const oc_kv *pins = in->params;
    if (in->nodes < 2 || oc_kv_get(pins, "radix") || oc_kv_get(pins, "radices")) return 0;
    const char *fold = oc_kv_get(pins, "fold");
    uint64_t fv = 0;
    if (fold && oc_parse_u64(fold, 0, 1, &fv)) return 0; /* plan() says what is wrong */
    rsearch c = {
        .in = in, .s = s, .kind = kind, .N = in->nodes, .fold = fold, .why = why, .len = len};
    oc__formula_in f;
    int rc = in->figures(in, in->coll, kind == OC__RHD_BOTH ? in->nodes : 1, &f, why, len);
    if (rc) return rc;
    c.net = net_of(&f, in->nodes);
    if ((rc = fattree_packets(in, &c.net, why, len)) || (rc = divisors(&c))) goto out;
    const tally none = {0};
    if ((!fold || fv == 0) && (c.net.rule == OC_RULE_PORTS || c.net.rule == OC_RULE_CIRCUITS)) {
        least(&c, 1, &none, 0); /* exact bounds: the optimum, offered first */
        if (c.nseed) {
            oc__bound b = to_bound(&c.seed_cost, bound_name(&c.net));
            b.transfers = candidate_transfers(kind, c.N, c.N, c.seed, c.nseed);
            c.seed_offered = 1;
            rc = offer(&c, c.seed, c.nseed, 0, &b);
        }
    } else if (!fold || fv == 0) {
        /* bounds below the cost (ring, fat-tree): the exact levels' optimum where the model
         * costs rounds alone, else the least bound's factorisation, is mapped first as a hint,
         * so that the factorisations strictly worse than it are skipped from the start; it is
         * offered in its own place, so ties still go to the earlier offer */
        rc = exact_setup(&c);
        if (!rc && c.exact) rc = exact_levels(&c);
        if (!rc && !c.exact) {
            c.nseed = 0;
            least(&c, 1, &none, 0);
        }
        if (!rc && c.nseed) rc = offer(&c, c.seed, c.nseed, 0, NULL);
    }
    if (!rc && (!fold || fv == 0)) rc = factorise(&c, 1, &none);
    if (!rc && (!fold || fv == 1)) rc = folds(&c);
out:
    if (c.lvplan.state) oc__rhd_release(&c.lvplan);
    oc__plan_free(NULL, &c.lvplan);
    free(c.memo);
    free(c.rest);
    free(c.div);
    free(c.ways);
    free(c.excess);
    if (rc == OC_ENOMEM) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return rc;
}
