/*
 * fattree.c — the two-level electrical fat-tree: the electrical baseline of the WRHT seed (wrht
 * Table II: "Fat-tree topology, two-level cluster with 32 port routers, router bandwidth 25 Gbps,
 * router delay 50 us, packet size 64 bytes, shortest-path routing"; section IV.C runs Ring and
 * Recursive Doubling all-reduce on it as E-Ring and E-RD). The seed simulated it in SimGrid and
 * gives nothing but that table row; every choice below that the row does not fix is ours.
 *
 * Topology. Routers have `ports` ports (32). A leaf router gives `leaf_down` ports (default
 * ports/2 = 16) to nodes and the other U = ports - leaf_down (16) to spines, one cable to each of
 * U spine routers; every spine has one cable to every leaf. Nodes are placed in order: node n
 * hangs off leaf n / leaf_down, so L = ceil(N / leaf_down) leaves. With the defaults this is the
 * classic full-bisection two-level tree of 32-port routers: 32 leaves x 16 nodes = 512 nodes and
 * 16 spines. Beyond 512 nodes (the seed's Fig. 5 goes to 1024) a spine would need more than 32
 * ports. Parameter spine_ports says what to do: `auto` (the default) gives the spines as many
 * ports as there are leaves (64 at N = 1024), which keeps full bisection and the seed's two
 * levels; a number caps the spine radix, and a tree that then needs more leaves than a spine has
 * ports is refused with a message naming the remedies (auto, or oversubscribed leaves: leaf_down
 * above ports/2 puts more nodes on each leaf, leaf_down : ports - leaf_down oversubscription).
 * In SimGrid's terms the tree is topology="FAT_TREE" with
 * topo_parameters="2;leaf_down,L;1,U;1,1".
 *
 * Links. Every cable is full duplex: the two directions are separate links of bandwidth_gbps
 * (25 Gb/s, the seed's "router bandwidth" taken per port and per direction). There are 2N node
 * links (injection node -> leaf, ejection leaf -> node) and 2LU leaf-spine links.
 *
 * Routing: shortest path. Inside a leaf, node -> leaf -> node (one router); otherwise node ->
 * leaf -> spine -> leaf -> node (three routers). The spine is chosen by destination, D-mod-k
 * (InfiniBand's ftree routing): spine (dst mod leaf_down) mod U. At full bisection every
 * spine -> leaf link then carries traffic for one destination node only, so downward links never
 * add contention to what the destination's ejection link already has; upward links are shared
 * when two nodes of a leaf send to destinations with the same position on different leaves.
 *
 * Cost of a logical round (one round = one step; the round is the synchronous step of the seeds):
 *  - a transfer of `count` chunks is count x chunk_bytes bytes, cut into whole packets of
 *    packet_bytes (64); no header bytes (the table gives none);
 *  - every directed link carries the packets of all transfers routed over it in the round;
 *  - a transfer is done when its most loaded link has drained (packets x packet_bytes x 8 /
 *    bandwidth: links serve their transfers' packets interleaved, and a transfer's last packet
 *    leaves its bottleneck link no sooner than when that link is empty), plus router_delay_us (50)
 *    for every router on its path. Packets are pipelined over the hops: the per-hop serialisation
 *    of one 64-byte packet (20 ns at 25 Gb/s) is taken to be inside the 50 us router delay, and
 *    cables have no propagation delay of their own (the table gives none);
 *  - the round takes as long as its slowest transfer.
 * Without contention a round is therefore chunk time + one router delay inside a leaf, + three
 * across the spine; the model's step_time (the seed's d/B + a, used by the algorithms' closed
 * forms) is that of the longest path the tree has at this N: 3 routers when there are 2 or more
 * leaves, 1 otherwise. This is a bottleneck (not a max-min fair fluid) model; unlike SimGrid it
 * charges the delay per router, not per cable.
 *
 * Lower bound of a round: the busiest node's injection or ejection packets / bandwidth plus one
 * router delay. steps_lower_bound is the number of rounds (one step per round, nothing is ever
 * split); time_lower_bound_s sums the per-round bounds.
 *
 * Every round's routes and link loads go through the independent check of fattree_check.c. Per
 * round the work is O(transfers): link loads live in arrays stamped with the round, never cleared
 * by a pass over all links. Memory is O(N + L x U) links.
 */
#include "net/fattree.h"
#include "net/model_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ft_params {
    uint64_t ports, leaf_down, spine_ports; /* spine_ports 0 = auto */
    double bandwidth_gbps, router_delay_us;
    uint64_t packet_bytes;
} ft_params;

struct oc__netrun {
    oc__netbase base; /* one step per round: base.steps = base.rounds */
    ft_params p;
    oc__ft_topo t;
    uint64_t spine_radix; /* ports of a spine router as built */
    oc__ft_cost cost;
    /* Links, in this file's numbering: [0, N) injection n -> leaf, [N, 2N) ejection leaf -> n,
     * then leaf l -> spine s at 2N + l*U + s, then spine s -> leaf l at 2N + LU + l*U + s. */
    size_t nlinks;
    uint64_t epoch;  /* rounds seen, counted from 1 */
    uint64_t *stamp; /* epoch of the last round that loaded the link */
    uint64_t *load;  /* packets */
    uint32_t *users; /* transfers */
    uint32_t *touched;
    size_t ntouched, cap_touched;
    /* per-transfer scratch */
    uint32_t (*route)[4]; /* link indices */
    uint8_t *nroute;
    uint64_t *bottleneck;
    oc__ft_path *paths;
    size_t cap;
    oc__ft_link_load *claims;
    size_t cap_claims;
    oc__ft_checker *checker;
    /* totals */
    uint64_t cross_leaf, contended_rounds, max_sharing, max_link_packets;
    uint64_t tx_packets, router_hops; /* of each round's slowest transfer, summed */
    uint64_t lb_packets;              /* busiest node's packets, summed over rounds */
};

/* ---- parameters ---- */

static const char *const ft_param_names[] = {
    "ports", "leaf_down", "spine_ports", "bandwidth_gbps", "router_delay_us", "packet_bytes", NULL};

/* Adds a reason to a parameter's range message. */
static int explain(int rc, char *why, size_t len, const char *reason) {
    if (rc && why && strlen(why) + strlen(reason) + 4 < len) {
        strcat(why, " (");
        strcat(why, reason);
        strcat(why, ")");
    }
    return rc;
}

static int ft_params_read(const oc_kv *kv, ft_params *p, char *why, size_t len) {
    int rc = oc__kv_only(kv, ft_param_names, "fattree network", why, len);
    if (rc) return rc;
    if ((rc = oc__kv_u64(kv, "ports", 32, 2, 1u << 16, &p->ports, why, len)))
        return explain(rc, why, len,
                       "a leaf router needs a port down to a node and a port up to a spine");
    if ((rc = oc__kv_u64(kv, "leaf_down", p->ports / 2, 1, p->ports - 1, &p->leaf_down, why, len)))
        return explain(rc, why, len,
                       "node ports of a leaf router; the other ports go up, one to each spine");
    const char *sp = oc_kv_get(kv, "spine_ports");
    p->spine_ports = 0;
    if (sp && strcmp(sp, "auto") != 0 &&
        (rc = oc__kv_u64(kv, "spine_ports", 0, 2, 1u << 24, &p->spine_ports, why, len)))
        return explain(rc, why, len, "or auto: as many as there are leaves");
    if ((rc = oc__kv_double(kv, "bandwidth_gbps", 25, 1e-6, 1e9, &p->bandwidth_gbps, why, len)))
        return explain(rc, why, len, "per link and direction; must be positive");
    if ((rc = oc__kv_double(kv, "router_delay_us", 50, 0, 1e9, &p->router_delay_us, why, len)) ||
        (rc = oc__kv_u64(kv, "packet_bytes", 64, 1, 1u << 30, &p->packet_bytes, why, len)))
        return rc;
    return 0;
}

/* The tree the settings build for N nodes: as many leaves as N needs, each with its uplinks. */
static int ft_topo_for(const ft_params *p, uint32_t N, oc__ft_topo *t, uint64_t *spine_radix,
                       char *why, size_t len) {
    t->nodes = N;
    t->down = (uint32_t)p->leaf_down;
    t->up = (uint32_t)(p->ports - p->leaf_down);
    t->leaves = (uint32_t)oc__ceil_div(N ? N : 1, p->leaf_down);
    if (p->spine_ports && t->leaves > p->spine_ports)
        return oc__fail(why, len, OC_ENOTSUP,
                        "%u nodes on leaves of %u need %u leaf routers, but spine_ports=%llu "
                        "gives a spine router only %llu: use spine_ports=auto, more spine ports, "
                        "or more nodes per leaf (leaf_down above ports/2, oversubscribed)",
                        N, t->down, t->leaves, (unsigned long long)p->spine_ports,
                        (unsigned long long)p->spine_ports);
    if ((uint64_t)t->leaves * t->up > (UINT64_C(1) << 24))
        return oc__fail(why, len, OC_ETOOBIG,
                        "%u leaves x %u spines is more than 2^24 leaf-spine cables", t->leaves,
                        t->up);
    *spine_radix = p->spine_ports ? p->spine_ports : (t->leaves > p->ports ? t->leaves : p->ports);
    return 0;
}

/* The routers on the longest path the tree has: 3 through a spine, 1 inside the only leaf. */
static uint32_t longest_routers(const oc__netrun *m) {
    return m->t.leaves > 1 ? 3 : 1;
}

/* ---- scratch ---- */

static int reserve(oc__netrun *m, size_t n) {
    const oc__netbuf per_transfer[] = {OC_NETBUF(m->route, 0), OC_NETBUF(m->nroute, 0),
                                       OC_NETBUF(m->bottleneck, 0), OC_NETBUF(m->paths, 0)};
    return oc__netrun_reserve(per_transfer, sizeof per_transfer / sizeof *per_transfer, n, 0,
                              &m->cap);
}

/* The two vertices of link k (this file's numbering), for the check's claims. */
static void link_ends(const oc__netrun *m, uint32_t k, uint32_t *from, uint32_t *to) {
    const uint32_t N = m->t.nodes, U = m->t.up, L = m->t.leaves, D = m->t.down;
    const uint32_t lu = L * U;
    if (k < N) {
        *from = k;
        *to = N + k / D;
    } else if (k < 2 * N) {
        *from = N + (k - N) / D;
        *to = k - N;
    } else if (k < 2 * N + lu) {
        uint32_t i = k - 2 * N;
        *from = N + i / U;
        *to = N + L + i % U;
    } else {
        uint32_t i = k - 2 * N - lu;
        *from = N + L + i % U;
        *to = N + i / U;
    }
}

/* ---- observing ---- */

static void vertex_name(const oc__netrun *m, uint32_t v, char *buf, size_t len) {
    const uint32_t N = m->t.nodes, L = m->t.leaves;
    if (v < N)
        snprintf(buf, len, "node %u", v);
    else if (v < N + L)
        snprintf(buf, len, "leaf %u", v - N);
    else
        snprintf(buf, len, "spine %u", v - N - L);
}

static void ft_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    uint32_t a, b;
    char x[32], y[32];
    link_ends(m, pos, &a, &b);
    vertex_name(m, a, x, sizeof x);
    vertex_name(m, b, y, sizeof y);
    snprintf(buf, len, "%s -> %s", x, y);
}

static void ft_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    (void)m, (void)cls;
    snprintf(buf, len, "link");
}

/* Reports the round (one step, as long as its slowest transfer) to the observer: every
 * transfer as a whole for the timeline (from the round's start until its bottleneck link has
 * drained and its routers are passed), and each link of its route busy for the transfer's own
 * packets, for the utilisation (a link's busy time in the round is its load x packet time). */
static int ft_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, double slowest,
                            char *why, size_t len) {
    int rc = oc__netrun_observe_step(m, index, 0, 1, m->base.clock, slowest, why, len);
    for (size_t i = 0; i < r->count && !rc; i++) {
        const oc__transfer *x = &r->xfers[i];
        uint64_t pk = oc__ceil_div((uint64_t)x->count * m->cost.chunk_bytes, m->cost.packet_bytes);
        uint32_t hops = m->nroute[i] - 1u;
        char res[160];
        snprintf(res, sizeof res, "%s, %u routers, bottleneck %llu packets",
                 hops == 1 ? "inside a leaf" : "through a spine", hops,
                 (unsigned long long)m->bottleneck[i]);
        oc__use u = {.round = index,
                     .step = m->base.rounds,
                     .start_s = m->base.clock,
                     .dur_s = (double)m->bottleneck[i] * m->cost.packet_s +
                              (double)hops * m->cost.router_s,
                     .t = x,
                     .cls0 = 0,
                     .cls1 = 1,
                     .seglen = (uint32_t)m->nlinks,
                     .pos0 = m->route[i][0],
                     .npos = 1,
                     .resource = res,
                     .show = OC_SHOW_TRACE};
        rc = oc__netrun_observe_use(m, &u, why, len);
        u.show = OC_SHOW_LINKS;
        u.dur_s = (double)pk * m->cost.packet_s;
        for (uint32_t k = 0; k < m->nroute[i] && !rc; k++) {
            u.pos0 = m->route[i][k];
            rc = oc__netrun_observe_use(m, &u, why, len);
        }
    }
    m->base.clock += slowest;
    return rc;
}

static int ft_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    if (m->nlinks > UINT32_MAX) return oc__fail(why, len, OC_ETOOBIG, "too many links to observe");
    m->base.obs = obs;
    *g = (oc__grid){.what = "directed link",
                    .class_what = "link",
                    .pos_what = "directed link",
                    .classes = 1,
                    .positions = (uint32_t)m->nlinks,
                    .class_name = ft_class_name,
                    .pos_name = ft_pos_name};
    return 0;
}

/* ---- one round ---- */

static int ft_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const uint32_t N = m->t.nodes, D = m->t.down, U = m->t.up, L = m->t.leaves;
    const uint32_t up0 = 2 * N, down0 = 2 * N + L * U;
    const uint64_t epoch = ++m->epoch;
    const unsigned long long R = (unsigned long long)index;
    if (reserve(m, r->count) ||
        oc__grow((void **)&m->touched, &m->cap_touched, 4 * r->count, sizeof(uint32_t)))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu", R);
    m->ntouched = 0;
    /* 1. Route every transfer and add its packets to the links of its route. */
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        uint64_t bytes;
        int rc = oc__netrun_endpoints(m, index, x, "cannot be routed", why, len);
        if (rc || (rc = oc__netrun_bytes(m, index, x, 1, &bytes, why, len))) return rc;
        uint64_t pk = oc__ceil_div(bytes, m->cost.packet_bytes);
        uint32_t ls = x->src / D, ld = x->dst / D;
        uint32_t *rt = m->route[i];
        oc__ft_path *path = &m->paths[i];
        path->v[0] = x->src;
        path->v[1] = N + ls;
        rt[0] = x->src;
        if (ls == ld) {
            rt[1] = N + x->dst;
            m->nroute[i] = 2;
            path->v[2] = x->dst;
            path->n = 3;
        } else {
            uint32_t s = (x->dst % D) % U; /* D-mod-k */
            rt[1] = up0 + ls * U + s;
            rt[2] = down0 + ld * U + s;
            rt[3] = N + x->dst;
            m->nroute[i] = 4;
            path->v[2] = N + L + s;
            path->v[3] = N + ld;
            path->v[4] = x->dst;
            path->n = 5;
            m->cross_leaf++;
        }
        for (uint32_t k = 0; k < m->nroute[i]; k++) {
            uint32_t l = rt[k];
            if (m->stamp[l] != epoch) {
                m->stamp[l] = epoch;
                m->load[l] = 0;
                m->users[l] = 0;
                m->touched[m->ntouched++] = l;
            }
            m->load[l] += pk;
            m->users[l]++;
        }
    }
    /* 2. Each transfer is as slow as its most loaded link, plus its routers. */
    double slowest = 0;
    uint64_t slow_pk = 0, slow_hops = 0;
    for (size_t i = 0; i < r->count; i++) {
        uint64_t most = 0;
        for (uint32_t k = 0; k < m->nroute[i]; k++)
            if (m->load[m->route[i][k]] > most) most = m->load[m->route[i][k]];
        m->bottleneck[i] = most;
        uint32_t hops = m->nroute[i] - 1u;
        double time = (double)most * m->cost.packet_s + (double)hops * m->cost.router_s;
        if (i == 0 || time > slowest) {
            slowest = time;
            slow_pk = most;
            slow_hops = hops;
        }
    }
    /* 3. Sharing and the node bound, from the loaded links only. */
    uint64_t sharing = 0, node_most = 0;
    for (size_t k = 0; k < m->ntouched; k++) {
        uint32_t l = m->touched[k];
        if (m->users[l] > sharing) sharing = m->users[l];
        if (m->load[l] > m->max_link_packets) m->max_link_packets = m->load[l];
        if (l < 2 * N && m->load[l] > node_most) node_most = m->load[l];
    }
    /* 4. Independent check. */
    if (m->base.check) {
        if (oc__grow((void **)&m->claims, &m->cap_claims, m->ntouched, sizeof(oc__ft_link_load)))
            return oc__fail(why, len, OC_ENOMEM, "out of memory checking round %llu", R);
        for (size_t k = 0; k < m->ntouched; k++) {
            uint32_t l = m->touched[k];
            link_ends(m, l, &m->claims[k].from, &m->claims[k].to);
            m->claims[k].packets = m->load[l];
            m->claims[k].transfers = m->users[l];
        }
        oc__ft_assignment a = {.paths = m->paths,
                               .bottleneck = m->bottleneck,
                               .links = m->claims,
                               .nlinks = m->ntouched,
                               .round_time = slowest};
        int rc = oc__ft_check(m->checker, index, r, &a, &m->cost, why, len);
        if (rc) return rc;
    }
    if (m->base.obs) {
        int rc = ft_observe_round(m, index, r, slowest, why, len);
        if (rc) return rc;
    }
    /* 5. Totals. */
    oc__netrun_mapped(m, 1);
    m->tx_packets += slow_pk;
    m->router_hops += slow_hops;
    m->lb_packets += node_most;
    if (sharing > 1) m->contended_rounds++;
    if (sharing > m->max_sharing) m->max_sharing = sharing;
    return 0;
}

/* ---- model interface ---- */

/* The settings the algorithms and the bounds read (core/netcfg.h): leaves, uplinks, packets and
 * the router delay. */
static void ft_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_FATTREE;
    /* every path crosses at least its leaf's router (core/netcfg.h: oc__netcost) */
    out->cost = (oc__netcost){.least_path_s = m->cost.router_s,
                              /* its leaves: a path through a spine crosses three routers */
                              .group_nodes = m->t.down,
                              .cross_group_s = 3 * m->cost.router_s};
    out->fattree = (oc__fattree_cfg){.leaf_down = m->t.down,
                                     .uplinks = m->t.up,
                                     .packet_bytes = m->cost.packet_bytes,
                                     .packet_s = m->cost.packet_s,
                                     .router_s = m->cost.router_s};
}

static void ft_destroy(oc__netrun *m) {
    if (m) oc__ft_checker_free(m->checker);
    oc__netrun_free(m);
}

/* oc__model.parse: the settings read once a run into the record every creation copies (the
 * tree they build depends on the node count: each creation builds it, ft_topo_for). */
static int ft_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(ft_params) <= OC__NETSET_OWN, "ft_params fits an oc__netset");
    (void)nodes;
    return ft_params_read(params, own, why, len);
}

static int ft_create(const oc__spec *spec, const void *own, int check, oc__netrun **out, char *why,
                     size_t len) {
    *out = NULL;
    const ft_params p = *(const ft_params *)own;
    oc__ft_topo t;
    uint64_t radix = 0;
    int rc = ft_topo_for(&p, spec->nodes, &t, &radix, why, len);
    if (rc) return rc;
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, ft_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->p = p;
    m->t = t;
    m->spine_radix = radix;
    m->cost.chunk_bytes = spec->chunk_bytes;
    m->cost.packet_bytes = p.packet_bytes;
    m->cost.packet_s = (double)p.packet_bytes * 8.0 / (p.bandwidth_gbps * 1e9);
    m->cost.router_s = p.router_delay_us * 1e-6;
    m->nlinks = 2 * (size_t)t.nodes + 2 * (size_t)t.leaves * t.up;
    const oc__netbuf bufs[] = {OC_NETBUF(m->stamp, m->nlinks), OC_NETBUF(m->load, m->nlinks),
                               OC_NETBUF(m->users, m->nlinks), OC_NETBUF(m->touched, 0),
                               OC_NETBUF(m->route, 0),         OC_NETBUF(m->nroute, 0),
                               OC_NETBUF(m->bottleneck, 0),    OC_NETBUF(m->paths, 0),
                               OC_NETBUF(m->claims, 0)};
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, "the fattree model", why, len);
    if (!rc && check && oc__ft_checker_new(&t, &m->checker))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    return oc__netrun_done(m, rc, ft_destroy, out);
}

/* oc__model.reset: the totals back to a new run's, for spec (its chunk size with it). The links'
 * loads need no clearing: a round stamps the links it loads with its epoch, which keeps counting,
 * and reads no link of an older stamp as loaded. The search maps the levels of rhd's factorings
 * alone one after another (search.c, round_alone): on 4096 nodes a fresh run for each allocated
 * and faulted in its scratch every time, a fifth of the search's time in the kernel. */
static void ft_reset(oc__netrun *m, const oc__spec *spec) {
    m->base.spec = spec;
    m->base.rounds = m->base.steps = 0;
    m->base.clock = 0;
    m->cost.chunk_bytes = spec->chunk_bytes;
    m->cross_leaf = m->contended_rounds = m->max_sharing = m->max_link_packets = 0;
    m->tx_packets = m->router_hops = m->lb_packets = 0;
}

/* The seed's d/B + a: one chunk's packets on a free path, plus the routers of the longest path. */
static double ft_step_for(const oc__netrun *m, uint64_t bytes) {
    uint64_t pk = oc__ceil_div(bytes, m->p.packet_bytes);
    return (double)pk * m->cost.packet_s + (double)longest_routers(m) * m->cost.router_s;
}

static double ft_step_time(const oc__netrun *m) {
    return ft_step_for(m, m->base.spec->chunk_bytes);
}

static double ft_step_fixed(const oc__netrun *m) {
    return ft_step_for(m, 0);
}

static int ft_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    const double tx = (double)m->tx_packets * m->cost.packet_s;
    const double delay = (double)m->router_hops * m->cost.router_s;
    const double lb =
        (double)m->lb_packets * m->cost.packet_s + (double)m->base.rounds * m->cost.router_s;
    oc__netrun_figures(rep, m->base.rounds, m->base.rounds, tx + delay);
    int rc = oc__netrun_param(rep, "ports", "%llu", (unsigned long long)m->p.ports);
    rc |= oc__netrun_param(rep, "leaf_down", "%llu", (unsigned long long)m->p.leaf_down);
    rc |= oc__netrun_param(rep, "spine_ports", "%llu", (unsigned long long)m->spine_radix);
    rc |= oc__netrun_param(rep, "bandwidth_gbps", "%g", m->p.bandwidth_gbps);
    rc |= oc__netrun_param(rep, "router_delay_us", "%g", m->p.router_delay_us);
    rc |= oc__netrun_param(rep, "packet_bytes", "%llu", (unsigned long long)m->p.packet_bytes);
    rc |= oc__report_num(rep, "step_time_s", ft_step_time(m));
    rc |= oc__report_num(rep, "time_transmission_s", tx);
    rc |= oc__report_num(rep, "time_router_delay_s", delay);
    rc |= oc__report_num(rep, "time_lower_bound_s", lb);
    rc |= oc__report_num(rep, "time_to_lower_bound_ratio", lb > 0 ? (tx + delay) / lb : 1.0);
    rc |= oc__report_num(rep, "max_link_sharing", (double)m->max_sharing);
    rc |= oc__report_num(rep, "max_link_bytes",
                         (double)m->max_link_packets * (double)m->p.packet_bytes);
    rc |= oc__report_num(rep, "rounds_contended", (double)m->contended_rounds);
    rc |= oc__report_num(rep, "transfers_cross_leaf", (double)m->cross_leaf);
    rc |= oc__report_num(rep, "leaves", (double)m->t.leaves);
    rc |= oc__report_num(rep, "spines", (double)m->t.up);
    rc |= oc__report_num(rep, "oversubscription", (double)m->t.down / (double)m->t.up);
    if (m->spine_radix > m->p.ports && m->p.spine_ports == 0)
        rc |= oc__report_note(rep,
                              "%u nodes need %u leaves of %u nodes: the spine routers have %llu "
                              "ports, not %llu (spine_ports=auto keeps full bisection)",
                              m->t.nodes, m->t.leaves, m->t.down,
                              (unsigned long long)m->spine_radix, (unsigned long long)m->p.ports);
    return oc__netrun_finished(rc, why, len);
}

const oc__model oc__model_fattree = {
    .info = {"fattree",
             "two-level electrical fat-tree (wrht Table II): shortest paths, D-mod-k spines, "
             "contention on shared links",
             "ports=32: per router; leaf_down=ports/2: node ports per leaf (more = "
             "oversubscribed); spine_ports=auto: as many as leaves (or a cap); "
             "bandwidth_gbps=25: Gb/s (bits) per link and direction; router_delay_us=50: per router on a "
             "path; packet_bytes=64"},
    .parse = ft_parse,
    .create = ft_create,
    .sink = oc__netrun_sink,
    .finish = ft_finish,
    .additive = 1, /* a round's cost is its own (search.c caches rounds) */
    .reset = ft_reset,
    .step_time = ft_step_time,
    .step_fixed = ft_step_fixed,
    .channels = oc__netrun_one_channel, /* one link per node and direction */
    .config = ft_config,
    .steps = oc__netrun_steps,
    .destroy = ft_destroy,
    .observe = ft_observe,
};
