/*
 * alltoall_twophase.c — the two-phase all-to-all in groups, for the photonic fabric (issue 26,
 * item 2: a counterpart where the fabric's bound shows a gap; ours, after the two-phase
 * (indirect) all-to-alls of large machines, shaped to the fabric's model, net/fabric.c).
 *
 * Why. A fabric round costs alpha (0.7 us), a reconfiguration (3.7 us) whenever its circuit set
 * differs from the round before's, and its slowest circuit's bytes. A straight exchange (`kshift`,
 * `pairwise`) sends each of a node's N - 1 blocks on its own circuit, at most D = 3 circuits a
 * tile (the seed's 1x3 MZI switch), so its ceil((N - 1) / 3) rounds all change their circuits:
 * at 1 KiB and N = 100 they cost 33 x (0.7 + 3.7) us, 5.4 times the label-range bound
 * (src/bounds/bounds_fabric.c), which charges one reconfiguration. The labels rule out bundling
 * a node's own blocks (a transfer is one label range, and a node's own blocks lie N labels
 * apart), but not bundling *other* nodes' blocks for one destination: the blocks for d from
 * sources lo .. hi are one range. So relay inside groups of consecutive nodes, on circuits that
 * stay up for many rounds, and cross between groups once, in ranges.
 *
 * The schedule. The nodes are cut into a groups of consecutive nodes, group r = [lo_r, lo_(r+1)),
 * lo_r = floor(r N / a), of sizes s_r = floor or ceil of N / a. For a group r and a destination d
 * outside it, the gatherer g(r, d) is member (j mod s_r) of r, j = (d - lo_(r+1)) mod N the place
 * of d in the order of the other groups after r: consecutive destinations go to consecutive
 * members, so every member gathers for floor or ceil of (N - s_r) / s_r destinations. For d in
 * r the gatherer is d itself.
 *  - Phase 1 (relay in the group): node u of r sends its block for d to g(r, d) for every d with
 *    g(r, d) != u, one transfer each (a node's own blocks are N labels apart). Member c of r sends
 *    to member (c + t) mod s_r on "lane" t; the lanes t = 1 + k p .. (k + 1) p form period k
 *    (p = the parameter `circuits`), and in round i of the period every lane carries its i-th
 *    block to its partner. A period's rounds keep their circuit set, save where a lane has run
 *    out: a period costs one reconfiguration, not one a round. A node sends and receives on at
 *    most p circuits a round (its lanes; the partners differ as the shifts do mod s_r).
 *  - Phase 2 (cross in ranges): g(r, d) sends d the blocks for d of all of r's sources, labels
 *    ((d N + lo_r) q .. + s_r q), one transfer: a - 1 transfers into every node, floor or ceil of
 *    (N - s_r) / s_r out of every member of r, each to a new partner. They are packed first-fit,
 *    in the order of the groups after r, into rounds of at most p circuits out of and into every
 *    node (first-fit puts a transfer no later than 2 floor((Delta - 1) / p) + 1 rounds in, Delta
 *    the largest of those two counts).
 * a = 1 is a straight exchange in p lanes (kshift's rounds), a = N phase 2 alone (a straight
 * exchange packed first-fit). Transfers: N (N - 1) in all, phase 1 N (N - a) of one block, phase
 * 2 (a - 1) N ranges; at N = 100, a = 10, p = 3: 30 rounds in 3 periods, then at least 3 rounds of
 * 10-block ranges, six reconfigurations instead of 33.
 *
 * The search (algos.h's contract). Space: groups a = 1 .. min(N, 256) (the cap keeps phase 2's
 * table small), circuits p = 1 .. min(16, N - 1), at most the network's degree where a round
 * above it is refused (the fabric's mzi_degree; mzi_split=1 runs it in passes and the bounds
 * hold: a pass is a step). Proven bound of a candidate: its rounds are at least phase 1's (exact:
 * the sum of its periods' longest lanes) plus ceil(Delta / p) (phase 2: a node sends or receives
 * Delta transfers, p a round), each a step of at least the step's fixed part (alpha); and node
 * lo_r of a smallest group sends to (s_r - 1) + ceil((N - s_r) / s_r) distinct partners, where a
 * run of rounds with one circuit set gives it at most deg of them (the MZI degree, or the tile's
 * wavelengths where none is set): at least that many / deg runs, each one reconfiguration. Where
 * the fabric splits a round above its degree D into passes (mzi_split=1), deg is D too: a run of
 * equal rounds in which the node has d circuits pays one reconfiguration to start and d / D - 1
 * more in each round, at least ceil(d / D) for its d partners. And a period's rounds 0 .. G (G
 * the fewest blocks after the first that a lane of a largest group carries) give its members all
 * of the period's lanes at once, ceil(lanes / D) passes: each pass after the first is one more
 * step with its alpha and its reconfiguration, so the reconfigurations are also at least 1 +
 * those passes (the larger of the two counts is taken, never their sum).
 * Pins: groups=a, circuits=p.
 */
#include "algo/algos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TP_MAX_GROUPS 256
#define TP_MAX_CIRCUITS 16

static const char *const tp_params[] = {"groups", "circuits", NULL};

typedef struct tp_xfer {
    uint32_t src, dst, first, count;
} tp_xfer;

typedef struct tp_state {
    uint32_t N, a, p;
    uint32_t *lo;       /* a + 1 group starts */
    tp_xfer *cross;     /* phase 2's transfers in round order */
    uint64_t *cross_at; /* rounds2 + 1 starts into cross[] */
    uint64_t rounds1, rounds2;
} tp_state;

static uint64_t group_lo(uint64_t r, uint64_t N, uint64_t a) {
    return r * N / a;
}

/* Destinations a member of a group of s gathers for (besides itself): the ranks j < N - s
 * congruent to its column mod s; the column c = 0 has the most. */
static uint64_t gathered(uint64_t N, uint64_t s, uint64_t c) {
    return N - s > c ? (N - s - c + s - 1) / s : 0;
}

/* Phase 1's rounds: the sum over periods k of the longest lane, 1 + gathered(c'), over the
 * groups with a shift in the period (a lane's partner c' = 0 is the longest it can get). */
static uint64_t phase1_rounds(uint64_t N, uint64_t a, uint64_t p) {
    uint64_t smax = 0, total = 0;
    for (uint64_t r = 0; r < a; r++) {
        const uint64_t s = group_lo(r + 1, N, a) - group_lo(r, N, a);
        if (s > smax) smax = s;
    }
    for (uint64_t first = 1; first < smax; first += p) {
        uint64_t longest = 0;
        for (uint64_t r = 0; r < a; r++) {
            const uint64_t s = group_lo(r + 1, N, a) - group_lo(r, N, a);
            if (s <= first) continue;
            /* the longest lane of this period in group r: partner column c' over the shifts
             * first .. first + p - 1 (< s) reached from some member: every c' is reached */
            const uint64_t len = 1 + gathered(N, s, 0);
            if (len > longest) longest = len;
        }
        total += longest;
    }
    return total;
}

static void tp_release(oc__plan *plan) {
    tp_state *t = plan->state;
    if (t) {
        free(t->lo);
        free(t->cross);
        free(t->cross_at);
        free(t);
    }
    plan->state = NULL;
}

/* Phase 2 packed first-fit (the essay) into t->cross / t->cross_at. */
static int pack_cross(tp_state *t, uint32_t q, char *why, size_t len) {
    const uint64_t N = t->N, a = t->a, p = t->p;
    uint64_t n = 0, delta = a - 1;
    for (uint64_t r = 0; r < a; r++) {
        const uint64_t s = t->lo[r + 1] - t->lo[r];
        n += N - s;
        if (gathered(N, s, 0) > delta) delta = gathered(N, s, 0);
    }
    const uint64_t cap = delta ? 2 * ((delta - 1) / p) + 1 : 0;
    const uint64_t bytes = n * (sizeof(tp_xfer) + sizeof(uint32_t)) + 2 * cap * N +
                           (cap + 2) * sizeof(uint64_t);
    int rc = oc__budget_check(bytes, "twophase: phase 2's table", why, len);
    if (rc) return rc;
    tp_xfer *flat = oc__malloc_array(n ? n : 1, sizeof *flat);
    uint32_t *round = oc__malloc_array(n ? n : 1, sizeof *round);
    uint8_t *out = oc__calloc(cap ? cap * N : 1, 1), *in = oc__calloc(cap ? cap * N : 1, 1);
    t->cross = oc__malloc_array(n ? n : 1, sizeof *t->cross);
    t->cross_at = oc__calloc(cap + 2, sizeof *t->cross_at);
    if (!flat || !round || !out || !in || !t->cross || !t->cross_at) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory packing twophase's phase 2");
        goto out;
    }
    uint64_t k = 0, used = 0;
    for (uint64_t step = 1; step < a; step++)
        for (uint64_t r = 0; r < a; r++) {
            const uint64_t lo = t->lo[r], s = t->lo[r + 1] - lo, o = (r + step) % a;
            for (uint64_t d = t->lo[o]; d < t->lo[o + 1]; d++) {
                const uint64_t j = (d + N - t->lo[r + 1]) % N, g = lo + j % s;
                uint64_t at = 0;
                while (out[at * N + g] >= p || in[at * N + d] >= p) at++;
                /* first-fit's bound (the essay) keeps at below cap */
                out[at * N + g]++;
                in[at * N + d]++;
                if (at + 1 > used) used = at + 1;
                flat[k] = (tp_xfer){(uint32_t)g, (uint32_t)d, (uint32_t)((d * N + lo) * q),
                                    (uint32_t)(s * q)};
                round[k++] = (uint32_t)at;
                t->cross_at[at + 1]++;
            }
        }
    for (uint64_t i = 1; i <= used; i++) t->cross_at[i] += t->cross_at[i - 1];
    /* counting sort by round, stable (the order of the groups after r within a round) */
    uint64_t *fill = oc__calloc(used ? used : 1, sizeof *fill);
    if (!fill) {
        rc = oc__fail(why, len, OC_ENOMEM, "out of memory packing twophase's phase 2");
        goto out;
    }
    for (uint64_t i = 0; i < n; i++) t->cross[t->cross_at[round[i]] + fill[round[i]]++] = flat[i];
    free(fill);
    t->rounds2 = used;
out:
    free(flat);
    free(round);
    free(out);
    free(in);
    return rc;
}

static int tp_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    uint64_t a, p;
    const uint64_t most = nodes < TP_MAX_GROUPS ? nodes : TP_MAX_GROUPS;
    int rc = oc__kv_only(params, tp_params, "twophase", why, len);
    if (rc || (rc = oc__kv_u64(params, "groups", 1, 1, TP_MAX_GROUPS, &a, why, len)) ||
        (rc = oc__kv_u64(params, "circuits", 1, 1, TP_MAX_CIRCUITS, &p, why, len)))
        return rc;
    if (nodes >= 1 && a > most)
        return oc__fail(why, len, OC_EINVAL, "twophase: groups=%llu: at most N = %u (a group a node)",
                        (unsigned long long)a, nodes);
    if (nodes > 1 && p > nodes - 1)
        return oc__fail(why, len, OC_EINVAL,
                        "twophase: circuits=%llu: at most N - 1 = %u (one a partner)",
                        (unsigned long long)p, nodes - 1);
    const uint64_t N = nodes;
    if ((rc = oc__plan_work("twophase", nodes, N * (N ? N - 1 : 0), why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len))) return rc;
    tp_state *t = oc__calloc(1, sizeof *t);
    if (!t) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    plan->state = t;
    t->N = nodes;
    t->a = (uint32_t)(N ? a : 1);
    t->p = (uint32_t)p;
    t->lo = oc__calloc((size_t)t->a + 1, sizeof *t->lo);
    if (!t->lo) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    for (uint64_t r = 0; r <= t->a; r++) t->lo[r] = (uint32_t)group_lo(r, N, t->a);
    const uint32_t q = plan->spec.q;
    if (N > 1 && (rc = pack_cross(t, q, why, len))) return rc;
    t->rounds1 = N > 1 ? phase1_rounds(N, t->a, p) : 0;
    plan->rounds = t->rounds1 + t->rounds2;
    /* phase 1: N (N - a) one-block transfers; phase 2: N - s_r ranges of s_r blocks a group */
    uint64_t units = N * (N - t->a) * q;
    for (uint64_t r = 0; r < t->a; r++) {
        const uint64_t s = t->lo[r + 1] - t->lo[r];
        units += (N - s) * s * q;
    }
    plan->spec.units = units;
    plan->spec.transfers = N * (N ? N - 1 : 0);
    plan->spec.max_round = N * p;
    char va[16], vp[16];
    snprintf(va, sizeof va, "%llu", (unsigned long long)t->a);
    snprintf(vp, sizeof vp, "%llu", (unsigned long long)p);
    if (oc_kv_set(plan->used, "groups", va) || oc_kv_set(plan->used, "circuits", vp))
        return oc__fail(why, len, OC_ENOMEM, "out of memory");
    return 0;
}

static int tp_generate(const oc__plan *plan, oc__emit *e) {
    const tp_state *t = plan->state;
    const uint64_t N = t->N, a = t->a, p = t->p, q = plan->spec.q;
    if (N < 2) return 0;
    uint64_t smax = 0;
    for (uint64_t r = 0; r < a; r++)
        if (t->lo[r + 1] - t->lo[r] > smax) smax = t->lo[r + 1] - t->lo[r];
    int rc = 0;
    /* phase 1: periods of p lanes, round i of a period the i-th block of every lane */
    for (uint64_t first = 1; first < smax; first += p) {
        uint64_t longest = 0;
        for (uint64_t r = 0; r < a; r++) {
            const uint64_t s = t->lo[r + 1] - t->lo[r];
            if (s > first && 1 + gathered(N, s, 0) > longest) longest = 1 + gathered(N, s, 0);
        }
        for (uint64_t i = 0; i < longest; i++) {
            for (uint64_t r = 0; r < a; r++) {
                const uint64_t lo = t->lo[r], s = t->lo[r + 1] - lo, hi = lo + s;
                for (uint64_t c = 0; c < s; c++)
                    for (uint64_t sh = first; sh < first + p && sh < s; sh++) {
                        const uint64_t to = (c + sh) % s;
                        if (i > gathered(N, s, to)) continue; /* this lane has run out */
                        /* block 0: the partner's own; block i: rank to + (i - 1) s */
                        const uint64_t d = i == 0 ? lo + to : (hi + to + (i - 1) * s) % N;
                        const uint64_t u = lo + c;
                        if ((rc = oc__emit_transfer(e, (uint32_t)u, (uint32_t)(lo + to),
                                                    OC_OP_COPY, (uint32_t)((d * N + u) * q),
                                                    (uint32_t)q)))
                            return rc;
                    }
            }
            if ((rc = oc__emit_round(e))) return rc;
        }
    }
    /* phase 2: the ranges, in the rounds pack_cross gave them */
    for (uint64_t k = 0; k < t->rounds2; k++) {
        for (uint64_t i = t->cross_at[k]; i < t->cross_at[k + 1]; i++) {
            const tp_xfer *x = &t->cross[i];
            if ((rc = oc__emit_transfer(e, x->src, x->dst, OC_OP_COPY, x->first, x->count)))
                return rc;
        }
        if ((rc = oc__emit_round(e))) return rc;
    }
    return 0;
}

static int tp_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const char *pa = oc_kv_get(in->params, "groups"), *pp = oc_kv_get(in->params, "circuits");
    if ((pa && pp) || in->nodes < 2) return 0; /* pinned, or nothing to send */
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, len);
    if (rc) return rc;
    const uint64_t N = in->nodes;
    uint64_t pmax = N - 1 < TP_MAX_CIRCUITS ? N - 1 : TP_MAX_CIRCUITS;
    if (f.max_degree && f.max_degree < pmax) pmax = f.max_degree; /* above: refused */
    if (f.lanes && f.lanes < pmax) pmax = f.lanes;
    const uint64_t amax = N < TP_MAX_GROUPS ? N : TP_MAX_GROUPS;
    /* a run of one circuit set gives a node at most deg partners (the essay) */
    const uint64_t deg = f.max_degree     ? f.max_degree
                         : f.split_degree ? f.split_degree
                                          : f.lanes;
    uint64_t pa_v = 0, pp_v = 0;
    if (pa && (rc = oc__kv_u64(in->params, "groups", 1, 1, TP_MAX_GROUPS, &pa_v, why, len)))
        return rc;
    if (pp && (rc = oc__kv_u64(in->params, "circuits", 1, 1, TP_MAX_CIRCUITS, &pp_v, why, len)))
        return rc;
    char va[16], vp[16];
    /* an incumbent first: groups near sqrt(N) at the most circuits (offered again in its place) */
    if (!pa && !pp) {
        uint64_t g = 1;
        while ((g + 1) * (g + 1) <= N) g++;
        snprintf(va, sizeof va, "%llu", (unsigned long long)g);
        snprintf(vp, sizeof vp, "%llu", (unsigned long long)pmax);
        const char *kv[] = {"groups", va, "circuits", vp};
        if ((rc = oc__search_hint(s, 2, kv))) return rc;
    }
    for (uint64_t a = pa ? pa_v : 1; a <= (pa ? pa_v : amax); a++) {
        if (a > amax) break;
        uint64_t smin = N, delta = a - 1;
        for (uint64_t r = 0; r < a; r++) {
            const uint64_t sz = group_lo(r + 1, N, a) - group_lo(r, N, a);
            if (sz < smin) smin = sz;
            if (gathered(N, sz, 0) > delta) delta = gathered(N, sz, 0);
        }
        const uint64_t partners = (smin - 1) + gathered(N, smin, 0);
        const uint64_t runs = deg ? oc__ceil_div(partners, deg) : 1;
        uint64_t smax = 0;
        for (uint64_t r = 0; r < a; r++)
            if (group_lo(r + 1, N, a) - group_lo(r, N, a) > smax)
                smax = group_lo(r + 1, N, a) - group_lo(r, N, a);
        for (uint64_t p = pp ? pp_v : 1; p <= (pp ? pp_v : pmax); p++) {
            /* split rounds (mzi_split=1): a period's rounds 0 .. G (G the fewest blocks a lane
             * of a largest group carries after its first) give a member of that group all its
             * lanes at once, so each runs in ceil(lanes / degree) passes, each after the first
             * one more step with its alpha and reconfiguration (net/fabric.c) */
            uint64_t passes = 0;
            for (uint64_t first = 1; f.split_degree && first < smax; first += p) {
                const uint64_t lanes = smax - first < p ? smax - first : p;
                passes += (gathered(N, smax, smax - 1) + 1) *
                          (oc__ceil_div(lanes, f.split_degree) - 1);
            }
            const uint64_t R = phase1_rounds(N, a, p) + oc__ceil_div(delta, p) + passes;
            /* the first step's reconfiguration and the passes' are among the runs' */
            const uint64_t reconfigs = runs > 1 + passes ? runs : 1 + passes;
            oc__bound b = {.time_s = (double)R * f.step_fixed + (double)reconfigs * f.reconfig_s,
                           .steps = R,
                           .name = "phase 1's rounds + ceil(Delta / p), alpha each; a node's "
                                   "partners / degree reconfigurations",
                           .transfers = N * (N - 1)};
            snprintf(va, sizeof va, "%llu", (unsigned long long)a);
            snprintf(vp, sizeof vp, "%llu", (unsigned long long)p);
            const char *kv[] = {"groups", va, "circuits", vp};
            if ((rc = oc__search_offer(s, &b, 2, kv))) return rc;
        }
    }
    return 0;
}

static const char *const names[] = {"groups", "circuits", NULL};

const oc__algo oc__algo_alltoall_twophase = {
    .info = {"twophase", OC_ALLTOALL, "fabric",
             "two-phase all-to-all in groups: relay inside a group on circuits held for many "
             "rounds, then one range per destination between groups",
             "", "phase 1 sum of periods' longest lanes + phase 2 >= ceil(Delta/p) rounds",
             "groups=searched 1..min(N, 256): groups of consecutive nodes; circuits=searched "
             "1..min(16, N-1, MZI degree): lanes a round"},
    .param_names = names,
    .plan = tp_plan,
    .generate = tp_generate,
    .release = tp_release,
    .search = tp_search,
    .bounds_hold_split = 1,
};
