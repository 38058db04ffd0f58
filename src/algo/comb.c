/*
 * comb.c — the comb all-gather on the WDM ring (issue 26, item 2: the w = 3 gap of
 * docs/bounds-gap.md, where odd F w leaves a slot idle in every two-level stride schedule). The
 * ring model is the seeds' (optree III.A and III.C): a transfer takes a wavelength-slot on every
 * link of its shortest path, and a round takes ceil(colours / (F w)) steps, colours >= its busiest
 * directed link's load.
 *
 * The construction: a stride-2 backbone with unit teeth, both ways round the ring. Let U =
 * ceil((N-1)/2) and D = floor((N-1)/2) be the offsets a block travels clockwise and
 * counter-clockwise (U + D = N - 1: every other node once). In round r (1 <= r <= ceil(U/2)),
 * for every owner j, node x = j + 2(r-1) sends block j to x + 1 (when 2r - 1 <= U) and to x + 2
 * (when 2r <= U); node j - 2(r-1) likewise to j - 2(r-1) - 1 and - 2 while 2r - 1, 2r <= D. So
 * in round r every node learns the blocks at offsets 2r - 1 and 2r on each side, and the sender
 * holds what it sends: it is j itself (r = 1) or got block j by the stride arc of round r - 1
 * (offset 2(r-1) <= U, resp. D). Each offset is delivered once.
 * Loads: a directed link (y, y+1) carries the stride arcs of y - 1 and y and the tooth of y: 3 a
 * round (fewer in the last round when U or D is odd: 1, a tooth only). So a round is one step
 * when F w >= 3, and steps = sum over rounds of ceil(max(load_cw, load_ccw) / (F w)):
 *   F w >= 3:  ceil(ceil((N-1)/2) / 2) steps, about N/4
 * against the path bound ceil((N-1 + floor(N/2)) / (2Fw+1)) = about 1.5N/7 at F w = 3 (1.17x),
 * where `stride` and `bistride` take about N/3. At F w = 1 or 2 a round needs 3 or 2 steps
 * (bidir and bistride are better there), and at larger F w stride's longer arcs win; the comb is
 * the F w = 3 schedule. Exactness: when N is even the stride-2 arcs of one direction colour with
 * 2 colours (arcs from even nodes, from odd nodes: each set tiles the ring) and the teeth with one,
 * so the model's colouring meets the load; at odd N the count above is a proven lower bound (every
 * round's load) and the mapped count is the model's (it met the load at every odd N tested). At
 * N = 4 a stride-2 arc is half the ring and may go either way, so the bound there is each
 * round's two directions' load shared over both: ceil((load_cw + load_ccw) / 2).
 *
 * No parameter: nothing to search. Cost to generate and check: N (N-1) one-block transfers,
 * like bidir (about 1.2 s of CPU at N = 4096). Its reduce-scatter (the rounds backwards) and
 * all-reduce are left out: they would add twice that to `compare` at N = 4096 for a collective
 * whose gap to its time bound is the reconfigurations, not the bandwidth (docs/bounds-gap.md).
 */
#include "algo/stride.h"

#include <stdlib.h>

typedef struct comb_state {
    uint32_t N, U, D, rounds;
} comb_state;

/* Arcs of round r (1-based) in one direction with `reach` offsets: teeth (bit 0), stride arcs
 * (bit 1). */
static unsigned arcs(uint32_t r, uint32_t reach) {
    return (2 * r - 1 <= reach ? 1u : 0u) | (2 * r <= reach ? 2u : 0u);
}

static uint64_t comb_steps(const comb_state *s, uint64_t channels) {
    const uint64_t C = channels ? channels : 1;
    uint64_t steps = 0;
    for (uint32_t r = 1; r <= s->rounds; r++) {
        const unsigned up = arcs(r, s->U), down = arcs(r, s->D);
        const uint64_t lu = (up & 1) + 2u * ((up >> 1) & 1),
                       ld = (down & 1) + 2u * ((down >> 1) & 1);
        /* N = 4: a stride-2 arc is half the ring and may be routed either way; only the two
         * directions' total binds */
        const uint64_t load = s->N == 4 ? (lu + ld + 1) / 2 : (lu > ld ? lu : ld);
        steps += oc__ceil_div(load, C);
    }
    return steps;
}

static uint64_t comb_transfers(const comb_state *s) {
    uint64_t t = 0;
    for (uint32_t r = 1; r <= s->rounds; r++) {
        const unsigned up = arcs(r, s->U), down = arcs(r, s->D);
        t += (uint64_t)s->N * ((up & 1) + ((up >> 1) & 1) + (down & 1) + ((down >> 1) & 1));
    }
    return t;
}

/* One direction of round r, owners in label order (label = owner node), each owner's tooth then
 * its stride arc: a windowed emitter gets only its labels and skips the others' places. */
static int comb_dir(const comb_state *s, oc__emit *e, uint32_t r, int up) {
    const unsigned a = arcs(r, up ? s->U : s->D);
    const uint32_t k = (a & 1) + ((a >> 1) & 1), N = s->N;
    if (!k) return 0;
    const uint32_t lo = e->windowed ? (e->win_lo < N ? e->win_lo : N) : 0;
    const uint32_t hi = e->windowed ? (e->win_hi < N ? e->win_hi : N) : N;
    oc__emit_skip(e, (uint64_t)lo * k);
    if (hi > lo) {
        oc__transfer *out;
        int rc = oc__emit_many(e, (uint64_t)(hi - lo) * k, &out);
        if (rc) return rc;
        const uint64_t back = 2ull * (r - 1) % N;
        for (uint32_t j = lo; j < hi; j++) {
            const uint32_t x = (uint32_t)(up ? (j + back) % N : (j + N - back) % N);
            for (uint32_t hop = 1; hop <= 2; hop++) {
                if (!(a & hop)) continue;
                const uint32_t y = up ? (uint32_t)((x + hop) % N) : (uint32_t)((x + N - hop) % N);
                *out++ = (oc__transfer){x, y, j, 1, (uint32_t)OC_OP_COPY};
            }
        }
    }
    oc__emit_skip(e, (uint64_t)(N - hi) * k);
    return 0;
}

static int comb_round(const comb_state *s, oc__emit *e, uint32_t r) {
    int rc = comb_dir(s, e, r, 1);
    return rc ? rc : comb_dir(s, e, r, 0);
}

int oc__comb_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                  const oc_kv *params, char *why, size_t whylen) {
    static const char *const none[] = {NULL};
    int rc = oc__kv_only(params, none, "comb", why, whylen);
    if (rc) return rc;
    comb_state shape = {.N = nodes};
    if (nodes >= 2) {
        shape.U = nodes / 2; /* ceil((N-1)/2) */
        shape.D = (nodes - 1) / 2;
        shape.rounds = (shape.U + 1) / 2;
    }
    if ((rc = oc__plan_work("comb", nodes, comb_transfers(&shape), why, whylen))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, 1, why, whylen))) return rc;
    comb_state *st = malloc(sizeof *st);
    if (!st) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    *st = shape;
    plan->state = st;
    plan->rounds = shape.rounds;
    plan->spec.units = (uint64_t)nodes * (nodes - 1); /* the work (core.h) */
    plan->spec.transfers = comb_transfers(&shape);
    plan->spec.max_round = 4ull * nodes;
    plan->spec.window_skips = 1; /* a round's transfers in label order (comb_dir) */
    return 0;
}

int oc__comb_generate(const oc__plan *plan, oc__emit *e) {
    const comb_state *s = plan->state;
    int rc = 0;
    if (s->N < 2) return 0;
    for (uint32_t r = 1; r <= s->rounds && !rc; r++)
        if (!(rc = comb_round(s, e, r))) rc = oc__emit_round(e);
    return rc;
}

void oc__comb_release(oc__plan *plan) {
    free(plan->state);
    plan->state = NULL;
}

int oc__comb_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const comb_state *s = plan->state;
    const uint64_t C = in->channels ? in->channels : 1;
    const uint64_t steps = comb_steps(s, C);
    oc__formula_steps(rep, in, (double)steps);
    if (rep->steps == steps || s->N < 2) return 0;
    return oc__report_note(rep,
                           "the closed form counts %llu steps, each round's busiest link over "
                           "%llu channels; the stride-2 arcs on %u nodes took more colours than "
                           "their load: %llu steps mapped",
                           (unsigned long long)steps, (unsigned long long)C, s->N,
                           (unsigned long long)rep->steps);
}
