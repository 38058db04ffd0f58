/*
 * fattree_check.c — the fat-tree model's resource check, independent of the routing code in
 * fattree.c.
 *
 * On an electrical fat-tree nothing is ever refused for lack of a resource: links that several
 * transfers share just take longer to drain. What can go wrong is the bookkeeping — a route that
 * jumps between routers that are not wired together, a route that is not the shortest, a link whose
 * load misses a transfer, a transfer timed by a link it does not use. So the check takes only the
 * vertices of every route and the routing code's claims, and proves:
 *   1. every route starts at its transfer's source, ends at its destination, and every step is a
 *      cable of the tree (node n to leaf n / down and back; any leaf to any spine and back);
 *   2. every route is shortest: two links inside a leaf, four through a spine otherwise;
 *   3. the packets of every directed link, recomputed here from the routes and each transfer's own
 *      size (count x chunk_bytes, rounded up to whole packets), equal the claimed load, and so does
 *      the number of transfers sharing it; the claimed list names every loaded link exactly once;
 *   4. every transfer's bottleneck is the largest recomputed load on its route, and the round's
 *      time is the largest bottleneck time plus router delays over the transfers.
 * Its own link numbering (not the routing code's): 2n and 2n + 1 for node n's up and down links,
 * then two per (spine, leaf) pair. Loads live in arrays stamped with the round, so a round costs
 * O(transfers + loaded links), never a pass over all links.
 */
#include "net/fattree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct oc__ft_checker {
    oc__ft_topo t;
    size_t nlinks;
    uint64_t epoch;
    uint64_t *stamp;   /* per link: epoch of the last round that loaded it */
    uint64_t *load;    /* per link: recomputed packets */
    uint32_t *users;   /* per link: recomputed transfers */
    uint64_t *claimed; /* per link: epoch of the last round that claimed it */
};

int oc__ft_checker_new(const oc__ft_topo *t, oc__ft_checker **out) {
    *out = NULL;
    oc__ft_checker *c = calloc(1, sizeof *c);
    if (!c) return OC_ENOMEM;
    c->t = *t;
    c->nlinks = 2 * (size_t)t->nodes + 2 * (size_t)t->leaves * t->up;
    c->stamp = oc__calloc(c->nlinks, sizeof(uint64_t));
    c->load = oc__calloc(c->nlinks, sizeof(uint64_t));
    c->users = oc__calloc(c->nlinks, sizeof(uint32_t));
    c->claimed = oc__calloc(c->nlinks, sizeof(uint64_t));
    if (!c->stamp || !c->load || !c->users || !c->claimed) {
        oc__ft_checker_free(c);
        return OC_ENOMEM;
    }
    *out = c;
    return 0;
}

void oc__ft_checker_free(oc__ft_checker *c) {
    if (!c) return;
    free(c->stamp);
    free(c->load);
    free(c->users);
    free(c->claimed);
    free(c);
}

enum { V_NODE, V_LEAF, V_SPINE, V_NONE };

static int kind(const oc__ft_topo *t, uint32_t v, uint32_t *index) {
    if (v < t->nodes) {
        *index = v;
        return V_NODE;
    }
    v -= t->nodes;
    if (v < t->leaves) {
        *index = v;
        return V_LEAF;
    }
    v -= t->leaves;
    if (v < t->up) {
        *index = v;
        return V_SPINE;
    }
    return V_NONE;
}

static void name(const oc__ft_topo *t, uint32_t v, char *buf, size_t len) {
    uint32_t i = 0;
    static const char *const kinds[] = {"node", "leaf", "spine", "vertex"};
    int k = kind(t, v, &i);
    snprintf(buf, len, "%s %u", kinds[k], k == V_NONE ? v : i);
}

/* The checker's number for the directed cable a -> b, or SIZE_MAX when there is no such cable. */
static size_t link_id(const oc__ft_topo *t, uint32_t a, uint32_t b) {
    uint32_t ia = 0, ib = 0;
    int ka = kind(t, a, &ia), kb = kind(t, b, &ib);
    const size_t base = 2 * (size_t)t->nodes;
    if (ka == V_NODE && kb == V_LEAF && ia / t->down == ib) return 2 * (size_t)ia;
    if (ka == V_LEAF && kb == V_NODE && ib / t->down == ia) return 2 * (size_t)ib + 1;
    if (ka == V_LEAF && kb == V_SPINE) return base + 2 * ((size_t)ib * t->leaves + ia);
    if (ka == V_SPINE && kb == V_LEAF) return base + 2 * ((size_t)ia * t->leaves + ib) + 1;
    return SIZE_MAX;
}

int oc__ft_check(oc__ft_checker *c, uint64_t round, const oc__round *r, const oc__ft_assignment *a,
                 const oc__ft_cost *cost, char *why, size_t len) {
    const oc__ft_topo *t = &c->t;
    const unsigned long long R = (unsigned long long)round;
    char s1[48], s2[48];
    c->epoch++;
    size_t loaded = 0;
    /* 1-3: routes, and loads recomputed from them. */
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        const oc__ft_path *p = &a->paths[i];
        if (x->src >= t->nodes || x->dst >= t->nodes || x->src == x->dst)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: transfer %zu (%u -> %u) has no route", R, i, x->src,
                            x->dst);
        uint32_t want = x->src / t->down == x->dst / t->down ? 3 : 5;
        if (p->n != want || p->v[0] != x->src || p->v[p->n - 1] != x->dst)
            return oc__fail(
                why, len, OC_ERESOURCE,
                "round %llu: transfer %zu (%u -> %u): its route of %u vertices is not a "
                "shortest path from %u to %u (%u vertices)",
                R, i, x->src, x->dst, p->n, x->src, x->dst, want);
        if (cost->chunk_bytes && x->count > UINT64_MAX / cost->chunk_bytes)
            return oc__fail(why, len, OC_ERESOURCE, "round %llu: transfer %zu is too large", R, i);
        uint64_t pk = oc__ceil_div((uint64_t)x->count * cost->chunk_bytes, cost->packet_bytes);
        for (uint32_t k = 0; k + 1 < p->n; k++) {
            size_t id = link_id(t, p->v[k], p->v[k + 1]);
            if (id == SIZE_MAX) {
                name(t, p->v[k], s1, sizeof s1);
                name(t, p->v[k + 1], s2, sizeof s2);
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: transfer %zu (%u -> %u) goes from %s to %s, which are "
                                "not linked",
                                R, i, x->src, x->dst, s1, s2);
            }
            if (c->stamp[id] != c->epoch) {
                c->stamp[id] = c->epoch;
                c->load[id] = 0;
                c->users[id] = 0;
                loaded++;
            }
            c->load[id] += pk;
            c->users[id]++;
        }
    }
    /* 3: the claims, link by link. */
    if (a->nlinks != loaded)
        return oc__fail(why, len, OC_ERESOURCE,
                        "round %llu: the routes load %zu links, the model accounts for %zu", R,
                        loaded, a->nlinks);
    for (size_t k = 0; k < a->nlinks; k++) {
        const oc__ft_link_load *l = &a->links[k];
        size_t id = link_id(t, l->from, l->to);
        int twice = 0;
        uint64_t load = 0;
        uint32_t users = 0;
        if (id != SIZE_MAX) {
            twice = c->claimed[id] == c->epoch;
            c->claimed[id] = c->epoch;
            if (c->stamp[id] == c->epoch) {
                load = c->load[id];
                users = c->users[id];
            }
            if (!twice && load == l->packets && users == l->transfers) continue;
        }
        name(t, l->from, s1, sizeof s1); /* names only for the message */
        name(t, l->to, s2, sizeof s2);
        if (id == SIZE_MAX)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: the model loads a link %s -> %s the tree does not have", R,
                            s1, s2);
        if (twice)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: link %s -> %s is accounted for twice", R, s1, s2);
        return oc__fail(why, len, OC_ERESOURCE,
                        "round %llu: link %s -> %s carries %llu packets of %u transfers, the "
                        "model says %llu packets of %u",
                        R, s1, s2, (unsigned long long)load, users, (unsigned long long)l->packets,
                        l->transfers);
    }
    /* 4: bottlenecks and the round's time. */
    double slowest = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__ft_path *p = &a->paths[i];
        uint64_t most = 0;
        for (uint32_t k = 0; k + 1 < p->n; k++) {
            uint64_t l = c->load[link_id(t, p->v[k], p->v[k + 1])];
            if (l > most) most = l;
        }
        if (most != a->bottleneck[i])
            return oc__fail(
                why, len, OC_ERESOURCE,
                "round %llu: transfer %zu (%u -> %u): its most loaded link carries %llu "
                "packets, the model says %llu",
                R, i, r->xfers[i].src, r->xfers[i].dst, (unsigned long long)most,
                (unsigned long long)a->bottleneck[i]);
        double time = (double)most * cost->packet_s + (double)(p->n - 2) * cost->router_s;
        if (time > slowest) slowest = time;
    }
    if (fabs(slowest - a->round_time) > 1e-12 * slowest)
        return oc__fail(why, len, OC_ERESOURCE,
                        "round %llu: the slowest transfer takes %.12g s, the model says %.12g s", R,
                        slowest, a->round_time);
    return 0;
}
