/*
 * direct.c — the electrical direct networks of the all-to-all-scatter notes (CS838 section 14,
 * "Combining model with SF switching" ... "Noncombining model with WH switching"): the hypercube
 * Q_n, the torus T(z1,...,zk) and the mesh M(z1,...,zk), registered as three models that share
 * this one implementation. The parameters and their defaults are described in direct.h.
 *
 * What a round becomes. The transfers of a logical round are grouped into messages:
 *  - combining: all transfers of the round from one node to one node are one message (the notes'
 *    "permutes and combines them into one block"), costing one start-up;
 *  - non-combining: every packet is its own message: a transfer of c chunks of b bytes is
 *    c x ceil(b / mu) packets, each costed as a packet of min(mu, b) bytes.
 * A message follows the dimension-order route: e-cube on the hypercube (lowest bit first), XY...
 * on meshes and tori (dimension 1 first); on a torus each dimension goes the shorter way round,
 * and the positive way when both are equally short (z even, distance z/2). A torus side of 2 has
 * one link between its two nodes, not two.
 *
 * Switching. Store-and-forward moves a message one hop per step, so under SF we REFUSE a transfer
 * between non-neighbours (OC_ENOTSUP, with the reason): multi-hop forwarding is the algorithm's
 * business (SEX, the pipelines and the cartesian exchange forward through intermediate nodes in
 * later rounds, which is exactly how the notes count them). A SF message costs ts + m tm.
 * Wormhole: a message holds its whole route for the step and costs ts + h td + m tm (h hops).
 *
 * Resources in one step: 1-port — a node injects at most one message and consumes at most one;
 * all-port — no port limit. Full duplex — one message per directed link; half duplex — one
 * message per link in either direction. When a round asks for more than that (two messages
 * sharing a link, as DEX does on a mesh with XY routing, the notes' "link congestion"), the round
 * is SPLIT into more steps: messages are placed in their order in the round, each into the first
 * steps where all its resources are free (first fit, on a 64-step bit mask per resource: O(hops)
 * word operations per message; a round longer than 64 steps continues after the last step its
 * resources used). A step lasts as long as its slowest message; a round
 * lasts the sum of its steps. The largest number of messages on one directed link in a round is
 * reported as `max_link_congestion` (the notes: at most max(z1,z2)/2 for DEX on M(z1,z2)).
 *
 * The time is kept as exact counts (start-ups, the slowest messages' hops and bytes, summed over
 * steps) and priced at the end, so closed forms are met to the last rounding.
 *
 * Lower bound (alltoall only): the notes' Lemma (higher-dimensional mesh/torus): cut the longest
 * side z1 into ceil(z1/2) and floor(z1/2); ceil(z1/2) floor(z1/2) P^2 packets (P = z2...zk) must
 * cross each way over 2P channels of a torus (P of a mesh, or of a torus side <= 2); a half-duplex
 * channel carries both ways. On Q_n (= M(2,...,2)) this is 2^(n-1) packets per channel. That many
 * packet times (x mu tm) is `time_lower_bound_s` (or steps x ts if larger); in steps, a
 * non-combining network needs at least that many (one packet per channel per step) and at least
 * (N-1) packets / ports per node; a combining one at least the diameter under SF (one hop per step)
 * and ceil(log2 N) with 1 port (a node's knowledge at most doubles per step).
 */
#include "net/direct.h"
#include "core/quote.h"
#include "net/model_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- configuration ------------------------------------------------------------------------- */

static const char *const kind_name[] = {"hypercube", "torus", "mesh"};

static const char *const param_names[] = {"dims",   "dim",       "switching", "ports",
                                          "duplex", "combining", "ts_us",     "tm_ns",
                                          "td_us",  "mu",        NULL};

/* A choice among words: *out = index of the match, or a reason. */
static int choice(const oc_kv *kv, const char *key, const char *const *words, int dflt, int *out,
                  char *why, size_t len) {
    const char *v = oc_kv_get(kv, key);
    *out = dflt;
    if (!v) return 0;
    for (int i = 0; words[i]; i++)
        if (strcmp(v, words[i]) == 0) {
            *out = i;
            return 0;
        }
    return oc__fail(why, len, OC_EINVAL, "%s=%s: expected %s or %s", key, OC_Q(v), words[0],
                    words[1]);
}

int oc__direct_cfg_parse(oc__direct_kind kind, uint32_t nodes, const oc_kv *params,
                         oc__direct_cfg *cfg, char *why, size_t len) {
    memset(cfg, 0, sizeof *cfg);
    cfg->kind = kind;
    cfg->nodes = nodes;
    int rc = oc__kv_only(params, param_names, kind_name[kind], why, len);
    if (rc) return rc;
    if (kind == OC_DIRECT_HYPERCUBE) {
        if (oc_kv_get(params, "dims"))
            return oc__fail(why, len, OC_EINVAL, "the hypercube takes dim=n, not dims");
        uint32_t n = 0;
        while (n < 31 && (UINT32_C(1) << n) < nodes)
            n++;
        uint64_t d;
        if ((rc = oc__kv_u64(params, "dim", n, 0, OC_DIRECT_MAX_DIMS - 1, &d, why, len))) return rc;
        if ((UINT64_C(1) << d) != nodes) {
            if (oc_kv_get(params, "dim"))
                return oc__fail(
                    why, len, OC_ENOTSUP, "the hypercube of dimension %llu has %llu nodes, not %u",
                    (unsigned long long)d, (unsigned long long)(UINT64_C(1) << d), nodes);
            return oc__fail(why, len, OC_ENOTSUP,
                            "a hypercube has 2^n nodes: %u is not a power of two", nodes);
        }
        cfg->ndims = (uint32_t)d;
        for (uint32_t i = 0; i < cfg->ndims; i++)
            cfg->dims[i] = 2;
    } else {
        if (oc_kv_get(params, "dim"))
            return oc__fail(why, len, OC_EINVAL, "the %s takes dims=AxB..., not dim",
                            kind_name[kind]);
        const char *d = oc_kv_get(params, "dims");
        if (d) {
            if ((rc = oc__direct_parse_dims(d, cfg->dims, &cfg->ndims, why, len))) return rc;
            /* Every side is >= 1, so the running product never shrinks: stop as soon as it
             * passes nodes, before it can wrap around 2^64 (8192x3x3x307x2857x6529x43691
             * wraps to exactly 8192). */
            uint64_t prod = 1;
            uint32_t i = 0;
            for (; i < cfg->ndims && prod <= nodes; i++)
                prod *= cfg->dims[i];
            if (i < cfg->ndims)
                return oc__fail(why, len, OC_ENOTSUP, "dims=%s has more than %u nodes", d, nodes);
            if (prod != nodes)
                return oc__fail(why, len, OC_ENOTSUP, "dims=%s has %llu nodes, not %u", d,
                                (unsigned long long)prod, nodes);
        } else if (kind == OC_DIRECT_TORUS) {
            cfg->ndims = 1;
            cfg->dims[0] = nodes;
        } else {
            oc__direct_square_dims(nodes, &cfg->dims[0], &cfg->dims[1]);
            cfg->ndims = cfg->dims[1] > 1 ? 2 : 1;
        }
    }
    static const char *const sw[] = {"sf", "wh", NULL}, *const po[] = {"1", "all", NULL},
                             *const du[] = {"half", "full", NULL},
                             *const co[] = {"no", "yes", NULL};
    double ts_us, tm_ns, td_us;
    uint64_t mu;
    if ((rc = choice(params, "switching", sw, 0, &cfg->wormhole, why, len)) ||
        (rc = choice(params, "ports", po, 0, &cfg->allport, why, len)) ||
        (rc = choice(params, "duplex", du, 1, &cfg->fullduplex, why, len)) ||
        (rc = choice(params, "combining", co, 1, &cfg->combining, why, len)) ||
        (rc = oc__kv_double(params, "ts_us", 1, 0, 1e9, &ts_us, why, len)) ||
        (rc = oc__kv_double(params, "tm_ns", 1, 0, 1e9, &tm_ns, why, len)) ||
        (rc = oc__kv_double(params, "td_us", 0.05, 0, 1e9, &td_us, why, len)) ||
        (rc = oc__kv_u64(params, "mu", 0, 1, OC_MAX_BYTES, &mu, why, len)))
        return rc;
    cfg->ts = ts_us * 1e-6;
    cfg->tm = tm_ns * 1e-9;
    cfg->td = td_us * 1e-6;
    cfg->mu = mu;
    return 0;
}

/* 1 if dimension i wraps round (a torus side of 3 or more). */
static int wraps(const oc__direct_cfg *cfg, uint32_t i) {
    return cfg->kind == OC_DIRECT_TORUS && cfg->dims[i] >= 3;
}

/* Signed hops of dimension i from coordinate a to b on the dimension-order route. */
static int64_t dim_delta(const oc__direct_cfg *cfg, uint32_t i, uint32_t a, uint32_t b) {
    const uint32_t z = cfg->dims[i];
    if (!wraps(cfg, i)) return (int64_t)b - (int64_t)a;
    const uint32_t f = oc__ring_sub(b, a, z); /* forward distance */
    return f <= z - f ? (int64_t)f : -(int64_t)(z - f);
}

/* Hops of the dimension-order (e-cube / XY, torus: shortest direction) route from a to b. */
static uint32_t direct_hops(const oc__direct_cfg *cfg, uint32_t a, uint32_t b) {
    uint32_t h = 0;
    for (uint32_t i = 0; i < cfg->ndims; i++) {
        const uint32_t z = cfg->dims[i];
        int64_t d = dim_delta(cfg, i, a % z, b % z);
        h += (uint32_t)(d < 0 ? -d : d);
        a /= z;
        b /= z;
    }
    return h;
}

/* ---- the model ------------------------------------------------------------------------------ */

typedef struct msg_in {
    uint32_t src, dst;
    size_t first; /* index of its first transfer in the round: the message's place */
    uint64_t bytes, chunks;
} msg_in;

enum { FIT_WINDOW = 64 };

typedef struct step_cost {
    double time;
    uint64_t hops, bytes;
} step_cost;

struct oc__netrun {
    oc__netbase base;
    oc__direct_cfg cfg;
    uint32_t nodes;
    uint32_t stride[OC_DIRECT_MAX_DIMS];
    uint64_t pkt_bytes, pkts_per_chunk;               /* non-combining packets */
    size_t nres;                                      /* 2N ports + 2 N ndims links */
    uint64_t *next_free, *used, *stamp, *load, epoch; /* per resource, this round */
    msg_in *in;
    size_t incap;
    oc__direct_msg *msgs;
    size_t msgcap;
    uint64_t *route;
    size_t routecap;
    step_cost *st; /* per step of the current round: its slowest message */
    size_t stcap;
    /* totals */
    uint64_t crit_hops, crit_bytes, split_rounds, max_cong, messages;
    oc__direct_checker *checker;
    /* for the observer */
    uint32_t *pos_of;  /* per link resource (id - 2N): its grid position, or UINT32_MAX */
    uint64_t *link_at; /* per grid position: its link resource (id - 2N) */
    uint32_t npos;     /* grid positions: the links that exist */
    size_t *lead;      /* per transfer of the round (combining): its message's first transfer */
    size_t *msg_at;    /* per transfer index that leads a message: the message's index */
    size_t leadcap, msgatcap;
    double *at; /* per step of the round: its start time */
    size_t atcap;
};

/* Resource ids: send port u, receive port N + u, link (u, dim, dir) 2N + (u ndims + dim) 2 + dir
 * (dir 0 = positive). Half duplex names a link by its positive end, so both directions collide. */
static uint64_t link_id(const oc__netrun *m, uint32_t u, uint32_t i, int neg, uint32_t v) {
    const uint64_t N = m->nodes, D = m->cfg.ndims;
    if (!m->cfg.fullduplex && neg) return 2 * N + ((uint64_t)v * D + i) * 2;
    return 2 * N + ((uint64_t)u * D + i) * 2 + (uint64_t)neg;
}

/* The resources of a message from a to b into m->route; returns their count, *hops the hops. */
static int route_of(oc__netrun *m, uint32_t a, uint32_t b, size_t *n, uint32_t *hops) {
    const oc__direct_cfg *c = &m->cfg;
    *n = 0;
    const uint32_t h = direct_hops(c, a, b);
    *hops = h;
    if (oc__grow((void **)&m->route, &m->routecap, (size_t)h + 2, sizeof *m->route))
        return OC_ENOMEM;
    if (!c->allport) {
        m->route[(*n)++] = a;
        m->route[(*n)++] = m->nodes + b;
    }
    uint32_t cur = a;
    for (uint32_t i = 0; i < c->ndims; i++) {
        const uint32_t z = c->dims[i], s = m->stride[i];
        uint32_t x = cur / s % z;
        int64_t d = dim_delta(c, i, x, b / s % z);
        const int neg = d < 0;
        for (int64_t k = neg ? -d : d; k > 0; k--) {
            const uint32_t nx = neg ? (x == 0 ? z - 1 : x - 1) : (x + 1 == z ? 0 : x + 1);
            const uint32_t next = cur - x * s + nx * s;
            m->route[(*n)++] = link_id(m, cur, i, neg, next);
            cur = next;
            x = nx;
        }
    }
    return 0;
}

static int by_pair(const void *x, const void *y) {
    const msg_in *a = x, *b = y;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

static int by_first(const void *x, const void *y) {
    const msg_in *a = x, *b = y;
    return a->first < b->first ? -1 : a->first > b->first;
}

static uint64_t *res(oc__netrun *m, uint64_t id) {
    if (m->stamp[id] != m->epoch) {
        m->stamp[id] = m->epoch;
        m->next_free[id] = 0;
        m->used[id] = 0;
        m->load[id] = 0;
    }
    return &m->next_free[id];
}

/* The bits of steps [step, step + npk) that fall in the first-fit window of 64 steps. */
static uint64_t window(uint64_t step, uint64_t npk) {
    if (step >= FIT_WINDOW) return 0;
    const uint64_t end = step + npk >= FIT_WINDOW ? FIT_WINDOW : step + npk;
    const uint64_t hi = end == 64 ? ~UINT64_C(0) : (UINT64_C(1) << end) - 1;
    return hi & ~((UINT64_C(1) << step) - 1);
}

/* The first step from which npk consecutive steps are free in `busy` (the first 64 steps of the
 * round); after the window, the first step after everything the resources used (`after`). */
static uint64_t first_fit(uint64_t busy, uint64_t npk, uint64_t after) {
    if (npk == 1 && busy != ~UINT64_C(0)) return (uint64_t)__builtin_ctzll(~busy);
    for (uint64_t s = 0; s + npk <= FIT_WINDOW; s++)
        if ((busy & window(s, npk)) == 0) return s;
    /* past the highest busy step of the window, and past everything used beyond it */
    const uint64_t top = busy ? FIT_WINDOW - (uint64_t)__builtin_clzll(busy) : 0;
    return after > top ? after : top;
}

/* ---- the observer (export --format chrome, run --links) ---------------------------------- */

/* Reports a checked round to the observer. Its steps: one step() each, as long as its slowest
 * message (the model's own price, so the steps tile the run's time). Its transfers: one use each
 * for the timeline (OC_SHOW_TRACE), from the start of its message's first step until its last
 * packet is through; the transfers combined into one message show that message's span. Its
 * messages: one use per link of the route for the utilisation (OC_SHOW_LINKS), busy for the
 * message's own time in each of its npk steps (npk x t, not the step: a faster message leaves
 * the link idle for the rest of the step), so a combined message counts once however many
 * transfers it carries. The ports of a 1-port network are not in the grid: the grid is the
 * links. Work: O(transfers + messages x hops + steps). */
static int dn_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, size_t nm,
                            uint64_t steps, char *why, size_t len) {
    const oc__direct_cfg *c = &m->cfg;
    const uint64_t N2 = 2 * (uint64_t)m->nodes;
    const int grouped = c->combining && r->count > 1;
    if (oc__grow((void **)&m->at, &m->atcap, steps + 1, sizeof *m->at) ||
        (grouped && oc__grow((void **)&m->msg_at, &m->msgatcap, r->count, sizeof *m->msg_at)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    int rc = 0;
    double now = m->base.clock;
    for (uint64_t s = 0; s < steps && !rc; s++) {
        const double d = oc__direct_msg_time(c, m->st[s].hops, m->st[s].bytes);
        m->at[s] = now;
        rc = oc__netrun_observe_step(m, index, s, 1, now, d, why, len);
        now += d;
    }
    m->at[steps] = now;
    if (grouped)
        for (size_t j = 0; j < nm; j++)
            m->msg_at[m->in[j].first] = j;
    const char *route = c->kind == OC_DIRECT_HYPERCUBE ? "e-cube" : "dimension-order";
    for (size_t i = 0; i < r->count && !rc; i++) {
        const oc__direct_msg *g = &m->msgs[grouped ? m->msg_at[m->lead[i]] : i];
        const uint32_t hops = direct_hops(c, g->src, g->dst);
        const double d = oc__direct_msg_time(c, hops, g->pkt_bytes);
        char res[160];
        if (c->combining)
            snprintf(res, sizeof res, "%s route, %u hop%s, one combined message of %llu bytes",
                     route, hops, hops == 1 ? "" : "s", (unsigned long long)g->pkt_bytes);
        else
            snprintf(res, sizeof res, "%s route, %u hop%s, %llu packet%s of %llu bytes", route,
                     hops, hops == 1 ? "" : "s", (unsigned long long)g->npk, g->npk == 1 ? "" : "s",
                     (unsigned long long)g->pkt_bytes);
        oc__use u = {.round = index,
                     .step = m->base.steps + g->step,
                     .start_s = m->at[g->step],
                     .dur_s = m->at[g->step + g->npk - 1] + d - m->at[g->step],
                     .t = &r->xfers[i],
                     .cls0 = 0,
                     .cls1 = 1,
                     .seg = 0,
                     .seglen = m->npos,
                     .pos0 = 0,
                     .npos = 1,
                     .resource = res,
                     .side = OC_USE_PATH,
                     .show = OC_SHOW_TRACE};
        rc = oc__netrun_observe_use(m, &u, why, len);
    }
    for (size_t j = 0; j < nm && !rc; j++) {
        const oc__direct_msg *g = &m->msgs[j];
        size_t n;
        uint32_t hops;
        if (route_of(m, g->src, g->dst, &n, &hops))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
        oc__use u = {.round = index,
                     .step = m->base.steps + g->step,
                     .start_s = m->at[g->step],
                     .dur_s = (double)g->npk * oc__direct_msg_time(c, hops, g->pkt_bytes),
                     .t = &r->xfers[m->in[j].first],
                     .cls0 = 0,
                     .cls1 = 1,
                     .seg = 0,
                     .seglen = m->npos,
                     .npos = 1,
                     .resource = "link",
                     .side = OC_USE_PATH,
                     .show = OC_SHOW_LINKS};
        for (size_t k = 0; k < n && !rc; k++) {
            if (m->route[k] < N2) continue; /* a port of a 1-port node */
            const uint32_t pos = m->pos_of[m->route[k] - N2];
            if (pos == UINT32_MAX)
                return oc__fail(why, len, OC_ERESOURCE,
                                "round %llu: a route %u -> %u uses a link the grid lacks",
                                (unsigned long long)index, g->src, g->dst);
            u.pos0 = pos;
            rc = oc__netrun_observe_use(m, &u, why, len);
        }
    }
    m->base.clock = now;
    return rc;
}

/* The link resource (id - 2N) from node u along dimension i, direction neg; its far end in *v.
 * 1 if that link exists (a mesh side ends; a torus side of 2 has one link, a side of 1 none). */
static int link_exists(const oc__netrun *m, uint32_t u, uint32_t i, int neg, uint32_t *v) {
    const uint32_t z = m->cfg.dims[i], s = m->stride[i], x = u / s % z;
    if (!wraps(&m->cfg, i) && (neg ? x == 0 : x + 1 >= z)) return 0;
    const uint32_t nx = neg ? (x == 0 ? z - 1 : x - 1) : (x + 1 == z ? 0 : x + 1);
    *v = u - x * s + nx * s;
    return 1;
}

static void dn_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    (void)m, (void)cls;
    snprintf(buf, len, "link");
}

static void dn_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    const uint64_t L = m->link_at[pos], D = m->cfg.ndims;
    const uint32_t u = (uint32_t)(L / 2 / D), i = (uint32_t)(L / 2 % D);
    uint32_t v = u;
    link_exists(m, u, i, (int)(L % 2), &v);
    snprintf(buf, len, "link %u%s%u", u, m->cfg.fullduplex ? "->" : "-", v);
}

/* The grid: one class by the links that exist, in the order (node, dimension, direction):
 * directed links when full duplex, links (both directions one resource, named by their positive
 * end, as the model and its check count them) when half duplex. */
static int dn_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    const oc__direct_cfg *c = &m->cfg;
    const size_t nlinks = m->nres - 2 * (size_t)m->nodes;
    free(m->pos_of);
    free(m->link_at);
    m->pos_of = oc__calloc(nlinks, sizeof *m->pos_of);
    m->link_at = oc__calloc(nlinks, sizeof *m->link_at);
    if (!m->pos_of || !m->link_at) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->npos = 0;
    for (size_t l = 0; l < nlinks; l++)
        m->pos_of[l] = UINT32_MAX;
    for (uint32_t u = 0; u < m->nodes; u++)
        for (uint32_t i = 0; i < c->ndims; i++)
            for (int neg = 0; neg < (c->fullduplex ? 2 : 1); neg++) {
                uint32_t v;
                if (!link_exists(m, u, i, neg, &v)) continue;
                const uint64_t l = link_id(m, u, i, neg, v) - 2 * (uint64_t)m->nodes;
                m->pos_of[l] = m->npos;
                m->link_at[m->npos++] = l;
            }
    m->base.obs = obs;
    *g = (oc__grid){.what = c->fullduplex ? "directed link" : "link (half duplex: both ways)",
                    .class_what = "link",
                    .pos_what = c->fullduplex ? "directed link" : "link",
                    .classes = 1,
                    .positions = m->npos,
                    .class_name = dn_class_name,
                    .pos_name = dn_pos_name};
    return 0;
}

static int dn_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const oc__direct_cfg *c = &m->cfg;
    const uint32_t N = m->nodes;
    const unsigned long long R = (unsigned long long)index;
    const uint64_t cb = m->base.spec->chunk_bytes;
    m->epoch++;
    uint64_t packets = 0;
    if (oc__grow((void **)&m->in, &m->incap, r->count, sizeof *m->in))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        static const char *const refusal[] = {"is not between two different nodes of the hypercube",
                                              "is not between two different nodes of the torus",
                                              "is not between two different nodes of the mesh"};
        int rc = oc__netrun_endpoints(m, index, x, refusal[c->kind], why, len);
        if (rc) return rc;
        if (!c->wormhole && direct_hops(c, x->src, x->dst) != 1) {
            /* name the network's dims: the usual cause is an algorithm planned for other dims */
            char d[160];
            if (c->kind == OC_DIRECT_HYPERCUBE)
                snprintf(d, sizeof d, "dim=%u", c->ndims);
            else {
                memcpy(d, "dims=", 5);
                oc__direct_dims_text(c, d + 5, sizeof d - 5);
            }
            return oc__fail(why, len, OC_ENOTSUP,
                            "round %llu: transfer %u -> %u is %u hops apart on the %s %s: "
                            "store-and-forward moves messages between neighbours only (use "
                            "switching=wh)",
                            R, x->src, x->dst, direct_hops(c, x->src, x->dst),
                            kind_name[c->kind], d);
        }
        if (cb && x->count > UINT64_MAX / 4 / cb)
            return oc__fail(why, len, OC_ETOOBIG, "round %llu: transfer too large", R);
        m->in[i] = (msg_in){x->src, x->dst, i, (uint64_t)x->count * cb, x->count};
        /* Without combining every packet is a step entry here and route entries in the check,
         * so a small mu on big chunks would try gigabytes: refuse before placing anything.
         * count * pkts_per_chunk <= count * cb fits (above); the sum stops at the cap. */
        if (!c->combining) {
            packets += (uint64_t)x->count * m->pkts_per_chunk;
            if (packets > OC_DIRECT_MAX_ROUND_PACKETS)
                return oc__fail(why, len, OC_ETOOBIG,
                                "round %llu: mu=%llu makes more than %llu packets in one round; "
                                "use a larger mu",
                                R, (unsigned long long)c->mu,
                                (unsigned long long)OC_DIRECT_MAX_ROUND_PACKETS);
        }
    }
    size_t nm = r->count;
    if (c->combining && nm > 1) {
        if (m->base.obs && oc__grow((void **)&m->lead, &m->leadcap, nm, sizeof *m->lead))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
        qsort(m->in, nm, sizeof *m->in, by_pair);
        size_t k = 0;
        for (size_t i = 0; i < nm; i++) {
            if (k && m->in[k - 1].src == m->in[i].src && m->in[k - 1].dst == m->in[i].dst) {
                m->in[k - 1].bytes += m->in[i].bytes;
                m->in[k - 1].chunks += m->in[i].chunks;
            } else
                m->in[k++] = m->in[i];
            /* the observer's map: transfer -> the first transfer of its message (the sort puts
             * a pair's earliest transfer first) */
            if (m->base.obs) m->lead[m->in[i].first] = m->in[k - 1].first;
        }
        nm = k;
        qsort(m->in, nm, sizeof *m->in, by_first);
    }
    if (oc__grow((void **)&m->msgs, &m->msgcap, nm, sizeof *m->msgs))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    uint64_t steps = 0, cong = 0, most = 0;
    for (size_t i = 0; i < nm; i++) {
        const msg_in *g = &m->in[i];
        uint64_t npk = 1, pb = g->bytes;
        if (!c->combining) {
            npk = g->chunks * m->pkts_per_chunk;
            pb = m->pkt_bytes;
        }
        if (npk > most) most = npk;
        size_t n;
        uint32_t hops;
        if (route_of(m, g->src, g->dst, &n, &hops))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
        uint64_t step = 0, busy = 0;
        for (size_t k = 0; k < n; k++) {
            uint64_t f = *res(m, m->route[k]);
            if (f > step) step = f;
            busy |= m->used[m->route[k]];
        }
        step = first_fit(busy, npk, step);
        for (size_t k = 0; k < n; k++) {
            uint64_t *f = res(m, m->route[k]);
            if (step + npk > *f) *f = step + npk;
            m->used[m->route[k]] |= window(step, npk);
            if (m->route[k] >= 2 * (uint64_t)N) {
                m->load[m->route[k]] += npk;
                if (m->load[m->route[k]] > cong) cong = m->load[m->route[k]];
            }
        }
        if (step + npk > steps) {
            if (oc__grow((void **)&m->st, &m->stcap, step + npk, sizeof *m->st))
                return oc__fail(why, len, OC_ENOMEM, "out of memory");
            for (uint64_t s = steps; s < step + npk; s++)
                m->st[s] = (step_cost){-1, 0, 0};
            steps = step + npk;
        }
        const double t = oc__direct_msg_time(c, hops, pb);
        for (uint64_t s = step; s < step + npk; s++)
            if (t > m->st[s].time) m->st[s] = (step_cost){t, c->wormhole ? hops : 0, pb};
        m->msgs[i] = (oc__direct_msg){g->src, g->dst, step, npk, pb};
    }
    uint64_t ch = 0, cbytes = 0;
    for (uint64_t s = 0; s < steps; s++) {
        ch += m->st[s].hops;
        cbytes += m->st[s].bytes;
    }
    if (m->checker) {
        oc__direct_claim claim = {.msgs = m->msgs,
                                  .nmsgs = nm,
                                  .steps = steps,
                                  .crit_msgs = steps,
                                  .crit_hops = ch,
                                  .crit_bytes = cbytes};
        int rc = oc__direct_check(m->checker, c, index, r, cb, &claim, why, len);
        if (rc) return rc;
    }
    if (m->base.obs) {
        int rc = dn_observe_round(m, index, r, nm, steps, why, len);
        if (rc) return rc;
    }
    oc__netrun_mapped(m, steps);
    m->crit_hops += ch;
    m->crit_bytes += cbytes;
    m->messages += nm;
    /* a round is split when it takes more steps than its longest message has packets */
    if (steps > most) m->split_rounds++;
    if (cong > m->max_cong) m->max_cong = cong;
    return 0;
}

static void dn_destroy(oc__netrun *m) {
    if (m) oc__direct_checker_free(m->checker);
    oc__netrun_free(m);
}

/* The direct networks' create(): the parsed configuration (oc__direct_cfg, net/netset.c keeps
 * it for the run; parsed again for another node count: parse_by_nodes) made into a run. */
static int dn_create(const oc__spec *spec, const void *own, int check, oc__netrun **out, char *why,
                     size_t len) {
    *out = NULL;
    const oc__direct_cfg cfg = *(const oc__direct_cfg *)own;
    const oc__direct_kind kind = cfg.kind;
    int rc = 0;
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, dn_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->cfg = cfg;
    m->nodes = spec->nodes;
    uint32_t s = 1;
    for (uint32_t i = 0; i < cfg.ndims; i++) {
        m->stride[i] = s;
        s *= cfg.dims[i];
    }
    const uint64_t cb = spec->chunk_bytes;
    m->pkts_per_chunk = cfg.mu && cb > cfg.mu ? oc__ceil_div(cb, cfg.mu) : 1;
    m->pkt_bytes = cfg.mu && cb > cfg.mu ? cfg.mu : cb;
    m->nres = 2 * (size_t)m->nodes + 2 * (size_t)m->nodes * (cfg.ndims ? cfg.ndims : 1);
    const size_t R = m->nres;
    const oc__netbuf bufs[] = {
        OC_NETBUF(m->next_free, R), OC_NETBUF(m->used, R), OC_NETBUF(m->stamp, R),
        OC_NETBUF(m->load, R),      OC_NETBUF(m->in, 0),   OC_NETBUF(m->msgs, 0),
        OC_NETBUF(m->route, 0),     OC_NETBUF(m->st, 0),   OC_NETBUF(m->pos_of, 0),
        OC_NETBUF(m->link_at, 0),   OC_NETBUF(m->lead, 0), OC_NETBUF(m->msg_at, 0),
        OC_NETBUF(m->at, 0)};
    char what[32];
    snprintf(what, sizeof what, "the %s model", kind_name[kind]);
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, what, why, len);
    if (!rc && check && oc__direct_checker_new(&m->checker))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    return oc__netrun_done(m, rc, dn_destroy, out);
}

/* oc__model.parse of each of the three: the dims are checked against the node count. */
static int hc_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(oc__direct_cfg) <= OC__NETSET_OWN, "oc__direct_cfg fits an oc__netset");
    return oc__direct_cfg_parse(OC_DIRECT_HYPERCUBE, nodes, params, own, why, len);
}
static int to_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    return oc__direct_cfg_parse(OC_DIRECT_TORUS, nodes, params, own, why, len);
}
static int me_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    return oc__direct_cfg_parse(OC_DIRECT_MESH, nodes, params, own, why, len);
}

/* One packet of one chunk between neighbours. */
static double dn_step_time(const oc__netrun *m) {
    return oc__direct_msg_time(&m->cfg, 1, m->base.spec->chunk_bytes);
}

/* One hop's message without a payload. */
static double dn_step_fixed(const oc__netrun *m) {
    return oc__direct_msg_time(&m->cfg, 1, 0);
}

/* The settings as parsed, with the packet the model cuts this run's chunks into (what the
 * report's network parameters print as mu). */
static void dn_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_DIRECT;
    out->cost = (oc__netcost){0}; /* the notes' formulas read the settings below */
    out->direct = m->cfg;
    out->direct.mu = m->pkt_bytes;
}

/* The diameter of the dimension-order routes. */
static uint64_t diameter(const oc__direct_cfg *c) {
    uint64_t d = 0;
    for (uint32_t i = 0; i < c->ndims; i++)
        d += wraps(c, i) ? c->dims[i] / 2 : c->dims[i] - 1;
    return d;
}

/* The notes' Lemma: packets per channel (one direction; both on a half-duplex channel) across
 * the cut of the longest side. */
static double bisection_packets(const oc__direct_cfg *c) {
    if (c->ndims == 0 || c->nodes < 2) return 0;
    uint32_t longest = 0;
    for (uint32_t i = 1; i < c->ndims; i++)
        if (c->dims[i] > c->dims[longest]) longest = i;
    const double z1 = c->dims[longest], P = (double)c->nodes / z1;
    if (z1 < 2) return 0;
    const double a = floor(z1 / 2), b = ceil(z1 / 2);
    const double channels = (wraps(c, longest) ? 2 : 1) * P;
    return (c->fullduplex ? 1 : 2) * a * b * P * P / channels;
}

static int dn_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    const oc__direct_cfg *c = &m->cfg;
    const double tts = (double)m->base.steps * c->ts, ttd = (double)m->crit_hops * c->td,
                 ttm = (double)m->crit_bytes * c->tm;
    /* the lower bound is the all-to-all's alone (below) */
    oc__netrun_figures(rep, m->base.steps, 0, tts + ttd + ttm);
    rep->has_lb = 0;
    int rc;
    if (c->kind == OC_DIRECT_HYPERCUBE) {
        rc = oc__netrun_param(rep, "dim", "%u", c->ndims);
    } else {
        char dims[160];
        oc__direct_dims_text(c, dims, sizeof dims);
        rc = oc__netrun_param(rep, "dims", "%s", dims);
    }
    rc |= oc_kv_set(rep->net_params, "switching", c->wormhole ? "wh" : "sf");
    rc |= oc_kv_set(rep->net_params, "ports", c->allport ? "all" : "1");
    rc |= oc_kv_set(rep->net_params, "duplex", c->fullduplex ? "full" : "half");
    rc |= oc_kv_set(rep->net_params, "combining", c->combining ? "yes" : "no");
    rc |= oc__netrun_param(rep, "ts_us", "%.15g", c->ts * 1e6);
    rc |= oc__netrun_param(rep, "tm_ns", "%.15g", c->tm * 1e9);
    rc |= oc__netrun_param(rep, "td_us", "%.15g", c->td * 1e6);
    rc |= oc__netrun_param(rep, "mu", "%llu", (unsigned long long)m->pkt_bytes);
    rc |= oc__report_num(rep, "ts_s", c->ts);
    rc |= oc__report_num(rep, "tm_s_per_byte", c->tm);
    rc |= oc__report_num(rep, "td_s", c->td);
    rc |= oc__report_num(rep, "time_ts_s", tts);
    rc |= oc__report_num(rep, "time_td_s", ttd);
    rc |= oc__report_num(rep, "time_tm_s", ttm);
    rc |= oc__report_num(rep, "critical_hops", (double)m->crit_hops);
    rc |= oc__report_num(rep, "critical_bytes", (double)m->crit_bytes);
    rc |= oc__report_num(rep, "messages", (double)m->messages);
    rc |= oc__report_num(rep, "max_link_congestion", (double)m->max_cong);
    rc |= oc__report_num(rep, "diameter", (double)diameter(c));
    if (m->split_rounds)
        rc |= oc__report_note(rep,
                              "%llu rounds needed more than one step (port or link shared; "
                              "largest link congestion %llu): split by first fit",
                              (unsigned long long)m->split_rounds, (unsigned long long)m->max_cong);
    if (m->base.spec->coll == OC_ALLTOALL) {
        /* packets of one block (what one node sends one other node) */
        const uint64_t ppb = c->combining ? 1 : m->base.spec->q * m->pkts_per_chunk;
        const double bis = bisection_packets(c);
        uint64_t lb;
        if (c->combining) {
            lb = c->wormhole ? 1 : diameter(c);
            uint64_t lg = 0;
            while ((UINT64_C(1) << lg) < m->nodes)
                lg++;
            if (!c->allport && lg > lb) lb = lg;
        } else {
            lb = (uint64_t)ceil(bis * (double)ppb - 1e-9);
            uint64_t ports = 1;
            if (c->allport) { /* the largest node degree */
                ports = 0;
                for (uint32_t i = 0; i < c->ndims; i++)
                    ports += c->dims[i] >= 3 ? 2 : c->dims[i] - 1;
            }
            uint64_t inj = oc__ceil_div((uint64_t)(m->nodes - 1) * ppb, ports ? ports : 1);
            if (inj > lb) lb = inj;
        }
        if (m->nodes < 2) lb = 0; /* nothing to send */
        rep->has_lb = 1;
        rep->steps_lb = lb;
        const double block = (double)m->base.spec->chunk_bytes * m->base.spec->q;
        double tlb = bis * block * c->tm;
        if ((double)lb * c->ts > tlb) tlb = (double)lb * c->ts;
        rc |= oc__report_num(rep, "bisection_packets_per_channel", bis);
        rc |= oc__report_num(rep, "time_lower_bound_s", tlb);
    }
    return oc__netrun_finished(rc, why, len);
}

#define DIRECT_PARAMS                                                                              \
    "switching=sf|wh (sf); ports=1|all (1); duplex=half|full (full); combining=yes|no (yes); "     \
    "ts_us=1: start-up; tm_ns=1: per byte (1 GB/s); td_us=0.05: per hop (wh); mu=chunk: "          \
    "packet bytes (defaults of ts, tm, td are ours)"

/* The three models share everything but their name, words and parse(). */
#define DIRECT_MODEL(name, what, params, parse_fn)                                                 \
    {                                                                                              \
        .info = {name, what, params}, .parse = parse_fn, .parse_by_nodes = 1, .create = dn_create, \
        .sink = oc__netrun_sink, .finish = dn_finish, .step_time = dn_step_time,                   \
        .step_fixed = dn_step_fixed, .channels = oc__netrun_one_channel,                           \
        .steps = oc__netrun_steps, .destroy = dn_destroy, .observe = dn_observe,                   \
        .config = dn_config,                                                                       \
    }

const oc__model oc__model_hypercube =
    DIRECT_MODEL("hypercube",
                 "electrical hypercube Q_n (all-to-all-scatter notes): e-cube routing, SF or WH, "
                 "1-port or all-port",
                 "dim=log2 N: dimension n; " DIRECT_PARAMS, hc_parse);

const oc__model oc__model_torus =
    DIRECT_MODEL("torus",
                 "electrical torus T(z1,..,zk) (all-to-all-scatter notes): dimension-order "
                 "routing the shorter way, SF or WH",
                 "dims=N: side lengths AxB...; " DIRECT_PARAMS, to_parse);

const oc__model oc__model_mesh =
    DIRECT_MODEL("mesh",
                 "electrical mesh M(z1,..,zk) (all-to-all-scatter notes): XY (dimension-order) "
                 "routing, SF or WH",
                 "dims=most square AxB: side lengths; " DIRECT_PARAMS, me_parse);
