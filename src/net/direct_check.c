/*
 * direct_check.c — the independent resource check of the direct networks (direct.c).
 *
 * The model groups a round's transfers into messages, routes them, places them into steps and
 * costs the steps. This check takes the round's transfers and the model's placement alone and
 * re-derives everything else its own way: routes from coordinate vectors (not from strides and
 * resource numbers), links named by their end nodes (not by an index), conflicts found by sorting
 * (resource, step) pairs (not by "next free step" counters). It proves:
 *   1. the messages carry exactly the round's transfers: per (sender, receiver), the bytes
 *      (combining: one message per pair) or the packets (non-combining), where the packet size
 *      is derived here from mu and the chunk size (min(mu, chunk)), not taken from the model;
 *   2. every message is between two different nodes, and under store-and-forward between
 *      neighbours;
 *   3. in every step no node injects or consumes two messages (1-port) and no link carries two
 *      messages (a directed link when full duplex, the link in either direction when half);
 *   4. the round's step count is the claimed one, and the sum over steps of the slowest
 *      message's time equals the claimed critical sums.
 * Cost: O(E log E) per round for E = packets x (hops + 2) entries; the arrays are reused.
 */
#include "net/direct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct use {
    uint32_t kind; /* 0 send port, 1 receive port, 2 link */
    uint32_t a, b; /* node (ports); end nodes (links) */
    uint64_t step;
} use;

typedef struct pair_amount {
    uint32_t src, dst;
    uint64_t amount;
    int from_msg;
} pair_amount;

struct oc__direct_checker {
    use *u;
    size_t ucap;
    pair_amount *p;
    size_t pcap;
    double *t;
    size_t tcap;
    uint32_t *path;
    size_t pathcap;
};

int oc__direct_checker_new(oc__direct_checker **out) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : OC_ENOMEM;
}

void oc__direct_checker_free(oc__direct_checker *c) {
    if (!c) return;
    free(c->u);
    free(c->p);
    free(c->t);
    free(c->path);
    free(c);
}

static int by_use(const void *x, const void *y) {
    const use *a = x, *b = y;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    return a->step < b->step ? -1 : a->step > b->step;
}

static int by_pair(const void *x, const void *y) {
    const pair_amount *a = x, *b = y;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
    return a->from_msg - b->from_msg;
}

/* Coordinates of node v. */
static void coords(const oc__direct_cfg *cfg, uint32_t v, uint32_t *c) {
    for (uint32_t i = 0; i < cfg->ndims; i++) {
        c[i] = v % cfg->dims[i];
        v /= cfg->dims[i];
    }
}

static uint32_t node_of(const oc__direct_cfg *cfg, const uint32_t *c) {
    uint32_t v = 0;
    for (uint32_t i = cfg->ndims; i-- > 0;)
        v = v * cfg->dims[i] + c[i];
    return v;
}

/* The dimension-order walk from a to b, node by node, into path[0..*n) (a first). Dimension i is
 * walked the shorter way on a torus side of >= 3 (the positive way on a tie), straight otherwise.
 */
static void walk(const oc__direct_cfg *cfg, uint32_t a, uint32_t b, uint32_t *path, size_t *n) {
    uint32_t ca[OC_DIRECT_MAX_DIMS], cb[OC_DIRECT_MAX_DIMS];
    coords(cfg, a, ca);
    coords(cfg, b, cb);
    *n = 0;
    path[(*n)++] = a;
    for (uint32_t i = 0; i < cfg->ndims; i++) {
        const uint32_t z = cfg->dims[i];
        int dir;
        uint32_t steps;
        if (cfg->kind == OC_DIRECT_TORUS && z >= 3) {
            uint32_t fwd = (cb[i] + z - ca[i]) % z;
            dir = 2 * fwd <= z ? 1 : -1;
            steps = dir > 0 ? fwd : z - fwd;
        } else {
            dir = cb[i] >= ca[i] ? 1 : -1;
            steps = dir > 0 ? cb[i] - ca[i] : ca[i] - cb[i];
        }
        for (uint32_t s = 0; s < steps; s++) {
            ca[i] = (uint32_t)(((int64_t)ca[i] + dir + z) % z);
            path[(*n)++] = node_of(cfg, ca);
        }
    }
}

int oc__direct_check(oc__direct_checker *c, const oc__direct_cfg *cfg, uint64_t round,
                     const oc__round *r, uint64_t chunk_bytes, const oc__direct_claim *claim,
                     char *why, size_t len) {
    const unsigned long long R = (unsigned long long)round;
    const uint32_t N = cfg->nodes;
    /* 1. the messages carry the transfers */
    /* The packet size comes from the configuration (mu) and the chunk size, never from the
     * model: a model that ignored mu would otherwise pass with whatever packets it claimed. */
    const uint64_t pkt = cfg->mu && chunk_bytes > cfg->mu ? cfg->mu : chunk_bytes;
    const uint64_t per_chunk = pkt && chunk_bytes > pkt ? (chunk_bytes + pkt - 1) / pkt : 1;
    if (oc__grow((void **)&c->p, &c->pcap, r->count + claim->nmsgs, sizeof *c->p))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    size_t np = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        c->p[np++] = (pair_amount){
            x->src, x->dst, cfg->combining ? x->count * chunk_bytes : x->count * per_chunk, 0};
    }
    for (size_t i = 0; i < claim->nmsgs; i++) {
        const oc__direct_msg *g = &claim->msgs[i];
        if (cfg->combining && g->npk != 1)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: combined message %u -> %u has %llu packets", R,
                            g->src, g->dst, (unsigned long long)g->npk);
        if (!cfg->combining && (g->npk == 0 || g->pkt_bytes != pkt))
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: message %u -> %u has %llu packets of %llu bytes; "
                            "packets are %llu bytes",
                            R, g->src, g->dst, (unsigned long long)g->npk,
                            (unsigned long long)g->pkt_bytes, (unsigned long long)pkt);
        c->p[np++] = (pair_amount){g->src, g->dst, cfg->combining ? g->pkt_bytes : g->npk, 1};
    }
    qsort(c->p, np, sizeof *c->p, by_pair);
    for (size_t i = 0; i < np;) {
        size_t j = i;
        uint64_t want = 0, got = 0, nmsg = 0;
        for (; j < np && c->p[j].src == c->p[i].src && c->p[j].dst == c->p[i].dst; j++) {
            if (c->p[j].from_msg) {
                got += c->p[j].amount;
                nmsg++;
            } else {
                want += c->p[j].amount;
            }
        }
        if (want != got || (cfg->combining && nmsg != 1))
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: %u -> %u: the transfers need %llu %s, the "
                            "messages (%llu) carry %llu",
                            R, c->p[i].src, c->p[i].dst, (unsigned long long)want,
                            cfg->combining ? "bytes" : "packets", (unsigned long long)nmsg,
                            (unsigned long long)got);
        i = j;
    }
    /* 2. and 3. routes and resources */
    uint64_t steps = 0;
    size_t ne = 0;
    size_t longest = 1;
    for (uint32_t i = 0; i < cfg->ndims; i++)
        longest += cfg->dims[i];
    if (oc__grow((void **)&c->path, &c->pathcap, longest, sizeof *c->path))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    uint32_t *path = c->path;
    for (size_t i = 0; i < claim->nmsgs; i++) {
        const oc__direct_msg *g = &claim->msgs[i];
        if (g->src >= N || g->dst >= N || g->src == g->dst)
            return oc__fail(why, len, OC_ERESOURCE, "check: round %llu: message %u -> %u", R,
                            g->src, g->dst);
        size_t n;
        walk(cfg, g->src, g->dst, path, &n);
        if (!cfg->wormhole && n != 2)
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu: store-and-forward message %u -> %u is %zu hops", R,
                            g->src, g->dst, n - 1);
        const size_t per = (n - 1) + (cfg->allport ? 0 : 2);
        if (g->npk > SIZE_MAX / (per ? per : 1) ||
            oc__grow((void **)&c->u, &c->ucap, ne + per * g->npk, sizeof *c->u))
            return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
        for (uint64_t s = g->step; s < g->step + g->npk; s++) {
            if (!cfg->allport) {
                c->u[ne++] = (use){0, g->src, 0, s};
                c->u[ne++] = (use){1, g->dst, 0, s};
            }
            for (size_t k = 0; k + 1 < n; k++) {
                uint32_t a = path[k], b = path[k + 1];
                if (!cfg->fullduplex && a > b) {
                    uint32_t t = a;
                    a = b;
                    b = t;
                }
                c->u[ne++] = (use){2, a, b, s};
            }
        }
        if (g->step + g->npk > steps) steps = g->step + g->npk;
    }
    qsort(c->u, ne, sizeof *c->u, by_use);
    static const char *const what[] = {"send port of node", "receive port of node", "link"};
    for (size_t i = 1; i < ne; i++)
        if (by_use(&c->u[i - 1], &c->u[i]) == 0) {
            const use *u = &c->u[i];
            if (u->kind == 2)
                return oc__fail(why, len, OC_ERESOURCE,
                                "check: round %llu step %llu: link %u-%u carries two messages", R,
                                (unsigned long long)u->step, u->a, u->b);
            return oc__fail(why, len, OC_ERESOURCE,
                            "check: round %llu step %llu: %s %u is used twice (1-port)", R,
                            (unsigned long long)u->step, what[u->kind], u->a);
        }
    /* 4. steps and time */
    if (steps != claim->steps)
        return oc__fail(why, len, OC_ERESOURCE,
                        "check: round %llu: the messages take %llu steps, the model counted %llu",
                        R, (unsigned long long)steps, (unsigned long long)claim->steps);
    if (oc__grow((void **)&c->t, &c->tcap, steps, sizeof *c->t))
        return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
    for (uint64_t s = 0; s < steps; s++)
        c->t[s] = 0;
    for (size_t i = 0; i < claim->nmsgs; i++) {
        const oc__direct_msg *g = &claim->msgs[i];
        size_t n;
        walk(cfg, g->src, g->dst, path, &n);
        const double t = cfg->ts + (cfg->wormhole ? (double)(n - 1) * cfg->td : 0) +
                         (double)g->pkt_bytes * cfg->tm;
        for (uint64_t s = g->step; s < g->step + g->npk; s++)
            if (t > c->t[s]) c->t[s] = t;
    }
    double total = 0;
    for (uint64_t s = 0; s < steps; s++)
        total += c->t[s];
    const double claimed = (double)claim->crit_msgs * cfg->ts + (double)claim->crit_hops * cfg->td +
                           (double)claim->crit_bytes * cfg->tm;
    if (fabs(total - claimed) > 1e-9 * total + 1e-18)
        return oc__fail(why, len, OC_ERESOURCE,
                        "check: round %llu: its steps take %.9g s, the model counted %.9g s", R,
                        total, claimed);
    return 0;
}
