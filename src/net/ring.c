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
 *  6. Spreading (the `spread` setting, one rule for every algorithm). spread=1 (the default, the
 *     OpTree seed's "each wavelength is loaded with one data item per step", optree III.C): a
 *     transfer of b chunks may lay them side by side on b wavelength-slots, as in 2 above.
 *     spread=0 (the WRHT seed's accounting, eq. 1: a step moves a transfer's data d on one
 *     wavelength in d/B): a transfer keeps to one lightpath whatever its chunks; the round is
 *     coloured with one unit a transfer, and a step lasts reconfiguration + the O/E/O and
 *     transmission of the largest bundle it carries (b chunks' bytes on one wavelength), so the
 *     run's time is no longer steps x one step's time. Every algorithm sees the rule alike: it is
 *     the model's (core/netcfg.h: oc__ring_cfg.spread), and an algorithm that can choose how to
 *     cut its data (WRHT's pieces, H-Ring's g) reads it in its search's bound.
 */
#include "net/ring.h"
#include "core/bitset.h"
#include "core/progress.h"
#include "net/free_colours.h"
#include "core/quote.h"
#include "net/model_common.h"
#include "net/ring_order.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ring_params {
    uint64_t w, F;
    double bandwidth_gbps, reconfig_us, oeo_ns_per_flit;
    uint64_t flit_bytes, packet_bytes;
    uint64_t spread; /* 1: a transfer's chunks may take several wavelengths at once (item 6) */
    const char *preset;
} ring_params;

/* Per link p -> p+1 of one direction: the difference-array entry of the load and the units of
 * the arcs that start at p. Kept side by side because the load pass reads both. */
typedef struct link_count {
    int64_t diff;
    uint64_t starting;
} link_count;

struct oc__netrun {
    oc__netbase base;
    ring_params p;
    uint32_t N;
    oc__ring_checker *checker;
    /* Per-round scratch, sized by transfers. What a transfer's arc is (start, length) is
     * recomputed from its ends and its direction wherever it is needed rather than kept: the
     * round's transfers are at hand, and one-stage all-gather on 8192 nodes is 67 M of them. */
    uint64_t *dir;  /* a bit a transfer: RING_CCW (dir_of) */
    size_t dir_cap; /* in words */
    uint32_t *arcs; /* a direction's arcs in colouring order, then first fragments */
    uint32_t *link; /* a sort's buffer, then the lists of intervals by end */
    /* the intervals' sort keys, written as colour_cut lists them: N - length and the start from
     * the cut, and the start again in the order of the first pass; the sorts read them in
     * order instead of each interval's transfer (in the second pass from all over the round) */
    uint32_t *key_len, *key_start, *key_start1;
    size_t arc_cap; /* all five, in arcs of the busier direction */
    /* ring_order.c's scratch, sized by the largest group of intervals of one start */
    uint64_t *group_v, *group_t;
    uint32_t *group_b;
    size_t group_cap;
    /* per-round scratch, sized by N; all zero between rounds */
    link_count *links;  /* N + 1 */
    uint32_t *bucket_a; /* a counting sort's, N + 2 */
    oc__ring_frag *frags[2];
    size_t nfrags[2], capfrags[2];
    /* colour_cut scratch */
    uint32_t *head, *ends_head; /* per position (N + 1) */
    oc__bitset nonempty;        /* deadlines with free colours, N + 1 positions */
    /* colour_cut's release records: what an interval gives back at its end, written when it
     * takes its colours (see colour_cut) */
    uint32_t *end_fill;   /* per end position (N + 2): the next free slot of its bucket */
    struct release *slot; /* one per interval, bucketed by end */
    size_t slot_cap;
    struct release *spill; /* the fragments of intervals that took more than one */
    size_t spill_n, spill_cap;
    struct colour_range *pool;
    size_t pool_n, pool_cap;
    /* colour_cut's crossing arcs: where each starts and ends from the cut and its colours, in
     * transfer order, then by end (the order the sweep opens them in), so that the sweep reads
     * them one after another instead of each one's transfer and fragment from all over the
     * round (on the all-to-all of 4096 nodes, a quarter of the model's time was those reads
     * missing the cache) */
    struct cross_arc *cross, *cross_by_end;
    size_t cross_cap;
    uint32_t pool_free;
    /* The mirror (colour_cut, "the other direction's mirror image"): direction 0's sweep input
     * (its intervals in sweep order, its crossing arcs by end, the cut, K) and the colours the
     * sweep found, kept for direction 1 of the same round in a run that reads no fragments. */
    uint32_t *mir_arcs;
    size_t mir_arcs_cap;
    struct cross_arc *mir_cross;
    size_t mir_cross_cap;
    uint32_t *mir_match; /* direction 1's crossing arc i (by end) is direction 0's mir_match[i] */
    size_t mir_match_cap;
    size_t mir_nint, mir_ncross;
    uint64_t mir_K, mir_colours;
    uint32_t mir_cut;
    int mir_ok, mirror_off; /* mirror_off: a test's (oc__ring_mirror_off) */
    uint64_t mirrored;      /* directions whose count came from the mirror (a test asks) */
    /* the last round's ends and what its mapping found, for a round that repeats it */
    struct round_ends *last;
    size_t last_cap, last_n;
    int last_ok;
    uint64_t last_colours[2], last_maxload[2], last_units;
    int last_kind[2]; /* per direction: 0 empty, 1 cut at a node no arc passes, 2 crossing */
    /* The round before the last, the same fields (swapped with them, not copied): a round that
     * repeats it is taken as one that repeats the last (neighbour exchange's rounds alternate
     * between two shapes) */
    struct round_ends *plast;
    size_t plast_cap, plast_n;
    int plast_ok;
    uint64_t *pdir;
    size_t pdir_cap;
    oc__ring_frag *pfrags[2];
    size_t pnfrags[2], pcapfrags[2];
    uint64_t plast_colours[2], plast_maxload[2], plast_units;
    int plast_kind[2];
    /* A family round (core.h) is written out into flat and mapped like any round; when every
     * one of its transfers got the same one colour range in one direction (fam_ok), a family
     * with the same ends after it (n, hop, width: the same transfers' ends and counts, which is
     * all the mapping reads) is the repeated round above, taken in O(1), and its check is the
     * family's own (oc__ring_check_family). */
    oc__round flat;
    int fam_ok, fam_dir;
    oc__family fam;
    uint64_t fam_c0, fam_n;
    /* totals */
    uint64_t steps_lb, units, cut_rounds, crossing_rounds;
    double worst_ratio;
    uint64_t worst_round;
    /* spread=0 (item 6): the round recoloured with one unit a transfer, the largest bundle of
     * each of its steps, the time the bundles add over one chunk a step, and per-step durations
     * for an observer */
    oc__transfer *unit;
    size_t unit_cap;
    uint64_t *step_bundle;
    size_t step_bundle_cap;
    double extra_s;
};

/* ---- parameters ---- */

/* Transfer i's direction in the assignment's bit array (ring.h's format; ring_check.c reads it
 * with its own code). */
static inline int dir_of(const uint64_t *bits, size_t i) {
    return (int)((bits[i >> 6] >> (i & 63)) & 1);
}

static const char *const ring_param_names[] = {
    "preset",          "wavelengths", "fibres",       "bandwidth_gbps", "reconfig_us",
    "oeo_ns_per_flit", "flit_bytes",  "packet_bytes", "spread",         NULL};

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
                            OC_Q(preset));
        }
    }
    if ((rc = oc__kv_u64(kv, "wavelengths", 64, 1, 1u << 16, &p->w, why, len)) ||
        (rc = oc__kv_u64(kv, "fibres", dflt_f, 1, 1024, &p->F, why, len)) ||
        (rc = oc__kv_double(kv, "bandwidth_gbps", 40, 1e-6, 1e9, &p->bandwidth_gbps, why, len)) ||
        (rc = oc__kv_double(kv, "reconfig_us", 25, 0, 1e9, &p->reconfig_us, why, len)) ||
        (rc = oc__kv_double(kv, "oeo_ns_per_flit", 1, 0, 1e9, &p->oeo_ns_per_flit, why, len)) ||
        (rc = oc__kv_u64(kv, "flit_bytes", 32, 1, 1u << 30, &p->flit_bytes, why, len)) ||
        (rc = oc__kv_u64(kv, "packet_bytes", 128, 1, 1u << 30, &p->packet_bytes, why, len)) ||
        (rc = oc__kv_u64(kv, "spread", 1, 0, 1, &p->spread, why, len)))
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

/* The direction bits of n transfers, and the arc lists of the busier direction's na arcs (link
 * has one more: a list end). Every round asks: the usual case is answered at once. */
static int reserve_round(oc__netrun *m, size_t n) {
    if (oc__grow((void **)&m->dir, &m->dir_cap, (n + 63) / 64, sizeof(uint64_t))) return OC_ENOMEM;
    if (m->dir) memset(m->dir, 0, (n + 63) / 64 * sizeof(uint64_t)); /* an empty round: no buffer */
    return 0;
}

static int reserve_arcs(oc__netrun *m, size_t na) {
    if (na <= m->arc_cap) return 0;
    const oc__netbuf arcs[] = {OC_NETBUF(m->arcs, 0), OC_NETBUF(m->link, 0),
                               OC_NETBUF(m->key_len, 0), OC_NETBUF(m->key_start, 0),
                               OC_NETBUF(m->key_start1, 0)};
    return oc__netrun_reserve(arcs, sizeof arcs / sizeof *arcs, na, 1, &m->arc_cap);
}

/* ring_order.c's scratch for groups of up to `most` intervals (b: one more). */
static int reserve_groups(oc__netrun *m, size_t most) {
    if (most < m->group_cap) return 0;
    const oc__netbuf g[] = {OC_NETBUF(m->group_v, 0), OC_NETBUF(m->group_t, 0),
                            OC_NETBUF(m->group_b, 0)};
    return oc__netrun_reserve(g, 3, most, 1, &m->group_cap);
}

/* Transfer t's arc in direction d: its start in d's forward coordinates (counter-clockwise arcs
 * are mirrored, p -> N - p, so that they run forward too) and its length in links. */
static inline uint32_t arc_start(int d, const oc__transfer *t, uint32_t N) {
    return d == RING_CW ? t->src : oc__ring_sub(0, t->src, N);
}

static inline uint32_t arc_len(int d, const oc__transfer *t, uint32_t N) {
    const uint32_t cw = oc__ring_sub(t->dst, t->src, N);
    return d == RING_CW ? cw : N - cw;
}

static int push_frag(oc__netrun *m, int d, uint32_t xfer, uint64_t c0, uint32_t n) {
    if (m->nfrags[d] == m->capfrags[d] &&
        oc__grow((void **)&m->frags[d], &m->capfrags[d], m->nfrags[d] + 1, sizeof(oc__ring_frag)))
        return OC_ENOMEM;
    m->frags[d][m->nfrags[d]++] = (oc__ring_frag){c0, xfer, n};
    return 0;
}

/* Whether a round's fragments (frags[]) are read after its colouring: by the independent check
 * (base.check; a repeated round's check and the family shortcut read the last round's, kept
 * only in checked runs: keep_last), by an observer (the timeline, link use), and at spread=0 by
 * bundles_of. A search's rounds mapped alone or whole (unchecked, unobserved) read none: only
 * their colour counts and loads become steps. */
static inline int fragments_read(const oc__netrun *m) {
    return m->base.check || m->base.obs || !m->p.spread;
}

/* ---- colouring: cut the ring at a node, arcs through the cut first, then the rest by deadline
 * ----
 *
 * The units of the K arcs that pass through the cut node need K distinct colours; colour c of such
 * an arc is free for other arcs only between the arc's end e_c and its start s_c (positions
 * measured from the cut), its "window". The other arcs are intervals; they are taken in order of
 * their left end (longest first among equal ends) and each unit takes a free colour whose window
 * closes soonest but still covers the interval, or a new colour (window: the whole ring) when none
 * does. Taking the tightest window that fits keeps the wider ones for later arcs. With K = 0 this
 * is the classic optimal interval colouring (exactly max-load colours).
 * Colours are handed out in ranges, so a bundle of b chunks costs O(fragments), not O(b), and
 * nothing is kept per colour: a range taken is given back to the window it was taken from (the
 * release records of colour_cut). */

typedef struct cross_arc {
    uint32_t start, end; /* from the cut */
    uint32_t n, pad;
    uint64_t c0; /* its colours [c0, c0 + n) */
} cross_arc;

typedef struct colour_range {
    uint64_t c0, c1;
    uint32_t next;
} colour_range;

/* What an interval gives back at its end: colours [c0, c0 + n) to the free bucket of deadline dl.
 * An interval that took several fragments has n = 0 in its slot, and c0 / dl index and count its
 * records in the spill array. */
typedef struct release {
    uint64_t c0;
    uint32_t n, dl;
} release;

static int pool_push(oc__netrun *m, uint32_t d, uint64_t c0, uint64_t c1) {
    /* A range that continues the one on top of the bucket joins it: the bucket holds the same
     * colours, in fewer pieces, so later bundles take fewer fragments (fewer lightpath groups to
     * check). The colours a bucket offers, and so every decision of the colouring, are unchanged.
     */
    if (oc__bitset_test(&m->nonempty, d)) {
        colour_range *top = &m->pool[m->head[d]];
        if (top->c0 == c1) {
            top->c0 = c0;
            return 0;
        }
        if (top->c1 == c0) {
            top->c1 = c1;
            return 0;
        }
    }
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

/* One stable counting sort pass of n items by key[i] (in [0, N]): item i's value goes to its
 * place in out, and with carry, carry[i] to the same place in carry_out. */
static void counting_pass(oc__netrun *m, const uint32_t *key, const uint32_t *val, size_t n,
                          uint32_t *out, const uint32_t *carry, uint32_t *carry_out) {
    const uint32_t N = m->N;
    uint32_t *cnt = m->bucket_a;
    memset(cnt, 0, (N + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++)
        cnt[key[i] + 1]++;
    for (uint32_t k = 0; k <= N; k++)
        cnt[k + 1] += cnt[k];
    for (size_t i = 0; i < n; i++) {
        const uint32_t at = cnt[key[i]]++;
        out[at] = val ? val[i] : (uint32_t)i;
        if (carry) carry_out[at] = carry[i];
    }
}

/* Rounds with no arc through the cut: every colour's window is the whole ring, so any free
 * colour is as good as another, and greedy by left end needs exactly max-load colours whichever
 * it takes (a new colour only when none is free, and then every colour in use belongs to an
 * interval over this point). The free colours are taken from the top of their highest maximal
 * run, so that bundles of unequal sizes (OpTree's uneven stages) do not split the free colours
 * into ever smaller pieces: one fragment or a few a lightpath, not hundreds (on 2^20 nodes the
 * first list the search mapped had 257 M fragments in one round of 2.6 M lightpaths). They are
 * kept in a heap (free_colours.c), O(log n) a range given back or taken, however the returns
 * scatter. The nint intervals are arcs[0..nint) of direction d, sorted by start from the cut. */
static int colour_intervals(oc__netrun *m, int d, const oc__round *rd, size_t nint, uint32_t cut,
                            uint64_t *colours) {
    const uint32_t N = m->N;
    const oc__transfer *x = rd->xfers;
    uint32_t *arcs = m->arcs;
    oc__free_colours fc;
    oc__fc_init(&fc);
    uint64_t next_new = 0;
    size_t si = 0;
    int rc = 0;
    for (uint32_t p = 0; p <= N && !rc; p++) {
        /* intervals ending here give their colours back */
        for (uint32_t q = m->ends_head[p]; q != UINT32_MAX && !rc; q = m->link[q]) {
            const oc__ring_frag *f = &m->frags[d][arcs[q]];
            const oc__ring_frag *fend = m->frags[d] + m->nfrags[d];
            for (const uint32_t a = f->xfer; f < fend && f->xfer == a && !rc; f++)
                rc = oc__fc_add(&fc, f->c0, f->c0 + f->n);
        }
        m->ends_head[p] = UINT32_MAX;
        if (p == N) break;
        /* intervals starting here take free colours from the top, new ones past them */
        for (; si < nint && !rc; si++) {
            const uint32_t a = arcs[si];
            if (oc__ring_sub(arc_start(d, &x[a], N), cut, N) > p) break;
            if ((rc = oc__stop_tick())) break; /* a caller's stop, inside a huge round */
            const uint32_t end = p + arc_len(d, &x[a], N);
            uint32_t need = x[a].count;
            const uint32_t first = (uint32_t)m->nfrags[d];
            while (need && !rc) {
                uint64_t c0;
                uint32_t take = (uint32_t)oc__fc_take(&fc, need, &c0);
                if (!take) {
                    c0 = next_new;
                    take = need;
                    next_new += need;
                }
                rc = push_frag(m, d, a, c0, take);
                need -= take;
            }
            if (!rc && x[a].count) { /* it holds colours until its end */
                arcs[si] = first;
                m->link[si] = m->ends_head[end];
                m->ends_head[end] = (uint32_t)si;
            }
        }
    }
    /* an early return leaves intervals on the end lists: all UINT32_MAX between calls */
    for (uint32_t p = 0; rc && p <= N; p++)
        m->ends_head[p] = UINT32_MAX;
    oc__fc_free(&fc);
    *colours = next_new;
    return rc;
}

/* ---- the other direction's mirror image ----
 *
 * What the sweep of colour_cut (below) counts depends on its input only through: N; the
 * intervals, in the order it takes them, each as (start from the cut, length, units); the
 * crossing arcs, in the order it opens them (by end), each as (start, end, units); and K, their
 * units in all. Not on which transfers they are, nor on which colour numbers the crossing arcs
 * got (those follow the transfer order). Proof: the free colours are kept per deadline bucket,
 * and every decision reads only which buckets are non-empty (the tightest one at or after an
 * interval's end, oc__bitset_next) and takes from it min(need, what it holds) before moving on
 * (the take loop asks again after each range, so a bucket's colours are taken whether they lie
 * in one range or several: pool_push merges ranges by their numbers, which changes only how the
 * same colours are split into ranges); a release gives each fragment's colours back to the bucket
 * it came from. So by induction over the sweep's events, every bucket holds as many colours in
 * the two sweeps, each interval takes as many from each bucket, and new colours (next_new, from
 * K up) are opened at the same moments: the same count. (A crossing arc of no units would put an
 * empty range in a bucket, which the take loop pops by number, so the mirror declines any.)
 *
 * A round invariant under rotation (rd's, rh's and rhd's levels that span the ring, the
 * all-to-all) has a counter-clockwise direction that is the clockwise one mirrored (p -> N - p)
 * and turned: the same sequences from its own cut. Direction 0's sweep input is kept, and
 * direction 1's, sorted as always, is compared with it element by element (its transfers' ends
 * and units, read from the round); when every element matches, direction 1 takes direction 0's
 * count instead of a sweep of its own, and where the run keeps fragments (its check reads them)
 * their image (mirror_frags). Anything that differs (another count, length or position, another
 * number of arcs) and the sweep runs as before; so does a run with an observer (the timeline
 * reports each colour, and the image's colours are not the sweep's) or at spread=0.
 * tests/test_ring_mirror.c maps mirrored and broken rounds with the mirror on and off, checked
 * and unchecked. */

/* Keeps direction 0's sweep input: nint intervals in m->arcs, the crossing arcs xs by end; 1 when
 * kept. */
static int mirror_keep(oc__netrun *m, size_t nint, const cross_arc *xs, size_t ncross,
                        uint64_t K, uint32_t cut) {
    m->mir_ok = 0;
    if (oc__grow((void **)&m->mir_arcs, &m->mir_arcs_cap, nint ? nint : 1, sizeof *m->mir_arcs) ||
        oc__grow((void **)&m->mir_cross, &m->mir_cross_cap, ncross ? ncross : 1,
                 sizeof *m->mir_cross))
        return 0; /* no room: direction 1 is swept as always */
    memcpy(m->mir_arcs, m->arcs, nint * sizeof *m->arcs);
    memcpy(m->mir_cross, xs, ncross * sizeof *xs);
    m->mir_nint = nint;
    m->mir_ncross = ncross;
    m->mir_K = K;
    m->mir_cut = cut;
    return 1;
}

/* Whether direction 1's sweep input (its nint intervals in m->arcs, crossing arcs xs by end, K,
 * cut) is, element by element, the one kept of direction 0 of round rd. */
static int mirror_same(oc__netrun *m, const oc__round *rd, size_t nint, const cross_arc *xs,
                       size_t ncross, uint64_t K, uint32_t cut) {
    if (!m->mir_ok || m->mirror_off || nint != m->mir_nint || ncross != m->mir_ncross ||
        K != m->mir_K)
        return 0;
    if (oc__grow((void **)&m->mir_match, &m->mir_match_cap, ncross ? ncross : 1,
                 sizeof *m->mir_match))
        return 0;
    const uint32_t N = m->N;
    /* The crossing arcs that end at one position open their colours one after another, each
     * into the bucket of its start, before any interval takes: their order among themselves
     * changes no bucket's count, so each end's arcs are compared as a multiset (in the same
     * order or in the reverse one: direction 1's, mirrored, come in the reverse of direction 0's
     * transfer order; any other permutation declines). */
    for (size_t j = 0; j < ncross;) {
        size_t e = j;
        while (e < ncross && xs[e].end == xs[j].end)
            e++;
        if (m->mir_cross[j].end != xs[j].end || (e < ncross && m->mir_cross[e].end == xs[j].end))
            return 0;
        int fwd = 1, rev = 1;
        for (size_t i = j; i < e && (fwd || rev); i++) {
            const cross_arc *a = &xs[i], *b = &m->mir_cross[i], *c = &m->mir_cross[e - 1 - (i - j)];
            if (a->n == 0) return 0;
            fwd &= b->end == a->end && a->start == b->start && a->n == b->n;
            rev &= c->end == a->end && a->start == c->start && a->n == c->n;
        }
        if (!fwd && !rev) return 0;
        /* the group's match, for mirror_frags: reversed, or as it is */
        if (!fwd)
            for (size_t i = j; i < e; i++)
                m->mir_match[i] = (uint32_t)(e - 1 - (i - j));
        else
            for (size_t i = j; i < e; i++)
                m->mir_match[i] = (uint32_t)i;
        j = e;
    }
    const oc__transfer *x = rd->xfers;
    for (size_t i = 0; i < nint; i++) {
        if ((i & 0xffff) == 0 && oc__stop_tick()) return 0; /* the sweep says it was stopped */
        const oc__transfer *t = &x[m->arcs[i]], *u = &x[m->mir_arcs[i]];
        if (t->count != u->count || arc_len(RING_CCW, t, N) != arc_len(RING_CW, u, N) ||
            oc__ring_sub(arc_start(RING_CCW, t, N), cut, N) !=
                oc__ring_sub(arc_start(RING_CW, u, N), m->mir_cut, N))
            return 0;
    }
    return 1;
}

/* Direction 1's fragments as the image of direction 0's (a run that keeps its fragments: the
 * check reads them): each crossing arc gets the colours of the direction-0 arc it was matched
 * with (same start, end and units from the cut), each interval those of the direction-0
 * interval in its place of the sweep order (same start, length and units). Two arcs of direction
 * 1 share a link and a colour only if their images do, so the assignment is as sound as
 * direction 0's, with its colours; the independent check (ring_check.c) checks it all the same.
 * It is not the one direction 1's own sweep would pick (the crossing arcs' colours follow the
 * transfer order): a run with an observer, which reports the colours, sweeps as always. */
static int mirror_frags(oc__netrun *m, size_t nint, const cross_arc *xs, size_t ncross) {
    const oc__ring_frag *f0 = m->frags[RING_CW];
    const size_t n0 = m->nfrags[RING_CW];
    if (oc__grow((void **)&m->frags[RING_CCW], &m->capfrags[RING_CCW], n0 ? n0 : 1,
                 sizeof(oc__ring_frag)))
        return OC_ENOMEM;
    oc__ring_frag *f1 = m->frags[RING_CCW];
    /* the crossing arcs: fragment j is the j-th crossing arc in transfer order (its pad) */
    for (size_t i = 0; i < ncross; i++) {
        const cross_arc *a = &xs[i], *b = &m->mir_cross[m->mir_match[i]];
        f1[a->pad] = (oc__ring_frag){b->c0, f1[a->pad].xfer, a->n};
    }
    /* the intervals' fragments, in direction 0's sweep order: each interval's together */
    size_t si = 0;
    for (size_t k = ncross; k < n0; k++) {
        while (si < nint && m->mir_arcs[si] != f0[k].xfer)
            si++;
        if (si == nint) return OC_EINVAL; /* cannot happen: direction 0's own fragments */
        f1[k] = (oc__ring_frag){f0[k].c0, m->arcs[si], f0[k].n};
    }
    m->nfrags[RING_CCW] = n0;
    return 0;
}

void oc__ring_mirror_off(oc__netrun *m, int off) {
    m->mirror_off = off;
}

uint64_t oc__ring_mirrored(const oc__netrun *m) {
    return m->mirrored;
}

/* Colours the na arcs of direction d (the round's transfers whose direction bit is d) with the
 * ring cut at `cut`. The intervals are taken in order of (start, longest first, then transfer
 * order): where each start's intervals come together (a node's transfers listed together, as
 * every algorithm lists them) each start's group is sorted alone (ring_order.c), else two stable
 * counting sorts over the direction give that order; and when the arcs already come in it (ring
 * all-gather and reduce-scatter: every round lists its arcs by start) a pass that checks so
 * replaces the sorts, which would leave the order as it is. Likewise for the crossing arcs,
 * taken in order of their ends. Memory: arcs[] and link[], 8 bytes an arc, a 16-byte release
 * record per interval, 16 bytes a fragment (none through the cut where nothing reads them:
 * fragments_read), 20 bytes an interval of the largest group; positions from the cut are
 * recomputed from the transfers. */
static int colour_cut(oc__netrun *m, int d, const oc__round *rd, size_t na, uint32_t cut,
                      uint64_t maxload, uint64_t *colours) {
    const uint32_t N = m->N;
    const oc__transfer *x = rd->xfers;
    const size_t nx = rd->count;
    const int all = na == nx; /* every transfer goes this way: the bits need no test */
    /* Whether anything will read this colouring's fragments (fragments_read). When nothing
     * will, a round with arcs through the cut is coloured without writing them: the sweep
     * decides from its release records and free buckets alone, never from a fragment, so the
     * colours, and the count returned, are those of the run that keeps them. Rounds without
     * such arcs keep them always (colour_intervals gives colours back by reading them). */
    const int keep_frags = fragments_read(m);
    uint32_t *arcs = m->arcs;
    oc__bitset_clear_all(&m->nonempty);
    m->pool_n = 0;
    m->pool_free = UINT32_MAX;
    /* Crossing arcs get their colours first, numbered 0..K-1 in transfer order: their fragments
     * are frags[d][0..ncross). Intervals go to arcs[0..nint) in transfer order. */
    uint64_t K = 0;
    size_t nint = 0, ncross = 0;
    int ints_sorted = 1, cross_sorted = 1;
    /* Whether the arcs are sorted intervals, each ending before the next starts, all of one
     * bundle size (ring all-gather, reduce-scatter: one block to the next node); or, in any
     * order, intervals of one bundle size that no link carries two of (the busiest link's load
     * is that size): the bidirectional ring's counter-clockwise arcs, listed by source, come in
     * descending order from the cut. */
    int disjoint_equal = 1, equal = 1;
    uint32_t last_start = 0, last_len = 0, last_end = 0, u0 = 0;
    for (size_t i = 0; i < nx; i++) {
        if (oc__stop_tick()) return OC_ECANCELED; /* a caller's stop, inside a huge round */
        if (!all && dir_of(m->dir, i) != d) continue;
        const uint32_t r = oc__ring_sub(arc_start(d, &x[i], N), cut, N), l = arc_len(d, &x[i], N);
        if (r + l > N) { /* passes through the cut: its colours open at its end */
            const uint32_t u = x[i].count;
            if (keep_frags && push_frag(m, d, (uint32_t)i, K, u)) return OC_ENOMEM;
            K += u;
            const uint32_t end = r + l - N;
            if (ncross == m->cross_cap) {
                const oc__netbuf cb[] = {OC_NETBUF(m->cross, 0), OC_NETBUF(m->cross_by_end, 0)};
                if (oc__netrun_reserve(cb, 2, ncross + 1, 0, &m->cross_cap)) return OC_ENOMEM;
            }
            /* pad: its place among the crossing arcs, which is its fragment's (mirror_frags) */
            m->cross[ncross] = (cross_arc){r, end, u, (uint32_t)ncross, K - u};
            if (ncross && end < last_end) cross_sorted = 0;
            last_end = end;
            ncross++;
        } else {
            if (nint == 0) u0 = x[i].count;
            if (nint && (r < last_start || (r == last_start && l > last_len))) ints_sorted = 0;
            if (nint && (r < last_start + last_len || x[i].count != u0)) disjoint_equal = 0;
            if (nint && x[i].count != u0) equal = 0;
            last_start = r;
            last_len = l;
            m->key_len[nint] = N - l;
            m->key_start[nint] = r;
            arcs[nint++] = (uint32_t)i;
        }
    }
    /* The sweep below would give the first of such arcs new colours [0, u) and every later one
     * exactly the range [0, u) its predecessor gave back before it starts (the only free range,
     * and its window, the whole ring, covers every interval): the same fragments, in the same
     * order, without the sweep. */
    if (ncross == 0 && disjoint_equal && u0 > 0) {
        if (oc__grow((void **)&m->frags[d], &m->capfrags[d], na, sizeof(oc__ring_frag)))
            return OC_ENOMEM;
        for (size_t i = 0; i < na; i++)
            m->frags[d][i] = (oc__ring_frag){0, arcs[i], u0};
        m->nfrags[d] = na;
        *colours = u0;
        return 0;
    }
    /* The same when no link carries two of the intervals (load u0) but they come in another
     * order: then no two start at the same position (both would carry its link), so the sweep's
     * order, by start, is found by placing each at its start (ends_head[], all UINT32_MAX
     * between calls and again after) and reading the positions in order. */
    if (ncross == 0 && equal && u0 > 0 && maxload == u0) {
        if (oc__grow((void **)&m->frags[d], &m->capfrags[d], na, sizeof(oc__ring_frag)))
            return OC_ENOMEM;
        for (size_t i = 0; i < nint; i++)
            m->ends_head[oc__ring_sub(arc_start(d, &x[arcs[i]], N), cut, N)] = arcs[i];
        size_t k = 0;
        for (uint32_t p = 0; p < N; p++)
            if (m->ends_head[p] != UINT32_MAX) {
                m->frags[d][k++] = (oc__ring_frag){0, m->ends_head[p], u0};
                m->ends_head[p] = UINT32_MAX;
            }
        m->nfrags[d] = k;
        *colours = u0;
        return 0;
    }
    /* Crossing arcs by end, stably: their records into cross_by_end (or, already in that
     * order, left where they are). */
    const cross_arc *xs = m->cross;
    if (!cross_sorted) {
        uint32_t *cnt = m->bucket_a;
        memset(cnt, 0, (N + 2) * sizeof(uint32_t));
        for (size_t j = 0; j < ncross; j++)
            cnt[m->cross[j].end + 1]++;
        for (uint32_t k = 0; k <= N; k++)
            cnt[k + 1] += cnt[k];
        for (size_t j = 0; j < ncross; j++)
            m->cross_by_end[cnt[m->cross[j].end]++] = m->cross[j];
        xs = m->cross_by_end;
    }
    /* Intervals by (start, longest first): by length into link[], then by start back into
     * arcs[]; both sorts stable. */
    if (!ints_sorted) {
        /* each start's intervals together (a node's transfers listed together): each group
         * sorted alone, in cache (ring_order.c), into link[] and back; else the two sorts */
        size_t most = 0;
        if (oc__ring_groups(N, nint, m->key_start, m->bucket_a, m->end_fill, &most) &&
            reserve_groups(m, most) == 0) {
            oc__ring_order_groups(N, m->bucket_a, m->end_fill, m->key_len, arcs, m->link,
                                  m->group_v, m->group_t, m->group_b);
            memcpy(arcs, m->link, nint * sizeof *arcs);
        } else {
            counting_pass(m, m->key_len, arcs, nint, m->link, m->key_start, m->key_start1);
            counting_pass(m, m->key_start1, m->link, nint, arcs, NULL, NULL);
        }
    }
    if (ncross == 0) return colour_intervals(m, d, rd, nint, cut, colours);
    /* the mirror (above): direction 1 as direction 0 was, or direction 0 kept for it */
    const int mirror = !m->mirror_off && !m->base.obs && m->p.spread;
    if (mirror && d == RING_CCW && mirror_same(m, rd, nint, xs, ncross, K, cut)) {
        if (keep_frags && mirror_frags(m, nint, xs, ncross)) return OC_ENOMEM;
        m->mirrored++;
        *colours = m->mir_colours;
        return 0;
    }
    const int kept = mirror && d == RING_CW && na < nx && mirror_keep(m, nint, xs, ncross, K, cut);
    /* The release records' buckets: end_fill[e] = where the bucket of the intervals ending at e
     * begins (they end at 1..N), from a count of them in transfer order (arcs[] is sorted only
     * later when it is not already). */
    if (oc__grow((void **)&m->slot, &m->slot_cap, nint, sizeof *m->slot)) return OC_ENOMEM;
    uint32_t *const fill = m->end_fill;
    memset(fill, 0, (N + 2) * sizeof *fill);
    for (size_t i = 0; i < nint; i++) {
        const oc__transfer *t = &x[arcs[i]];
        if (t->count) fill[oc__ring_sub(arc_start(d, t, N), cut, N) + arc_len(d, t, N) + 1]++;
    }
    for (uint32_t e = 0; e <= N; e++)
        fill[e + 1] += fill[e];
    m->spill_n = 0;
    /* Sweep the positions. An interval writes what it will give back (its release records) into
     * its end's bucket when it takes its colours, one slot after another, and at its end the
     * bucket is read backwards: the intervals ending at p give their colours back last taken
     * first, each its fragments in the order it took them. A fragment taken from the free bucket
     * of deadline dl goes back to that bucket: every colour in the bucket of dl < N belongs to a
     * crossing arc that starts at dl (its own colours, opened at its end, and the colours given
     * back to it by intervals, which were taken from it), and new colours (K and up) go back to
     * the bucket of N, where nothing but new colours ever is. Read from the records, an interval's
     * end reads one slot in a bucket that fills in order, instead of chasing a list through the
     * fragments to the crossing arc that owns each colour: on the all-to-all rounds of 4096 nodes
     * that chase was half the model's time. */
    uint64_t next_new = K;
    size_t si = 0, xi = 0;
    for (uint32_t p = 0; p <= N; p++) {
        /* 1. intervals ending here give their colours back */
        for (uint32_t q = fill[p], lo = p ? fill[p - 1] : 0; q > lo; q--) {
            const release *g = &m->slot[q - 1];
            if (g->n) {
                if (pool_push(m, g->dl, g->c0, g->c0 + g->n)) return OC_ENOMEM;
                continue;
            }
            for (const release *h = m->spill + g->c0, *hend = h + g->dl; h < hend; h++)
                if (pool_push(m, h->dl, h->c0, h->c0 + h->n)) return OC_ENOMEM;
        }
        /* 2. crossing arcs ending here open their colours, until their start */
        for (; xi < ncross && xs[xi].end <= p; xi++)
            if (pool_push(m, xs[xi].start, xs[xi].c0, xs[xi].c0 + xs[xi].n)) return OC_ENOMEM;
        if (p == N) break;
        /* 3. intervals starting here take the tightest windows that cover them */
        for (; si < nint; si++) {
            const uint32_t a = arcs[si];
            if (oc__ring_sub(arc_start(d, &x[a], N), cut, N) > p) break;
            if (oc__stop_tick()) return OC_ECANCELED;
            const uint32_t end = p + arc_len(d, &x[a], N);
            uint32_t need = x[a].count, taken = 0;
            release *g = need ? &m->slot[fill[end]++] : NULL;
            while (need) {
                uint32_t dl = oc__bitset_next(&m->nonempty, end);
                uint64_t c0;
                uint32_t take;
                if (dl == UINT32_MAX) {
                    c0 = next_new;
                    take = need;
                    next_new += need;
                    dl = N; /* new colours go back to the bucket of N */
                } else {
                    colour_range *top = &m->pool[m->head[dl]];
                    c0 = top->c0;
                    take = top->c1 - top->c0 < need ? (uint32_t)(top->c1 - top->c0) : need;
                    top->c0 += take;
                    if (top->c0 == top->c1) {
                        uint32_t id = m->head[dl];
                        m->head[dl] = top->next;
                        m->pool[id].next = m->pool_free;
                        m->pool_free = id;
                        if (m->head[dl] == UINT32_MAX) oc__bitset_clear(&m->nonempty, dl);
                    }
                }
                if (keep_frags && push_frag(m, d, a, c0, take)) return OC_ENOMEM;
                need -= take;
                const release r = {c0, take, dl};
                if (taken == 0) {
                    *g = r;
                } else {
                    /* a second fragment: the slot's record moves to the spill, which then holds
                     * this interval's records one after another */
                    if (oc__grow((void **)&m->spill, &m->spill_cap, m->spill_n + 2,
                                 sizeof *m->spill))
                        return OC_ENOMEM;
                    if (taken == 1) {
                        m->spill[m->spill_n] = *g;
                        *g = (release){m->spill_n++, 0, 1};
                    }
                    m->spill[m->spill_n++] = r;
                    g->dl++;
                }
                taken++;
            }
        }
    }
    *colours = next_new;
    if (kept) {
        m->mir_colours = next_new;
        m->mir_ok = 1;
    }
    return 0;
}

/* ---- observing: steps and lightpaths for the timeline and the utilisation ---- */

/* Reports the round's `steps` steps and every fragment of its colouring, cut at step boundaries:
 * one use per (transfer, step), holding a range of channels on one arc. Called after the check. */
static int ring_observe_round(oc__netrun *m, uint64_t index, const oc__round *r, uint64_t steps,
                              char *why, size_t len) {
    double a, b, c, dur = step_parts(&m->p, m->base.spec->chunk_bytes, &a, &b, &c);
    const uint64_t ch = m->p.w * m->p.F;
    const uint32_t N = m->N;
    /* At spread=0 a step lasts as its largest bundle (bundles_of): step k starts at at[k]. */
    double *at = malloc((steps + 1) * sizeof *at);
    if (!at)
        return oc__fail(why, len, OC_ENOMEM, "out of memory observing round %llu",
                        (unsigned long long)index);
    at[0] = m->base.clock;
    for (uint64_t k = 0; k < steps; k++) {
        double dk = dur;
        if (!m->p.spread && m->step_bundle[k] > 1)
            dk = step_parts(&m->p, m->step_bundle[k] * m->base.spec->chunk_bytes, &a, &b, &c);
        /* at spread=1 the old arithmetic, clock + k x dur, to the last bit (tests/ring_layout) */
        at[k + 1] = m->p.spread ? m->base.clock + (double)(k + 1) * dur : at[k] + dk;
        int rc = oc__netrun_observe_step(m, index, k, 1, at[k], dk, why, len);
        if (rc) {
            free(at);
            return rc;
        }
    }
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < m->nfrags[d]; i++) {
            const oc__ring_frag *f = &m->frags[d][i];
            const oc__transfer *t = &r->xfers[f->xfer];
            uint32_t hops =
                d == RING_CW ? oc__ring_sub(t->dst, t->src, N) : oc__ring_sub(t->src, t->dst, N);
            /* clockwise link i is i -> i+1; counter-clockwise link j (position N + j) is j -> j-1,
             * so a counter-clockwise arc from src covers links src-hops+1 .. src */
            uint32_t pos0 = d == RING_CW ? t->src : oc__ring_sub(t->src, (hops - 1) % N, N);
            const uint64_t fc1 = f->c0 + f->n;
            for (uint64_t c0 = f->c0; c0 < fc1;) {
                uint64_t st = c0 / ch, c1 = (st + 1) * ch < fc1 ? (st + 1) * ch : fc1;
                uint32_t k0 = (uint32_t)(c0 - st * ch), k1 = (uint32_t)(c1 - st * ch);
                char res[128];
                uint32_t f0 = (uint32_t)(k0 / m->p.w), f1 = (uint32_t)((k1 - 1) / m->p.w);
                if (f0 == f1)
                    snprintf(res, sizeof res, "%s fibre %u wavelengths %llu-%llu (%u links)",
                             d == RING_CW ? "cw" : "ccw", f0, (unsigned long long)(k0 % m->p.w),
                             (unsigned long long)((k1 - 1) % m->p.w), hops);
                else
                    snprintf(
                        res, sizeof res, "%s channels %u-%u (fibre x %llu + wavelength; %u links)",
                        d == RING_CW ? "cw" : "ccw", k0, k1 - 1, (unsigned long long)m->p.w, hops);
                oc__use u = {.round = index,
                             .step = m->base.steps + st,
                             .start_s = at[st],
                             .dur_s = m->p.spread ? dur : at[st + 1] - at[st],
                             .t = t,
                             .cls0 = k0,
                             .cls1 = k1,
                             .seg = d == RING_CW ? 0 : N,
                             .seglen = N,
                             .pos0 = pos0,
                             .npos = hops,
                             .resource = res};
                int rc = oc__netrun_observe_use(m, &u, why, len);
                if (rc) {
                    free(at);
                    return rc;
                }
                c0 = c1;
            }
        }
    m->base.clock = at[steps];
    free(at);
    return 0;
}

static void ring_class_name(const oc__netrun *m, uint32_t cls, char *buf, size_t len) {
    snprintf(buf, len, "fibre %llu wavelength %llu", (unsigned long long)(cls / m->p.w),
             (unsigned long long)(cls % m->p.w));
}

static void ring_pos_name(const oc__netrun *m, uint32_t pos, char *buf, size_t len) {
    if (pos < m->N)
        snprintf(buf, len, "link %u->%u cw", pos, pos + 1 == m->N ? 0 : pos + 1);
    else
        snprintf(buf, len, "link %u->%u ccw", pos - m->N, pos == m->N ? m->N - 1 : pos - m->N - 1);
}

static int ring_observe(oc__netrun *m, oc__observer *obs, oc__grid *g, char *why, size_t len) {
    uint64_t ch = m->p.w * m->p.F;
    if ((uint64_t)m->N * 2 > UINT32_MAX)
        return oc__fail(why, len, OC_ETOOBIG, "too many nodes to observe");
    m->base.obs = obs;
    *g = (oc__grid){.what = "directed link x fibre x wavelength",
                    .class_what = "fibre x wavelength",
                    .pos_what = "directed link",
                    .classes = (uint32_t)ch,
                    .positions = 2 * m->N,
                    .class_name = ring_class_name,
                    .pos_name = ring_pos_name};
    return 0;
}

/* ---- a round that repeats the last one ----
 *
 * Routing and colouring read of a round only its transfers' ends and chunk counts, in order (the
 * tie at N/2 goes by what the round carried so far; the colouring sorts by ends and takes counts),
 * so a round whose ends and counts are the last round's, transfer for transfer, gets the same
 * directions and the same colouring: the last round's are still in dir[] and frags[], and are
 * used again. The independent check still checks them against the new round, and the steps,
 * bounds and observation are made as for any round. Such rounds are common: SiPCO's all-gather
 * level repeats its reduce-scatter level (the all-to-all of 4096 nodes, about a second of
 * colouring at w = 64), rhd's first doubling level its last halving level, and every round of the
 * ring all-reduce the one before. The ends are kept only up to a bound on memory (a round of more
 * is never reused): 12 bytes a transfer. Only a checked run (the pipeline's final run) keeps
 * them: the search's runs map rounds alone, one a run, or whole candidates whose repeats the
 * search's round cache already finds. A round of more than a million transfers is kept only in
 * a reduction (all-reduce, reduce-scatter), whose gathering half mirrors its reducing half: the
 * one-stage all-gather's single all-to-all of 4096 nodes would be copied (200 MB, 0.2-0.7 s of
 * page faults) for no round after it. */
typedef struct round_ends {
    uint32_t src, dst, count;
} round_ends;

static size_t last_round_bytes(void) {
    const uint64_t b = oc__memory_budget() / 16, cap = (uint64_t)256 << 20;
    return (size_t)(b < cap ? b : cap);
}

static int repeats_last(const oc__netrun *m, const oc__round *r) {
    if (!m->last_ok || r->count != m->last_n) return 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        const round_ends *e = &m->last[i];
        if (t->src != e->src || t->dst != e->dst || t->count != e->count) return 0;
    }
    return 1;
}

/* Whether round r's ends and counts are those of the round before the last. */
static int repeats_prev(const oc__netrun *m, const oc__round *r) {
    if (!m->plast_ok || r->count != m->plast_n) return 0;
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        const round_ends *e = &m->plast[i];
        if (t->src != e->src || t->dst != e->dst || t->count != e->count) return 0;
    }
    return 1;
}

#define SWAP(T, a, b)                                                                              \
    do {                                                                                           \
        T swap_ = (a);                                                                             \
        (a) = (b);                                                                                 \
        (b) = swap_;                                                                               \
    } while (0)

/* The last round's ends, directions, fragments and figures become the round before's, and the
 * round before's the last's: pointers and counts exchanged, nothing copied. */
static void swap_prev(oc__netrun *m) {
    SWAP(struct round_ends *, m->last, m->plast);
    SWAP(size_t, m->last_cap, m->plast_cap);
    SWAP(size_t, m->last_n, m->plast_n);
    SWAP(int, m->last_ok, m->plast_ok);
    SWAP(uint64_t *, m->dir, m->pdir);
    SWAP(size_t, m->dir_cap, m->pdir_cap);
    SWAP(uint64_t, m->last_units, m->plast_units);
    for (int d = 0; d < 2; d++) {
        SWAP(oc__ring_frag *, m->frags[d], m->pfrags[d]);
        SWAP(size_t, m->nfrags[d], m->pnfrags[d]);
        SWAP(size_t, m->capfrags[d], m->pcapfrags[d]);
        SWAP(uint64_t, m->last_colours[d], m->plast_colours[d]);
        SWAP(uint64_t, m->last_maxload[d], m->plast_maxload[d]);
        SWAP(int, m->last_kind[d], m->plast_kind[d]);
    }
    m->fam_ok = 0; /* the family shortcut reads the last round's mapping */
}

/* Keeps round r's ends (nothing, and no reuse, when they are over the bound or memory is short). */
static void keep_last(oc__netrun *m, const oc__round *r) {
    m->last_ok = 0;
    if (!m->base.check || r->count * sizeof(round_ends) > last_round_bytes()) return;
    if (r->count > (1u << 20) && !oc_collective_reduces(m->base.spec->coll)) return;
    if (oc__grow((void **)&m->last, &m->last_cap, r->count, sizeof(round_ends))) return;
    for (size_t i = 0; i < r->count; i++)
        m->last[i] = (round_ends){r->xfers[i].src, r->xfers[i].dst, r->xfers[i].count};
    m->last_n = r->count;
    m->last_ok = 1;
}

/* ---- spread=0: one lightpath a transfer (item 6 of the essay) ---- */

/* The round as the colouring sees it at spread=0: every transfer one unit (its chunks ride one
 * lightpath); an empty transfer stays empty. The transfers keep their order, so a fragment's
 * transfer index names the same transfer in the round as given. */
static int unit_round_of(oc__netrun *m, const oc__round *given, oc__round *out) {
    if (oc__grow((void **)&m->unit, &m->unit_cap, given->count ? given->count : 1,
                 sizeof(oc__transfer)))
        return OC_ENOMEM;
    for (size_t i = 0; i < given->count; i++) {
        m->unit[i] = given->xfers[i];
        if (m->unit[i].count > 1) m->unit[i].count = 1;
    }
    *out = (oc__round){.xfers = m->unit, .count = given->count, .index = given->index};
    return 0;
}

/* At spread=0, the largest bundle (in chunks) each of the round's `steps` steps carries on one
 * lightpath, from the colouring's fragments (colour c is in step c / channels), into
 * m->step_bundle; and the time those bundles add to the run over one chunk a step. */
static int bundles_of(oc__netrun *m, const oc__round *given, uint64_t steps, uint64_t channels) {
    if (oc__grow((void **)&m->step_bundle, &m->step_bundle_cap, steps ? steps : 1,
                 sizeof(uint64_t)))
        return OC_ENOMEM;
    memset(m->step_bundle, 0, (steps ? steps : 1) * sizeof(uint64_t));
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < m->nfrags[d]; i++) {
            const oc__ring_frag *f = &m->frags[d][i];
            const uint64_t st = f->c0 / channels, b = given->xfers[f->xfer].count;
            if (st < steps && b > m->step_bundle[st]) m->step_bundle[st] = b;
        }
    double a, o, t;
    const uint64_t c = m->base.spec->chunk_bytes;
    const double one = step_parts(&m->p, c, &a, &o, &t);
    for (uint64_t k = 0; k < steps; k++)
        if (m->step_bundle[k] > 1)
            m->extra_s += step_parts(&m->p, m->step_bundle[k] * c, &a, &o, &t) - one;
    return 0;
}

/* ---- one round ---- */

/* Whether the last mapping gave every transfer of round r (a family written out) one colour
 * range, the same, in one direction: then fam_* describe it. */
static void note_uniform(oc__netrun *m, const oc__round *r) {
    m->fam_ok = 0;
    const size_t n = r->count;
    const int d = m->nfrags[RING_CW] ? RING_CW : RING_CCW;
    if (!n || m->nfrags[d] != n || m->nfrags[!d] != 0) return;
    const oc__ring_frag *f = m->frags[d];
    for (size_t i = 0; i < n; i++)
        if (f[i].xfer != i || f[i].c0 != f[0].c0 || f[i].n != f[0].n || dir_of(m->dir, i) != d)
            return;
    m->fam_ok = 1;
    m->fam_dir = d;
    m->fam_c0 = f[0].c0;
    m->fam_n = f[0].n;
}

static int ring_round(oc__sink *self, uint64_t index, const oc__round *given, char *why,
                      size_t len) {
    oc__netrun *m = (oc__netrun *)self;
    const uint32_t N = m->N;
    const uint64_t channels = m->p.w * m->p.F;
    const int family = given->is_family;
    const oc__family fam_in = family ? given->family : (oc__family){0};
    /* (at spread=0 a step lasts as long as its largest bundle, which only the fragments tell: such
     * a round is written out and coloured) */
    if (family && m->p.spread && m->fam_ok && m->last_ok && !m->base.obs &&
        given->family.n == m->fam.n && given->family.hop == m->fam.hop &&
        given->family.width == m->fam.width) {
        /* the last round again (its ends and counts), taken whole; checked as a family */
        int decided = 0;
        if (m->base.check) {
            int rc = oc__ring_check_family(m->checker, index, &given->family, m->fam_dir, m->fam_c0,
                                           m->fam_n, m->last_colours[m->fam_dir], &decided, why,
                                           len);
            if (rc) return rc;
        }
        if (decided || !m->base.check) {
            uint64_t colours[2], maxload[2];
            for (int d = 0; d < 2; d++) {
                colours[d] = m->last_colours[d];
                maxload[d] = m->last_maxload[d];
                if (m->last_kind[d] == 1) m->cut_rounds++;
                if (m->last_kind[d] == 2) m->crossing_rounds++;
            }
            const uint64_t most = colours[0] > colours[1] ? colours[0] : colours[1];
            const uint64_t heaviest = maxload[0] > maxload[1] ? maxload[0] : maxload[1];
            const uint64_t steps = oc__ceil_div(most, channels);
            const uint64_t lb = oc__ceil_div(heaviest, channels);
            oc__netrun_mapped(m, steps);
            m->steps_lb += lb;
            m->units += m->last_units;
            if (lb && (double)steps / (double)lb > m->worst_ratio) {
                m->worst_ratio = (double)steps / (double)lb;
                m->worst_round = index;
            }
            return 0;
        }
    }
    if (family) { /* written out, mapped as it comes */
        if (oc__family_expand(&given->family, &m->flat))
            return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                            (unsigned long long)index);
        given = &m->flat;
    }
    m->fam_ok = 0;
    if (given->count > UINT32_MAX) /* fragments name their transfer in 32 bits */
        return oc__fail(why, len, OC_ETOOBIG,
                        "round %llu: %zu lightpaths, more than the ring model's 2^32 a round",
                        (unsigned long long)index, given->count);
    /* r: the round as it is coloured and checked; given: as it was sent (its bundles) */
    const oc__round *r = given;
    oc__round unit;
    if (!m->p.spread) {
        if (unit_round_of(m, given, &unit))
            return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                            (unsigned long long)index);
        r = &unit;
    }
    uint64_t colours[2] = {0, 0}, maxload[2] = {0, 0}, units = 0;
    int again = repeats_last(m, r);
    if (!again && repeats_prev(m, r)) { /* the round before, now the last */
        swap_prev(m);
        again = 1;
    }
    if (again) {
        for (int d = 0; d < 2; d++) {
            colours[d] = m->last_colours[d];
            maxload[d] = m->last_maxload[d];
            if (m->last_kind[d] == 1) m->cut_rounds++;
            if (m->last_kind[d] == 2) m->crossing_rounds++;
        }
        units = m->last_units;
        goto mapped;
    }
    /* mapped afresh: the last round becomes the round before (a round of a million transfers or
     * less: two rounds' buffers are then alive at once), its buffers taken for this one */
    if (m->last_ok && m->last_n <= (1u << 20))
        swap_prev(m);
    else
        m->plast_ok = 0;
    m->last_ok = 0;
    if (reserve_round(m, r->count))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                        (unsigned long long)index);
    /* 1. Route: a direction bit per transfer. */
    uint64_t tie[2] = {0, 0};
    size_t per_dir[2] = {0, 0};
    for (size_t i = 0; i < r->count; i++) {
        const oc__transfer *t = &r->xfers[i];
        if (oc__stop_tick()) /* a round of millions of lightpaths takes seconds */
            return oc__fail(why, len, OC_ECANCELED, "cancelled inside round %llu",
                            (unsigned long long)index + 1);
        if (t->src >= N || t->dst >= N || t->src == t->dst) /* the call only to say why */
            return oc__netrun_endpoints(m, index, t, "cannot be routed", why, len);
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
        m->dir[i >> 6] |= (uint64_t)d << (i & 63);
        per_dir[d]++;
        units += t->count;
    }
    if (reserve_arcs(m, per_dir[0] > per_dir[1] ? per_dir[0] : per_dir[1]))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                        (unsigned long long)index);
    m->mir_ok = 0; /* direction 0 keeps its sweep for direction 1 of this round only */
    for (int d = 0; d < 2; d++) {
        m->nfrags[d] = 0;
        m->last_kind[d] = 0;
        /* An empty direction costs nothing (no O(N) pass). */
        if (per_dir[d] == 0) continue;
        const int all = per_dir[d] == r->count;
        /* 2. Loads from a difference array; pass-through counts from loads and arc starts. The
         * pass over the links also clears them for the next direction or round. */
        link_count *lc = m->links;
        for (size_t i = 0; i < r->count; i++) {
            if (!all && dir_of(m->dir, i) != d) continue;
            const oc__transfer *t = &r->xfers[i];
            uint32_t s = arc_start(d, t, N), e = s + arc_len(d, t, N);
            uint64_t u = t->count;
            lc[s].starting += u;
            lc[s].diff += (int64_t)u;
            if (e <= N) {
                lc[e].diff -= (int64_t)u;
            } else {
                lc[N].diff -= (int64_t)u;
                lc[0].diff += (int64_t)u;
                lc[e - N].diff -= (int64_t)u;
            }
        }
        int64_t run = 0;
        uint32_t cut = 0;
        uint64_t best_pass = UINT64_MAX;
        for (uint32_t p = 0; p < N; p++) {
            run += lc[p].diff;
            uint64_t load = (uint64_t)run; /* load of link p -> p+1 */
            if (load > maxload[d]) maxload[d] = load;
            uint64_t pass = load - lc[p].starting; /* arcs over link p not starting at p */
            if (pass < best_pass) {
                best_pass = pass;
                cut = p;
            }
            lc[p].diff = 0;
            lc[p].starting = 0;
        }
        lc[N].diff = 0;
        int rc;
        rc = colour_cut(m, d, r, per_dir[d], cut, maxload[d], &colours[d]);
        m->last_kind[d] = best_pass == 0 ? 1 : 2;
        if (best_pass == 0)
            m->cut_rounds++;
        else
            m->crossing_rounds++;
        if (rc == OC_ECANCELED)
            return oc__fail(why, len, rc, "cancelled inside round %llu",
                            (unsigned long long)index + 1);
        if (rc)
            return oc__fail(why, len, rc, "round %llu: wavelength assignment failed (%s)",
                            (unsigned long long)index, oc_strerror(rc));
    }
    /* A direction that needed under a quarter of its fragment buffer gives the rest back: one big
     * round (OpTree's last stages) must not stay resident through the rounds after it. */
    for (int d = 0; d < 2; d++) {
        size_t keep = 2 * m->nfrags[d] + 64;
        if (m->capfrags[d] / 4 > keep && m->capfrags[d] * sizeof(oc__ring_frag) >= (1u << 24)) {
            oc__ring_frag *q = realloc(m->frags[d], keep * sizeof(oc__ring_frag));
            if (q) { /* on failure the bigger buffer simply stays */
                m->frags[d] = q;
                m->capfrags[d] = keep;
            }
        }
    }
    keep_last(m, r);
    if (family && m->last_ok) {
        note_uniform(m, r);
        m->fam = fam_in;
    }
    m->last_colours[0] = colours[0], m->last_colours[1] = colours[1];
    m->last_maxload[0] = maxload[0], m->last_maxload[1] = maxload[1];
    m->last_units = units;
mapped:
    /* 3. Independent check. */
    if (m->base.check) {
        oc__ring_assignment a = {.dir = m->dir,
                                 .frags = {m->frags[0], m->frags[1]},
                                 .nfrags = {m->nfrags[0], m->nfrags[1]},
                                 .colours = {colours[0], colours[1]}};
        int rc =
            oc__ring_check(m->checker, index, r, &a, (uint32_t)m->p.F, (uint32_t)m->p.w, why, len);
        if (rc) return rc;
    }
    /* 4. Steps and bounds. */
    uint64_t most = colours[0] > colours[1] ? colours[0] : colours[1];
    uint64_t heaviest = maxload[0] > maxload[1] ? maxload[0] : maxload[1];
    uint64_t steps = oc__ceil_div(most, channels);
    uint64_t lb = oc__ceil_div(heaviest, channels);
    if (!m->p.spread && bundles_of(m, given, steps, channels))
        return oc__fail(why, len, OC_ENOMEM, "out of memory mapping round %llu",
                        (unsigned long long)index);
    if (m->base.obs) {
        int rc = ring_observe_round(m, index, r, steps, why, len);
        if (rc) return rc;
    }
    oc__netrun_mapped(m, steps);
    m->steps_lb += lb;
    m->units += units;
    if (lb && (double)steps / (double)lb > m->worst_ratio) {
        m->worst_ratio = (double)steps / (double)lb;
        m->worst_round = index;
    }
    return 0;
}

/* ---- model interface ---- */

static void ring_destroy(oc__netrun *m) {
    if (m) {
        oc__ring_checker_free(m->checker);
        oc__bitset_free(&m->nonempty);
    }
    oc__netrun_free(m);
}

/* oc__model.parse: the settings read once a run into the record every creation copies. */
static int ring_parse(const oc_kv *params, uint32_t nodes, void *own, char *why, size_t len) {
    _Static_assert(sizeof(ring_params) <= OC__NETSET_OWN, "ring_params fits an oc__netset");
    (void)nodes;
    return ring_params_read(params, own, why, len);
}

static int ring_create(const oc__spec *spec, const void *own, int check, oc__netrun **out,
                       char *why, size_t len) {
    *out = NULL;
    int rc = 0;
    oc__netrun *m = oc__netrun_new(sizeof *m, spec, check, ring_round);
    if (!m) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    m->p = *(const ring_params *)own;
    m->N = spec->nodes;
    m->base.sink.takes_family = 1; /* ring_round: a family is written out or taken whole */
    const size_t N = spec->nodes;
    /* per node, then per transfer and per fragment (grown by the rounds) */
    const oc__netbuf bufs[] = {
        OC_NETBUF(m->links, N + 1),     OC_NETBUF(m->bucket_a, N + 2), OC_NETBUF(m->head, N + 1),
        OC_NETBUF(m->ends_head, N + 1), OC_NETBUF(m->dir, 0),          OC_NETBUF(m->arcs, 0),
        OC_NETBUF(m->link, 0),          OC_NETBUF(m->frags[0], 0),     OC_NETBUF(m->frags[1], 0),
        OC_NETBUF(m->pool, 0),          OC_NETBUF(m->end_fill, N + 2), OC_NETBUF(m->slot, 0),
        OC_NETBUF(m->spill, 0),         OC_NETBUF(m->last, 0),         OC_NETBUF(m->unit, 0),
        OC_NETBUF(m->step_bundle, 0),   OC_NETBUF(m->flat.xfers, 0),   OC_NETBUF(m->plast, 0),
        OC_NETBUF(m->pdir, 0),          OC_NETBUF(m->pfrags[0], 0),    OC_NETBUF(m->pfrags[1], 0),
        OC_NETBUF(m->cross, 0),         OC_NETBUF(m->cross_by_end, 0), OC_NETBUF(m->key_len, 0),
        OC_NETBUF(m->key_start, 0),     OC_NETBUF(m->key_start1, 0),   OC_NETBUF(m->group_v, 0),
        OC_NETBUF(m->group_t, 0),       OC_NETBUF(m->group_b, 0),      OC_NETBUF(m->mir_arcs, 0),
        OC_NETBUF(m->mir_cross, 0),     OC_NETBUF(m->mir_match, 0)};
    rc = oc__netrun_buffers(m, bufs, sizeof bufs / sizeof *bufs, "the ring model", why, len);
    if (!rc && (oc__bitset_init(&m->nonempty, (uint32_t)N + 1) ||
                (check && oc__ring_checker_new(spec->nodes, &m->checker))))
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (size_t k = 0; !rc && k <= N; k++)
        m->ends_head[k] = UINT32_MAX;
    return oc__netrun_done(m, rc, ring_destroy, out);
}

static double ring_step_time(const oc__netrun *m) {
    double a, b, c;
    return step_parts(&m->p, m->base.spec->chunk_bytes, &a, &b, &c);
}

static double ring_step_fixed(const oc__netrun *m) {
    double a, b, c;
    return step_parts(&m->p, 0, &a, &b, &c);
}

static uint64_t ring_channels(const oc__netrun *m) {
    return m->p.w * m->p.F;
}

/* oc__netcost.bundle_step_s at spread=0: a step whose largest bundle is `bytes` on one wavelength,
 * from the typed settings (item 5: reconfiguration, the O/E/O of its flits, its whole packets). */
static double ring_bundle_step(const oc__netcfg *cfg, uint64_t bytes) {
    const oc__ring_cfg *r = &cfg->ring;
    return r->reconfig_s + (double)oc__ceil_div(bytes, r->flit_bytes) * r->oeo_s_per_flit +
           (double)(oc__ceil_div(bytes, r->packet_bytes) * r->packet_bytes) * 8.0 /
               r->bandwidth_bps;
}

/* The settings the algorithms read (core/netcfg.h): w per fibre and F per direction; and what a
 * step costs, for the physical bounds (src/bounds). */
static void ring_config(const oc__netrun *m, oc__netcfg *out) {
    out->kind = OC_NETCFG_RING;
    out->ring = (oc__ring_cfg){.wavelengths = m->p.w,
                               .fibres = m->p.F,
                               .bandwidth_bps = m->p.bandwidth_gbps * 1e9,
                               .reconfig_s = m->p.reconfig_us * 1e-6,
                               .oeo_s_per_flit = m->p.oeo_ns_per_flit * 1e-9,
                               .flit_bytes = m->p.flit_bytes,
                               .packet_bytes = m->p.packet_bytes,
                               .spread = (int)m->p.spread};
    /* How a round is costed, for the algorithms' bounds (core/netcfg.h: oc__netcost): a round's
     * steps are its busiest directed link's colours over the channels (items 2, 3); at spread=0
     * a transfer keeps to one lightpath and a step lasts as its largest bundle (item 6), at least
     * the reconfiguration plus the bundle's bytes converted and sent without rounding. */
    const oc__ring_cfg *r = &out->ring;
    out->cost = (oc__netcost){.steps_by_link_load = 1};
    if (!r->spread) {
        out->cost.bundle_step_s = ring_bundle_step;
        out->cost.bundle_fixed_s = r->reconfig_s;
        out->cost.bundle_per_byte_s =
            r->oeo_s_per_flit / (double)r->flit_bytes + 8.0 / r->bandwidth_bps;
    }
}

/* oc__model.reset: the totals back to a new run's; the per-round scratch is already as a new
 * run's between rounds (ring_round leaves it so), only larger. */
static void ring_reset(oc__netrun *m, const oc__spec *spec) {
    m->base.spec = spec;
    m->base.rounds = m->base.steps = 0;
    m->base.clock = 0;
    m->steps_lb = m->units = m->cut_rounds = m->crossing_rounds = 0;
    m->worst_ratio = 0;
    m->worst_round = 0;
    m->extra_s = 0;
    m->last_ok = m->plast_ok = 0; /* a round of the new spec is mapped afresh */
}

static int ring_finish(oc__netrun *m, oc_report *rep, char *why, size_t len) {
    double reconf, oeo, tx;
    double step = step_parts(&m->p, m->base.spec->chunk_bytes, &reconf, &oeo, &tx);
    oc__netrun_figures(rep, m->base.steps, m->steps_lb, (double)m->base.steps * step + m->extra_s);
    int rc = oc__netrun_param(rep, "preset", "%s", m->p.preset);
    rc |= oc__netrun_param(rep, "wavelengths", "%llu", (unsigned long long)m->p.w);
    rc |= oc__netrun_param(rep, "fibres", "%llu", (unsigned long long)m->p.F);
    rc |= oc__netrun_param(rep, "bandwidth_gbps", "%g", m->p.bandwidth_gbps);
    rc |= oc__netrun_param(rep, "reconfig_us", "%g", m->p.reconfig_us);
    rc |= oc__netrun_param(rep, "oeo_ns_per_flit", "%g", m->p.oeo_ns_per_flit);
    rc |= oc__netrun_param(rep, "flit_bytes", "%llu", (unsigned long long)m->p.flit_bytes);
    rc |= oc__netrun_param(rep, "packet_bytes", "%llu", (unsigned long long)m->p.packet_bytes);
    /* spread=0 only (the default, 1, is stated in `list`): what the steps' bundles add over one
     * chunk a step */
    if (!m->p.spread) {
        rc |= oc__netrun_param(rep, "spread", "%llu", (unsigned long long)m->p.spread);
        rc |= oc__report_num(rep, "time_bundles_s", m->extra_s);
    }
    rc |= oc__report_num(rep, "step_time_s", step);
    rc |= oc__report_num(rep, "step_reconfig_s", reconf);
    rc |= oc__report_num(rep, "step_oeo_s", oeo);
    rc |= oc__report_num(rep, "step_transmission_s", tx);
    rc |= oc__report_num(rep, "time_reconfig_s", reconf * (double)m->base.steps);
    rc |= oc__report_num(rep, "time_oeo_s", oeo * (double)m->base.steps);
    rc |= oc__report_num(rep, "time_transmission_s", tx * (double)m->base.steps);
    rc |= oc__report_num(rep, "steps_to_lower_bound_ratio",
                         m->steps_lb ? (double)m->base.steps / (double)m->steps_lb : 1.0);
    rc |= oc__report_num(rep, "worst_round_ratio", m->worst_ratio ? m->worst_ratio : 1.0);
    /* per direction: colourings where some node is passed by no arc (then steps = bound) */
    rc |= oc__report_num(rep, "colourings_interval", (double)m->cut_rounds);
    rc |= oc__report_num(rep, "colourings_circular", (double)m->crossing_rounds);
    return oc__netrun_finished(rc, why, len);
}

const oc__model oc__model_ring = {
    .info = {"ring",
             "WDM optical double ring (TeraRack): shortest-path lightpaths, wavelength continuity",
             "wavelengths=64: per fibre; fibres=1: per direction (preset=terarack: 2); "
             "bandwidth_gbps=40: Gb/s (bits) per wavelength; reconfig_us=25: MRR reconfiguration per step; "
             "oeo_ns_per_flit=1: O/E/O, one cycle per flit at an assumed 1 GHz; flit_bytes=32; "
             "packet_bytes=128; preset=seed|terarack; spread=1: a transfer of b chunks may take "
             "b wavelengths at once (0: one lightpath a transfer, a step as long as its largest "
             "bundle; every algorithm alike)"},
    .parse = ring_parse,
    .create = ring_create,
    .sink = oc__netrun_sink,
    .finish = ring_finish,
    .additive = 1, /* a round's cost is its own (search.c caches rounds) */
    .reset = ring_reset,
    .step_time = ring_step_time,
    .step_fixed = ring_step_fixed,
    .channels = ring_channels,
    .steps = oc__netrun_steps,
    .destroy = ring_destroy,
    .observe = ring_observe,
    .config = ring_config,
};
