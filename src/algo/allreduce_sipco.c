/*
 * allreduce_sipco.c — Flex-SiPCO all-reduce on a SiPAC(r, l) topology (lumorph section 3, Fig. 3:
 * "Lumorph can still use the optimal Flex-SiPCO AllReduce algorithm [4], as tenant topologies can
 * be configured to match the SiPAC topology for any r and l"; "Example configuration with 8 GPUs
 * using Lumorph that is equivalent to SiPAC(2,3)").
 *
 * What the seed defines, and what is ours. The seed says SiPAC is BCube-based (section 3), that
 * SiPAC(2,3) has 8 GPUs (Fig. 3), and that Flex-SiPCO is an optimal all-reduce on it; it gives no
 * schedule. We take SiPAC(r, l) as BCube's addressing: N = r^l GPUs, GPU x has the base-r digits
 * x_0 .. x_{l-1}, and along dimension d it is connected to the r-1 GPUs that differ from it in
 * digit d alone, l (r-1) links in all (SiPAC(2,3): 3 links, what the 1x3 MZI switch of a tile
 * holds). The all-reduce is ours, chosen to use every one of those links in every round (what an
 * algorithm "optimal" on a fixed multi-port topology must do): the vector is cut into l parts;
 * part j reduce-scatters along the dimensions in the rotated order j, j+1, .., j+l-1 (mod l), one
 * dimension per round, then all-gathers back in the reverse order. In round t all l parts work
 * at once, part j on dimension (j+t) mod l, so a GPU sends on all l (r-1) links every round and the
 * circuit set never changes: configured once, like SiPAC's fixed topology.
 * (With one part, this is rhd radices=r x .. x r: the dimension-by-dimension SiPCO, which
 * reconfigures every round on Lumorph.)
 *
 * Labels. Part j holds N chunks, labels j N + c. A chunk's offset c lists its digits in part j's
 * order, the first dimension most significant: c = sum_p digit_{(j+p) mod l} r^(l-1-p). So what a
 * GPU sends at level p is one contiguous range of r^(l-1-p) chunks (offsets whose first p digits
 * are the GPU's own, the next one the peer's for halving or the GPU's for doubling).
 *
 * Cost (fabric, W wavelengths per tile, a = alpha, c = one chunk of n / (l N) bytes at the tile's
 * full rate, s(d) = W / floor(W / d)):
 *     rounds = 2 l,  reconfigurations = 1,
 *     bandwidth = 2 sum_{p<l} r^(l-1-p) s(l (r-1)) c = 2 (N-1)/(r-1) s(l (r-1)) c
 * SiPAC(2,3), W = 16: 6 rounds, one setup, 2 x 7 x 16/5 chunks of n/24 = 1.87 n/B, against
 * Lumorph-2's 6 rounds, 5 reconfigurations and 1.75 n/B.
 * Restrictions: N = r^l (SiPAC has no other sizes; every N is N^1, one all-to-all level); the
 * fabric's mzi_degree must hold l (r-1) circuits (the model refuses otherwise). The schedule is
 * generic, so it also runs on the ring, the switch and the fat-tree (closed forms below). Parameters: r (the SiPAC radix; unset: every r with
 * r^l = N is mapped and the fastest kept).
 *
 * At scale. With l = 1 (r = N: the all-to-all reduce-scatter, then the all-to-all all-gather; the
 * winner of `compare -c allreduce -t ring -n 4096 -s 4MiB`) the labels are the nodes' one digit of
 * radix N, and adding any x to every node and label (mod N) leaves both rounds as they are (x
 * sends label y to y; y sends label y to x): the plan states it (oc__spec.digit_*), and the
 * verifier holds node 0's N cells instead of N x N (verify.c, "Digit orbit reductions": it checks
 * every round's symmetry itself and writes the cells out at the first round without it). At
 * l > 1 the l N labels are not one digit's: nothing is stated. A level without a chunk window
 * (the search's candidates, the final run's cost pass) is written in place whole (level_whole);
 * tests/test_sipco_orbit.c holds it to the definition above, transfer for transfer.
 */
#include "algo/algos.h"
#include "core/progress.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const params_[] = {"r", NULL};

typedef struct sipco {
    uint32_t N, r, l;
    uint32_t pw[33]; /* r^i */
} sipco;

/* l with r^l = N, or 0 when N is not a power of r. */
static uint32_t levels_of(uint32_t N, uint32_t r) {
    uint32_t l = 0;
    uint64_t P = 1;
    while (P < N) {
        P *= r;
        l++;
    }
    return P == N ? l : 0;
}

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    uint64_t r;
    uint32_t r0 = 2; /* unpinned: the smallest radix N is a power of (fewest circuits per GPU) */
    while (nodes >= 2 && r0 < nodes && !levels_of(nodes, r0)) r0++;
    int rc = oc__kv_only(params, params_, "sipco", why, len);
    if (rc || (rc = oc__kv_u64(params, "r", r0, 2, UINT32_MAX, &r, why, len))) return rc;
    const uint32_t l = nodes < 2 ? 0 : levels_of(nodes, (uint32_t)r);
    if (nodes >= 2 && !l)
        return oc__fail(why, len, OC_EINVAL,
                        "sipco: %u GPUs is not a power of r=%llu: SiPAC(r, l) has r^l GPUs (lumorph "
                        "section 3, Fig. 3: SiPAC(2,3) = 8)",
                        nodes, (unsigned long long)r);
    const uint64_t q = (uint64_t)(l ? l : 1) * nodes;
    if (q > bytes && nodes > 1)
        return oc__fail(why, len, OC_EINVAL,
                        "sipco: SiPAC(%llu,%u) cuts the vector into %llu chunks: %llu bytes are "
                        "too few",
                        (unsigned long long)r, l, (unsigned long long)q, (unsigned long long)bytes);
    /* 2l rounds (halving, doubling), each of the l parts' N GPUs sending to r - 1 peers */
    if ((rc = oc__plan_work("sipco", nodes, 2 * q * (l ? l : 1) * (r - 1), why, len))) return rc;
    if ((rc = oc__plan_begin(p, coll, nodes, root, bytes, (uint32_t)q, why, len))) return rc;
    p->spec.max_round = q * (r - 1); /* one level's rounds: sized before generating */
    /* The chunk-transfers, the verifier's work (oc__spec.units): level p moves q (r - 1) ranges of
     * r^(l-1-p) chunks each way, and (r - 1) sum_p r^(l-1-p) = r^l - 1 = N - 1, so 2 l N (N - 1)
     * in all (SiPCO r=2 on 65536 nodes: 1.4e11, refused by the work budget before generating). */
    p->spec.units = 2 * (uint64_t)l * nodes * (nodes - 1);
    p->spec.transfers = 2 * q * l * (r - 1);
    sipco *s = calloc(1, sizeof *s);
    if (!s) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    p->state = s;
    p->spec.window_skips = 1; /* level() makes only a verifier shard's transfers */
    if (l == 1) { /* the all-to-all's symmetry (the essay, "At scale") */
        p->spec.digit_levels = 1;
        p->spec.digit_radix[0] = nodes;
    }
    *s = (sipco){.N = nodes, .r = (uint32_t)r, .l = l};
    s->pw[0] = 1;
    for (uint32_t i = 0; i < l; i++) s->pw[i + 1] = s->pw[i] * s->r;
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)r);
    if (oc_kv_set(p->used, "r", b)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    snprintf(b, sizeof b, "%u", l);
    if (oc_kv_set(p->used, "l", b)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

static void release(oc__plan *p) {
    free(p->state);
    p->state = NULL;
}

/* Digit d of GPU x. */
static uint32_t digit(const sipco *s, uint32_t x, uint32_t d) {
    return (x / s->pw[d]) % s->r;
}

/* Level p written whole (an emitter without a window: the search's candidates and the cost
 * pass): the same transfers in the same order as level()'s loop below, written in place for the
 * whole round at once (oc__emit_many: one buffer of N l (r - 1) transfers, not one call and a
 * doubling buffer a transfer), the receivers and labels stepped along the digit instead of
 * multiplied out. Every label range is inside the l N labels by construction (a range of span
 * chunks at prefix + v span, v < r, within part j's N). At N = 4096 (r = 4096) a level is 16.7 M
 * transfers, made for every search candidate and the final run's passes. */
static int level_whole(const sipco *s, oc__emit *e, uint32_t p, int halving) {
    const uint32_t r = s->r, l = s->l, N = s->N, span = s->pw[l - 1 - p];
    const uint32_t op = (uint32_t)(halving ? OC_OP_REDUCE : OC_OP_COPY);
    oc__transfer *out;
    int rc = oc__emit_many(e, (size_t)N * l * (r - 1), &out);
    if (rc) return rc;
    for (uint32_t x = 0; x < N; x++)
        for (uint32_t j = 0; j < l; j++) {
            /* a round of millions of transfers: a stop is heard inside it (as oc__emit_transfer
             * ticks once a transfer, here once a sender's r - 1) */
            if (oc__stop_tick())
                return oc__fail(e->why, e->whylen, OC_ECANCELED, "cancelled inside round %llu",
                                (unsigned long long)e->rounds + 1);
            uint32_t prefix = 0;
            for (uint32_t i = 0; i < p; i++) prefix += digit(s, x, (j + i) % l) * s->pw[l - 1 - i];
            const uint32_t d = (j + p) % l, xd = digit(s, x, d), step = s->pw[d];
            const uint32_t base = j * N + prefix, own = base + xd * span;
            uint32_t y = x - xd * step; /* the peer of digit 0; v's is y + v step, in range */
            uint32_t first = base;
            for (uint32_t v = 0; v < r; v++, y += step, first += span) {
                if (v == xd) continue;
                *out++ = (oc__transfer){x, y, halving ? first : own, span, op};
            }
        }
    return oc__emit_round(e);
}

/* Level p of every part in one round: GPU x sends to each peer y along part j's dimension
 * d = (j+p) mod l the range whose first p digits are x's and whose digit p is y's (halving) or
 * x's own (doubling).
 *
 * A windowed emitter (a verifier shard of chunks [win_lo, win_hi)) gets only the transfers whose
 * range touches the window, the others skipped in their places (oc__emit_skip): GPU x's ranges
 * for part j start at base = j N + prefix, one of `span` chunks per digit v, so halving's touch
 * it for v in [va, vb) (the digits whose range starts below win_hi and ends above win_lo), and
 * doubling's r - 1 transfers all carry digit x_d's range, so they all touch it or none does.
 * Before, every shard made the whole round and the emitter filtered it: at N = 4096 (SiPAC(4096,
 * 1), 33.5 M transfers) the shards' generating was half of the verified run's time. */
static int level(const sipco *s, oc__emit *e, uint32_t p, int halving) {
    const uint32_t r = s->r, l = s->l, span = s->pw[l - 1 - p];
    if (!e->windowed) return level_whole(s, e, p, halving);
    const uint64_t lo = e->win_lo, hi = e->win_hi;
    for (uint32_t x = 0; x < s->N; x++)
        for (uint32_t j = 0; j < l; j++) {
            uint32_t prefix = 0;
            for (uint32_t i = 0; i < p; i++) prefix += digit(s, x, (j + i) % l) * s->pw[l - 1 - i];
            const uint32_t d = (j + p) % l, xd = digit(s, x, d);
            uint32_t va = 0, vb = r; /* the digits whose transfers are made */
            const uint64_t base = (uint64_t)j * s->N + prefix;
            if (halving) {
                const uint64_t from = lo > base ? (lo - base) / span : 0;
                const uint64_t to = hi > base ? oc__ceil_div(hi - base, span) : 0;
                va = (uint32_t)(from < r ? from : r);
                vb = (uint32_t)(to < r ? to : r);
                if (vb < va) vb = va;
            } else if (base + (uint64_t)xd * span >= hi || base + (uint64_t)(xd + 1) * span <= lo) {
                va = vb = r;
            }
            oc__emit_skip(e, va - (xd < va));
            for (uint32_t v = va; v < vb; v++) {
                if (v == xd) continue;
                const uint32_t y = x + (v - xd) * s->pw[d]; /* wraps back in range */
                const uint32_t first = j * s->N + prefix + (halving ? v : xd) * span;
                int rc = oc__emit_transfer(e, x, y, halving ? OC_OP_REDUCE : OC_OP_COPY, first,
                                           span);
                if (rc) return rc;
            }
            oc__emit_skip(e, (r - vb) - (xd >= vb));
        }
    return oc__emit_round(e);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const sipco *s = p->state;
    int rc = 0;
    for (uint32_t t = 0; t < s->l && !rc; t++) rc = level(s, e, t, 1);
    for (uint32_t t = s->l; t > 0 && !rc; t--) rc = level(s, e, t - 1, 0);
    return rc;
}

/* A proven bound on SiPAC(r, l)'s mapped cost on the fabric that splits a round above its MZI
 * degree D into passes (mzi_split=1; fabric.c), where the unsplit closed form is no bound (a pass
 * gives its circuits more lanes). Every GPU has d = l (r - 1) circuits out and in every round,
 * each of r^(l-1-p) chunks at level p. A round with d > D runs in at least ceil(d / D) passes,
 * each a step with its alpha and, after the first, a reconfiguration; the first round sets its
 * circuits up. A tile with k circuits in a pass has one at floor(W / k) <= W / k lanes or fewer,
 * so the pass lasts at least k times its chunks at the tile's full rate: summed over the passes,
 * a round takes at least d r^(l-1-p) chunk times, and the 2l rounds 2 l (N - 1) (fibre passes
 * and narrower shares only add). c is the model's own chunk time (its figures for the plan's
 * l N chunks). 0 when the figures cannot be had (the plan refuses such an r). */
static int split_bound(const oc__search_in *in, uint32_t r, uint32_t l, oc__bound *b, char *why,
                       size_t len) {
    oc__formula_in f;
    if (in->figures(in, in->coll, l * in->nodes, &f, why, len)) {
        why[0] = 0;
        return 0;
    }
    const uint64_t D = in->net->split_degree, d = (uint64_t)l * (r - 1);
    const uint64_t passes = d > D ? oc__ceil_div(d, D) : 1;
    const double a = f.step_fixed, c = f.step_time - f.step_fixed;
    const double reconfigs = 2.0 * l * (double)(passes - 1) + 1;
    *b = (oc__bound){.steps = 2 * (uint64_t)l * passes,
                     .name = "fabric split into passes: 2l rounds of ceil(l(r-1)/D) passes, an "
                             "alpha each, and the busiest tile's chunks at its full rate"};
    b->time_s = ((double)b->steps * a + reconfigs * in->net->reconfig_s +
                 2.0 * l * (double)(in->nodes - 1) * c) *
                (1 - 1e-12);
    return 1;
}

/* Every r >= 2 with r^l = N, smallest first (fewest circuits per GPU first). No bound but on the
 * split fabric (split_bound): there are at most log2 N candidates, but there a round of l (r-1)
 * circuits is edge-coloured into passes (r = 1024 at N = 1024: 341 passes a round, 28 s of CPU
 * for the four candidates). */
static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "r") || in->nodes < 2) return 0;
    for (uint32_t r = 2; r <= in->nodes; r++) {
        const uint32_t l = levels_of(in->nodes, r);
        if (!l) continue;
        char b[32];
        snprintf(b, sizeof b, "%u", r);
        const char *kv[] = {"r", b};
        oc__bound bound = {0};
        if (in->net->split_degree && in->net->lanes) split_bound(in, r, l, &bound, why, len);
        if (oc__search_offer(s, &bound, 1, kv))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

/* The closed forms. The fabric: the essay's. The optical ring (several wavelengths): a GPU's
 * l (r-1) transfers of a round go at once, 2l rounds of the seed's step (the model splits a round
 * by its links' load, as for rhd). Elsewhere (switch, fat-tree, a ring of one wavelength) a GPU's
 * transfers go one after another: 2 l x l (r-1) messages and 2 l (N-1) chunks of n / (l N). */
static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const sipco *s = p->state;
    const double a = in->step_fixed, c = in->step_time - in->step_fixed;
    if (in->lanes) {
        if (s->N < 2) return oc__formula_circuits(rep, in, 0, 0, 0);
        const double split = oc__formula_split(in, (uint64_t)s->l * (s->r - 1));
        if (split == 0) return 0;
        const double bw = 2.0 * (s->N - 1) / (s->r - 1) * split * c;
        return oc__formula_circuits(rep, in, 2.0 * s->l, 1, bw);
    }
    if (in->wavelengths > 1) {
        oc__formula_steps(rep, in, 2.0 * s->l);
        return oc__note_rounds_on_ring(rep, in, "", 0);
    }
    const double msgs = 2.0 * s->l * s->l * (s->r - 1);
    rep->has_formula = 1;
    rep->steps_formula = msgs;
    rep->has_time_formula = 1;
    rep->time_formula_s = msgs * a + 2.0 * s->l * (s->N - 1) * c;
    return 0;
}

const oc__algo oc__algo_allreduce_sipco = {
    .info = {"sipco", OC_ALLREDUCE, "ring,fattree,switch,fabric",
             "Flex-SiPCO on a SiPAC(r,l) topology configured on Lumorph (lumorph Fig. 3): the "
             "vector in l parts, each reduce-scattered then all-gathered along the l dimensions "
             "in its own rotated order, every link busy every round; N = r^l",
             "", "2l rounds, one circuit configuration",
             "r=R: the SiPAC radix (N must be R^l); unset: searched by mapped time"},
    .param_names = params_,
    .plan = plan,
    .generate = generate,
    .release = release,
    .search = search,
    .formula = formula,
    .bounds_hold_split = 1, /* split_bound on the fabric with mzi_split=1 */
};
