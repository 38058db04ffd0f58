/*
 * alltoall_kshift.c — the pairwise exchange with g shifts a round (issue 26, item 2: a
 * counterpart where the star's and the fabric's bounds show a gap; ours, after MPI's pairwise
 * all-to-all, alltoall_pairwise.c).
 *
 * Why. On the passive optical star a processor receives on k filters a step, and the bound of an
 * all-to-all is D + ceil((P - 1) m / min(k, P - 1)) message times (src/bounds/bounds_star.c, m =
 * ceil(SIZE / L)). `pairwise` sends one packet a round (one filter of k busy: (P - 1)(D + m)) and
 * TCP2 relays packets through its h clique steps in combined messages, so a processor takes in
 * more than its (P - 1) m: 3 to 3.6 times the bound at P = 31 .. 100, k = 3, 1 KiB. On the
 * fabric `pairwise` pays a reconfiguration and alpha for each of its P - 1 rounds where a tile
 * could hold up to min(MZI degree, W) circuits at once.
 *
 * The schedule. Round r = 0 .. ceil((P - 1) / g) - 1: node i sends its packet for (i + s) mod P
 * straight to it, for every shift s in r g + 1 .. min((r + 1) g, P - 1). No packet is relayed;
 * every node sends and receives the same number of packets in a round, to and from distinct
 * processors (distinct shifts), so a round is g streams a processor (star: one step when g <= k;
 * fabric: g circuits a tile, refused or split above its degree as the model says).
 *   star:   ceil((P-1)/g) steps, each D (new partners) + m L tau: (P-1)/k (D + m) at g = k, which
 *           is D + (P-1) m / k plus (P-1)/k - 1 tunings: the bound where m is large next to D;
 *   fabric: ceil((P-1)/g) rounds of alpha + reconfiguration + a packet over W/g wavelengths.
 *
 * The search (algos.h's contract). Space: g = 1 .. min(P - 1, 64). Proven bound of a candidate:
 * its rounds each map to at least one step (steps >= ceil((P-1)/g)), and each step takes at least
 * the network's fixed part of a step (the figures' step_fixed: the star's D when it retunes, which
 * every round does here as its partners are new): time >= rounds x step_fixed, on a network with
 * neither of the two tighter bounds below. A g above the network's
 * degree maps in more steps or is refused; the search keeps whatever maps. Pins: shifts=g.
 * On the star (its k read through oc__netcfg_star) the bound is tighter, and proven against the
 * model's rules (net/star.c: a round's streams packed into steps in which a processor sends and
 * receives at most k streams; a step lasts D when a filter is retuned in it, plus its largest
 * stream's messages): a round of g_r shifts gives each processor g_r streams out, so it takes at
 * least ceil(g_r / k) steps; each of them carries a stream of one chunk (one transfer a pair: the
 * shifts are distinct mod P), so it lasts at least that chunk's messages; and the stream's
 * receiver i retunes for it, since it never listened to that sender before (sender i - s, each
 * shift s in one round only). So steps >= sum over rounds of ceil(g_r / k) and time >= steps x the
 * step time of one chunk (figures' step_time: D + the chunk's messages x L tau). At N = 1000,
 * 4 KiB, k = 3 the old bound (rounds x D) let every g be mapped (64 candidates, 6.9 s of CPU);
 * every g that is not a multiple of k now has a bound above g = k's cost
 * (tests/test_kshift.c holds every bound against the candidate mapped pinned).
 * On a circuit-switched model (the fabric: in->lanes > 0, the circuits hook) the bound is the
 * model's rules too (net/fabric.c), where the old one, rounds x alpha (the figures' step_fixed is
 * alpha alone there), let g = 1 and 2 be mapped beside g = 3 (three all-to-alls of 16.7 M
 * transfers at N = 4096, then the final run). A round of g_r shifts is a g_r-regular set of
 * distinct circuits (every tile sends g_r and receives g_r, to and from distinct tiles). Unsplit
 * (g_r at most the split degree D, or no split) it is one pass; with mzi_split=1 and g_r > D the
 * model colours it with g_r colours (Konig), so every tile has exactly one circuit of each colour
 * and pass q holds k_q = min(D, g_r - q D) circuits out of and into every tile. Each pass is at
 * least one step (fibres short of wavelengths only add passes), pays alpha, and pays a
 * reconfiguration: its circuits are not the previous pass's (two passes of a round hold disjoint
 * circuits; two rounds hold distinct shifts, so distinct pairs; the first round sets up). Each of
 * its circuits gets at most floor(W / k_q) lanes (the tile's share; a fibre's share only lowers
 * it), so the pass lasts at least one chunk over floor(W / k_q) of W lanes. Summed over passes
 * and rounds: the bound, steps and time (tests/test_kshift_bound.c holds it against every g
 * pinned on the fabric too, split and unsplit).
 */
#include "algo/algos.h"
#include "algo/alltoall_shift.h"

#include <stdio.h>
#include <string.h>

static const char *const kshift_params[] = {"shifts", NULL};

static int ks_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                   uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    memset(plan, 0, sizeof *plan);
    uint64_t g;
    int rc = oc__kv_only(params, kshift_params, "kshift", why, len);
    if (rc || (rc = oc__kv_u64(params, "shifts", 1, 1, 64, &g, why, len))) return rc;
    if (nodes > 1 && g > nodes - 1)
        return oc__fail(why, len, OC_EINVAL,
                        "kshift: shifts=%llu: at most P - 1 = %u (one a partner)",
                        (unsigned long long)g, nodes - 1);
    if ((rc = oc__plan_work("kshift", nodes, (uint64_t)nodes * (nodes - 1), why, len))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, len))) return rc;
    plan->state = (void *)(uintptr_t)g;
    plan->rounds = nodes > 1 ? oc__ceil_div(nodes - 1, g) : 0;
    plan->spec.max_round = (uint64_t)nodes * g;
    plan->spec.units = plan->spec.transfers = (uint64_t)nodes * (nodes - 1); /* the work */
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)g);
    return oc_kv_set(plan->used, "shifts", buf) ? oc__fail(why, len, OC_ENOMEM, "out of memory")
                                                : 0;
}

int oc__alltoall_shift_rounds(oc__emit *e, uint64_t N, uint64_t q, uint64_t g) {
    for (uint64_t first = 1; first < N; first += g) {
        const uint64_t last = first + g - 1 < N - 1 ? first + g - 1 : N - 1;
        for (uint64_t i = 0; i < N; i++)
            for (uint64_t s = first; s <= last; s++) {
                const uint64_t d = (i + s) % N;
                int rc = oc__emit_transfer(e, (uint32_t)i, (uint32_t)d, OC_OP_COPY,
                                           (uint32_t)((d * N + i) * q), (uint32_t)q);
                if (rc) return rc;
            }
        int rc = oc__emit_round(e);
        if (rc) return rc;
    }
    return 0;
}

static int ks_generate(const oc__plan *plan, oc__emit *e) {
    return oc__alltoall_shift_rounds(e, plan->spec.nodes, plan->spec.q,
                                     (uint64_t)(uintptr_t)plan->state);
}

/* The rounds' passes on a circuit-switched model (the essay's fabric rules), k circuits a
 * tile in a pass: one step of alpha, a reconfiguration and one chunk over floor(W / k) of the
 * tile's W lanes (k above W: the model refuses it; k full-rate chunks stand in, no more). */
static double fabric_pass(const oc__formula_in *f, uint64_t k) {
    const double split = oc__formula_split(f, k), chunk = f->step_time - f->step_fixed;
    return f->step_fixed + f->reconfig_s + (split > 0 ? split : (double)k) * chunk;
}

/* Round of g_r shifts: ceil(g_r / D) passes of D circuits a tile and the rest (D the split
 * degree; one pass of g_r where the model does not split). */
static void fabric_round(const oc__formula_in *f, uint64_t g, double *time, uint64_t *steps) {
    const uint64_t D = f->split_degree && g > f->split_degree ? f->split_degree : g;
    for (uint64_t left = g; left; left -= left < D ? left : D) {
        *time += fabric_pass(f, left < D ? left : D);
        (*steps)++;
    }
}

static void fabric_bound(const oc__formula_in *f, uint64_t P, uint64_t g, oc__bound *b) {
    const uint64_t R = oc__ceil_div(P - 1, g), last = P - 1 - (R - 1) * g;
    double one = 0, end = 0;
    uint64_t s_one = 0, s_end = 0;
    fabric_round(f, g, &one, &s_one);
    fabric_round(f, last, &end, &s_end);
    b->time_s = ((double)(R - 1) * one + end) * (1 - 1e-12); /* a sum's rounding */
    b->steps = (R - 1) * s_one + s_end;
    b->name = "every pass of every round a step: alpha, a reconfiguration (its circuits are "
              "new) and a chunk over floor(W / k) lanes, k circuits a tile in the pass";
}

static int ks_search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    if (oc_kv_get(in->params, "shifts") || in->nodes < 3) return 0; /* pinned, or one shift */
    oc__formula_in f;
    int rc = in->figures(in, in->coll, 1, &f, why, len);
    if (rc) return rc;
    const uint64_t most = in->nodes - 1 < 64 ? in->nodes - 1 : 64;
    const oc__star_cfg *star = oc__netcfg_star(&f.cfg);
    char v[16];
    for (uint64_t g = 1; g <= most; g++) {
        const uint64_t R = oc__ceil_div(in->nodes - 1, g);
        oc__bound b = {.time_s = (double)R * f.step_fixed,
                       .steps = R,
                       .name = "ceil((P-1)/g) rounds, each a step's fixed cost",
                       .transfers = (uint64_t)in->nodes * (in->nodes - 1)};
        if (f.lanes) {
            fabric_bound(&f, in->nodes, g, &b);
        } else if (star && star->k >= 1) {
            /* R - 1 rounds of g shifts and the last of the rest, each ceil(g_r / k) steps */
            const uint64_t last = in->nodes - 1 - (R - 1) * g;
            const uint64_t steps = (R - 1) * oc__ceil_div(g, star->k) + oc__ceil_div(last, star->k);
            b.steps = steps;
            b.time_s = (double)steps * f.step_time;
            b.name = "ceil(g_r / k) steps a round (k streams a processor a step), each a "
                     "tuning and one chunk's messages";
        }
        snprintf(v, sizeof v, "%llu", (unsigned long long)g);
        const char *kv[] = {"shifts", v};
        if ((rc = oc__search_offer(s, &b, 1, kv))) return rc;
    }
    return 0;
}

static const char *const names[] = {"shifts", NULL};

const oc__algo oc__algo_alltoall_kshift = {
    .info = {"kshift", OC_ALLTOALL, "star,fabric",
             "pairwise exchange with g shifts a round: node i sends straight to i+s for g shifts "
             "s at once, ceil((N-1)/g) rounds",
             "", "ceil((N-1)/g) rounds of one packet a partner",
             "shifts=searched 1..min(N-1, 64): partners a round"},
    .param_names = names,
    .plan = ks_plan,
    .generate = ks_generate,
    .search = ks_search,
    .bounds_hold_split = 1, /* fabric_bound: the passes of mzi_split=1 */
};
