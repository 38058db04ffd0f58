/*
 * fabric.c — the Lumorph photonic rack (seed: "Chip-to-chip photonic connectivity in
 * multi-accelerator servers for ML"). Servers are Lightpath wafers of up to 32 tiles, one GPU per
 * tile (section 2: "A Lightpath wafer has 32 or fewer tiles"); a tile has up to 16
 * wavelength-multiplexed lasers (section 2); MZI switches set up circuits between tiles of a
 * server and, over fibres attached to the tiles, between servers (sections 2, 3); reconfiguring
 * the MZIs takes 3.7 us (section 2). The collectives are costed with TACCL's alpha-beta model
 * (section 4, its [2]): alpha = 0.7 us per message and 300 GB/s per GPU and direction, the
 * figures of the seed's ideal-switch baseline (switch.c).
 *
 * Model. Node i is tile i mod T of server i / T (T = tiles_per_server, default 32). A logical
 * round is a set of circuits, one per transfer src -> dst, all live at once (section 4: "a GPU ...
 * communicate[s] with multiple GPUs in a single round ... by splitting a GPU's total egress
 * bandwidth across multiple wavelength-switched circuits"). A tile's W wavelengths (default 16) are
 * split over its concurrent circuits in whole wavelengths: a circuit gets
 *     w = min(floor(W / sender's circuits), floor(W / receiver's circuits))
 * so radix-4 halving (3 circuits per tile) uses 3 x 5 = 15 of the 16 wavelengths. Each wavelength
 * carries bandwidth / W (300 GB/s / 16 = 18.75 GB/s). A transfer of b bytes takes
 *     alpha + b / (w x bandwidth / W)
 * and the round takes its slowest transfer, plus the reconfiguration time when its circuit set
 * (the sorted list of (src, dst)) differs from the previous round's; the first round always pays
 * it (the circuits must be set up). Ring all-reduce therefore pays one reconfiguration: its
 * circuits never change (section 3, Fig. 2b: the ring topology is configured once at the start).
 *
 * Fibres. Circuits between two servers travel on the fibres from the sender's server to the
 * receiver's; a fibre carries W wavelengths, like the tile it is attached to (section 2: "Fibers
 * can be attached to each tile"), so a server pair carries at most fibres x W wavelengths in each
 * direction. The seed gives no count, only that arbitrary allocations work "given enough fibers
 * between servers" (section 3); the default, fibres_between_servers = 32 per ordered pair (one
 * per tile), is enough for every tile to send all its wavelengths to one peer server at once —
 * what radix-2 and radix-4 recursive halving/doubling need at N = 256 (radix 2 puts 32 circuits
 * of 16 wavelengths on a pair, radix 4 up to 64 circuits of 5). With fewer fibres the fabric
 * degrades instead of failing: when a pair's k circuits want more than its C = fibres x W
 * wavelengths, they share them, floor(C / k) each (at most their tile share), and when k > C
 * they get one wavelength each and run in ceil(k / C) passes of C circuits, each pass one more
 * step with its own alpha and reconfiguration (the report counts fibre_shared_circuits and
 * fibre_extra_steps). Only a round that needs a fibre where there is none (fibres = 0) or more
 * circuits at a tile than it has wavelengths is refused with OC_ERESOURCE naming the round and
 * the servers or tile. Every round then goes through the independent check of fabric_check.c.
 *
 * MZI degree. A tile's switches are "MZI-based optical switches of 1X3 degree" (section 2), and
 * Fig. 1(a) shows them holding an all-to-all of four tiles: three concurrent circuits out of a
 * tile and three into it. mzi_degree (default 3) is that limit: a round in which a tile sends or
 * receives on more concurrent circuits is refused with OC_ERESOURCE naming the tile and the
 * limit. So Lumorph-4 (radix 4: 3 circuits) fits the seed's switch exactly and radix 8 (7
 * circuits) does not; the parameter search skips such candidates as refused (`run --explain`).
 * mzi_degree=0 lifts the limit (a switch tree of any degree: only the wavelengths then bound
 * the circuits, W of them). mzi_split=1 (ours; the seed says nothing of rounds above the degree)
 * runs such a round in more steps instead: its circuits are edge-coloured (Konig: d colours for
 * a busiest tile of d circuits, no tile sending or receiving two of one colour) and colours
 * c = qD .. qD + D-1 form pass q, so the round takes ceil(d / D) passes, the fewest possible;
 * each pass is costed like a round of its own (alpha, a reconfiguration since its circuits are
 * new, its circuits sharing their tiles' wavelengths, its own fibre passes) and checked by
 * fabric_check.c. The report counts mzi_split_rounds and mzi_extra_steps. Radix 8 on the 1x3
 * switch: 7 circuits in passes of 3, 3 and 1.
 *
 * Figures: steps = rounds (all circuits of a round run at once); the time is kept as three terms,
 * time_alpha_s (rounds x alpha), time_reconfig_s (reconfigurations x 3.7 us) and time_bandwidth_s
 * (per round, the slowest circuit's bytes over its bandwidth), reported separately.
 * Work per round is O(T log T) for T transfers (the sort of the circuit set).
 */
#include "net/fabric.h"
#include "net/model_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct oc__netrun {
    oc__netbase base; /* one step per round: base.steps = base.rounds */
    oc__fab_shape shape;
    double alpha_s, reconfig_s, wl_rate; /* per message, per change, bytes/s per wavelength */
    double alpha_us, reconfig_us, gbytes;
    uint64_t epoch;
    uint64_t *stamp;    /* per node */
    uint32_t *out, *in; /* circuits per node this round */
    uint64_t *used;     /* wavelengths each node sends on this round */
    uint32_t *wl;       /* wavelengths per transfer this round */
    size_t wl_cap;
    uint64_t *cur, *prev; /* sorted circuit sets (src << 32 | dst) */
    size_t cur_cap, prev_cap, prev_n;
    uint64_t reconfigs, transfers, cross, shared, extra_steps;
    int mzi_split;              /* run a round above the MZI degree in passes (mzi_split=1) */
    uint64_t mzi_rounds, mzi_extra_steps; /* rounds split, the steps they added */
    oc__round sub;              /* one pass of a split round */
    uint32_t *mzi_pass;         /* per transfer: its pass, UINT32_MAX while unassigned */
    size_t mzi_pass_cap;
    uint32_t *pout, *pin;       /* per node: circuits out / in in the pass being filled */
    uint64_t *pstamp;
    uint32_t *pass; /* per transfer this round: its pass (0 unless its fibres are short) */
    size_t pass_cap;
    double *slow; /* per pass: the slowest circuit */
    size_t slow_cap;
    struct fab_pair *pairs; /* this round's circuits between servers, sorted by server pair */
    size_t pairs_cap;
    double t_bw;
    uint64_t max_tile_wl, min_wl, max_circuits, max_pair_wl;
    oc__fab_checker *checker; /* NULL when not checking */
    /* for the observer */
    uint32_t *wl_next; /* per node: the next of its wavelengths to hand out this round */
    /* per ordered pair of servers: the next fibre wavelength slot (fibre x W + wavelength) and
     * the round that set it; NULL when the fibres are too many to report */
    uint64_t *pair_next, *pair_stamp;
    uint32_t servers;
};

/* Position of fibre f from server a to server b (a != b) in the observer's grid, after the
 * N tiles. */
static uint64_t fibre_pos(const oc__netrun *m, uint32_t a, uint32_t b, uint64_t f) {
    uint64_t pair = (uint64_t)a * (m->servers - 1) + (b < a ? b : b - 1);
    return m->shape.nodes + pair * m->shape.fibres + f;
}

/* Reports the round (one step: reconfiguration if the circuit set changed, then alpha and the
 * slowest circuit) to the observer. A circuit's w wavelengths are numbered in the order of the
 * sender's transfers (0..w-1 for the first, ...): the model gives each a count, the numbering is
 * ours. Each holds its wavelengths for alpha + its bytes / (w x rate), after the
 * reconfiguration. A circuit between servers also holds w wavelength slots on the fibres from
 * its server to the other, handed out in order (slot j: fibre j / W, wavelength j mod W; the
 * model checks that a pair never needs more than fibres x W): counted for the utilisation, not
 * drawn again in the timeline. */
static int fab_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, int reconf,
                             uint64_t first, uint32_t passes, char *why, size_t len) {
    const double setup = reconf ? m->reconfig_s : 0;
    /* pass q starts after the setup, the passes before it and its own reconfiguration; m->slow
     * becomes each pass's start (relative to the round's) */
    double dur = setup;
    for (uint32_t q = 0; q < passes; q++) {
        const double d = m->slow[q];
        if (q) dur += m->reconfig_s;
        m->slow[q] = dur;
        dur += m->alpha_s + d;
    }
    int rc = oc__netrun_observe_step(m, index, first, passes, m->base.clock, dur, why, len);
    for (size_t i = 0; i < r->count; i++)
        m->wl_next[r->xfers[i].src] = 0;
    const uint32_t T = m->shape.tiles_per_server;
    for (size_t i = 0; i < r->count && !rc; i++) {
        const oc__transfer *x = &r->xfers[i];
        const uint32_t w0 = m->wl_next[x->src];
        m->wl_next[x->src] += m->wl[i];
        char res[128];
        snprintf(res, sizeof res, "circuit tile %u -> tile %u, wavelengths %u-%u of %u%s", x->src,
                 x->dst, w0, w0 + m->wl[i] - 1, x->src,
                 x->src / T == x->dst / T ? "" : " (over fibre between servers)");
        oc__use u = {.round = index,
                     .step = m->base.rounds,
                     .start_s = m->base.clock + m->slow[m->pass[i]],
                     .dur_s =
                         m->alpha_s + (double)((uint64_t)x->count * m->base.spec->chunk_bytes) /
                                          ((double)m->wl[i] * m->wl_rate),
                     .t = x,
                     .cls0 = w0,
                     .cls1 = w0 + m->wl[i],
                     .seglen = m->shape.nodes,
                     .pos0 = x->src,
                     .npos = 1,
                     .resource = res};
        rc = oc__netrun_observe_use(m, &u, why, len);
        const uint32_t sa = x->src / T, sb = x->dst / T;
        if (rc || sa == sb || !m->pair_next) continue;
        const uint64_t W = m->shape.wavelengths;
        const uint64_t pair = (uint64_t)sa * (m->servers - 1) + (sb < sa ? sb : sb - 1);
        if (m->pair_stamp[pair] != m->epoch) {
            m->pair_stamp[pair] = m->epoch;
            m->pair_next[pair] = 0;
        }
        /* a later pass reuses the fibres' slots */
        const uint64_t C = m->shape.fibres * W;
        uint64_t j = m->pair_next[pair] % C, end = j + m->wl[i];
        m->pair_next[pair] += m->wl[i];
        u.show = OC_SHOW_LINKS;
        u.seglen =
            (uint32_t)(m->shape.nodes + (uint64_t)m->servers * (m->servers - 1) * m->shape.fibres);
        while (j < end && !rc) { /* one use per fibre the slots fall on */
            uint64_t f = j / W, stop = (f + 1) * W < end ? (f + 1) * W : end;
            u.cls0 = (uint32_t)(j - f * W);
            u.cls1 = (uint32_t)(stop - f * W);
            u.pos0 = (uint32_t)fibre_pos(m, sa, sb, f);
            rc = oc__netrun_observe_use(m, &u, why, len);
            j = stop;
        }
    }
    m->base.clock += dur;
    return rc;
}

static void fab_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    (void)m;
    snprintf(buf, len, "wavelength %u", cls);
}

static void fab_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    if (pos < m->shape.nodes) {
        snprintf(buf, len, "tile %u (server %u)", pos, pos / m->shape.tiles_per_server);
        return;
    }
    uint64_t k = pos - m->shape.nodes, pair = k / m->shape.fibres, f = k % m->shape.fibres;
    uint32_t a = (uint32_t)(pair / (m->servers - 1)), b = (uint32_t)(pair % (m->servers - 1));
    snprintf(buf, len, "fibre %llu server %u -> server %u", (unsigned long long)f, a,
             b < a ? b : b + 1);
}

static int fab_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    m->wl_next = oc__calloc(m->shape.nodes, sizeof(uint32_t));
    if (!m->wl_next) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    const uint64_t T = m->shape.tiles_per_server;
    m->servers = (uint32_t)(((uint64_t)m->shape.nodes + T - 1) / T);
    const uint64_t pairs = (uint64_t)m->servers * (m->servers - 1);
    uint64_t positions = m->shape.nodes;
    /* fibres are reported when they fit the grid's 32-bit positions (and a table per pair) */
    if (pairs && m->shape.fibres && pairs * m->shape.fibres < (UINT64_C(1) << 30)) {
        m->pair_next = oc__calloc((size_t)pairs, sizeof(uint64_t));
        m->pair_stamp = oc__calloc((size_t)pairs, sizeof(uint64_t));
        if (!m->pair_next || !m->pair_stamp) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        positions += pairs * m->shape.fibres;
    }
    m->base.obs = obs;
    *g = (oc__grid){.what = "tile or inter-server fibre x wavelength",
                    .class_what = "wavelength",
                    .pos_what = "tile or fibre",
                    .classes = (uint32_t)m->shape.wavelengths,
                    .positions = (uint32_t)positions,
                    .class_name = fab_class_name,
                    .pos_name = fab_pos_name};
    return 0;
}

/* What a server holds: "A Lightpath wafer has 32 or fewer tiles" (section 2), one GPU a tile. */
#define MAX_TILES 32

static const char *const fab_param_names[] = {"tiles_per_server",
                                              "wavelengths_per_tile",
                                              "fibres_between_servers",
                                              "bandwidth_gbytes",
                                              "reconfig_us",
                                              "alpha_us",
                                              "mzi_degree",
                                              "mzi_split",
                                              NULL};

static int by_u64(const void *x, const void *y) {
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

typedef struct fab_pair {
    uint64_t pair; /* sender's server x S + receiver's */
    size_t xfer;   /* the transfer's index in the round */
} fab_pair;

static int by_pair(const void *x, const void *y) {
    const fab_pair *a = x, *b = y;
    return a->pair != b->pair ? (a->pair < b->pair ? -1 : 1) : (a->xfer > b->xfer) - (a->xfer < b->xfer);
}

/* The fibres between each ordered server pair: k circuits wanting more than the pair's C = fibres
 * x W wavelengths share them (floor(C / k) each, k <= C) or run one wavelength each in ceil(k / C)
 * passes (k > C); m->wl and m->pass are adjusted, the round's pass count is returned in *passes.
 * Refuses a pair without fibres. */
static int fab_fibres(oc__netrun *m, uint64_t index, const oc__round *r, uint32_t *passes,
                      char *why, size_t len) {
    const uint64_t T = m->shape.tiles_per_server, W = m->shape.wavelengths;
    const uint64_t S = ((uint64_t)m->shape.nodes + T - 1) / T, C = m->shape.fibres * W;
    size_t n = 0;
    *passes = 1;
    for (size_t i = 0; i < r->count; i++) {
        const uint64_t a = r->xfers[i].src / T, b = r->xfers[i].dst / T;
        m->pass[i] = 0;
        if (a != b) m->pairs[n++] = (fab_pair){a * S + b, i};
    }
    m->cross += n;
    qsort(m->pairs, n, sizeof *m->pairs, by_pair);
    for (size_t i = 0, j; i < n; i = j) {
        uint64_t sum = 0;
        for (j = i; j < n && m->pairs[j].pair == m->pairs[i].pair; j++)
            sum += m->wl[m->pairs[j].xfer];
        const uint64_t pair = m->pairs[i].pair, k = j - i;
        if (sum > C && C == 0)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: circuits from server %llu to server %llu, but "
                            "fibres_between_servers=0 gives them no path",
                            (unsigned long long)index, (unsigned long long)(pair / S),
                            (unsigned long long)(pair % S));
        if (sum > C) {
            const uint64_t share = k <= C ? C / k : 1;
            for (size_t q = i; q < j; q++) {
                const size_t x = m->pairs[q].xfer;
                if (m->wl[x] > share) {
                    m->wl[x] = (uint32_t)share;
                    m->shared++;
                }
                m->pass[x] = (uint32_t)((q - i) / C);
            }
            if (k > C && (k + C - 1) / C > *passes) *passes = (uint32_t)((k + C - 1) / C);
            sum = k <= C ? k * share : C;
        }
        if (sum > m->max_pair_wl) m->max_pair_wl = sum;
    }
    return 0;
}

/* One set of concurrent circuits: a logical round, or one pass of a split one (`first`: the
 * steps of its round already mapped). Adds its steps to *steps. */
static int fab_pass(oc__netrun *m, uint64_t index, const oc__round *r, uint64_t first,
                    uint64_t *steps, char *why, size_t len) {
    const uint64_t W = m->shape.wavelengths;
    const uint64_t epoch = ++m->epoch;
    const unsigned long long R = (unsigned long long)index;
    if (r->count == 0) return 0;
    if (oc__grow((void **)&m->wl, &m->wl_cap, r->count, sizeof *m->wl) ||
        oc__grow((void **)&m->cur, &m->cur_cap, r->count, sizeof *m->cur) ||
        oc__grow((void **)&m->pass, &m->pass_cap, r->count, sizeof *m->pass) ||
        oc__grow((void **)&m->pairs, &m->pairs_cap, r->count, sizeof *m->pairs))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        uint64_t bytes;
        int rc = oc__netrun_endpoints(m, index, x, "is not between two different tiles of the rack",
                                      why, len);
        if (rc || (rc = oc__netrun_bytes(m, index, x, 2, &bytes, why, len))) return rc;
        const uint32_t node[2] = {x->src, x->dst};
        for (int k = 0; k < 2; k++)
            if (m->stamp[node[k]] != epoch) {
                m->stamp[node[k]] = epoch;
                m->out[node[k]] = m->in[node[k]] = 0;
                m->used[node[k]] = 0;
            }
        m->out[x->src]++;
        m->in[x->dst]++;
    }
    double slowest = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        const uint32_t deg = m->out[x->src] > m->in[x->dst] ? m->out[x->src] : m->in[x->dst];
        if (deg > W)
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: tile %u %s on %u circuits, more than its %llu "
                            "wavelengths",
                            R, m->out[x->src] > W ? x->src : x->dst,
                            m->out[x->src] > W ? "sends" : "receives", deg, (unsigned long long)W);
        if (m->shape.mzi_degree && deg > m->shape.mzi_degree) {
            const int snd = m->out[x->src] > m->shape.mzi_degree;
            return oc__fail(why, len, OC_ERESOURCE,
                            "round %llu: tile %u %s on %u concurrent circuits, more than its 1x%u "
                            "MZI switch holds (mzi_degree=%u; the seed's switch is 1x3)",
                            R, snd ? x->src : x->dst, snd ? "sends" : "receives", deg,
                            m->shape.mzi_degree, m->shape.mzi_degree);
        }
        m->wl[i] = (uint32_t)(W / deg);
        if (deg > m->max_circuits) m->max_circuits = deg;
    }
    uint32_t passes = 1;
    int rc = fab_fibres(m, index, r, &passes, why, len);
    if (rc) return rc;
    if (oc__grow((void **)&m->slow, &m->slow_cap, passes, sizeof *m->slow))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (uint32_t q = 0; q < passes; q++) m->slow[q] = 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *x = &r->xfers[i];
        if (m->wl[i] < m->min_wl) m->min_wl = m->wl[i];
        m->used[x->src] += m->wl[i];
        if (m->used[x->src] > m->max_tile_wl) m->max_tile_wl = m->used[x->src];
        const double t = (double)((uint64_t)x->count * m->base.spec->chunk_bytes) /
                         ((double)m->wl[i] * m->wl_rate);
        if (t > m->slow[m->pass[i]]) m->slow[m->pass[i]] = t;
    }
    for (uint32_t q = 0; q < passes; q++) slowest += m->slow[q];
    if (m->checker && (rc = oc__fab_check(m->checker, index, r, &m->shape, m->wl, why, len)))
        return rc;
    /* the circuit set, compared with the previous round's */
    for (size_t i = 0; i < r->count; i++)
        m->cur[i] = (uint64_t)r->xfers[i].src << 32 | r->xfers[i].dst;
    qsort(m->cur, r->count, sizeof *m->cur, by_u64);
    const int reconf = m->base.rounds == 0 || m->prev_n != r->count ||
                       memcmp(m->cur, m->prev, r->count * sizeof *m->cur) != 0;
    /* a pass after the first sets up its own circuits */
    m->reconfigs += (uint64_t)reconf + (passes - 1);
    m->extra_steps += passes - 1;
    if (m->base.obs && (rc = fab_observe_round(m, index, r, reconf, first, passes, why, len)))
        return rc;
    uint64_t *t = m->prev;
    size_t tc = m->prev_cap;
    m->prev = m->cur;
    m->prev_cap = m->cur_cap;
    m->prev_n = r->count;
    m->cur = t;
    m->cur_cap = tc;
    *steps += passes;
    m->transfers += r->count;
    m->t_bw += slowest;
    return 0;
}

/* The busiest tile's circuits (sent or received) in round r; 0 when a transfer has an endpoint
 * outside the rack (fab_pass refuses it with its reason). */
static uint32_t fab_degree(oc__netrun *m, const oc__round *r) {
    const uint64_t epoch = ++m->epoch;
    uint32_t d = 0;
    for (size_t i = 0; i < r->count; i++) {
        const uint32_t node[2] = {r->xfers[i].src, r->xfers[i].dst};
        if (node[0] >= m->shape.nodes || node[1] >= m->shape.nodes) return 0;
        for (int k = 0; k < 2; k++)
            if (m->pstamp[node[k]] != epoch) {
                m->pstamp[node[k]] = epoch;
                m->pout[node[k]] = m->pin[node[k]] = 0;
            }
        const uint32_t o = ++m->pout[r->xfers[i].src], n = ++m->pin[r->xfers[i].dst];
        if (o > d) d = o;
        if (n > d) d = n;
    }
    return d;
}

/* Colours the round's circuits with d colours so that no tile sends, or receives, on two of one
 * colour (Konig's edge colouring of the bipartite senders x receivers multigraph: an edge whose
 * free colours differ at its ends flips the alternating path of those two colours first). Colour c
 * goes in pass c / D, so every pass holds at most D circuits out of and into each tile, and the
 * passes are ceil(d / D), the fewest that can. m->mzi_pass gets the colours. */
static int fab_colour(oc__netrun *m, const oc__round *r, uint32_t d, char *why, size_t len) {
    const size_t N = m->shape.nodes, E = r->count;
    uint32_t *oc = oc__calloc(N * d, sizeof *oc), *ic = oc__calloc(N * d, sizeof *ic);
    uint32_t *path = oc__calloc(E, sizeof *path);
    int rc = 0;
    if (!oc || !ic || !path) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory colouring a round's circuits");
        goto out;
    }
    /* oc[u d + c] / ic[v d + c]: 1 + the transfer of colour c out of u / into v, 0 if none */
    for (size_t e = 0; e < E; e++) {
        const uint32_t u = r->xfers[e].src, v = r->xfers[e].dst;
        uint32_t a = 0, b = 0;
        while (oc[(size_t)u * d + a]) a++;
        while (ic[(size_t)v * d + b]) b++;
        if (ic[(size_t)v * d + a]) {
            /* the path from v: colour a into v, colour b out of its sender, a into the next... */
            size_t n = 0;
            uint32_t at = v, col = a;
            for (;;) {
                const uint32_t f = col == a ? ic[(size_t)at * d + a] : oc[(size_t)at * d + b];
                if (!f) break;
                path[n++] = f - 1;
                at = col == a ? r->xfers[f - 1].src : r->xfers[f - 1].dst;
                col = col == a ? b : a;
            }
            for (size_t k = 0; k < n; k++) {
                const oc__transfer *x = &r->xfers[path[k]];
                const uint32_t c = m->mzi_pass[path[k]];
                oc[(size_t)x->src * d + c] = ic[(size_t)x->dst * d + c] = 0;
            }
            for (size_t k = 0; k < n; k++) {
                const oc__transfer *x = &r->xfers[path[k]];
                const uint32_t c = m->mzi_pass[path[k]] == a ? b : a;
                m->mzi_pass[path[k]] = c;
                oc[(size_t)x->src * d + c] = ic[(size_t)x->dst * d + c] = (uint32_t)path[k] + 1;
            }
        }
        m->mzi_pass[e] = a;
        oc[(size_t)u * d + a] = ic[(size_t)v * d + a] = (uint32_t)e + 1;
    }
out:
    free(oc);
    free(ic);
    free(path);
    return rc;
}

/* mzi_split=1: a round whose busiest tile has d > D circuits runs in ceil(d / D) passes, each a
 * set of at most D circuits out of and into every tile (fab_colour), each one more step with its
 * own alpha and reconfiguration, its circuits sharing the tile's wavelengths among themselves. */
static int fab_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    if (r->count == 0) return 0;
    uint64_t steps = 0;
    const uint32_t D = m->shape.mzi_degree;
    const uint32_t d = m->mzi_split && D ? fab_degree(m, r) : 0;
    int rc = 0;
    if (d <= D) {
        if (!(rc = fab_pass(m, index, r, 0, &steps, why, len))) oc__netrun_mapped(m, steps);
        return rc;
    }
    if (oc__grow((void **)&m->mzi_pass, &m->mzi_pass_cap, r->count, sizeof *m->mzi_pass))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if ((rc = fab_colour(m, r, d, why, len))) return rc;
    const uint32_t passes = (d + D - 1) / D;
    for (uint32_t q = 0; q < passes && !rc; q++) {
        m->sub.count = 0;
        for (size_t i = 0; i < r->count && !rc; i++) {
            const oc__transfer *x = &r->xfers[i];
            if (m->mzi_pass[i] / D == q &&
                oc__round_push(&m->sub, x->src, x->dst, (oc__op)x->op, x->first, x->count))
                rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
        }
        if (!rc && m->sub.count) rc = fab_pass(m, index, &m->sub, steps, &steps, why, len);
    }
    if (rc) return rc;
    m->mzi_rounds++;
    m->mzi_extra_steps += passes - 1;
    oc__netrun_mapped(m, steps);
    return 0;
}

static void fab_destroy(oc__netrun *m) {
    if (m) oc__fab_checker_free(m->checker);
    if (m) oc__round_free(&m->sub);
    oc__netrun_free(m);
}

/* The settings as the user wrote them (net/netset.c keeps them for the run). */
typedef struct fab_params {
    uint64_t tiles, wls, fibres, mzi, split;
    double alpha_us, reconfig_us, gbytes;
} fab_params;

/* oc__model.parse: the settings read once a run into the record every creation copies. */
static int fab_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(fab_params) <= OC__NETSET_OWN, "fab_params fits an oc__netset");
    (void)nodes;
    fab_params *p = own;
    int rc = oc__kv_only(params, fab_param_names, "fabric network", why, len);
    if (rc || (rc = oc__kv_u64(params, "tiles_per_server", 32, 1, 1u << 20, &p->tiles, why, len)) ||
        (rc = oc__kv_u64(params, "wavelengths_per_tile", 16, 1, 1u << 15, &p->wls, why, len)) ||
        (rc =
             oc__kv_u64(params, "fibres_between_servers", 32, 0, 1u << 30, &p->fibres, why, len)) ||
        (rc = oc__kv_double(params, "bandwidth_gbytes", 300, 1e-9, 1e12, &p->gbytes, why, len)) ||
        (rc = oc__kv_double(params, "reconfig_us", 3.7, 0, 1e9, &p->reconfig_us, why, len)) ||
        (rc = oc__kv_double(params, "alpha_us", 0.7, 0, 1e9, &p->alpha_us, why, len)) ||
        (rc = oc__kv_u64(params, "mzi_degree", 3, 0, 1u << 20, &p->mzi, why, len)) ||
        (rc = oc__kv_u64(params, "mzi_split", 0, 0, 1, &p->split, why, len)))
        return rc;
    if (p->tiles > MAX_TILES)
        return oc__fail(why, len, OC_EINVAL,
                        "fabric network: tiles_per_server=%llu, but a Lightpath server holds at "
                        "most %u tiles (one GPU each; seed section 2)",
                        (unsigned long long)p->tiles, MAX_TILES);
    return 0;
}

static int fab_create(const oc__spec *spec, const void *own, int check, oc__netrun **out, char *why,
                      size_t len) {
    *out = NULL;
    const fab_params *p = own;
    const uint64_t tiles = p->tiles, wls = p->wls, fibres = p->fibres, mzi = p->mzi,
                   split = p->split;
    const double alpha_us = p->alpha_us, reconfig_us = p->reconfig_us, gbytes = p->gbytes;
    int rc = 0;
    /* server pairs are packed above 16 bits of wavelengths in one 64-bit sort key */
    const uint64_t servers = ((uint64_t)spec->nodes + tiles - 1) / tiles;
    if (servers > (1u << 23))
        return oc__fail(why, len, OC_ETOOBIG, "fabric network: %llu servers, at most %u",
                        (unsigned long long)servers, 1u << 23);
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, fab_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->shape = (oc__fab_shape){.nodes = spec->nodes,
                               .tiles_per_server = (uint32_t)tiles,
                               .wavelengths = wls,
                               .fibres = fibres,
                               .mzi_degree = (uint32_t)mzi};
    m->mzi_split = (int)split;
    m->alpha_us = alpha_us;
    m->reconfig_us = reconfig_us;
    m->gbytes = gbytes;
    m->alpha_s = alpha_us * 1e-6;
    m->reconfig_s = reconfig_us * 1e-6;
    m->wl_rate = gbytes * 1e9 / (double)wls;
    m->min_wl = wls;
    const size_t N = spec->nodes;
    const oc__netbuf bufs[] = {OC_NETBUF(m->stamp, N),     OC_NETBUF(m->out, N),
                               OC_NETBUF(m->in, N),        OC_NETBUF(m->used, N),
                               OC_NETBUF(m->wl, 0),        OC_NETBUF(m->cur, 0),
                               OC_NETBUF(m->prev, 0),      OC_NETBUF(m->wl_next, 0),
                               OC_NETBUF(m->pair_next, 0), OC_NETBUF(m->pair_stamp, 0),
                               OC_NETBUF(m->pass, 0),      OC_NETBUF(m->slow, 0),
                               OC_NETBUF(m->pairs, 0),     OC_NETBUF(m->mzi_pass, 0),
                               OC_NETBUF(m->pout, N),      OC_NETBUF(m->pin, N),
                               OC_NETBUF(m->pstamp, N)};
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, "the fabric model", why, len);
    if (!rc && check && oc__fab_checker_new(&m->checker))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    return oc__netrun_done(m, rc, fab_destroy, out);
}

/* One chunk on a circuit with all of the tile's wavelengths, no reconfiguration. */
static double fab_step_for(const oc__netrun *m, uint64_t bytes) {
    return m->alpha_s + (double)bytes / ((double)m->shape.wavelengths * m->wl_rate);
}

static double fab_step_time(const oc__netrun *m) {
    return fab_step_for(m, m->base.spec->chunk_bytes);
}

static double fab_step_fixed(const oc__netrun *m) {
    return fab_step_for(m, 0);
}

/* For the closed forms: a tile's W wavelengths are what its egress splits over. */
/* The fabric's shape and costs typed for the physical bounds (core/netcfg.h, src/bounds). */
static void fab_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_FABRIC;
    out->cost = (oc__netcost){0}; /* its circuits are told by the circuits hook instead */
    out->fabric = (oc__fabric_cfg){.tiles_per_server = m->shape.tiles_per_server,
                                   .wavelengths = m->shape.wavelengths,
                                   .fibres = m->shape.fibres,
                                   .mzi_degree = m->shape.mzi_degree,
                                   .mzi_split = m->mzi_split,
                                   .alpha_s = m->alpha_s,
                                   .reconfig_s = m->reconfig_s,
                                   .bytes_per_s = m->gbytes * 1e9};
}

static void fab_circuits(const oc__netrun *m, uint64_t *lanes, double *reconfig_s,
                         uint64_t *split_degree, uint64_t *max_degree) {
    *lanes = m->shape.wavelengths;
    *reconfig_s = m->reconfig_s;
    *split_degree = m->mzi_split ? m->shape.mzi_degree : 0;
    *max_degree = m->mzi_split ? 0 : m->shape.mzi_degree;
}

static int fab_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    const double ta = (double)m->base.steps * m->alpha_s,
                 tr = (double)m->reconfigs * m->reconfig_s;
    oc__netrun_figures(rep, m->base.steps, m->base.rounds, ta + tr + m->t_bw);
    int rc = oc__netrun_param(rep, "tiles_per_server", "%llu",
                              (unsigned long long)m->shape.tiles_per_server);
    rc |= oc__netrun_param(rep, "wavelengths_per_tile", "%llu",
                           (unsigned long long)m->shape.wavelengths);
    rc |= oc__netrun_param(rep, "fibres_between_servers", "%llu",
                           (unsigned long long)m->shape.fibres);
    rc |= oc__netrun_param(rep, "bandwidth_gbytes", "%g", m->gbytes);
    rc |= oc__netrun_param(rep, "reconfig_us", "%g", m->reconfig_us);
    rc |= oc__netrun_param(rep, "alpha_us", "%g", m->alpha_us);
    rc |= oc__netrun_param(rep, "mzi_degree", "%u", m->shape.mzi_degree);
    rc |= oc__netrun_param(rep, "mzi_split", "%d", m->mzi_split);
    const uint64_t T = m->shape.tiles_per_server;
    rc |= oc__report_num(rep, "step_time_s", fab_step_time(m));
    rc |= oc__report_num(rep, "time_alpha_s", ta);
    rc |= oc__report_num(rep, "time_reconfig_s", tr);
    rc |= oc__report_num(rep, "time_bandwidth_s", m->t_bw);
    rc |= oc__report_num(rep, "reconfigurations", (double)m->reconfigs);
    rc |= oc__report_num(rep, "servers", (double)((m->shape.nodes + T - 1) / T));
    rc |= oc__report_num(rep, "max_circuits_per_tile", (double)m->max_circuits);
    rc |= oc__report_num(rep, "max_tile_wavelengths", (double)m->max_tile_wl);
    rc |= oc__report_num(rep, "min_circuit_wavelengths", m->base.rounds ? (double)m->min_wl : 0);
    rc |= oc__report_num(rep, "circuits_between_servers", (double)m->cross);
    rc |= oc__report_num(rep, "max_server_pair_wavelengths", (double)m->max_pair_wl);
    rc |= oc__report_num(rep, "fibre_shared_circuits", (double)m->shared);
    rc |= oc__report_num(rep, "fibre_extra_steps", (double)m->extra_steps);
    if (m->mzi_split) {
        rc |= oc__report_num(rep, "mzi_split_rounds", (double)m->mzi_rounds);
        rc |= oc__report_num(rep, "mzi_extra_steps", (double)m->mzi_extra_steps);
    }
    /* The decomposition in words, so that the text output shows how the time is made up. */
    rc |= oc__report_note(rep,
                          "time = %llu steps x alpha %g us + %llu reconfigurations x %g us + "
                          "bandwidth %.6g us (each round's slowest circuit)",
                          (unsigned long long)m->base.steps, m->alpha_us,
                          (unsigned long long)m->reconfigs, m->reconfig_us, m->t_bw * 1e6);
    return oc__netrun_finished(rc, why, len);
}

const oc__model oc__model_fabric = {
    .info = {"fabric",
             "Lumorph photonic rack: servers of tiles, a GPU's wavelengths split over its "
             "concurrent circuits, MZI reconfiguration when the circuits change",
             "tiles_per_server=32: at most 32, a Lightpath wafer's tiles; wavelengths_per_tile=16; fibres_between_servers=32: per "
             "ordered server pair, W wavelengths each; bandwidth_gbytes=300: GB/s (bytes) per GPU and direction; "
             "reconfig_us=3.7; "
             "alpha_us=0.7; mzi_degree=3: concurrent circuits per tile and direction (the seed's "
             "1x3 MZI switch; 0 = no limit); mzi_split=0|1: refuse a round above the degree, or "
             "run it in passes of at most that many circuits"},
    .parse = fab_parse,
    .create = fab_create,
    .sink = oc__netrun_sink,
    .finish = fab_finish,
    .step_time = fab_step_time,
    .step_fixed = fab_step_fixed,
    /* splitting a GPU's egress over circuits does not add bandwidth */
    .channels = oc__netrun_one_channel,
    .steps = oc__netrun_steps,
    .destroy = fab_destroy,
    .circuits = fab_circuits,
    .config = fab_config,
    .observe = fab_observe,
};
