/*
 * star.c — the passive optical star with WDMA (seed: passive-optical-star, section 1).
 *
 * P processors hang off a passive star coupler. Each has k tunable lasers and k tunable filters:
 * in one step it can send on up to k wavelengths and receive on up to k; a wavelength has at most
 * one transmitter per step; tuning a device to a new wavelength costs D; one message of L bytes
 * costs L x tau (the seed takes L tau = 1). A chunk of the schedule is one of the seed's messages:
 * a run of SIZE bytes carries m = ceil(SIZE / L) of them (the tcp algorithms' workload,
 * star_tcp.h), so the seed's m is never a parameter and -s changes the time. The model counts a
 * chunk's messages from its bytes, ceil(chunk bytes / L), not one per chunk: an algorithm that
 * sends a block as one chunk pays for its bytes as the tcp algorithms do (one rule for every
 * algorithm).
 *
 * Mapping a logical round. Transfers of one round between the same two processors form one
 * stream (one wavelength carries all their messages). Streams are packed first-fit into physical
 * steps in which every processor sends at most k and receives at most k streams: the seed's
 * algorithms never need more than one step per round; a round that asks more of a processor (a
 * schedule made for a larger k, or the dummy nodes of a P that is not a power of k + 1 folded onto
 * real processors) is split, and the report counts the extra steps.
 *
 * Wavelengths. Lasers are fixed: laser j of processor i is on wavelength i k + j, so two
 * transmitters never meet on one wavelength by construction, and only filters are tuned (the
 * receiver tunes to its sender's wavelength). A stream takes the next free laser of its sender and
 * a free filter of its receiver, one already on the wavelength if there is one. This counts one
 * tuning per stream whose receiver was not already listening. For TCP1 and TCP2 that is exactly
 * the seed's count (TCP1: P - 1 tunings in all; a TCP2 step: P k); the three-phase broadcast
 * needs fewer than the seed's (P-1) + h'Pk, because a phase-3 partner that was a processor's TCP1
 * parent is still on its filter. The report gives both: `streams` (the seed's count) and
 * `retunings` (the model's).
 *
 * Cost, shown both ways the issue asks:
 *  - the seed's way: tuning = (number of retunings) x D, communication = the sum over steps of the
 *    largest stream of the step, in messages, x L tau;
 *  - the critical path: a step takes D if any filter is retuned in it (retunings of one step
 *    happen in parallel) plus its largest stream's L tau; time_s is this sum.
 * time is in the unit D and tau are given in (the seed's unit time by default); the text output
 * prints it in units of tau (oc_report_time_unit), the JSON keeps the number and its *_s names.
 * Every step's assignment goes through the independent check of star_check.c.
 */
#include "net/star.h"
#include "net/model_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct star_params {
    uint64_t k;
    double D, tau, L;
} star_params;

struct oc__netrun {
    oc__netbase base;
    star_params p;
    uint32_t k;
    oc__star_checker *checker;
    uint64_t *filter; /* P x k */
    oc__star_claim *cl;
    size_t cap;
    uint8_t *txu, *rxu; /* per node x sub-step: lasers / filters used */
    size_t cap_use;
    uint32_t *deg;  /* 2P: streams sent / received in the round */
    uint64_t *busy; /* P: filters taken in the current step, one bit each */
    /* totals */
    uint64_t retunes, tuned_steps, messages, split_rounds, streams;
};

#define UNTUNED UINT64_MAX

static const char *const star_param_names[] = {"k", "D", "tau", "L", NULL};

static int star_params_read(const oc_kv *kv, star_params *p, char *why, size_t len) {
    int rc = oc__kv_only(kv, star_param_names, "star network", why, len);
    if (rc) return rc;
    if ((rc = oc__kv_u64(kv, "k", 3, 1, 64, &p->k, why, len)) ||
        (rc = oc__kv_double(kv, "D", 1, 0, 1e12, &p->D, why, len)) ||
        (rc = oc__kv_double(kv, "tau", 1, 0, 1e12, &p->tau, why, len)) ||
        (rc = oc__kv_double(kv, "L", 1, 1, 1e12, &p->L, why, len)))
        return rc;
    return 0;
}

/* The messages of `chunks` chunks of the run: each chunk in ceil(chunk bytes / L) messages of L
 * bytes (a chunk never shares a message with another, so a stream never costs fewer messages
 * than chunks: the chunk-counting physical bound stays sound); the chunks without a payload. */
static uint64_t stream_messages(const oc__netrun *m, uint64_t chunks) {
    const uint64_t cb = m->base.spec->chunk_bytes;
    if (!cb) return chunks;
    return chunks * (uint64_t)ceil((double)cb / m->p.L - 1e-9);
}

static int by_pair(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->src != y->src) return x->src < y->src ? -1 : 1;
    return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static int by_step(const void *a, const void *b) {
    const oc__star_claim *x = a, *y = b;
    if (x->step != y->step) return x->step < y->step ? -1 : 1;
    return by_pair(a, b);
}

/* Reports the round's steps and every transfer's wavelength to the observer (after the check).
 * A step takes D when a filter is retuned in it, then its largest stream; a stream carries its
 * transfers one after another, each count x L tau. The claims (sorted by step) are re-sorted by
 * pair here, after their last use. */
static int star_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, size_t n,
                              uint32_t nsteps, char *why, size_t len) {
    double *start = oc__calloc((size_t)nsteps + 1, sizeof(double));
    uint64_t *most = oc__calloc((size_t)nsteps + 1, sizeof(uint64_t));
    uint64_t *off = oc__calloc(n + 1, sizeof(uint64_t));
    uint8_t *tuned = oc__calloc((size_t)nsteps + 1, 1);
    int rc = 0;
    if (!start || !most || !off || !tuned) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        const oc__star_claim *c = &m->cl[i];
        if (c->messages > most[c->step]) most[c->step] = c->messages;
        tuned[c->step] |= c->retuned == 1;
    }
    const double unit = m->p.L * m->p.tau;
    for (uint32_t s = 0; s < nsteps && !rc; s++) {
        double dur = (tuned[s] ? m->p.D : 0) + (double)most[s] * unit;
        start[s] = m->base.clock;
        rc = oc__netrun_observe_step(m, index, s, 1, m->base.clock, dur, why, len);
        m->base.clock += dur;
    }
    qsort(m->cl, n, sizeof *m->cl, by_pair);
    for (size_t i = 0; i < r->count && !rc; i++) {
        const oc__transfer *x = &r->xfers[i];
        oc__star_claim key = {.src = x->src, .dst = x->dst};
        const oc__star_claim *c = bsearch(&key, m->cl, n, sizeof *m->cl, by_pair);
        if (!c) {
            rc = oc__fail(why, len, OC_ERESOURCE, "round %llu: no stream for %u -> %u",
                          (unsigned long long)index, x->src, x->dst);
            break;
        }
        size_t ci = (size_t)(c - m->cl);
        char res[128];
        snprintf(res, sizeof res, "wavelength %llu (laser %u of %u), filter %u of %u%s",
                 (unsigned long long)c->wavelength, c->tx_port, c->src, c->rx_port, c->dst,
                 c->retuned == 1 ? " (retuned)" : "");
        oc__use u = {.round = index,
                     .step = m->base.steps + c->step,
                     .start_s =
                         start[c->step] + (tuned[c->step] ? m->p.D : 0) +
                         (double)stream_messages(m, off[ci]) * unit,
                     .dur_s = (double)(stream_messages(m, off[ci] + x->count) -
                                       stream_messages(m, off[ci])) *
                              unit,
                     .t = x,
                     .cls0 = 0,
                     .cls1 = 1,
                     .seg = 0,
                     .seglen = m->base.spec->nodes * m->k,
                     .pos0 = (uint32_t)c->wavelength,
                     .npos = 1,
                     .resource = res,
                     .side = OC_USE_PATH};
        off[ci] += x->count;
        rc = oc__netrun_observe_use(m, &u, why, len);
    }
out:
    free(start);
    free(most);
    free(off);
    free(tuned);
    return rc;
}

static void star_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    (void)m, (void)cls;
    snprintf(buf, len, "wavelength");
}

static void star_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    snprintf(buf, len, "wavelength %u (laser %u of processor %u)", pos, pos % m->k, pos / m->k);
}

static int star_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    if ((uint64_t)m->base.spec->nodes * m->k > UINT32_MAX)
        return oc__fail(why, len, OC_ETOOBIG, "too many wavelengths to observe");
    m->base.obs = obs;
    *g = (oc__grid){.what = "wavelength (one laser each)",
                    .class_what = "wavelength",
                    .pos_what = "wavelength",
                    .classes = 1,
                    .positions = m->base.spec->nodes * m->k,
                    .class_name = star_class_name,
                    .pos_name = star_pos_name};
    return 0;
}

static int star_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const uint32_t N = m->base.spec->nodes, k = m->k;
    const unsigned long long R = (unsigned long long)index;
    /* 1. Streams: transfers between the same two processors share one. A run of transfers of
     * one pair (TCP2's all-to-all sends a partner P / (k+1) label ranges, one after another) is
     * one claim as it is read, so the claims grow with the streams, not the transfers (40 bytes
     * a transfer were 0.7 GB on a round of 12.6 million at P = 4096). */
    size_t n = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        int rc = oc__netrun_endpoints(m, index, x, "cannot be sent", why, len);
        if (rc) return rc;
        if (n && m->cl[n - 1].src == x->src && m->cl[n - 1].dst == x->dst) {
            m->cl[n - 1].messages += x->count;
            continue;
        }
        if (oc__grow((void **)&m->cl, &m->cap, n + 2, sizeof *m->cl))
            return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu", R);
        m->cl[n++] = (oc__star_claim){.src = x->src, .dst = x->dst, .messages = x->count};
    }
    qsort(m->cl, n, sizeof *m->cl, by_pair);
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (s && m->cl[s - 1].src == m->cl[i].src && m->cl[s - 1].dst == m->cl[i].dst)
            m->cl[s - 1].messages += m->cl[i].messages;
        else
            m->cl[s++] = m->cl[i];
    }
    n = s;
    if (n == 0) return 0;
    /* Chunks to messages: a chunk is carried in messages of L bytes, so every algorithm pays for
     * its bytes alike, whether it sends a block as one chunk or as messages (a run without
     * payload counts its chunks). */
    const uint64_t cb = m->base.spec->chunk_bytes;
    if (cb)
        for (size_t i = 0; i < n; i++)
            m->cl[i].messages = stream_messages(m, m->cl[i].messages);
    /* 2. First-fit into steps of at most k streams out of and into every processor. */
    uint32_t maxdeg = 0;
    for (size_t i = 0; i < n; i++) {
        m->deg[m->cl[i].src] = 0;
        m->deg[N + m->cl[i].dst] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t a = ++m->deg[m->cl[i].src], b = ++m->deg[N + m->cl[i].dst];
        if (a > maxdeg) maxdeg = a;
        if (b > maxdeg) maxdeg = b;
    }
    const size_t S = 2 * (size_t)oc__ceil_div(maxdeg, k) + 1;
    if (oc__grow((void **)&m->txu, &m->cap_use, (size_t)N * S, 1))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu", R);
    size_t cap_rx = m->cap_use;
    free(m->rxu);
    m->rxu = calloc(cap_rx, 1);
    if (!m->rxu) return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu", R);
    memset(m->txu, 0, (size_t)N * S);
    uint32_t nsteps = 0;
    for (size_t i = 0; i < n; i++) {
        oc__star_claim *c = &m->cl[i];
        size_t st = 0;
        while (m->txu[(size_t)c->src * S + st] >= k || m->rxu[(size_t)c->dst * S + st] >= k)
            st++;
        c->step = (uint32_t)st;
        c->tx_port = m->txu[(size_t)c->src * S + st]++;
        m->rxu[(size_t)c->dst * S + st]++;
        c->wavelength = (uint64_t)c->src * k + c->tx_port;
        if (st + 1 > nsteps) nsteps = (uint32_t)(st + 1);
    }
    /* 3. Filters, step by step: first the streams whose receiver already listens, then the rest
     * on free filters (a retuning each). */
    qsort(m->cl, n, sizeof *m->cl, by_step);
    const uint64_t retunes0 = m->retunes, messages0 = m->messages;
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        while (hi < n && m->cl[hi].step == m->cl[lo].step)
            hi++;
        uint64_t most = 0, retunes = 0;
        for (size_t i = lo; i < hi; i++) {
            m->cl[i].rx_port = UINT32_MAX;
            m->cl[i].retuned = 2; /* undecided */
            m->busy[m->cl[i].dst] = 0;
        }
        for (int pass = 0; pass < 2; pass++)
            for (size_t i = lo; i < hi; i++) {
                oc__star_claim *c = &m->cl[i];
                if (c->retuned != 2) continue;
                uint64_t *f = &m->filter[(size_t)c->dst * k];
                const uint64_t busy = m->busy[c->dst];
                uint32_t pick = UINT32_MAX;
                for (uint32_t p = 0; p < k && pick == UINT32_MAX; p++)
                    if (!(busy >> p & 1) && f[p] == c->wavelength) pick = p;
                if (pass == 0) {
                    if (pick != UINT32_MAX) {
                        c->rx_port = pick;
                        c->retuned = 0;
                        m->busy[c->dst] |= UINT64_C(1) << pick;
                    }
                    continue;
                }
                for (uint32_t p = 0; p < k && pick == UINT32_MAX; p++)
                    if (!(busy >> p & 1)) pick = p;
                c->rx_port = pick;
                c->retuned = f[pick] != c->wavelength;
                m->busy[c->dst] |= UINT64_C(1) << pick;
            }
        for (size_t i = lo; i < hi; i++) {
            oc__star_claim *c = &m->cl[i];
            m->filter[(size_t)c->dst * k + c->rx_port] = c->wavelength;
            retunes += c->retuned;
            if (c->messages > most) most = c->messages;
        }
        m->retunes += retunes;
        m->tuned_steps += retunes > 0;
        m->messages += most;
        lo = hi;
    }
    if (m->base.check) {
        uint64_t cs, cr, cm;
        int rc =
            oc__star_check(m->checker, index, m->base.steps, r, m->cl, n, &cs, &cr, &cm, why, len);
        if (rc) return rc;
        if (cs != nsteps || cr != m->retunes - retunes0 || cm != m->messages - messages0)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: the model costs %u steps, %llu retunings, %llu messages; "
                            "the check recomputes %llu, %llu, %llu",
                            R, nsteps, (unsigned long long)(m->retunes - retunes0),
                            (unsigned long long)(m->messages - messages0), (unsigned long long)cs,
                            (unsigned long long)cr, (unsigned long long)cm);
    }
    if (m->base.obs) {
        int rc = star_observe_round(m, index, r, n, nsteps, why, len);
        if (rc) return rc;
    }
    oc__netrun_mapped(m, nsteps);
    m->streams += n;
    m->split_rounds += nsteps > 1;
    return 0;
}

static void star_destroy(oc__netrun *m) {
    if (m) oc__star_checker_free(m->checker);
    oc__netrun_free(m);
}

/* oc__model.parse: the settings read once a run into the record every creation copies. */
static int star_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(star_params) <= OC__NETSET_OWN, "star_params fits an oc__netset");
    (void)nodes;
    return star_params_read(params, own, why, len);
}

static int star_create(const oc__spec *spec, const void *own, int check, oc__netrun **out,
                       char *why, size_t len) {
    *out = NULL;
    const star_params p = *(const star_params *)own;
    int rc = 0;
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, star_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->p = p;
    m->k = (uint32_t)p.k;
    const size_t P = spec->nodes, nf = P * m->k + 1;
    const oc__netbuf bufs[] = {OC_NETBUF(m->filter, nf),  OC_NETBUF(m->deg, 2 * P + 1),
                               OC_NETBUF(m->busy, P + 1), OC_NETBUF(m->cl, 0),
                               OC_NETBUF(m->txu, 0),      OC_NETBUF(m->rxu, 0)};
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, "the star model", why, len);
    if (!rc && check &&
        oc__star_checker_new(spec->nodes, m->k, spec->chunk_bytes, p.L, &m->checker))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < nf; i++)
        m->filter[i] = UNTUNED;
    return oc__netrun_done(m, rc, star_destroy, out);
}

/* One step carrying one chunk after a tuning: D + its messages x L tau (one message when the
 * chunk is at most L bytes, as the tcp algorithms cut them). Without a payload (the pipeline's
 * probe of what a step costs whatever it carries) only D is left, so the closed forms can tell
 * the tuning time from the message time. */
static double star_step_time(const oc__netrun *m) {
    return m->p.D + (double)stream_messages(m, m->base.spec->chunk_bytes ? 1 : 0) * m->p.L * m->p.tau;
}

/* A step without a message: its tuning alone (no chunk, no stream). */
static double star_step_fixed(const oc__netrun *m) {
    return m->p.D + (double)stream_messages(m, 0) * m->p.L * m->p.tau;
}

/* k, D, tau and L typed for the physical bounds (core/netcfg.h, src/bounds). */
static void star_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_STAR;
    out->cost = (oc__netcost){0}; /* no rule of a round for the algorithms' bounds */
    out->star = (oc__star_cfg){.k = m->p.k, .D = m->p.D, .tau = m->p.tau, .L = m->p.L};
}

static uint64_t star_channels(const oc__netrun *m) {
    return m->k;
}

static int star_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    const double comm = (double)m->messages * m->p.L * m->p.tau;
    const double tune_seed = (double)m->retunes * m->p.D;
    const double tune_path = (double)m->tuned_steps * m->p.D;
    oc__netrun_figures(rep, m->base.steps, m->base.rounds, comm + tune_path);
    /* The seed's times are unitless (L tau = 1): they are printed in units of tau (of D when
     * tau = 0), and the JSON keeps its *_s names; the physical bound asks the same helper. */
    oc__netcfg cfg;
    star_config(m, &cfg);
    snprintf(rep->time_unit, sizeof rep->time_unit, "%s",
             oc__netcfg_time_unit(&cfg, &rep->time_unit_value));
    int rc = oc__netrun_param(rep, "k", "%llu", (unsigned long long)m->p.k);
    rc |= oc__netrun_param(rep, "D", "%g", m->p.D);
    rc |= oc__netrun_param(rep, "tau", "%g", m->p.tau);
    rc |= oc__netrun_param(rep, "L", "%g", m->p.L);
    rc |= oc__report_num(rep, "communication_cost", comm);
    rc |= oc__report_num(rep, "communication_messages", (double)m->messages);
    rc |= oc__report_num(rep, "retunings", (double)m->retunes);
    rc |= oc__report_num(rep, "tuning_cost_total", tune_seed);
    rc |= oc__report_num(rep, "tuning_cost_critical_path", tune_path);
    rc |= oc__report_num(rep, "seed_total_cost", comm + tune_seed);
    rc |= oc__report_num(rep, "streams", (double)m->streams);
    rc |= oc__report_num(rep, "rounds_split", (double)m->split_rounds);
    if (m->split_rounds)
        rc |= oc__report_note(
            rep,
            "%llu of %llu rounds asked more than k = %u wavelengths of a "
            "processor and were split: %llu steps for %llu rounds",
            (unsigned long long)m->split_rounds, (unsigned long long)m->base.rounds, m->k,
            (unsigned long long)m->base.steps, (unsigned long long)m->base.rounds);
    return oc__netrun_finished(rc, why, len);
}

const oc__model oc__model_star = {
    .info = {"star",
             "passive optical star, WDMA (passive-optical-star section 1): k lasers and filters "
             "per processor, one transmitter per wavelength, tuning D",
             "k=3: wavelengths a processor sends and receives on per step; D=1: tuning time; "
             "tau=1: transmission time per byte; L=1: message length in bytes (one message costs L "
             "tau; "
             "a run of SIZE bytes carries m = ceil(SIZE / L) messages)"},
    .parse = star_parse,
    .create = star_create,
    .sink = oc__netrun_sink,
    .finish = star_finish,
    .step_time = star_step_time,
    .step_fixed = star_step_fixed,
    .channels = star_channels,
    .config = star_config,
    .steps = oc__netrun_steps,
    .destroy = star_destroy,
    .observe = star_observe,
};
