/*
 * micro_sched.c — list scheduling of one-packet moves into micro-permutation rounds (see
 * micro_sched.h). A round keeps a stamp per sending port, receiving port and directed link; a
 * move fits when none of its resources carries this round's stamp. Work: rounds x pending moves
 * x route length; the pending list shrinks every round.
 */
#include "aas/micro_sched.h"

#include <stdlib.h>
#include <string.h>

/* Signed hops along side z from a to b (the direct model's dimension-order rule). */
static int64_t delta(const oc__micro_grid *g, uint32_t z, uint32_t a, uint32_t b) {
    if (!g->wrap || z < 3) return (int64_t)b - (int64_t)a;
    const uint32_t f = b >= a ? b - a : b + z - a;
    return f <= z - f ? (int64_t)f : -(int64_t)(z - f);
}

/* The directed links of the X-then-Y route from a to b, in order: id (node, dim, dir) =
 * (u 2 + dim) 2 + dir. With `out`, each is written there. With `link`, the walk stops at the
 * first one stamped `stamp` and says so in *busy: a move that does not fit (most of those a round
 * visits, on a mesh whose links fill) costs the hops up to its first busy link, not its whole
 * route. Returns the links walked. */
static size_t route_walk(const oc__micro_grid *g, uint32_t a, uint32_t b, uint32_t *out,
                         const uint32_t *link, uint32_t stamp, int *busy) {
    size_t n = 0;
    uint32_t c[2] = {a % g->z[0], a / g->z[0]};
    const uint32_t t[2] = {b % g->z[0], b / g->z[0]};
    for (uint32_t i = 0; i < 2; i++) {
        const uint32_t z = g->z[i];
        int64_t d = delta(g, z, c[i], t[i]);
        const int neg = d < 0;
        for (int64_t k = neg ? -d : d; k > 0; k--) {
            const uint32_t u = c[0] + g->z[0] * c[1], id = (u * 2 + i) * 2 + (uint32_t)neg;
            if (link && link[id] == stamp) {
                *busy = 1;
                return n;
            }
            if (out) out[n] = id;
            n++;
            c[i] = neg ? (c[i] == 0 ? z - 1 : c[i] - 1) : (c[i] + 1 == z ? 0 : c[i] + 1);
        }
    }
    return n;
}

static size_t route(const oc__micro_grid *g, uint32_t a, uint32_t b, uint32_t *out) {
    return route_walk(g, a, b, out, NULL, 0, NULL);
}

/* Whether every directed link of the route from a to b is free of `stamp`. */
static int route_free(const oc__micro_grid *g, uint32_t a, uint32_t b, const uint32_t *link,
                      uint32_t stamp) {
    int busy = 0;
    route_walk(g, a, b, NULL, link, stamp, &busy);
    return !busy;
}

int oc__micro_pack(const oc__micro_grid *g, const oc__move *moves, size_t n, uint32_t **round_of,
                   uint32_t *rounds, char *why, size_t len) {
    const uint32_t N = g->z[0] * g->z[1];
    uint32_t *ro = malloc((n ? n : 1) * sizeof *ro), *send = calloc(N, sizeof *send),
             *recv = calloc(N, sizeof *recv), *link = calloc((size_t)N * 4, sizeof *link),
             *path = malloc(((size_t)g->z[0] + g->z[1] + 2) * sizeof *path);
    size_t *pend = malloc((n ? n : 1) * sizeof *pend);
    if (!ro || !send || !recv || !link || !path || !pend) {
        free(ro), free(send), free(recv), free(link), free(path), free(pend);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        ro[i] = UINT32_MAX;
        pend[i] = i;
    }
    size_t np = n;
    uint32_t r = 0;
    while (np) {
        const uint32_t stamp = r + 1;
        size_t keep = 0;
        for (size_t k = 0; k < np; k++) {
            const size_t i = pend[k];
            const oc__move *m = &moves[i];
            int fits = send[m->from] != stamp && recv[m->to] != stamp &&
                       (!m->after || ro[m->after - 1] < r);
            if (fits) fits = route_free(g, m->from, m->to, link, stamp);
            if (!fits) {
                pend[keep++] = i;
                continue;
            }
            send[m->from] = recv[m->to] = stamp;
            const size_t h = route(g, m->from, m->to, path);
            for (size_t j = 0; j < h; j++)
                link[path[j]] = stamp;
            ro[i] = r;
        }
        np = keep;
        r++;
    }
    free(send), free(recv), free(link), free(path), free(pend);
    *round_of = ro;
    *rounds = r;
    return 0;
}

/* Emits the packed moves round by round. */
static int micro_emit(oc__emit *e, const oc__move *moves, size_t n, const uint32_t *round_of,
                   uint32_t rounds) {
    /* bucket the moves by round (counting sort), then emit round by round */
    size_t *start = calloc((size_t)rounds + 1, sizeof *start),
           *order = malloc((n ? n : 1) * sizeof *order);
    if (!start || !order) {
        free(start), free(order);
        return OC_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        start[round_of[i] + 1]++;
    for (uint32_t r = 0; r < rounds; r++)
        start[r + 1] += start[r];
    for (size_t i = 0; i < n; i++)
        order[start[round_of[i]]++] = i;
    int rc = 0;
    for (size_t k = 0, r = 0; r < rounds && !rc; r++) {
        for (; k < n && round_of[order[k]] == r && !rc; k++) {
            const oc__move *m = &moves[order[k]];
            rc = oc__aas_send(e, m->from, m->to, m->d, m->s, 1);
        }
        if (!rc) rc = oc__emit_round(e);
    }
    free(start), free(order);
    return rc;
}

int oc__micro_plan_new(oc__plan *p, const char *algo, uint64_t moves, char *why, size_t len) {
    char what[64];
    snprintf(what, sizeof what, "%s's %llu moves", algo, (unsigned long long)moves);
    /* the moves, and the packer's round, order and pending index per move */
    int rc = oc__budget_check(
        (moves + 1) * (sizeof(oc__move) + sizeof(uint32_t) + 2 * sizeof(size_t)), what, why, len);
    if (rc) return rc;
    oc__micro_plan *m = calloc(1, sizeof *m);
    if (m) m->moves = oc__malloc_array(moves + 1, sizeof *m->moves);
    p->state = m;
    if (!m || !m->moves) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

void oc__micro_plan_free(oc__plan *p) {
    oc__micro_plan *m = p->state;
    if (m) {
        free(m->moves);
        free(m->round_of);
        free(m);
    }
    p->state = NULL;
}

int oc__micro_generate(const oc__plan *p, oc__emit *e) {
    const oc__micro_plan *m = p->state;
    return micro_emit(e, m->moves, m->n, m->round_of, m->rounds);
}
