/*
 * stride.c — the bidirectional ring and the two-level stride all-gather on the WDM ring, their
 * time-reversed reduce-scatters and the all-reduces made of both (issue 26, item 2: schedules that
 * approach the ring's physical bounds). The ring model is the seeds' (optree III.A and III.C, wrht
 * III.A): a transfer of b chunks takes b wavelength-slots on every link of its shortest path, and
 * a round takes ceil(colours / (F w)) steps, colours >= its busiest directed link's load.
 *
 * Why. An all-gather must land N-1 blocks on every node through its two incoming links, 2 F w
 * lightpaths a step: ceil((N-1) / (2 F w)) steps. The one-way ring uses one direction and one
 * wavelength (N-1 steps); neighbour exchange sends pairs (2 slots, 2 steps a round at w = 1).
 *
 * The construction, for a stride L in 1..floor((N-1)/2) (so 2L < N: a stride arc is the shorter
 * way; L = 1, also at N = 2, is the bidirectional ring alone).
 * Let g = gcd(L, N): the nodes fall into g orbits of stride L (j, j+L, j+2L, ... mod N), each of
 * P = N/g nodes; n1 = ceil(N/L) <= P. Every offset d in a range of exactly N consecutive integers
 * [-D-, D+] (so every other node once) is written d = aL + b, a in the level-1 window [-l1, u1]
 * (n1 values, u1 = ceil((n1-1)/2), l1 = floor((n1-1)/2)) and b in the level-2 window [-l2, u2]
 * (L values, u2 = ceil((L-1)/2), l2 = floor((L-1)/2)). The windows' products cover n1 L = N + E
 * offsets, 0 <= E < L: the E extra are dropped at the window's edges, E+ = min(E, u2) of them at
 * the top (a = u1, b > u2 - E+) and E- = E - E+ <= l2 at the bottom (a = -l1, b < -l2 + E-).
 *  - Level 1, u1 rounds: in round r node i sends the block of node i - (r-1)L to i + L (r <= u1)
 *    and that of i + (r-1)L to i - L (r <= l1): the bidirectional ring on each orbit, stopped
 *    once the window is in. One block on an arc of L links: every directed link carries L of
 *    them, one step when L <= F w. Node i then holds H(i) = {i - aL : a in [-l1, u1]}.
 *  - Level 2, u2 rounds: in round r node i sends H(i - (r-1)) to i + 1 (r <= u2) and H(i + (r-1))
 *    to i - 1 (r <= l2), each less the edge the drop rule removes from offset +-r on: a pipeline
 *    on unit hops in both directions with up to n1 blocks a transfer, on all F w slots. What is
 *    forwarded only shrinks with r, so a node always holds what it sends.
 * Labels are orbit-major: node j = c + tL (mod N), c = j mod g, has label cP + t. H(x) less an
 * edge is then one circular range of its orbit's labels: one transfer, or two where it wraps
 * (counted exactly: over an orbit's P senders a range of len < P wraps len - 1 times).
 *
 * Steps (the mapped count when L = 1 or L | N; a proven lower bound for every L, used by the
 * search): level 1, u1 rounds of ceil(ceil(N / floor(N/L)) / (F w)): a round sends N arcs of L
 * links one way round (every directed link carries exactly L of them, as 2L < N), and the arcs of
 * one colour are disjoint, at most floor(N/L) of them, so the round needs ceil(N / floor(N/L))
 * colours, which is L when L divides N and more otherwise (N = 4096, L = 3: 4); level 2, the sum
 * over r of ceil(len_r / (F w)), len_r the larger of the two directions' ranges (n1, or n1 - 1
 * past the drop). When L divides N the arcs of level
 * 1 colour with L colours (arc i gets colour i mod L: arcs of one colour tile the ring), and the
 * model's colouring meets that; unit hops never conflict across links. Otherwise the colouring
 * of level 1 may need more (the arcs' conflict graph holds odd cycles), and the mapped count is
 * the model's. At L = 1: ceil((N-1)/2) rounds of one block each way, ceil((N-1)/2) steps for any
 * F w >= 1 — the receive bound ceil((N-1)/(2Fw)) exactly at F w = 1.
 * Both levels cost about N/(2 min(L, F w)) + N/(2 F w) steps; with L near F w the sum is about N/(F
 * w), twice the receive bound: every block's tree has arcs of total length about 2N (N for the
 * stride arcs, N for the unit hops), which is what a shallow tree costs on a ring
 * (docs/bounds-gap.md).
 *
 * The split (`bistride`, issue 26's w = 2 gap). At even L the level-2 windows are uneven: u2 =
 * L/2 rounds clockwise against l2 = L/2 - 1 the other way, so in the last round the
 * counter-clockwise links idle while the clockwise ones carry a whole window (at L = 2 the only
 * level-2 round: N/2 blocks one way, N/(4Fw) steps with half the links dark). The middle offset
 * L/2 is reachable from both sides: node i's blocks i - aL - L/2 (a in [-l1, top], top = u1, or
 * u1 - 1 when the clockwise edge is dropped; K = top + l1 + 1 of them) are H(i - L/2) in
 * H's own index a, and also H(i + L/2) at index a + 1. So the clockwise round u2 carries only a
 * in [mid + 1, top] (ceil(K/2) blocks) and a new counter-clockwise round u2 carries a in [-l1,
 * mid], mid = -l1 + floor(K/2) - 1: node i + 1 sends i its H(i + L/2) at indices [-l1 + 1, mid
 * + 1]. Node i + 1 holds those: it got H(i + L/2) less at most its index -l1 in its
 * counter-clockwise round l2 (or owns it after level 1 when L = 2), and mid + 1 <= u1 as
 * floor(K/2) <= n1 - 1. The two rounds together bring exactly the middle offsets, once each.
 * Every block's tree still reaches each node once (the reduce-scatter below holds), and
 * directions never share a link, so the round costs ceil(ceil(K/2) / (F w)) steps, not
 * ceil(K / (F w)), and the closed form below holds with len_u2 = ceil(K/2). At L = 2, F w = 2:
 * ceil((n1-1)/2) + ceil(n1/4) steps, about 3N/8: every link busy every step, each block's tree
 * of length 1.5N (N in stride-2 arcs, N/2 in unit hops), 1.25x the path bound (N - 1 + N/2)/5
 * of docs/bounds-gap.md, where every other algorithm takes N/2. At odd L nothing changes.
 *
 * Reduce-scatter: the all-gather backwards. All-gather round k's transfer x -> y of labels X is
 * reduce-scatter round R-1-k's reduction y -> x of X. Each block's all-gather tree reaches every
 * node once, so backwards it is an in-tree: a node adds its partial sum of a block to its parent
 * after every child has added theirs (they did in earlier rounds), and the owner ends with the
 * sum. Same arcs reversed, same loads: the same steps. All-reduce: the reduce-scatter then the
 * all-gather on N chunks, one a node, twice the steps.
 *
 * The search (the search contract, algos.h): the space is every L in 1..floor((N-1)/2), each
 * offered with the bound above (times the step's time: every step carries one chunk a wavelength,
 * so a step's time is fixed by the size), best bound first, ties to the smaller L; once a bound
 * cannot win the rest are pruned as one family (their bounds are no better).
 */
#include "algo/stride.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t gcd32(uint32_t a, uint32_t b) {
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Fills the geometry (no memory): 0, or OC_EINVAL when L is outside 1..max(1, floor((N-1)/2));
 * split: the middle window split (bistride, stride.c's essay), no change at odd L. */
static int stride_shape_split(uint32_t N, uint32_t L, int split, oc__stride *s, char *why,
                           size_t whylen) {
    memset(s, 0, sizeof *s);
    const uint32_t most = N > 2 ? (N - 1) / 2 : 1;
    if (L < 1 || L > most)
        return oc__fail(why, whylen, OC_EINVAL,
                        "stride must be 1..%u on %u nodes (1..floor((N-1)/2): a stride arc shorter "
                        "than half the ring), not %u",
                        most, N, L);
    s->N = N;
    s->L = L;
    if (N < 2) return 0; /* nothing to send */
    s->g = gcd32(L, N);
    s->P = N / s->g;
    s->n1 = (uint32_t)oc__ceil_div(N, L);
    s->u1 = s->n1 / 2; /* ceil((n1 - 1) / 2) */
    s->l1 = (s->n1 - 1) / 2;
    s->u2 = L / 2; /* ceil((L - 1) / 2) */
    s->l2 = (L - 1) / 2;
    const uint32_t E = (uint32_t)((uint64_t)s->n1 * L - N);
    s->e_up = E < s->u2 ? E : s->u2;
    s->e_down = E - s->e_up;
    s->d2 = s->l2;
    if (split && L % 2 == 0) { /* the middle offset L/2 = u2: K blocks, floor(K/2) the other way */
        const int32_t K = (int32_t)(s->u1 + s->l1 + 1) - (s->e_up ? 1 : 0);
        s->split = 1;
        s->d2 = s->u2;
        s->mid = -(int32_t)s->l1 + K / 2 - 1;
    }
    return 0;
}

/* The all-gather's rounds, u1 + u2. */
static uint64_t stride_rounds(const oc__stride *s) {
    return (uint64_t)s->u1 + s->u2;
}

/* The level-1 window's edges a level-2 transfer carries in round r, clockwise (up) or not. */
static void window(const oc__stride *s, uint32_t r, int up, int32_t *lo, int32_t *hi) {
    *lo = -(int32_t)s->l1;
    *hi = (int32_t)s->u1;
    if (up && r > s->u2 - s->e_up) (*hi)--;
    if (!up && r > s->l2 - s->e_down) (*lo)++;
    if (s->split && r == s->u2) { /* the middle window, split (the essay) */
        if (up) {
            *lo = s->mid + 1;
        } else {
            *lo = -(int32_t)s->l1 + 1;
            *hi = s->mid + 1;
        }
    }
}

/* Transfers of one direction of a level-2 round: N ranges, g (len - 1) of them wrapping. */
static uint64_t level2_transfers(const oc__stride *s, uint32_t r, int up) {
    int32_t lo, hi;
    window(s, r, up, &lo, &hi);
    if (hi < lo) return 0;
    const uint64_t len = (uint64_t)(hi - lo + 1);
    return s->N + (len < s->P ? (uint64_t)s->g * (len - 1) : 0);
}

/* The all-gather's transfers, counted exactly in closed form. */
static uint64_t stride_transfers(const oc__stride *s) {
    if (s->N < 2) return 0;
    uint64_t t = (uint64_t)s->N * (s->u1 + s->l1); /* n1 - 1 rounds' worth of one block a node */
    for (uint32_t r = 1; r <= s->u2; r++) {
        t += level2_transfers(s, r, 1);
        if (r <= s->d2) t += level2_transfers(s, r, 0);
    }
    return t;
}

/* A proven lower bound on the all-gather's mapped steps on a ring of `channels` = F x w slots a
 * link: each round's busiest directed link, ceil(load / channels), summed; it is the mapped count
 * when L = 1 or L divides N (stride.c). */
static uint64_t stride_steps(const oc__stride *s, uint64_t channels) {
    if (s->N < 2) return 0;
    const uint64_t C = channels ? channels : 1;
    /* a level-1 round sends N arcs of L links one way; a colour holds at most floor(N/L)
     * disjoint ones (2L < N or L = 1): ceil(N / floor(N/L)) colours, L when L divides N */
    const uint64_t per1 = oc__ceil_div(oc__ceil_div(s->N, s->N / s->L), C);
    uint64_t steps = (uint64_t)s->u1 * per1;
    /* level 2: the rounds before either drop carry n1, the others n1 - 1 on their larger side */
    for (uint32_t r = 1; r <= s->u2; r++) {
        int32_t lo, hi, lo2, hi2;
        window(s, r, 1, &lo, &hi);
        uint64_t len = hi >= lo ? (uint64_t)(hi - lo + 1) : 0;
        if (r <= s->d2) {
            window(s, r, 0, &lo2, &hi2);
            const uint64_t len2 = hi2 >= lo2 ? (uint64_t)(hi2 - lo2 + 1) : 0;
            if (len2 > len) len = len2;
        }
        steps += oc__ceil_div(len, C);
    }
    return steps;
}

/* The inverse of L/g modulo P (gcd(L/g, P) = 1), by the extended Euclid algorithm. */
static uint32_t inverse_mod(uint32_t a, uint32_t m) {
    if (m == 1) return 0;
    int64_t t = 0, nt = 1, r = m, nr = a % m;
    while (nr) {
        const int64_t q = r / nr, t2 = t - q * nt, r2 = r - q * nr;
        t = nt;
        nt = t2;
        r = nr;
        nr = r2;
    }
    return (uint32_t)(t < 0 ? t + m : t);
}

/* Allocates s->label and s->node and fills `block_node` (N entries, the node of each label) when
 * not NULL. */
static int stride_labels(oc__stride *s, uint32_t *block_node) {
    const uint32_t N = s->N;
    if (N < 2) {
        if (block_node && N) block_node[0] = 0;
        return 0;
    }
    s->label = oc__malloc_array(N, sizeof(uint32_t));
    s->node = oc__malloc_array(N, sizeof(uint32_t));
    if (!s->label || !s->node) return OC_ENOMEM;
    const uint32_t step = s->L / s->g, inv = inverse_mod(step, s->P);
    for (uint32_t j = 0; j < N; j++) {
        /* j = c + tL (mod N): (j - c)/g = t (L/g) (mod P) */
        const uint32_t c = j % s->g;
        const uint64_t t = (uint64_t)((j - c) / s->g) * inv % s->P;
        s->label[j] = (uint32_t)(c * s->P + t);
        s->node[s->label[j]] = j;
        if (block_node) block_node[s->label[j]] = j;
    }
    return 0;
}

static void stride_free(oc__stride *s) {
    free(s->label);
    free(s->node);
    s->label = s->node = NULL;
}

/* One transfer of labels [first, first + count) from x to y (or its reversal). */
static int put(oc__emit *e, uint32_t x, uint32_t y, uint32_t first, uint32_t count, int reduce) {
    return reduce ? oc__emit_transfer(e, y, x, OC_OP_REDUCE, first, count)
                  : oc__emit_transfer(e, x, y, OC_OP_COPY, first, count);
}

/* ---- a round's transfers, in label order ----
 *
 * A round's transfers go out in the order of the label they start from (level 1: one block a
 * transfer; level 2: the window's owner), each direction in turn, so that a windowed emitter (a
 * verifier shard, which sees only the labels [win_lo, win_hi)) gets only the transfers touching
 * its window and skips the others' places by count (oc__emit_skip): a shard costs its own
 * transfers, which is what keeps the all-reduce's reduction shards cheap at N = 4096. */

/* Level 1, one direction: the block of owner j from j + (r-1)L (up) or j - (r-1)L to one stride
 * further, for every label in order. */
static int level1_dir(const oc__stride *s, oc__emit *e, uint32_t r, int up, int reduce) {
    const uint32_t N = s->N, lo = e->windowed ? e->win_lo : 0;
    const uint32_t hi = e->windowed ? (e->win_hi < N ? e->win_hi : N) : N;
    const uint64_t back = (uint64_t)(r - 1) * s->L % N, hop = up ? s->L : N - s->L;
    if (lo >= hi) {
        oc__emit_skip(e, N);
        return 0;
    }
    oc__emit_skip(e, lo);
    /* every label is in range by construction: written in place, one call for the span */
    oc__transfer *out;
    int rc = oc__emit_many(e, hi - lo, &out);
    if (rc) return rc;
    const uint32_t op = (uint32_t)(reduce ? OC_OP_REDUCE : OC_OP_COPY);
    /* owner + back (up) or owner - back, and one hop on, mod N: each a sum of two numbers below
     * N, brought back by one subtraction instead of a 64-bit division (at L = 1, bidir, these
     * are 16.7 M transfers a half at N = 4096, made again by every verifier shard) */
    const uint32_t shift = (uint32_t)(up || !back ? back : N - back), step = (uint32_t)hop;
    for (uint32_t label = lo; label < hi; label++, out++) {
        const uint32_t owner = s->node[label];
        const uint32_t x = owner >= N - shift ? owner - (N - shift) : owner + shift;
        const uint32_t y = x >= N - step ? x - (N - step) : x + step;
        *out = reduce ? (oc__transfer){y, x, label, 1, op} : (oc__transfer){x, y, label, 1, op};
    }
    oc__emit_skip(e, N - hi);
    return 0;
}

/* Level 2's window [lo, hi] of the owner at position t of orbit c (len = hi - lo + 1 positions:
 * t - hi .. t - lo, mod P), sent by x to y: one transfer, or two where it wraps. */
static int window_pieces(const oc__stride *s, oc__emit *e, uint32_t c, uint32_t t, uint32_t x,
                         uint32_t y, int32_t hi, uint32_t len, int reduce) {
    const uint32_t P = s->P;
    if (len >= P) return put(e, x, y, c * P, P, reduce);
    const uint32_t start = (uint32_t)(((int64_t)t - hi + (int64_t)P) % P); /* 0 <= hi < P */
    if (start + len <= P) return put(e, x, y, c * P + start, len, reduce);
    int rc = put(e, x, y, c * P + start, P - start, reduce);
    return rc ? rc : put(e, x, y, c * P, start + len - P, reduce);
}

/* Owners of an orbit before position t whose window wraps: those at positions lo .. hi - 1 (mod
 * P), len - 1 of them (the start t - hi is past P - len exactly there). */
static uint64_t wraps_before(uint32_t P, int32_t lo, uint32_t len, uint32_t t) {
    if (len >= P) return 0;
    const uint64_t w0 = (uint64_t)(((int64_t)lo % P + P) % P), m = len - 1u;
    if (w0 + m <= P) return t > w0 ? (t - w0 < m ? t - w0 : m) : 0;
    const uint64_t tail = w0 + m - P; /* [w0, P) and [0, tail) */
    return (t < tail ? t : tail) + (t > w0 ? t - w0 : 0);
}

/* Level 2, one direction: owner x's window from x + (r-1) to x + r (up) or from x - (r-1) to
 * x - r, owners in label order. */
static int level2_dir(const oc__stride *s, oc__emit *e, uint32_t r, int up, int reduce) {
    const uint32_t N = s->N, P = s->P;
    int32_t lo, hi;
    window(s, r, up, &lo, &hi);
    if (hi < lo) return 0;
    const uint32_t len = (uint32_t)(hi - lo + 1), back = (r - 1) % N;
    const uint64_t per_orbit = (uint64_t)P + (len < P ? len - 1 : 0), total = s->g * per_orbit;
    int rc = 0;
    /* owner (c, t): its sender and receiver */
#define STRIDE_SEND(c, t)                                                                          \
    do {                                                                                           \
        const uint32_t owner_ = s->node[(c)*P + (t)];                                              \
        const uint32_t x_ = up ? (owner_ + back) % N : (owner_ + N - back) % N;                    \
        const uint32_t y_ = up ? (x_ + 1) % N : (x_ + N - 1) % N;                                  \
        rc = window_pieces(s, e, (c), (t), x_, y_, hi, len, reduce);                               \
    } while (0)
    if (!e->windowed) {
        for (uint32_t c = 0; c < s->g && !rc; c++)
            for (uint32_t t = 0; t < P && !rc; t++)
                STRIDE_SEND(c, t);
        return rc;
    }
    uint64_t done = 0; /* transfers of this direction emitted or skipped so far */
    const uint32_t wlo = e->win_lo, whi = e->win_hi < N ? e->win_hi : N;
    for (uint32_t c = wlo / P; wlo < whi && c < s->g && (uint64_t)c * P < whi && !rc; c++) {
        const uint32_t p0 = c * P > wlo ? 0 : wlo - c * P;
        const uint32_t p1 = (uint64_t)(c + 1) * P < whi ? P : whi - c * P;
        /* owners touching positions [p0, p1): t in p0 + lo .. p1 - 1 + hi (mod P) */
        const uint64_t count = (uint64_t)(p1 - p0) + len - 1;
        uint32_t a[2], b[2], parts = 0; /* linear ranges [a, b) of t, ascending */
        if (count >= P) {
            a[0] = 0, b[0] = P, parts = 1;
        } else {
            const uint32_t t0 = (uint32_t)(((int64_t)p0 + lo) % (int64_t)P + P) % P;
            if (t0 + count <= P) {
                a[0] = t0, b[0] = (uint32_t)(t0 + count), parts = 1;
            } else {
                a[0] = 0, b[0] = (uint32_t)(t0 + count - P), a[1] = t0, b[1] = P, parts = 2;
            }
        }
        const uint64_t base = (uint64_t)c * per_orbit;
        for (uint32_t k = 0; k < parts && !rc; k++)
            for (uint32_t t = a[k]; t < b[k] && !rc; t++) {
                const uint64_t at = base + t + wraps_before(P, lo, len, t);
                oc__emit_skip(e, at - done);
                const uint64_t before = e->raw;
                STRIDE_SEND(c, t);
                done = at + (e->raw - before);
            }
    }
#undef STRIDE_SEND
    if (!rc) oc__emit_skip(e, total - done);
    return rc;
}

/* Emits all-gather round k (0 <= k < rounds) as copies, or, when `reduce` is set, the same
 * transfers turned round (receiver to sender) as reductions: the round of the reduce-scatter
 * that runs the all-gather backwards. Does not end the round. */
static int stride_round(const oc__stride *s, oc__emit *e, uint64_t k, int reduce) {
    int rc;
    if (k < s->u1) { /* level 1, round r = k + 1 */
        const uint32_t r = (uint32_t)k + 1;
        rc = level1_dir(s, e, r, 1, reduce);
        if (!rc && r <= s->l1) rc = level1_dir(s, e, r, 0, reduce);
        return rc;
    }
    const uint32_t r = (uint32_t)(k - s->u1) + 1; /* level 2 */
    rc = level2_dir(s, e, r, 1, reduce);
    if (!rc && r <= s->d2) rc = level2_dir(s, e, r, 0, reduce);
    return rc;
}

/* ---- the plan shared by the six algorithms ---- */

typedef struct stride_state {
    oc__stride s;
    oc_collective coll;
} stride_state;

static int plan_mode(oc__plan *plan, const char *name, oc_collective coll, uint32_t nodes,
                     uint32_t root, uint64_t bytes, uint32_t L, int split, char *why,
                     size_t whylen) {
    oc__stride shape;
    int rc = stride_shape_split(nodes, L, split, &shape, why, whylen);
    if (rc) return rc;
    const int ar = coll == OC_ALLREDUCE;
    const uint64_t transfers = (ar ? 2 : 1) * stride_transfers(&shape);
    if ((rc = oc__plan_work(name, nodes, transfers, why, whylen))) return rc;
    /* labels, their nodes and block_node: 3 words a node */
    if ((rc = oc__budget_check(12ull * nodes, "the stride labels", why, whylen))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, ar ? nodes : 1, why, whylen)))
        return rc;
    stride_state *st = calloc(1, sizeof *st);
    if (!st) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    st->s = shape;
    st->coll = coll;
    plan->state = st;
    if (!ar && nodes > 1) {
        plan->spec.block_node = oc__malloc_array(nodes, sizeof(uint32_t));
        if (!plan->spec.block_node) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    }
    if (stride_labels(&st->s, plan->spec.block_node))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    if (ar && nodes >= 2 && nodes % L == 0 && (!split || L % 2)) {
        /* The symmetry (core.h, oc__spec.orbit_*) when L divides N: node j = c + tL has label
         * cP + t (P = N/L), so j + L has label cP + (t + 1) mod P, and every transfer moved so
         * is the one of the sender L further on; level 2's windows are whole orbits then (no
         * drop), one part each. The verifier checks every round (verify.c, "rounds of several
         * pieces"); at even L the split's half windows wrap their part at some senders only. */
        plan->spec.orbit_stride = L;
        plan->spec.orbit_part = nodes / L;
        plan->spec.orbit_turn = 1;
    }
    plan->rounds = (ar ? 2 : 1) * stride_rounds(&shape);
    /* the work (core.h): each label reaches the other N-1 nodes once (twice for all-reduce) */
    plan->spec.units = (ar ? 2 : 1) * (uint64_t)(nodes - 1) * plan->spec.chunks;
    plan->spec.transfers = transfers;
    plan->spec.max_round = 4ull * nodes;
    plan->spec.window_skips = 1; /* a round's transfers in label order (above) */
    return 0;
}

int oc__stride_plan(oc__plan *plan, const char *name, oc_collective coll, uint32_t nodes,
                    uint32_t root, uint64_t bytes, uint32_t L, char *why, size_t whylen) {
    return plan_mode(plan, name, coll, nodes, root, bytes, L, 0, why, whylen);
}

/* The plan of an algorithm whose one parameter is `stride`: pinned, or (searched by the caller,
 * or without a network to search on) the multiple of `step` nearest sqrt(N) within
 * 1..floor((N-1)/2), which balances the two levels' rounds (step 2 for bistride, where the split
 * saves half a round at even L). `split` as plan_mode's. */
static int plan_stride_param(oc__plan *plan, const char *name, oc_collective coll, uint32_t nodes,
                             uint32_t root, uint64_t bytes, const oc_kv *params, uint64_t step,
                             int split, char *why, size_t whylen) {
    static const char *const names[] = {"stride", NULL};
    int rc = oc__kv_only(params, names, name, why, whylen);
    if (rc) return rc;
    uint64_t dflt = step;
    while ((dflt + step) * (dflt + step) <= nodes)
        dflt += step;
    if ((dflt + step) * (dflt + step) - nodes < nodes - dflt * dflt) dflt += step;
    if (dflt > (nodes - 1) / 2 || nodes < 3) dflt = nodes > 2 ? (nodes - 1) / 2 : 1;
    if (dflt < 1) dflt = 1;
    uint64_t L = dflt;
    if ((rc = oc__kv_u64(params, "stride", dflt, 1, UINT32_MAX, &L, why, whylen))) return rc;
    if ((rc = plan_mode(plan, name, coll, nodes, root, bytes, (uint32_t)L, split, why, whylen)))
        return rc;
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)L);
    return oc_kv_set(plan->used, "stride", v) ? oc__fail(why, whylen, OC_ENOMEM, "out of memory")
                                              : 0;
}

int oc__stride_plan_param(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                          uint64_t bytes, const oc_kv *params, char *why, size_t whylen) {
    return plan_stride_param(plan, "stride", coll, nodes, root, bytes, params, 1, 0, why, whylen);
}

int oc__bistride_plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root,
                      uint64_t bytes, const oc_kv *params, char *why, size_t whylen) {
    return plan_stride_param(plan, "bistride", coll, nodes, root, bytes, params, 2, 1, why,
                             whylen);
}

int oc__stride_generate(const oc__plan *plan, oc__emit *e) {
    const stride_state *st = plan->state;
    const oc__stride *s = &st->s;
    const uint64_t R = stride_rounds(s);
    int rc = 0;
    if (s->N < 2) return 0;
    if (st->coll != OC_ALLGATHER) /* the reduce-scatter: the all-gather's rounds backwards */
        for (uint64_t k = R; k-- > 0 && !rc;)
            if (!(rc = stride_round(s, e, k, 1))) rc = oc__emit_round(e);
    if (st->coll != OC_REDUCESCATTER)
        for (uint64_t k = 0; k < R && !rc; k++)
            if (!(rc = stride_round(s, e, k, 0))) rc = oc__emit_round(e);
    return rc;
}

void oc__stride_release(oc__plan *plan) {
    stride_state *st = plan->state;
    if (!st) return;
    stride_free(&st->s);
    free(st);
    plan->state = NULL;
}

int oc__stride_formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const stride_state *st = plan->state;
    const oc__stride *s = &st->s;
    const uint64_t C = in->channels ? in->channels : 1;
    const uint64_t times = st->coll == OC_ALLREDUCE ? 2 : 1;
    const uint64_t steps = times * stride_steps(s, C);
    oc__formula_steps(rep, in, (double)steps);
    if (rep->steps == steps || s->N < 2) return 0;
    if (s->L > 1 && s->N % s->L)
        return oc__report_note(rep,
                               "the closed form counts %llu steps, each round's busiest link over "
                               "%llu channels; stride %u does not divide N = %u, and the level-1 "
                               "arcs (length %u, every link carries %u) took more colours than "
                               "their load: %llu steps mapped",
                               (unsigned long long)steps, (unsigned long long)C, s->L, s->N, s->L,
                               s->L, (unsigned long long)rep->steps);
    return oc__report_note(rep,
                           "the closed form counts %llu steps, each round's busiest link over "
                           "%llu channels; %llu were mapped",
                           (unsigned long long)steps, (unsigned long long)C,
                           (unsigned long long)rep->steps);
}

/* ---- the search ---- */

typedef struct stride_cand {
    uint64_t steps;
    uint32_t L;
} stride_cand;

static int by_steps(const void *a, const void *b) {
    const stride_cand *x = a, *y = b;
    if (x->steps != y->steps) return x->steps < y->steps ? -1 : 1;
    return x->L < y->L ? -1 : x->L > y->L;
}

static int search_mode(const oc__search_in *in, oc__search *s, int split, char *why,
                       size_t whylen) {
    const uint32_t N = in->nodes;
    if (oc_kv_get(in->params, "stride") || N < 5) return 0; /* pinned, or only stride 1 */
    const int ar = in->coll == OC_ALLREDUCE;
    oc__formula_in f;
    int rc = in->figures(in, in->coll, ar ? N : 1, &f, why, whylen);
    if (rc) return rc;
    const uint32_t most = (N - 1) / 2;
    if ((rc = oc__budget_check((uint64_t)most * sizeof(stride_cand), "the stride search", why,
                               whylen)))
        return rc;
    stride_cand *c = oc__malloc_array(most, sizeof *c);
    if (!c) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    for (uint32_t L = 1; L <= most; L++) {
        oc__stride sh;
        if ((rc = stride_shape_split(N, L, split, &sh, why, whylen))) goto out;
        c[L - 1] = (stride_cand){(ar ? 2 : 1) * stride_steps(&sh, f.channels), L};
    }
    qsort(c, most, sizeof *c, by_steps);
    static const char *const name = "each round's busiest directed link: ceil(load / (F w)) steps";
    for (uint32_t i = 0; i < most && !rc; i++) {
        oc__stride sh;
        if ((rc = stride_shape_split(N, c[i].L, split, &sh, why, whylen))) break;
        oc__bound b = {.time_s = (double)c[i].steps * f.step_time,
                       .steps = c[i].steps,
                       .name = name,
                       .transfers = (ar ? 2 : 1) * stride_transfers(&sh)};
        const int yes = oc__search_can_win(s, &b);
        if (yes < 0) {
            rc = yes;
            break;
        }
        if (!yes) { /* sorted by bound: none after this one can win either */
            rc = oc__search_prune(s, "strides whose bound cannot win", &b, most - i);
            break;
        }
        char v[16];
        snprintf(v, sizeof v, "%u", c[i].L);
        const char *kv[] = {"stride", v};
        rc = oc__search_offer(s, &b, 1, kv);
    }
out:
    free(c);
    if (rc == OC_ENOMEM) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    return rc;
}

int oc__stride_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    return search_mode(in, s, 0, why, whylen);
}

int oc__bistride_search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    return search_mode(in, s, 1, why, whylen);
}
