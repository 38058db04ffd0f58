/*
 * ring.c — the WDM optical ring (TeraRack), the network of the OpTree and WRHT seeds.
 *
 * What it models (optree III.A, wrht III.A and Table II): N nodes on a bidirectional ring of
 * fibres, F fibres per direction (the seeds' simulation: a double ring, F = 1; TeraRack's
 * hardware: four fibre rings, two per direction, F = 2), w wavelengths per fibre, 40 Gb/s per
 * wavelength. A lightpath goes from its source to its destination along one direction on one
 * fibre and one wavelength (wavelength continuity, no conversion on the way). Within one step no
 * (directed link, fibre, wavelength) carries two lightpaths.
 *
 * A logical round becomes one or more physical steps:
 *  1. Routing: shortest path; a transfer at exactly N/2 goes the way that has carried fewer
 *     half-ring units so far in the round, so ties split evenly between the two directions.
 *  2. A transfer of b chunks needs b wavelength-slots ("each wavelength is loaded with one data
 *     item per step", optree III.C): it is one bundle of b units on one arc, never b objects.
 *  3. Wavelength assignment is circular-arc colouring per direction. Colour c is the slot
 *     (step c / (F*w), fibre, wavelength c % w), so a round needs ceil(colours / (F*w)) steps and
 *     the lower bound is ceil(max directed-link load / (F*w)). The ring is cut at the node the
 *     fewest arcs pass through; those arcs get their own colours, and the rest (intervals once the
 *     ring is cut) take, in order of their left ends, the free colour whose window closes soonest
 *     (colour_cut below). Where some node is passed by no arc (rings of segments: ring and NE
 *     all-gather, OpTree's later stages) this is optimal, steps = lower bound; on all-to-all among
 *     nodes spread round the ring it comes within about 1% of the load bound on the seeds' cases.
 *     The ratio is reported with every run.
 *  4. Every round's assignment goes through the independent check of ring_check.c.
 *  5. Cost of a step (optree Eq. 3, wrht Eq. 1): MRR reconfiguration + O/E/O conversion of the
 *     payload (one cycle per 32-byte flit) + transmission of the largest payload on one wavelength
 *     (whole 128-byte packets at 40 Gb/s). The seeds do not give the O/E/O clock; we take 1 GHz
 *     (oeo_ns_per_flit = 1) and say so.
 */
#include "net/ring.h"
#include "net/net.h"
#include "core/bitset.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ring_params {
    uint64_t w, F;
    double bandwidth_gbps, reconfig_us, oeo_ns_per_flit;
    uint64_t flit_bytes, packet_bytes;
    const char *preset;
} ring_params;

struct oc__netrun {
    oc__sink sink;
    const oc__spec *spec;
    ring_params p;
    int check;
    uint32_t N;
    oc__ring_checker *checker;
    /* per-round scratch, sized by transfers */
    uint8_t *dir;
    uint32_t *start, *len; /* arc in its direction's coordinates */
    uint32_t *remaining;
    uint32_t *frag_first, *frag_n;
    uint32_t *order, *order2, *arcs;
    uint32_t *alive_next;
    size_t arc_cap;
    /* per-round scratch, sized by N */
    int64_t *diff;
    uint64_t *startu;
    uint32_t *bucket_a, *bucket_b;
    oc__ring_frag *frags[2];
    size_t nfrags[2], capfrags[2];
    /* colour_cut scratch */
    uint32_t *head, *ends_head; /* per position (N + 1) */
    oc__bitset nonempty;        /* deadlines with free colours, N + 1 positions */
    uint32_t *deadline;         /* per crossing colour */
    size_t deadline_cap;
    struct colour_range *pool;
    size_t pool_n, pool_cap;
    uint32_t pool_free;
    /* totals */
    uint64_t steps, steps_lb, rounds, units, cut_rounds, crossing_rounds;
    double worst_ratio;
    uint64_t worst_round;
};

/* ---- parameters ---- */

static const char *const ring_param_names[] = {
    "preset", "wavelengths", "fibres", "bandwidth_gbps", "reconfig_us", "oeo_ns_per_flit",
    "flit_bytes", "packet_bytes", NULL};

static int ring_params_read(const oc_kv *kv, ring_params *p, char *why, size_t len) {
    int rc = oc__kv_only(kv, ring_param_names, "ring network", why, len);
    if (rc) return rc;
    const char *preset = oc_kv_get(kv, "preset");
    uint64_t dflt_f = 1;
    p->preset = "seed";
    if (preset) {
        if (strcmp(preset, "terarack") == 0) {
            dflt_f = 2; /* four fibre rings: two clockwise, two counter-clockwise */
            p->preset = "terarack";
        } else if (strcmp(preset, "seed") != 0) {
            return oc__fail(why, len, OC_ENOENT, "unknown ring preset '%s' (known: seed, terarack)",
                            preset);
        }
    }
    if ((rc = oc__kv_u64(kv, "wavelengths", 64, 1, 1u << 16, &p->w, why, len)) ||
        (rc = oc__kv_u64(kv, "fibres", dflt_f, 1, 1024, &p->F, why, len)) ||
        (rc = oc__kv_double(kv, "bandwidth_gbps", 40, 1e-6, 1e9, &p->bandwidth_gbps, why, len)) ||
        (rc = oc__kv_double(kv, "reconfig_us", 25, 0, 1e9, &p->reconfig_us, why, len)) ||
        (rc = oc__kv_double(kv, "oeo_ns_per_flit", 1, 0, 1e9, &p->oeo_ns_per_flit, why, len)) ||
        (rc = oc__kv_u64(kv, "flit_bytes", 32, 1, 1u << 30, &p->flit_bytes, why, len)) ||
        (rc = oc__kv_u64(kv, "packet_bytes", 128, 1, 1u << 30, &p->packet_bytes, why, len)))
        return rc;
    if (p->w * p->F > (1u << 20))
        return oc__fail(why, len, OC_ETOOBIG, "%llu fibres x %llu wavelengths is above 2^20",
                        (unsigned long long)p->F, (unsigned long long)p->w);
    return 0;
}

/* Time of one step: reconfiguration + O/E/O of the payload + its transmission on one wavelength. */
static double step_parts(const ring_params *p, uint64_t payload, double *reconf, double *oeo,
                         double *tx) {
    *reconf = p->reconfig_us * 1e-6;
    *oeo = (double)oc__ceil_div(payload, p->flit_bytes) * p->oeo_ns_per_flit * 1e-9;
    *tx = (double)(oc__ceil_div(payload, p->packet_bytes) * p->packet_bytes) * 8.0 /
          (p->bandwidth_gbps * 1e9);
    return *reconf + *oeo + *tx;
}

/* ---- scratch ---- */

static int reserve_arcs(oc__netrun *m, size_t n) {
    if (n <= m->arc_cap) return 0;
    size_t cap = m->arc_cap ? m->arc_cap : 64;
    while (cap < n) cap *= 2;
#define GROW(field)                                                                                \
    do {                                                                                           \
        void *q_ = realloc(m->field, cap * sizeof(*m->field));                                     \
        if (!q_) return OC_ENOMEM;                                                                 \
        m->field = q_;                                                                             \
    } while (0)
    GROW(dir);
    GROW(start);
    GROW(len);
    GROW(remaining);
    GROW(frag_first);
    GROW(frag_n);
    GROW(order);
    GROW(order2);
    GROW(arcs);
#undef GROW
    void *q = realloc(m->alive_next, (cap + 1) * sizeof(uint32_t));
    if (!q) return OC_ENOMEM;
    m->alive_next = q;
    m->arc_cap = cap;
    return 0;
}

static int push_frag(oc__netrun *m, int d, uint32_t xfer, uint32_t c0, uint32_t c1) {
    if (m->nfrags[d] == m->capfrags[d] &&
        oc__grow((void **)&m->frags[d], &m->capfrags[d], m->nfrags[d] + 1, sizeof(oc__ring_frag)))
        return OC_ENOMEM;
    oc__ring_frag *f = &m->frags[d][m->nfrags[d]++];
    f->xfer = xfer;
    f->c0 = c0;
    f->c1 = c1;
    return 0;
}

/* ---- colouring: cut the ring at a node, arcs through the cut first, then the rest by deadline ----
 *
 * The units of the K arcs that pass through the cut node need K distinct colours; colour c of such
 * an arc is free for other arcs only between the arc's end e_c and its start s_c (positions
 * measured from the cut), its "window". The other arcs are intervals; they are taken in order of
 * their left end (longest first among equal ends) and each unit takes a free colour whose window
 * closes soonest but still covers the interval, or a new colour (window: the whole ring) when none
 * does. Taking the tightest window that fits keeps the wider ones for later arcs. With K = 0 this
 * is the classic optimal interval colouring (exactly max-load colours).
 * Colours are handed out in ranges, so a bundle of b chunks costs O(fragments), not O(b). */

typedef struct colour_range {
    uint32_t c0, c1, next;
} colour_range;

static int pool_push(oc__netrun *m, uint32_t d, uint32_t c0, uint32_t c1) {
    uint32_t id;
    if (m->pool_free != UINT32_MAX) {
        id = m->pool_free;
        m->pool_free = m->pool[id].next;
    } else {
        if (m->pool_n == m->pool_cap &&
            oc__grow((void **)&m->pool, &m->pool_cap, m->pool_n + 1, sizeof(colour_range)))
            return OC_ENOMEM;
        id = (uint32_t)m->pool_n++;
    }
    m->pool[id].c0 = c0;
    m->pool[id].c1 = c1;
    m->pool[id].next = oc__bitset_test(&m->nonempty, d) ? m->head[d] : UINT32_MAX;
    m->head[d] = id;
    oc__bitset_set(&m->nonempty, d);
    return 0;
}

static int colour_cut(oc__netrun *m, int d, const uint32_t *arcs, size_t na, uint32_t cut,
                      uint64_t *colours) {
    const uint32_t N = m->N;
    uint32_t *cs = m->bucket_a, *ce = m->bucket_b;
    memset(cs, 0, (N + 2) * sizeof(uint32_t));
    memset(ce, 0, (N + 2) * sizeof(uint32_t));
    oc__bitset_clear_all(&m->nonempty);
    m->pool_n = 0;
    m->pool_free = UINT32_MAX;
    /* Relative positions; crossing arcs get their colours first, numbered 0..K-1. */
    uint64_t K = 0;
    size_t nint = 0;
    for (size_t i = 0; i < na; i++) {
        uint32_t a = arcs[i];
        uint32_t r = oc__ring_sub(m->start[a], cut, N);
        if (r + m->len[a] > N) { /* passes through the cut: its colours open at its end */
            if (K + m->remaining[a] > UINT32_MAX) return OC_ETOOBIG;
            m->frag_first[a] = (uint32_t)m->nfrags[d];
            m->frag_n[a] = 1;
            if (push_frag(m, d, a, (uint32_t)K, (uint32_t)(K + m->remaining[a]))) return OC_ENOMEM;
            K += m->remaining[a];
            ce[r + m->len[a] - N + 1]++; /* activation events, by end */
        } else {
            /* intervals, by start; longest first within a start (key N - len, then start) */
            cs[N - m->len[a] + 1]++;
            nint++;
        }
    }
    /* Sort intervals by (start, longest first) with two counting sorts into order[]. */
    for (uint32_t k = 0; k <= N; k++) cs[k + 1] += cs[k];
    for (size_t i = 0; i < na; i++) {
        uint32_t a = arcs[i];
        uint32_t r = oc__ring_sub(m->start[a], cut, N);
        if (r + m->len[a] <= N) m->order2[cs[N - m->len[a]]++] = a;
    }
    memset(cs, 0, (N + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < nint; i++) cs[oc__ring_sub(m->start[m->order2[i]], cut, N) + 1]++;
    for (uint32_t k = 0; k <= N; k++) cs[k + 1] += cs[k];
    for (size_t i = 0; i < nint; i++) {
        uint32_t a = m->order2[i];
        m->order[cs[oc__ring_sub(m->start[a], cut, N)]++] = a;
    }
    if (K > m->deadline_cap) {
        uint32_t *dl = realloc(m->deadline, (size_t)K * sizeof(uint32_t));
        if (!dl) return OC_ENOMEM;
        m->deadline = dl;
        m->deadline_cap = (size_t)K;
    }
    /* cs[p] is now the end of start-group p. Crossing arcs by their end: */
    for (uint32_t k = 0; k <= N; k++) ce[k + 1] += ce[k];
    size_t ncross = 0;
    for (size_t i = 0; i < na; i++) {
        uint32_t a = arcs[i];
        uint32_t r = oc__ring_sub(m->start[a], cut, N);
        if (r + m->len[a] > N) {
            m->order2[ce[r + m->len[a] - N]++] = a;
            ncross++;
        }
    }
    /* Interval ends, for releasing colours: reuse last_frag[] as "end position" and walk a
     * per-position list built in alive_next[] (next interval ending at the same position). */
    uint64_t next_new = K;
    size_t si = 0, xi = 0;
    for (uint32_t p = 0; p <= N; p++) {
        /* 1. intervals ending here give their colours back */
        for (uint32_t a = m->ends_head[p]; a != UINT32_MAX; a = m->alive_next[a]) {
            for (uint32_t k = 0; k < m->frag_n[a]; k++) {
                const oc__ring_frag *f = &m->frags[d][m->frag_first[a] + k];
                uint32_t dl = f->c0 < K ? m->deadline[f->c0] : N;
                if (pool_push(m, dl, f->c0, f->c1)) return OC_ENOMEM;
            }
        }
        m->ends_head[p] = UINT32_MAX; /* all UINT32_MAX between calls */
        /* 2. crossing arcs ending here open their colours, until their start */
        for (; xi < ce[p]; xi++) {
            uint32_t a = m->order2[xi];
            const oc__ring_frag *f = &m->frags[d][m->frag_first[a]];
            uint32_t s_rel = oc__ring_sub(m->start[a], cut, N);
            for (uint32_t c = f->c0; c < f->c1; c++) m->deadline[c] = s_rel;
            if (pool_push(m, s_rel, f->c0, f->c1)) return OC_ENOMEM;
        }
        if (p == N) break;
        /* 3. intervals starting here take the tightest windows that cover them */
        for (; si < cs[p]; si++) {
            uint32_t a = m->order[si];
            uint32_t end = p + m->len[a];
            uint32_t need = m->remaining[a];
            m->frag_first[a] = (uint32_t)m->nfrags[d];
            m->frag_n[a] = 0;
            while (need) {
                uint32_t dl = oc__bitset_next(&m->nonempty, end);
                uint32_t c0, take;
                if (dl == UINT32_MAX) {
                    if (next_new + need > UINT32_MAX) return OC_ETOOBIG;
                    c0 = (uint32_t)next_new;
                    take = need;
                    next_new += need;
                } else {
                    colour_range *top = &m->pool[m->head[dl]];
                    c0 = top->c0;
                    take = top->c1 - top->c0 < need ? top->c1 - top->c0 : need;
                    top->c0 += take;
                    if (top->c0 == top->c1) {
                        uint32_t id = m->head[dl];
                        m->head[dl] = top->next;
                        m->pool[id].next = m->pool_free;
                        m->pool_free = id;
                        if (m->head[dl] == UINT32_MAX) oc__bitset_clear(&m->nonempty, dl);
                    }
                }
                if (push_frag(m, d, a, c0, c0 + take)) return OC_ENOMEM;
                m->frag_n[a]++;
                need -= take;
            }
            m->alive_next[a] = m->ends_head[end];
            m->ends_head[end] = a;
        }
    }
    (void)ncross;
    *colours = next_new;
    return 0;
}

/* ---- one round ---- */

static int ring_round(oc__sink *self, uint64_t index, const oc__round *r, char *why, size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const uint32_t N = m->N;
    const uint64_t channels = m->p.w * m->p.F;
    if (reserve_arcs(m, r->count))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                        (unsigned long long)index);
    /* 1. Route. */
    uint64_t tie[2] = {0, 0};
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (t->src >= N || t->dst >= N || t->src == t->dst)
            return oc__fail(why, len, OC_EINVAL, "round %llu: transfer %u -> %u cannot be routed",
                            (unsigned long long)index, t->src, t->dst);
        uint32_t cw = oc__ring_sub(t->dst, t->src, N);
        int d;
        if (2ull * cw < N)
            d = RING_CW;
        else if (2ull * cw > N)
            d = RING_CCW;
        else {
            d = tie[RING_CW] <= tie[RING_CCW] ? RING_CW : RING_CCW;
            tie[d] += t->count;
        }
        m->dir[i] = (uint8_t)d;
        /* Counter-clockwise arcs live in mirrored coordinates (p -> N - p), where they run forward. */
        m->start[i] = d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
        m->len[i] = d == RING_CW ? cw : N - cw;
        m->remaining[i] = t->count;
    }
    uint64_t colours[2] = {0, 0}, maxload[2] = {0, 0};
    for (int d = 0; d < 2; d++) {
        m->nfrags[d] = 0;
        /* The arcs of this direction; an empty direction costs nothing (no O(N) pass). */
        uint32_t *arcs = m->arcs;
        size_t na = 0;
        for (size_t i = 0; i < r->count; i++)
            if (m->dir[i] == d) arcs[na++] = (uint32_t)i;
        if (na == 0) continue;
        /* 2. Loads from a difference array; pass-through counts from loads and arc starts. */
        memset(m->diff, 0, (N + 1) * sizeof(int64_t));
        memset(m->startu, 0, N * sizeof(uint64_t));
        for (size_t k = 0; k < na; k++) {
            uint32_t i = arcs[k];
            uint32_t s = m->start[i], e = s + m->len[i];
            uint64_t u = r->xfers[i].count;
            m->startu[s] += u;
            m->diff[s] += (int64_t)u;
            if (e <= N) {
                m->diff[e] -= (int64_t)u;
            } else {
                m->diff[N] -= (int64_t)u;
                m->diff[0] += (int64_t)u;
                m->diff[e - N] -= (int64_t)u;
            }
        }
        int64_t run = 0;
        uint32_t cut = 0;
        uint64_t best_pass = UINT64_MAX;
        for (uint32_t p = 0; p < N; p++) {
            run += m->diff[p];
            uint64_t load = (uint64_t)run; /* load of link p -> p+1 */
            if (load > maxload[d]) maxload[d] = load;
            uint64_t pass = load - m->startu[p]; /* arcs over link p not starting at p */
            if (pass < best_pass) {
                best_pass = pass;
                cut = p;
            }
        }
        int rc;
        rc = colour_cut(m, d, arcs, na, cut, &colours[d]);
        if (best_pass == 0)
            m->cut_rounds++;
        else
            m->crossing_rounds++;
        if (rc)
            return oc__fail(why, len, rc, "round %llu: wavelength assignment failed (%s)",
                            (unsigned long long)index, oc_strerror(rc));
    }
    /* 3. Independent check. */
    if (m->check) {
        oc__ring_assignment a = {.dir = m->dir,
                                 .frags = {m->frags[0], m->frags[1]},
                                 .nfrags = {m->nfrags[0], m->nfrags[1]},
                                 .colours = {colours[0], colours[1]}};
        int rc = oc__ring_check(m->checker, index, r, &a, (uint32_t)m->p.F, (uint32_t)m->p.w, why,
                                len);
        if (rc) return rc;
    }
    /* 4. Steps and bounds. */
    uint64_t most = colours[0] > colours[1] ? colours[0] : colours[1];
    uint64_t heaviest = maxload[0] > maxload[1] ? maxload[0] : maxload[1];
    uint64_t steps = oc__ceil_div(most, channels);
    uint64_t lb = oc__ceil_div(heaviest, channels);
    m->steps += steps;
    m->steps_lb += lb;
    m->rounds++;
    for (size_t i = 0; i < r->count; i++) m->units += r->xfers[i].count;
    if (lb && (double)steps / (double)lb > m->worst_ratio) {
        m->worst_ratio = (double)steps / (double)lb;
        m->worst_round = index;
    }
    return 0;
}

/* ---- model interface ---- */

static void ring_destroy(oc__netrun *m) {
    if (!m) return;
    oc__ring_checker_free(m->checker);
    free(m->dir);
    free(m->start);
    free(m->len);
    free(m->remaining);
    free(m->frag_first);
    free(m->frag_n);
    free(m->order);
    free(m->order2);
    free(m->arcs);
    free(m->alive_next);
    free(m->diff);
    free(m->startu);
    free(m->bucket_a);
    free(m->bucket_b);
    free(m->frags[0]);
    free(m->frags[1]);
    free(m->head);
    free(m->ends_head);
    oc__bitset_free(&m->nonempty);
    free(m->deadline);
    free(m->pool);
    free(m);
}

static int ring_create(const oc__spec *spec, const oc_kv *params, int check, oc__netrun **out,
                       char *why, size_t len) {
    *out = NULL;
    ring_params p;
    int rc = ring_params_read(params, &p, why, len);
    if (rc) return rc;
    oc__netrun *m = calloc(1, sizeof *m);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->sink.round = ring_round;
    m->spec = spec;
    m->p = p;
    m->check = check;
    m->N = spec->nodes;
    const size_t N = spec->nodes;
    m->diff = oc__calloc(N + 1, sizeof(int64_t));
    m->startu = oc__calloc(N, sizeof(uint64_t));
    m->bucket_a = oc__calloc(N + 2, sizeof(uint32_t));
    m->bucket_b = oc__calloc(N + 2, sizeof(uint32_t));
    m->head = oc__calloc(N + 1, sizeof(uint32_t));
    m->ends_head = oc__calloc(N + 1, sizeof(uint32_t));
    if (!m->diff || !m->startu || !m->bucket_a || !m->bucket_b ||
        !m->head || !m->ends_head || oc__bitset_init(&m->nonempty, (uint32_t)N + 1) ||
        (check && oc__ring_checker_new(spec->nodes, &m->checker))) {
        ring_destroy(m);
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k <= N; k++) m->ends_head[k] = UINT32_MAX;
    *out = m;
    return 0;
}

static oc__sink *ring_sink(oc__netrun *m) {
    return &m->sink;
}

static double ring_step_time(const oc__netrun *m) {
    double a, b, c;
    return step_parts(&m->p, m->spec->chunk_bytes, &a, &b, &c);
}

static uint64_t ring_channels(const oc__netrun *m) {
    return m->p.w * m->p.F;
}

static uint64_t ring_steps(const oc__netrun *m) {
    return m->steps;
}

static int ring_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    double reconf, oeo, tx;
    double step = step_parts(&m->p, m->spec->chunk_bytes, &reconf, &oeo, &tx);
    rep->steps = m->steps;
    rep->has_lb = 1;
    rep->steps_lb = m->steps_lb;
    rep->time_s = (double)m->steps * step;
    char buf[64];
    int rc = 0;
#define SETP(key, fmt, val)                                                                        \
    do {                                                                                           \
        snprintf(buf, sizeof buf, fmt, val);                                                       \
        rc |= oc_kv_set(rep->net_params, key, buf);                                                \
    } while (0)
    SETP("preset", "%s", m->p.preset);
    SETP("wavelengths", "%llu", (unsigned long long)m->p.w);
    SETP("fibres", "%llu", (unsigned long long)m->p.F);
    SETP("bandwidth_gbps", "%g", m->p.bandwidth_gbps);
    SETP("reconfig_us", "%g", m->p.reconfig_us);
    SETP("oeo_ns_per_flit", "%g", m->p.oeo_ns_per_flit);
    SETP("flit_bytes", "%llu", (unsigned long long)m->p.flit_bytes);
    SETP("packet_bytes", "%llu", (unsigned long long)m->p.packet_bytes);
#undef SETP
    rc |= oc__report_num(rep, "step_time_s", step);
    rc |= oc__report_num(rep, "step_reconfig_s", reconf);
    rc |= oc__report_num(rep, "step_oeo_s", oeo);
    rc |= oc__report_num(rep, "step_transmission_s", tx);
    rc |= oc__report_num(rep, "time_reconfig_s", reconf * (double)m->steps);
    rc |= oc__report_num(rep, "time_oeo_s", oeo * (double)m->steps);
    rc |= oc__report_num(rep, "time_transmission_s", tx * (double)m->steps);
    rc |= oc__report_num(rep, "steps_over_lower_bound",
                         m->steps_lb ? (double)m->steps / (double)m->steps_lb : 1.0);
    rc |= oc__report_num(rep, "worst_round_ratio", m->worst_ratio ? m->worst_ratio : 1.0);
    /* per direction: colourings where some node is passed by no arc (then steps = bound) */
    rc |= oc__report_num(rep, "colourings_interval", (double)m->cut_rounds);
    rc |= oc__report_num(rep, "colourings_circular", (double)m->crossing_rounds);
    if (rc) return oc__fail(why, len, OC_ENOMEM, "out of memory writing the report");
    return 0;
}

const oc__model oc__model_ring = {
    .info = {"ring",
             "WDM optical double ring (TeraRack): shortest-path lightpaths, wavelength continuity",
             "wavelengths=64: per fibre; fibres=1: per direction (preset=terarack: 2); "
             "bandwidth_gbps=40: per wavelength; reconfig_us=25: MRR reconfiguration per step; "
             "oeo_ns_per_flit=1: O/E/O, one cycle per flit at an assumed 1 GHz; flit_bytes=32; "
             "packet_bytes=128; preset=seed|terarack"},
    .create = ring_create,
    .sink = ring_sink,
    .finish = ring_finish,
    .step_time = ring_step_time,
    .channels = ring_channels,
    .steps = ring_steps,
    .destroy = ring_destroy,
};
