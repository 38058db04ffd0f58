/*
 * switch.c — the ideal electrical switch: the lumorph seed's "hardest baseline" (section 4: "an
 * electrical interconnect that has an ideal switch with no queuing delays", on which NCCL's Ring
 * and Tree all-reduce run). The seed costs it with the alpha-beta model of TACCL (its [2]):
 * alpha = 0.7 us per message ("the alpha value of 0.7 us, derived by recent work for NVLinks") and
 * 300 GB/s of NVLink bandwidth per GPU and direction, so beta = 1 / (300e9) s per byte.
 *
 * Model. Every node has one port to the switch, full duplex: one sender and one receiver. The
 * switch itself never queues and never contends: a transfer of c chunks costs
 *     alpha + c x chunk_bytes x beta
 * whatever the other transfers of the round do, as long as its sender and its receiver are free.
 * The seed's algorithms are written for that port limit (one send and one receive per node and
 * round: ring, recursive halving/doubling in radix 2). A round in which a node sends (or receives)
 * k > 1 transfers is not refused: the node's port serialises them, so that port is busy for
 *     sum over its transfers of (alpha + bytes x beta)
 * and the round is split into k physical steps. The round's time is that of its busiest port,
 * send or receive side: ports work in parallel, transfers on one port one after another. This is
 * how radix-r recursive halving (Lumorph-4) costs on the switch, (r-1)(alpha + m beta) per level:
 * the switch cannot split a GPU's bandwidth over several circuits for free, the photonic fabric
 * can (that is the seed's point, and the `fabric` model's business).
 *
 * Figures: steps = sum over rounds of the largest port degree; the time is kept as two exact
 * counts (the alphas and the bytes on each round's busiest port) and priced at the end,
 * time = alphas x alpha + bytes x beta, so the closed forms of the algorithms (ring: 2(N-1) alpha
 * + 2(N-1)/N n beta; rhd: 2 log2(N) alpha + 2(N-1)/N n beta) are met to the last rounding. The
 * lower bound in steps is the same sum of port degrees (a port does one transfer per step).
 * Every round's port accounting goes through the independent check of switch_check.c.
 * Work per round is O(transfers): port loads live in an array stamped with the round.
 */
#include "net/switch.h"
#include "net/model_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A port's load in the round stamped `epoch` (one line of memory with its stamp). */
struct port {
    uint64_t epoch, msgs, bytes;
};

struct oc__netrun {
    oc__netbase base;       /* base.steps: the sum of each round's largest port degree */
    double alpha_s, beta_s; /* per message, per byte */
    double alpha_us, gbytes;
    uint32_t nodes;
    uint64_t epoch;
    struct port *ports;       /* 2N ports: sends [0, N), receives [N, 2N) */
    uint64_t alphas, payload; /* of each round's busiest port, summed */
    uint64_t split_rounds, max_degree, transfers;
    oc__sw_checker *checker; /* NULL when not checking */
    /* for the observer */
    double *port_at; /* 2N: time each port has been busy in the round */
    uint64_t *port_stamp;
    oc__round flat; /* a family round written out, when it is not taken whole */
};

/* Reports the round to the observer (after the check): one step() for the round's `degree`
 * steps, whose time is the busiest port's; every transfer holds its sender's send port and its
 * receiver's receive port for alpha + bytes x beta, one transfer after another on each port. */
static int sw_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, uint64_t degree,
                            double round_time, char *why, size_t len) {
    const uint32_t N = m->nodes;
    int rc = oc__netrun_observe_step(m, index, 0, degree, m->base.clock, round_time, why, len);
    for (size_t i = 0; i < r->count && !rc; i++) {
        const oc__transfer *x = &r->xfers[i];
        const double d =
            m->alpha_s + (double)x->count * (double)m->base.spec->chunk_bytes * m->beta_s;
        const uint32_t port[2] = {x->src, N + x->dst};
        for (int k = 0; k < 2 && !rc; k++) {
            uint32_t p = port[k];
            if (m->port_stamp[p] != m->epoch) {
                m->port_stamp[p] = m->epoch;
                m->port_at[p] = 0;
            }
            char res[64];
            snprintf(res, sizeof res, "%s port of node %u", k ? "receive" : "send",
                     k ? x->dst : x->src);
            oc__use u = {.round = index,
                         .step = m->base.steps,
                         .start_s = m->base.clock + m->port_at[p],
                         .dur_s = d,
                         .t = x,
                         .cls0 = (uint32_t)k,
                         .cls1 = (uint32_t)k + 1,
                         .seg = 0,
                         .seglen = N,
                         .pos0 = k ? x->dst : x->src,
                         .npos = 1,
                         .resource = res,
                         .side = k ? OC_USE_RECV : OC_USE_SEND};
            m->port_at[p] += d;
            rc = oc__netrun_observe_use(m, &u, why, len);
        }
    }
    m->base.clock += round_time;
    return rc;
}

static const char *const sw_param_names[] = {"alpha_us", "bandwidth_gbytes", NULL};

static int sw_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const uint32_t N = m->nodes;
    const uint64_t epoch = ++m->epoch, cb = m->base.spec->chunk_bytes;
    /* a transfer above this many chunks is refused by oc__netrun_bytes (its bytes, doubled, would
     * not fit 64 bits): the division is made once a round, not once a transfer */
    const uint64_t most = cb ? UINT64_MAX / 2 / cb : UINT64_MAX;
    uint64_t degree = 0, best_n = 0, best_b = 0;
    double best = -1;
    if (r->is_family) {
        /* A family of every node with a hop in 1..N-1: each node sends one transfer and receives
         * one (the hop is a bijection), so every port is a busiest one, with one transfer of
         * width chunks: what the loop below finds, in O(1). Proven by the check's own argument. */
        const oc__family *f = &r->family;
        if (!m->base.obs && f->n == N && N >= 2 && f->hop >= 1 && f->hop < N && f->width <= most) {
            const oc__sw_claim claim = {.degree = 1, .msgs = 1, .bytes = (uint64_t)f->width * cb};
            int decided = 1;
            if (m->checker) oc__sw_check_family(index, f, N, cb, &claim, &decided);
            if (decided) {
                oc__netrun_mapped(m, 1);
                m->alphas += 1;
                m->payload += claim.bytes;
                m->transfers += N;
                if (m->max_degree < 1) m->max_degree = 1;
                return 0;
            }
        }
        if (oc__family_expand(f, &m->flat))
            return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                            (unsigned long long)index);
        r = &m->flat;
    }
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (x->src >= N || x->dst >= N || x->src == x->dst || x->count > most) {
            uint64_t b;
            int rc = oc__netrun_endpoints(m, index, x,
                                          "is not between two different nodes of the switch", why,
                                          len);
            if (rc || (rc = oc__netrun_bytes(m, index, x, 2, &b, why, len))) return rc;
        }
        const uint64_t b = (uint64_t)x->count * cb;
        struct port *const port[2] = {&m->ports[x->src], &m->ports[N + x->dst]};
        for (int k = 0; k < 2; k++) {
            struct port *p = port[k];
            if (p->epoch != epoch) *p = (struct port){epoch, 0, 0};
            p->msgs++;
            p->bytes += b;
            if (p->msgs > degree) degree = p->msgs;
            /* no more transfers and bytes than the busiest so far: not longer (alpha, beta >= 0
             * and rounding is monotone), so its time is not computed */
            if (best >= 0 && p->msgs <= best_n && p->bytes <= best_b) continue;
            double t = (double)p->msgs * m->alpha_s + (double)p->bytes * m->beta_s;
            if (t > best) {
                best = t;
                best_n = p->msgs;
                best_b = p->bytes;
            }
        }
    }
    /* A port's load only grows within the round, so the last maximum seen is the busiest port. */
    if (m->checker) {
        oc__sw_claim claim = {.degree = degree, .msgs = best_n, .bytes = best_b};
        int rc = oc__sw_check(m->checker, index, r, N, m->base.spec->chunk_bytes, m->alpha_s,
                              m->beta_s, &claim, why, len);
        if (rc) return rc;
    }
    if (m->base.obs) {
        int rc = sw_observe_round(m, index, r, degree, best, why, len);
        if (rc) return rc;
    }
    oc__netrun_mapped(m, degree);
    m->alphas += best_n;
    m->payload += best_b;
    m->transfers += r->count;
    if (degree > 1) m->split_rounds++;
    if (degree > m->max_degree) m->max_degree = degree;
    return 0;
}

static void sw_destroy(oc__netrun *m) {
    if (m) oc__sw_checker_free(m->checker);
    oc__netrun_free(m);
}

static void sw_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    (void)m;
    snprintf(buf, len, "%s", cls ? "receive" : "send");
}

static void sw_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    (void)m;
    snprintf(buf, len, "port of node %u", pos);
}

static int sw_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    m->port_at = oc__calloc(2 * (size_t)m->nodes + 1, sizeof(double));
    m->port_stamp = oc__calloc(2 * (size_t)m->nodes + 1, sizeof(uint64_t));
    if (!m->port_at || !m->port_stamp) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->base.obs = obs;
    *g = (oc__grid){.what = "node port x side (send, receive)",
                    .class_what = "side",
                    .pos_what = "node port",
                    .classes = 2,
                    .positions = m->nodes,
                    .class_name = sw_class_name,
                    .pos_name = sw_pos_name};
    return 0;
}

/* The settings as the user wrote them (net/netset.c keeps them for the run). */
typedef struct sw_params {
    double alpha_us, gbytes;
} sw_params;

/* oc__model.parse: the settings read once a run into the record every creation copies. */
static int sw_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(sw_params) <= OC__NETSET_OWN, "sw_params fits an oc__netset");
    (void)nodes;
    sw_params *p = own;
    int rc = oc__kv_only(params, sw_param_names, "switch network", why, len);
    if (rc || (rc = oc__kv_double(params, "alpha_us", 0.7, 0, 1e9, &p->alpha_us, why, len)) ||
        (rc = oc__kv_double(params, "bandwidth_gbytes", 300, 1e-9, 1e12, &p->gbytes, why, len)))
        return rc;
    return 0;
}

static int sw_create(const oc__spec *spec, const void *own, int check, oc__netrun **out, char *why,
                     size_t len) {
    *out = NULL;
    const sw_params *p = own;
    const double alpha_us = p->alpha_us, gbytes = p->gbytes;
    int rc = 0;
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, sw_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->nodes = spec->nodes;
    m->alpha_us = alpha_us;
    m->gbytes = gbytes;
    m->alpha_s = alpha_us * 1e-6;
    m->beta_s = 1.0 / (gbytes * 1e9);
    const size_t ports = 2 * (size_t)spec->nodes;
    const oc__netbuf bufs[] = {OC_NETBUF(m->ports, ports), OC_NETBUF(m->port_at, 0),
                               OC_NETBUF(m->port_stamp, 0), OC_NETBUF(m->flat.xfers, 0)};
    m->base.sink.takes_family = 1; /* sw_round: a family is taken whole or written out */
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, "the switch model", why, len);
    if (!rc && check && oc__sw_checker_new(&m->checker))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    return oc__netrun_done(m, rc, sw_destroy, out);
}

/* The port costs, typed for the physical bounds (core/netcfg.h, src/bounds). */
static void sw_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_SWITCH;
    /* a port's transfers of a round one after another, alpha each (core/netcfg.h: oc__netcost) */
    out->cost = (oc__netcost){.alpha_per_transfer = 1};
    out->sw = (oc__switch_cfg){.alpha_s = m->alpha_s, .beta_s = m->beta_s};
}

/* One chunk on a free port pair: alpha + chunk_bytes x beta. */
static double sw_step_for(const oc__netrun *m, uint64_t bytes) {
    return m->alpha_s + (double)bytes * m->beta_s;
}

static double sw_step_time(const oc__netrun *m) {
    return sw_step_for(m, m->base.spec->chunk_bytes);
}

static double sw_step_fixed(const oc__netrun *m) {
    return sw_step_for(m, 0);
}

static int sw_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    const double ta = (double)m->alphas * m->alpha_s, tb = (double)m->payload * m->beta_s;
    oc__netrun_figures(rep, m->base.steps, m->base.steps, ta + tb);
    int rc = oc__netrun_param(rep, "alpha_us", "%g", m->alpha_us);
    rc |= oc__netrun_param(rep, "bandwidth_gbytes", "%g", m->gbytes);
    rc |= oc__report_num(rep, "step_time_s", sw_step_time(m));
    rc |= oc__report_num(rep, "time_alpha_s", ta);
    rc |= oc__report_num(rep, "time_beta_s", tb);
    rc |= oc__report_num(rep, "alphas", (double)m->alphas);
    rc |= oc__report_num(rep, "critical_bytes", (double)m->payload);
    rc |= oc__report_num(rep, "rounds_serialised", (double)m->split_rounds);
    rc |= oc__report_num(rep, "max_port_degree", (double)m->max_degree);
    if (m->split_rounds)
        rc |=
            oc__report_note(rep,
                            "%llu rounds have a node sending or receiving up to %llu transfers: "
                            "its port serialises them (one step each)",
                            (unsigned long long)m->split_rounds, (unsigned long long)m->max_degree);
    return oc__netrun_finished(rc, why, len);
}

const oc__model oc__model_switch = {
    .info =
        {"switch",
         "ideal electrical switch (lumorph's baseline): alpha-beta per transfer, no "
         "contention, one send and one receive port per node",
         "alpha_us=0.7: per message; bandwidth_gbytes=300: GB/s (bytes) per node and direction"},
    .parse = sw_parse,
    .create = sw_create,
    .sink = oc__netrun_sink,
    .finish = sw_finish,
    .additive = 1, /* a round's cost is its own (search.c caches rounds) */
    .step_time = sw_step_time,
    .step_fixed = sw_step_fixed,
    .channels = oc__netrun_one_channel, /* one port per node and direction */
    .config = sw_config,
    .steps = oc__netrun_steps,
    .destroy = sw_destroy,
    .observe = sw_observe,
};
