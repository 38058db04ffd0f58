/*
 * star_fixed.c — store-and-forward schedules on one fixed digraph of the passive optical star
 * (issue 26, item 2: counterparts where the star's bound shows a gap; net/star.c's model,
 * passive-optical-star section 1). Shared by gather_ktree.c, broadcast_ktree.c, gossip_kautz.c
 * and alltoall_kautz.c.
 *
 * Why. On the star a step costs D when any filter is retuned in it, plus its largest stream
 * (net/star.c). The seed's TCP algorithms meet new partners every step, so they pay D a step:
 * at P = 100, k = 3, D = 100 and one message a block, TCP2's gossip is 4 D + 33 against a bound
 * of D + 33 (src/bounds/bounds_star.c), 3.3 times. A schedule whose processors keep the same
 * partners from the first step on tunes its filters once: the processors form a fixed digraph
 * of in- and out-degree at most k, data moves along its arcs a hop a round (store and forward),
 * and every step after the first costs only its largest stream.
 *
 * Keeping the filters. The model puts a processor's streams of a step on its lasers in the order
 * of their receivers (laser j of processor u is wavelength u k + j; the j-th receiver of the
 * step, by number, gets laser j), and a receiver keeps a filter on a wavelength until it needs it
 * for another. So a receiver stays tuned exactly when each of its senders sends, every step, to
 * the same set of receivers: a processor that skipped one of its out-arcs in a step would move
 * its later receivers to other lasers, and they would retune. The schedules here keep that set
 * fixed: in the trees (gather, broadcast) a processor sends to its one parent, or to all its
 * children, or to nobody; on the digraphs (gossip, all-to-all) every arc carries something every
 * round, and an arc with nothing due in a round carries a block its receiver may already hold
 * (the sender's own block, or its own packet for the receiver: a copy, which the verifier
 * accepts beside any other copy): at most one block more on an arc that was idle.
 *
 * The digraphs (kautz algorithms). Imase and Itoh's generalised Kautz digraph II(d, P): u -> (-d
 * u - j) mod P, j = 1..d; Reddy, Pradhan and Kuhl's generalised de Bruijn digraph: u -> (d u + j)
 * mod P, j = 0..d-1. Both exist for every P and d, have in- and out-degree d (loops and repeated
 * arcs dropped here, so at most d), and diameter at most ceil(log_d P); at P = d^s + d^(s-1)
 * Imase-Itoh's is the Kautz digraph K(d, s) of diameter s (K(3, 4): 108 nodes). Degree 1 is the
 * directed ring (II(1, P) is a matching, not connected). The Moore bound for in-degree d is 1 + d
 * + ... + d^S nodes within S hops, so no digraph of degree d has a diameter below that S.
 *
 * Routes. Gossip: every block goes from its source along a shortest path to every processor, one
 * arc a round; processor v at distance t from s gets s's block in round t from one of its
 * in-neighbours at distance t - 1 (which holds it since round t - 1), the one whose arc carries
 * least so far in round t (sources taken in order): a greedy balance of each round's arcs, which
 * is what a round costs (its largest stream). All-to-all: packet s -> v takes the path of s's
 * balanced BFS tree to v, hop h in round h, so an arc of depth t carries its head's subtree in
 * round t; the greedy weighs an arc by the packets earlier sources put on it. A round's transfers
 * are grouped by arc, runs of consecutive labels merged into one transfer.
 *
 * The trees (ktree algorithms). The complete d-ary tree on P processors (heap order: children of
 * position x are d x + 1 .. d x + d), its height S the least with 1 + d + ... + d^S >= P; the
 * last level is dealt round-robin over the root's d subtrees (and within one, over its deepest
 * full level), so every subtree of the root holds the same number of processors at each depth,
 * to one. Position x is processor (root + x) mod P.
 *
 * Memory: the kautz routes keep one label an entry (P (P - 1) for gossip, the distance sum for
 * the all-to-all) and three words a (round, arc) bucket, checked against the memory budget before
 * they are made; P is capped at 1024 (OC_SF_MAX_NODES).
 */
#include "algo/star_fixed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* A digraph of the family, with its diameter and distance sum (a BFS from every processor). */
typedef struct sf_graph {
    uint32_t P, d;         /* processors; at most d arcs out of and into each */
    uint32_t *out;         /* P x d out-neighbours, UINT32_MAX past the last */
    uint32_t *in;          /* P x d in-neighbours, UINT32_MAX past the last */
    uint32_t *in_arc;      /* P x d: the arc (u d + i) of each in-neighbour */
    uint32_t diameter;     /* UINT32_MAX when not strongly connected */
    uint64_t distance_sum; /* the sum of dist(s, v) over ordered pairs */
} sf_graph;

/* The routes of a store-and-forward schedule: entries (round, arc, label), grouped by round and,
 * within a round, by arc in the order they were placed. */
typedef struct sf_routes {
    uint32_t rounds;
    uint64_t arcs;   /* P x d arc slots: arc u d + i is u -> out[u d + i] */
    uint64_t *start; /* rounds x arcs + 1 bucket starts into label[] */
    uint32_t *label; /* the labels (a block, or an all-to-all packet) */
    uint64_t entries;
    uint64_t max_round; /* the most entries of one round */
    uint64_t runs;      /* the transfers: runs of consecutive labels in a bucket (sf_routes_emit) */
} sf_routes;

static uint32_t arc_head(uint32_t P, uint32_t d, int family, uint32_t u, uint32_t j) {
    if (d == 1) return (u + 1) % P;
    if (family == OC_SF_KAUTZ) {
        const uint64_t x = ((uint64_t)d * u + j + 1) % P;
        return (uint32_t)((P - x) % P);
    }
    return (uint32_t)(((uint64_t)d * u + j) % P);
}

static void sf_graph_free(sf_graph *g) {
    if (!g) return;
    free(g->out);
    free(g->in);
    free(g->in_arc);
    memset(g, 0, sizeof *g);
}

/* A BFS from s into dist (NONE: unreached), queue of P words; returns the farthest distance and
 * adds the distances to *sum; NONE when some processor is unreached. */
static uint32_t bfs(const sf_graph *g, uint32_t s, uint32_t *dist, uint32_t *queue, uint64_t *sum) {
    const uint32_t P = g->P, d = g->d;
    for (uint32_t v = 0; v < P; v++)
        dist[v] = NONE;
    dist[s] = 0;
    queue[0] = s;
    uint32_t head = 0, tail = 1, far = 0;
    while (head < tail) {
        const uint32_t u = queue[head++];
        for (uint32_t i = 0; i < d; i++) {
            const uint32_t v = g->out[(size_t)u * d + i];
            if (v == NONE) break;
            if (dist[v] != NONE) continue;
            dist[v] = dist[u] + 1;
            far = dist[v];
            *sum += dist[v];
            queue[tail++] = v;
        }
    }
    return tail == P ? far : NONE;
}

static int sf_graph_build(sf_graph *g, uint32_t P, uint32_t d, int family, char *why, size_t len) {
    memset(g, 0, sizeof *g);
    if (P == 0 || d == 0 || P > OC_SF_MAX_NODES || d > 64)
        return oc__fail(why, len, OC_EINVAL, "a fixed digraph of %u processors and degree %u", P,
                        d);
    int rc =
        oc__budget_check((uint64_t)P * d * 12 + (uint64_t)P * 8, "the fixed digraph", why, len);
    if (rc) return rc;
    g->P = P;
    g->d = d;
    const size_t A = (size_t)P * d;
    g->out = malloc(A * sizeof *g->out);
    g->in = malloc(A * sizeof *g->in);
    g->in_arc = malloc(A * sizeof *g->in_arc);
    uint32_t *dist = malloc((size_t)P * sizeof *dist), *queue = malloc((size_t)P * sizeof *queue);
    uint32_t *indeg = calloc(P, sizeof *indeg);
    if (!g->out || !g->in || !g->in_arc || !dist || !queue || !indeg) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < A; i++)
        g->out[i] = g->in[i] = g->in_arc[i] = NONE;
    for (uint32_t u = 0; u < P; u++) {
        uint32_t n = 0;
        for (uint32_t j = 0; j < d; j++) {
            const uint32_t v = arc_head(P, d, family, u, j);
            int seen = v == u;
            for (uint32_t i = 0; i < n && !seen; i++)
                seen = g->out[(size_t)u * d + i] == v;
            if (seen) continue;
            if (indeg[v] >= d) {
                rc = oc__fail(why, len, OC_EINVAL,
                              "the digraph of degree %u on %u processors has in-degree above %u "
                              "at %u",
                              d, P, d, v);
                goto out;
            }
            g->out[(size_t)u * d + n] = v;
            g->in[(size_t)v * d + indeg[v]] = u;
            g->in_arc[(size_t)v * d + indeg[v]] = (uint32_t)((size_t)u * d + n);
            indeg[v]++;
            n++;
        }
    }
    g->diameter = 0;
    for (uint32_t s = 0; s < P; s++) {
        const uint32_t far = bfs(g, s, dist, queue, &g->distance_sum);
        if (far == NONE) {
            g->diameter = NONE;
            break;
        }
        if (far > g->diameter) g->diameter = far;
    }
out:
    free(dist);
    free(queue);
    free(indeg);
    if (rc) sf_graph_free(g);
    return rc;
}

static void sf_routes_free(sf_routes *r) {
    if (!r) return;
    free(r->start);
    free(r->label);
    memset(r, 0, sizeof *r);
}

/* The routes' work arrays: per source the distances, a queue, the chosen in-arc of every
 * processor (its index in the receiver's in-list) and, for the all-to-all, subtree sizes. */
typedef struct route_work {
    uint32_t *dist, *queue, *pick, *size;
    uint64_t *fill;
} route_work;

static void work_free(route_work *w) {
    free(w->dist);
    free(w->queue);
    free(w->pick);
    free(w->size);
    free(w->fill);
}

/* Chooses, for source s, every other processor's in-arc (w->pick[v], an index into g->in): an
 * in-neighbour one hop nearer to s, the one whose arc of round dist[v] carries least in load[]
 * (rounds x arcs counts, round t at index (t - 1) A). Leaves dist and the BFS order in w. */
static void choose(const sf_graph *g, uint32_t s, const uint32_t *load, route_work *w) {
    const uint32_t P = g->P, d = g->d;
    const uint64_t A = (uint64_t)P * d;
    uint64_t ignored = 0;
    bfs(g, s, w->dist, w->queue, &ignored);
    for (uint32_t q = 1; q < P; q++) {
        const uint32_t v = w->queue[q], t = w->dist[v];
        uint32_t best = NONE, most = NONE;
        for (uint32_t i = 0; i < d; i++) {
            const uint32_t u = g->in[(size_t)v * d + i];
            if (u == NONE) break;
            if (w->dist[u] + 1 != t) continue;
            const uint32_t l = load[(uint64_t)(t - 1) * A + g->in_arc[(size_t)v * d + i]];
            if (best == NONE || l < most) best = i, most = l;
        }
        w->pick[v] = best;
    }
}

/* The shared part: allocates the buckets for g->diameter rounds, calls route(...) twice (count,
 * then place; the same choices both times, made again from the same loads), pads idle arcs. */
typedef int (*route_fn)(const sf_graph *g, uint32_t s, uint32_t *load, route_work *w, sf_routes *r,
                        int place);

static int routes_build(const sf_graph *g, sf_routes *r, int alltoall, route_fn route, char *why,
                        size_t len) {
    memset(r, 0, sizeof *r);
    const uint32_t P = g->P, d = g->d, R = g->diameter;
    if (R == NONE)
        return oc__fail(why, len, OC_EINVAL,
                        "the digraph of degree %u on %u processors is not "
                        "strongly connected",
                        d, P);
    const uint64_t A = (uint64_t)P * d, B = (uint64_t)R * A;
    const uint64_t entries = (alltoall ? g->distance_sum : (uint64_t)P * (P - 1)) + B;
    int rc = oc__budget_check(B * 20 + entries * 4 + (uint64_t)P * 20, "the fixed digraph's routes",
                              why, len);
    if (rc) return rc;
    route_work w = {0};
    uint32_t *load = calloc(B + 1, sizeof *load), *snap = NULL;
    r->rounds = R;
    r->arcs = A;
    r->start = calloc(B + 1, sizeof *r->start);
    w.dist = malloc((size_t)P * sizeof *w.dist);
    w.queue = malloc((size_t)P * sizeof *w.queue);
    w.pick = malloc((size_t)P * sizeof *w.pick);
    w.size = malloc((size_t)P * sizeof *w.size);
    w.fill = malloc((B + 1) * sizeof *w.fill);
    if (!load || !r->start || !w.dist || !w.queue || !w.pick || !w.size || !w.fill) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* pass 1: choices and counts */
    for (uint32_t s = 0; s < P && !rc; s++)
        rc = route(g, s, load, &w, r, 0);
    if (rc) goto out;
    /* idle arcs of every round carry one label (the first round has none: every arc u -> v
     * carries u's block, or its packet for v, there) */
    snap = malloc((B + 1) * sizeof *snap);
    if (!snap) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    memcpy(snap, load, (B + 1) * sizeof *snap);
    for (uint64_t b = 0; b < B; b++)
        if (!load[b] && g->out[b % A] != NONE) snap[b] = 1;
    uint64_t at = 0;
    for (uint64_t b = 0; b < B; b++) {
        r->start[b] = at;
        w.fill[b] = at;
        at += snap[b];
    }
    r->start[B] = at;
    r->entries = at;
    for (uint32_t t = 0; t < R; t++) {
        const uint64_t n = r->start[(uint64_t)(t + 1) * A] - r->start[(uint64_t)t * A];
        if (n > r->max_round) r->max_round = n;
    }
    r->label = malloc((at + 1) * sizeof *r->label);
    if (!r->label) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    /* pass 2: the same choices (the loads replayed from zero), placed */
    memset(load, 0, (B + 1) * sizeof *load);
    for (uint32_t s = 0; s < P && !rc; s++)
        rc = route(g, s, load, &w, r, 1);
    if (rc) goto out;
    for (uint64_t b = 0; b < B; b++)
        if (w.fill[b] < r->start[b + 1]) {
            const uint32_t u = (uint32_t)((b % A) / d), v = g->out[b % A];
            r->label[w.fill[b]++] = alltoall ? v * P + u : u;
        }
    /* the transfers sf_routes_emit will make, counted here where the labels are: a bucket's run
     * of consecutive labels is one */
    for (uint64_t b = 0; b < B; b++)
        for (uint64_t i = r->start[b]; i < r->start[b + 1]; i++)
            r->runs += i == r->start[b] || r->label[i] != r->label[i - 1] + 1;
out:
    free(load);
    free(snap);
    work_free(&w);
    if (rc) sf_routes_free(r);
    return rc;
}

static int route_gossip(const sf_graph *g, uint32_t s, uint32_t *load, route_work *w, sf_routes *r,
                        int place) {
    const uint32_t P = g->P, d = g->d;
    const uint64_t A = r->arcs;
    choose(g, s, load, w);
    for (uint32_t q = 1; q < P; q++) {
        const uint32_t v = w->queue[q];
        const uint64_t b = (uint64_t)(w->dist[v] - 1) * A + g->in_arc[(size_t)v * d + w->pick[v]];
        load[b]++;
        if (place) r->label[w->fill[b]++] = s;
    }
    return 0;
}

static int route_alltoall(const sf_graph *g, uint32_t s, uint32_t *load, route_work *w,
                          sf_routes *r, int place) {
    const uint32_t P = g->P, d = g->d;
    const uint64_t A = r->arcs;
    choose(g, s, load, w);
    /* subtree sizes, deepest first: the packets each tree arc carries */
    for (uint32_t v = 0; v < P; v++)
        w->size[v] = 1;
    for (uint32_t q = P - 1; q >= 1; q--) {
        const uint32_t v = w->queue[q];
        w->size[g->in[(size_t)v * d + w->pick[v]]] += w->size[v];
    }
    for (uint32_t q = 1; q < P; q++) {
        const uint32_t v = w->queue[q];
        load[(uint64_t)(w->dist[v] - 1) * A + g->in_arc[(size_t)v * d + w->pick[v]]] += w->size[v];
    }
    if (!place) return 0;
    /* every packet s -> v placed on each arc of its path, hop h in round h */
    for (uint32_t q = 1; q < P; q++) {
        const uint32_t v = w->queue[q];
        for (uint32_t x = v; x != s;) {
            const uint32_t i = w->pick[x];
            const uint64_t b = (uint64_t)(w->dist[x] - 1) * A + g->in_arc[(size_t)x * d + i];
            r->label[w->fill[b]++] = v * P + s;
            x = g->in[(size_t)x * d + i];
        }
    }
    return 0;
}

static int sf_routes_gossip(const sf_graph *g, sf_routes *r, char *why, size_t len) {
    return routes_build(g, r, 0, route_gossip, why, len);
}

static int sf_routes_alltoall(const sf_graph *g, sf_routes *r, char *why, size_t len) {
    return routes_build(g, r, 1, route_alltoall, why, len);
}

static int sf_routes_emit(const sf_graph *g, const sf_routes *r, uint32_t q, oc__emit *e) {
    const uint64_t A = r->arcs;
    for (uint32_t t = 0; t < r->rounds; t++) {
        for (uint64_t a = 0; a < A; a++) {
            const uint64_t b = (uint64_t)t * A + a;
            const uint32_t u = (uint32_t)(a / g->d), v = g->out[a];
            for (uint64_t i = r->start[b]; i < r->start[b + 1];) {
                uint64_t j = i + 1;
                while (j < r->start[b + 1] && r->label[j] == r->label[j - 1] + 1)
                    j++;
                int rc =
                    oc__emit_transfer(e, u, v, OC_OP_COPY, r->label[i] * q, (uint32_t)(j - i) * q);
                if (rc) return rc;
                i = j;
            }
        }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

uint32_t oc__sf_tree_height(uint64_t P, uint64_t d) {
    if (P <= 1) return 0;
    if (d <= 1) return (uint32_t)(P - 1);
    uint64_t S = 0, reach = 1, layer = 1;
    while (reach < P) {
        layer *= d;
        reach += layer;
        S++;
    }
    return (uint32_t)S;
}

int oc__sf_tree(uint32_t P, uint32_t d, uint32_t **parent, uint32_t **depth, uint32_t *height,
                char *why, size_t len) {
    *parent = *depth = NULL;
    *height = 0;
    if (P == 0 || d == 0)
        return oc__fail(why, len, OC_EINVAL, "a tree of %u nodes, degree %u", P, d);
    int rc = oc__budget_check((uint64_t)P * 8, "the tree", why, len);
    if (rc) return rc;
    uint32_t *par = malloc((size_t)P * sizeof *par), *dep = malloc((size_t)P * sizeof *dep);
    if (!par || !dep) {
        free(par);
        free(dep);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    const uint32_t S = oc__sf_tree_height(P, d);
    par[0] = 0;
    dep[0] = 0;
    /* full levels 1 .. S - 1 in heap order; first[t] is level t's first position */
    uint64_t first = 1, width = 1; /* level t's start and d^(t-1) */
    uint64_t prev_first = 0;       /* level S - 1's start */
    for (uint32_t t = 1; t < S; t++) {
        const uint64_t n = width * d;
        for (uint64_t x = first; x < first + n; x++) {
            par[x] = (uint32_t)((x - 1) / d);
            dep[x] = t;
        }
        prev_first = first;
        first += n;
        width = n;
    }
    /* level S: slot j to the root's subtree j mod d, spread over its deepest full level */
    const uint64_t per = S >= 2 ? width / d : 1; /* d^(S-2): a root subtree's nodes at S - 1 */
    for (uint64_t x = first, j = 0; x < P; x++, j++) {
        if (S == 1) {
            par[x] = 0;
        } else if (d == 1) {
            par[x] = (uint32_t)(x - 1);
        } else {
            const uint64_t c = j % d, i = j / d;
            par[x] = (uint32_t)(prev_first + c * per + i % per);
        }
        dep[x] = S;
    }
    *parent = par;
    *depth = dep;
    *height = S;
    return 0;
}

int oc__sf_degrees(const oc__search_in *in, const char *algo, uint32_t *dmax, char *why,
                   size_t len) {
    const oc__star_cfg *star = oc__netcfg_star(&in->net->cfg);
    if (!star) return oc__fail(why, len, OC_ENOTSUP, "%s: runs on the star only", algo);
    uint64_t k = star->k < 64 ? star->k : 64;
    if (in->nodes > 1 && k > in->nodes - 1) k = in->nodes - 1;
    *dmax = (uint32_t)(k ? k : 1);
    return 0;
}

/* ---- the kautz algorithms' plan, generator and search (gossip_kautz.c, alltoall_kautz.c) ---- */

typedef struct kautz_state {
    sf_graph g;
    sf_routes r;
} kautz_state;

static const char *const kautz_params[] = {"degree", "family", NULL};

static const char *family_name(int family) {
    return family == OC_SF_KAUTZ ? "kautz" : "debruijn";
}

/* family=kautz|debruijn (default kautz) into *family; OC_EINVAL naming the choices. */
static int read_family(const oc_kv *params, int *family, char *why, size_t len) {
    const char *f = oc_kv_get(params, "family");
    if (!f || !strcmp(f, "kautz"))
        *family = OC_SF_KAUTZ;
    else if (!strcmp(f, "debruijn"))
        *family = OC_SF_DEBRUIJN;
    else
        return oc__fail(why, len, OC_EINVAL, "kautz: family=%s: expected kautz or debruijn", f);
    return 0;
}

void oc__sf_kautz_release(oc__plan *plan) {
    kautz_state *st = plan->state;
    if (st) {
        sf_routes_free(&st->r);
        sf_graph_free(&st->g);
    }
    free(st);
    plan->state = NULL;
}

int oc__sf_kautz_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan); /* release() may run after an early failure */
    uint64_t d;
    int family = OC_SF_KAUTZ;
    int rc = oc__kv_only(params, kautz_params, "kautz", why, len);
    if (rc || (rc = oc__kv_u64(params, "degree", 3, 1, 64, &d, why, len)) ||
        (rc = read_family(params, &family, why, len)))
        return rc;
    if (nodes > OC_SF_MAX_NODES)
        return oc__fail(why, len, OC_ETOOBIG,
                        "kautz: %u processors: at most %u (its routes keep a label for every "
                        "delivery)",
                        nodes, OC_SF_MAX_NODES);
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len))) return rc;
    kautz_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = st;
    if ((rc = sf_graph_build(&st->g, nodes, (uint32_t)d, family, why, len))) return rc;
    rc = coll == OC_ALLTOALL ? sf_routes_alltoall(&st->g, &st->r, why, len)
                             : sf_routes_gossip(&st->g, &st->r, why, len);
    if (rc || (rc = oc__plan_work("kautz", nodes, st->r.entries, why, len))) return rc;
    plan->rounds = st->r.rounds;
    plan->spec.max_round = st->r.max_round;
    /* the work (core.h), read off the routes the plan makes anyway: a label is a chunk (q = 1) */
    plan->spec.units = st->r.entries;
    plan->spec.transfers = st->r.runs;
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)d);
    rc = oc_kv_set(plan->used, "degree", buf);
    rc |= oc_kv_set(plan->used, "family", family_name(family));
    return rc ? oc__fail(why, len, OC_ENOMEM, "out of memory") : 0;
}

int oc__sf_kautz_generate(const oc__plan *plan, oc__emit *e) {
    const kautz_state *st = plan->state;
    return sf_routes_emit(&st->g, &st->r, plan->spec.q, e);
}

/* The least sum of distances from one processor to the P - 1 others in a digraph of out-degree
 * d: at most d^t of them at distance t (the Moore count). */
static uint64_t moore_distance_sum(uint64_t P, uint64_t d) {
    uint64_t left = P - 1, sum = 0, layer = d;
    for (uint64_t t = 1; left; t++) {
        const uint64_t n = layer < left ? layer : left;
        sum += t * n;
        left -= n;
        layer *= d; /* at most P d: no overflow below 2^32 processors */
    }
    return sum;
}

int oc__sf_kautz_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const char *pd = oc_kv_get(in->params, "degree"), *pf = oc_kv_get(in->params, "family");
    if ((pd && pf) || in->nodes < 2) return 0; /* pinned, or nothing to move */
    uint32_t dmax = 1;
    int rc = oc__sf_degrees(in, "kautz", &dmax, why, len);
    if (rc) return rc;
    uint64_t dpin = 0;
    int fpin = -1;
    if (pd && (rc = oc__kv_u64(in->params, "degree", 3, 1, 64, &dpin, why, len))) return rc;
    if (pf && (rc = read_family(in->params, &fpin, why, len))) return rc;
    oc__formula_in f;
    if ((rc = in->figures(in, in->coll, 1, &f, why, len))) return rc;
    const double chunk = f.step_time - f.step_fixed;
    const uint64_t P = in->nodes;
    char db[32];
    for (uint64_t d = dpin ? dpin : dmax; d >= 1; d--) {
        /* no digraph of degree d reaches P processors from one in fewer hops (Moore) */
        const uint64_t S = oc__sf_tree_height(P, d);
        /* a processor takes in P - 1 blocks (gossip), or at least the Moore distance sum of
         * packets on average (all-to-all: every packet crosses its distance in arcs), on at most
         * d streams a step */
        const uint64_t in_each = in->coll == OC_ALLTOALL ? moore_distance_sum(P, d) : P - 1;
        const uint64_t msgs = oc__ceil_div(in_each, d) > S ? oc__ceil_div(in_each, d) : S;
        const oc__bound b = {.time_s = f.step_fixed + (double)msgs * chunk,
                             .steps = S,
                             .name = "Moore depth rounds; a processor's receptions over d "
                                     "streams; one tuning"};
        snprintf(db, sizeof db, "%llu", (unsigned long long)d);
        for (int fam = OC_SF_KAUTZ; fam <= OC_SF_DEBRUIJN; fam++) {
            if (fpin >= 0 && fam != fpin) continue;
            if (d == 1 && fam == OC_SF_DEBRUIJN && fpin < 0) continue; /* the same ring */
            const char *kv[] = {"degree", db, "family", family_name(fam)};
            if ((rc = oc__search_offer(s, &b, 2, kv))) return rc;
        }
        if (dpin) break;
    }
    return 0;
}
