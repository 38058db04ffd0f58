/*
 * allreduce_hring.c — hierarchical ring all-reduce (H-Ring, wrht III.D and Table I, after Ueno and
 * Yokota [13] of that seed).
 *
 * The N nodes form N/g groups of g consecutive nodes. Three phases, each a set of rings running
 * side by side: (1) reduce-scatter inside every group (g-1 rounds): node j of each group ends with
 * part j of the vector summed over its group; (2) an all-reduce of part j among the j-th nodes of
 * all groups (a ring of N/g nodes spaced g apart: 2(N/g - 1) rounds; the g rings share the ring's
 * links, so each round needs g wavelengths on every link); (3) all-gather inside every group
 * (g-1 rounds). The vector is cut into g parts of N/g chunks (N chunks in all).
 *   steps = 2(g-1) + 2(N/g - 1) = 2(g^2 + N)/g - 4 when g <= w; the seed adds ceil(g/w) for the
 *   shared links of phase (2): 2(g^2+N)/g + ceil(g/w) - 4 (Table I).
 * Restriction: g divides N (the groups are equal).
 *
 * A verifier shard (run/shard.c) regenerates the schedule for a chunk window: the rings in the
 * groups skip the senders outside it (ring_phases.c), and a ring across the groups, whose part
 * is G consecutive labels, is skipped whole when its part misses the window. A shard then costs
 * its own transfers plus a call per group (or ring across) a round, not the N node ids a round
 * it listed before (oc__spec.window_skips: at N = 65536 its shards went from 256 of 336 MB to
 * 1024 of 84 MB). tests/test_shard_hring.c. The plan also states the schedule's symmetry
 * (oc__spec.orbit_*: a move by one group, n to n + g, with every label turned by one inside its
 * part of G), so a verifier of every chunk keeps one group's cells instead of N x C and takes a
 * round by its g transfers from nodes 0..g-1 (verify.c, "Orbit reductions": 2.4 s of CPU at
 * N = 65536 where the shards took 77 s; tests/test_orbit.c); it checks the symmetry itself.
 *
 * The search (algos.h's contract): every divisor g of N, 1 and N included (g = 1 and g = N are
 * the plain ring, in the groups or across them), offered smallest first. Every g cuts the vector
 * into the same N chunks, so the bounds share one chunk time c. Bounds, proven on each model:
 *   switch: every round of every phase has one transfer per port, so the model's time is exactly
 *     2(g-1)(a + G c) + 2(G-1)(a + c), G = N/g, in 2(g-1) + 2(G-1) steps.
 *   ring: the model's time is steps x one step's time; a round takes at least one step and at
 *     least its busiest link's load over the F w lightpaths of a link: a group round sends G
 *     chunks over one link (G units), a round across puts all g rings on every link clockwise
 *     (load g, their transfers g hops apart; g units shared by both directions when g = N/2).
 *     At the ring's spread=0 (ring.c: a transfer keeps to one lightpath, a step lasts as its
 *     largest bundle) a group round's G chunks ride one lightpath: at least one step, and that
 *     step moves at least G floor(S/N) bytes on one wavelength (its time from the ring's own
 *     rates, core/netcfg.h); a round across is as at spread=1 (one chunk a transfer).
 *   fattree: one router delay a round.
 * On the cases (N = 720 and 2500 at w = 1, 720 at w = 7) the ring bound is what the
 * model maps, so only ties are mapped. Each offer carries its transfers, N (2(g-1) + 2(N/g-1)):
 * a g over the search's mapping budget is not generated; at N = 65536 every g is (the least,
 * g = 256, has 6.7e7), and the g of least bound is chosen by its bound and mapped once, by the
 * run (src/run/search.c), instead of 17 candidates each generated up to the budget.
 */
#include "algo/algos.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hring_params[] = {"g", NULL};

static int plan(oc__plan *p, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t len) {
    int rc = oc__kv_only(params, hring_params, "hring", why, len);
    if (rc) return rc;
    uint64_t g;
    if ((rc = oc__kv_u64(params, "g", nodes, 1, nodes, &g, why, len))) return rc;
    if (nodes % g) {
        char list[160] = ""; /* the valid values, as many as fit */
        for (uint32_t d = 1, at = 0; d <= nodes && at + 16 < sizeof list; d++)
            if (nodes % d == 0)
                at += (uint32_t)snprintf(list + at, sizeof list - at, "%s%u", at ? ", " : "", d);
        return oc__fail(why, len, OC_ENOTSUP,
                        "hring needs the group size g to divide N: g=%llu, N=%u (divisors: %s)",
                        (unsigned long long)g, nodes, list);
    }
    uint64_t work = 2 * (uint64_t)nodes * (g - 1) + 2 * (uint64_t)nodes * (nodes / g - 1);
    if ((rc = oc__plan_work("hring", nodes, work, why, len))) return rc;
    if ((rc = oc__plan_begin(p, coll, nodes, root, bytes, nodes, why, len))) return rc;
    p->spec.transfers = work; /* the work (core.h): every label reduced and spread over N */
    p->spec.units = 2 * (uint64_t)nodes * (nodes - 1);
    char b[32];
    snprintf(b, sizeof b, "%llu", (unsigned long long)g);
    if (oc_kv_set(p->used, "g", b)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    p->state = (void *)(uintptr_t)g;
    p->rounds = 2 * (g - 1) + 2 * (nodes / g - 1);
    p->spec.window_skips = 1; /* ring_phases.c in the groups, ring_in_window across them */
    /* the symmetry (core.h): a move by one group, node n to n + g, is a move by one place in
     * every ring across (part j's label j G + t to j G + (t + 1) mod G); the rings in the groups
     * carry whole parts, which it leaves in place */
    if (g < nodes) {
        p->spec.orbit_stride = (uint32_t)g;
        p->spec.orbit_part = nodes / (uint32_t)g;
        p->spec.orbit_turn = 1;
    }
    return 0;
}

/* Whether ring j of phase (2) (labels [j*G, (j+1)*G)) has a transfer touching the emitter's
 * window: a windowed emitter (a verifier shard) skips the others whole, without listing their
 * nodes. */
static int ring_in_window(const oc__emit *e, uint32_t j, uint32_t G) {
    return !e->windowed || ((uint64_t)j * G < e->win_hi && (uint64_t)(j + 1) * G > e->win_lo);
}

static int generate(const oc__plan *p, oc__emit *e) {
    const uint32_t N = p->spec.nodes, g = (uint32_t)(uintptr_t)p->state, G = N / g;
    /* I[i] = i: group a's ring is I + a g, listed once (a shard's rounds visit every group, and
     * refilling each group's list cost N stores a round in every shard); P: a ring across */
    uint32_t *I = malloc((size_t)N * sizeof(uint32_t)), *P = malloc(G * sizeof(uint32_t));
    if (!I || !P) {
        free(I);
        free(P);
        return OC_ENOMEM;
    }
    for (uint32_t i = 0; i < N; i++)
        I[i] = i;
    int rc = 0;
    /* (1) reduce-scatter in every group: part j = labels [j*G, (j+1)*G) */
    for (uint32_t r = 0; r + 1 < g && !rc; r++) {
        for (uint32_t a = 0; a < G && !rc; a++)
            rc = oc__ring_rs_round(e, I + (size_t)a * g, g, 0, G, r);
        if (!rc) rc = oc__emit_round(e);
    }
    /* (2) all-reduce of part j among the j-th nodes of the groups: sub-block t = label j*G + t */
    for (uint32_t phase = 0; phase < 2 && !rc; phase++)
        for (uint32_t r = 0; r + 1 < G && !rc; r++) {
            for (uint32_t j = 0; j < g && !rc; j++) {
                if (!ring_in_window(e, j, G)) {
                    oc__emit_skip(e, G);
                    continue;
                }
                for (uint32_t a = 0; a < G; a++)
                    P[a] = a * g + j;
                rc = phase == 0 ? oc__ring_rs_round(e, P, G, j * G, 1, r)
                                : oc__ring_ag_round(e, P, G, j * G, 1, r);
            }
            if (!rc) rc = oc__emit_round(e);
        }
    /* (3) all-gather in every group */
    for (uint32_t r = 0; r + 1 < g && !rc; r++) {
        for (uint32_t a = 0; a < G && !rc; a++)
            rc = oc__ring_ag_round(e, I + (size_t)a * g, g, 0, G, r);
        if (!rc) rc = oc__emit_round(e);
    }
    free(I);
    free(P);
    return rc;
}

/* The seed's step count (Table I). */
static double seed_steps(double N, double g, double w) {
    return 2 * (g * g + N) / g + ceil(g / w) - 4;
}

/* A proven lower bound on group size g's mapped cost (the essay); bytes: the vector. Which bound
 * is the model's rule for a round (core/netcfg.h: oc__netcost): a port's transfers one alpha each
 * (the switch), its busiest link's colours over the channels (the ring; at spread=0 a transfer on
 * one lightpath, the model's bundle_step_s), or at least the least path's router delay a round. */
static oc__bound hring_bound(const oc__formula_in *f, uint32_t N, uint32_t g, uint64_t bytes) {
    const uint64_t G = N / g, r1 = 2 * ((uint64_t)g - 1), r2 = 2 * (G - 1);
    const double a = f->step_fixed, c = f->step_time - f->step_fixed;
    const oc__netcost *cost = &f->cfg.cost;
    /* every round of every phase has one transfer per node: N (r1 + r2) transfers */
    oc__bound b = {.steps = r1 + r2, .transfers = (uint64_t)N * (r1 + r2)};
    if (cost->alpha_per_transfer) {
        b.time_s = (double)r1 * (a + (double)G * c) + (double)r2 * (a + c);
        b.name = "switch: one transfer per port a round, G chunks in the groups, one across";
    } else if (cost->steps_by_link_load) {
        const uint64_t ch = f->channels ? f->channels : 1;
        const uint64_t across = 2 * (uint64_t)g < N ? g : (g + 1) / 2; /* a link's load */
        const uint64_t s1 = oc__ceil_div(G, ch), s2 = oc__ceil_div(across, ch);
        b.steps = r1 * (s1 ? s1 : 1) + r2 * (s2 ? s2 : 1);
        b.time_s = (double)b.steps * f->step_time;
        b.name = "ring: ceil(G / F w) steps a group round, ceil(g / F w) a round across";
        if (cost->bundle_step_s) {
            b.steps = r1 + r2 * (s2 ? s2 : 1);
            b.time_s = (double)r1 * cost->bundle_step_s(&f->cfg, G * (bytes / N)) +
                       (double)(r2 * (s2 ? s2 : 1)) * f->step_time;
            b.name = "ring, spread=0: a group round one step of G chunks on one lightpath, "
                     "ceil(g / F w) steps a round across";
        }
    } else {
        /* every round is at least one step and lasts at least the least path's routers: of
         * hring's networks (its registry entry) the fat-tree, whose leaf router it names */
        b.time_s = (double)b.steps * cost->least_path_s;
        b.name = "fattree: one router delay a round";
    }
    b.time_s *= 1 - 1e-12; /* floating-point slack: never above the model's own sum */
    return b;
}

/* Every divisor g of N, 1 and N included, smallest first, each with its bound. */
static int search(const oc__search_in *in, oc__search *s, char *why, size_t len) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "g") || N < 2) return 0;
    oc__formula_in f; /* every g cuts the vector into N chunks */
    int rc = in->figures(in, in->coll, N, &f, why, len);
    if (rc) return rc;
    for (uint32_t g = 1; g <= N; g++) {
        if (N % g) continue;
        char b[32];
        snprintf(b, sizeof b, "%u", g);
        const char *kv[] = {"g", b};
        const oc__bound bound = hring_bound(&f, N, g, in->bytes);
        if (oc__search_offer(s, &bound, 1, kv))
            return oc__fail(why, len, OC_ENOMEM, "out of memory");
    }
    return 0;
}

static int formula(const oc__plan *p, const oc__formula_in *in, oc_report *rep) {
    const double N = p->spec.nodes, g = (double)(uintptr_t)p->state;
    oc__formula_steps(rep, in, p->spec.nodes < 2 ? 0 : seed_steps(N, g, (double)in->channels));
    if (!rep->has_lb || (double)rep->steps == rep->steps_formula || p->spec.nodes < 2) return 0;
    if (!in->cfg.cost.steps_by_link_load)
        return oc__report_note(rep,
                               "the seed counts 2(g-1) + 2(N/g-1) rounds plus ceil(g/w) once; "
                               "mapped %llu steps over %llu rounds (load bound %llu)",
                               (unsigned long long)rep->steps, (unsigned long long)rep->rounds,
                               (unsigned long long)rep->steps_lb);
    if (in->cfg.cost.bundle_step_s)
        return oc__report_note(rep,
                               "the seed counts 2(g-1) + 2(N/g-1) = %.0f rounds of one step plus "
                               "ceil(g/w) = %.0f once: %.0f; at spread=0 an intra-group round is "
                               "one step moving its N/g = %.0f chunks on one wavelength, an "
                               "inter-group round's %.0f rings share each link, ceil(g/w) = %.0f "
                               "steps",
                               2 * (g - 1) + 2 * (N / g - 1), ceil(g / (double)in->channels),
                               rep->steps_formula, N / g, g, ceil(g / (double)in->channels));
    /* On the ring a transfer of b chunks takes b wavelength-slots: an intra-group round carries
     * N/g chunks over one link, ceil(N/g / C) steps; an inter-group round's g rings share every
     * link, ceil(g / C) steps. The seed's lone ceil(g/w) is then in every inter-group round. */
    const double C = (double)in->channels, intra = ceil(N / g / C), inter = ceil(g / C),
                 ours = 2 * (g - 1) * intra + 2 * (N / g - 1) * inter;
    return oc__report_note(rep,
                           "the seed counts 2(g-1) + 2(N/g-1) = %.0f rounds of one step plus "
                           "ceil(g/w) = %.0f once: %.0f; on the ring an intra-group round moves "
                           "N/g = %.0f chunks over one link, ceil(%.0f / %.0f) = %.0f steps, an "
                           "inter-group round's %.0f rings share each link, ceil(g/w) = %.0f "
                           "steps: 2(g-1) x %.0f + 2(N/g-1) x %.0f = %.0f%s",
                           2 * (g - 1) + 2 * (N / g - 1), inter, rep->steps_formula, N / g, N / g,
                           C, intra, g, inter, intra, inter, ours,
                           ours == (double)rep->steps ? " (mapped)" : " (not what was mapped)");
}

const oc__algo oc__algo_allreduce_hring = {
    .info = {"hring", OC_ALLREDUCE, "ring,fattree,switch",
             "hierarchical ring: reduce-scatter in groups of g, all-reduce across groups, "
             "all-gather in groups",
             "g divides N", "2(g^2+N)/g + ceil(g/w) - 4 steps (Table I)",
             "g=G: intra-group size (a divisor of N); the vector is cut into N chunks, a group "
             "transfer carries N/g of them side by side or, at the ring's spread=0, on one "
             "lightpath; unset: chosen by mapped time"},
    .param_names = hring_params,
    .plan = plan,
    .generate = generate,
    .search = search,
    .bounds_hold_unspread = 1, /* hring_bound reads the ring's spread */
    .formula = formula,
};
