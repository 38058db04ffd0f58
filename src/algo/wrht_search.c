/*
 * wrht_search.c — the parameter search of WRHT (all-reduce and all-gather, wrht_tree.c) under the
 * search contract (algos.h): where the user pins nothing, the default is the best mapped time on
 * the ring over the whole space below, and a candidate is skipped only by a proven lower bound.
 *
 * The space. A WRHT schedule is fixed by
 *   m         the group size, 2..N (m = N is one group of everything; larger values are refused);
 *   alltoall  where the tree stops: at every level l of the tree of m (counts c_0 = N > c_1 >
 *             ... > c_L = 1) it can finish with an all-to-all among the c_l representatives
 *             (alltoall=c_l; any pinned value between c_l and c_(l-1) - 1 is the same schedule), or
 *             go up to one representative (alltoall=1, the pure tree). The all-to-all among all N
 *             nodes (level 0) is the same schedule for every m and is offered once, with m=2. An
 *             all-to-all among more than 4096 representatives is refused by plan() and is not in
 *             the space;
 *   pieces    (all-reduce only) 1..65536: the vector cut into that many chunks, every transfer
 *             carrying all of them side by side;
 *   rep       the member of each group that represents it: middle (the seed's), first or last.
 *             The level-0 all-to-all has no groups and is offered once, with the middle.
 * Pinned values stay pinned and only the rest is searched.
 *
 * The bound (the ring model, ring.c). A round of the schedule becomes at least
 * ceil(load / C) steps, where load is its busiest directed link's wavelength-units and C the
 * channels (wavelengths x fibres): a link carries at most C units a step. Every step of a run
 * costs the same step time s(q), the model's reconfiguration + O/E/O + transmission of one chunk
 * (in->figures at the candidate's chunking), so the mapped time is steps x s(q) and
 *     time >= s(q) x sum over rounds of ceil(load_r / C)
 * is a proof as soon as each load_r is a lower bound on that round's busiest link. Ours, for the
 * rounds of the tree (one piece; with P pieces every transfer is one bundle of P units on one
 * arc, so every link's load is exactly P times the one-piece load):
 *   - a group round (up or down): the representative of the first group (the largest) takes in
 *     (or sends out) its members' transfers through its two links: one of them carries at least
 *     half of them, ceil((size - 1)/2) transfers; and a member less than half the ring away is
 *     routed the short way, so each side's such members all cross the link next to the
 *     representative (the larger side is exactly the busiest link when the group is short; the
 *     sides are the representative's, wherever rep= puts it);
 *   - the all-to-all among r representatives: every link-unit a transfer uses is one of the 2N
 *     directed links' loads, and a transfer uses at least the shortest distance between its ends,
 *     so some link carries at least ceil(sum of unit x distance / 2N); and each representative
 *     takes in all the others' units through two links.
 * With P pieces the steps are sum_r ceil(P load_r / C), non-decreasing in P, while s(P) is
 * non-increasing (its chunk shrinks): every P in [a, b] maps to at least steps(a) x s(b). That
 * bounds a whole range of pieces at once, and a whole family of group sizes m >= M (their first
 * round's groups hold at least min(M, N) members; the least of the loads over the rep rules
 * searched) before their trees are built.
 * At the ring's spread=0 (ring.c: a transfer keeps to one lightpath, and a step lasts as its
 * largest bundle) a transfer is one unit of load whatever it carries, so the loads are counted
 * in transfers (the all-gather's too), and every step carries a bundle of at least the whole
 * vector (P pieces of ceil(d/P) bytes) or, for the all-gather, a whole block: its time is at
 * least s(1). Every pieces then has the bound of pieces=1, which ties go to.
 *
 * The search is best-first branch and bound over those families: a heap holds the family
 * "every m >= M", (m, alltoall) trees with a range of pieces, and single candidates, by bound.
 * The least is taken: a single candidate is offered (the pipeline maps it), a range of pieces is
 * halved, the family of m >= M yields the trees of m = M and the family m >= M + 1. Whatever can
 * no longer beat the best mapped candidate (oc__search_can_win) is recorded as pruned. Ties of the
 * bound go to the simpler choice: fewer pieces, smaller m, then the tree that stops lowest (the
 * all-to-all at level 1 first, the pure tree last: fewest rounds first).
 */
#include "algo/algos.h"
#include "algo/wrht_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PIECES_MAX (UINT32_C(1) << 16)

/* The shape of the tree of group size m on N nodes: counts and full-subtree widths per level. */
typedef struct shape {
    uint32_t N, m, levels;                  /* levels: groupings until one representative */
    int rep;                                /* OC_WRHT_REP_*: which member represents a group */
    uint32_t count[OC_WRHT_MAX_LEVELS + 1]; /* c_0 = N, ..., c_levels = 1 */
    uint64_t width[OC_WRHT_MAX_LEVELS + 1]; /* m^k, capped at N: nodes below a full item */
} shape;

static int shape_of(uint32_t N, uint32_t m, int rep, shape *t) {
    t->N = N;
    t->m = m;
    t->rep = rep;
    t->levels = 0;
    t->count[0] = N;
    t->width[0] = 1;
    while (t->count[t->levels] > 1) {
        if (t->levels + 1 >= OC_WRHT_MAX_LEVELS) return OC_ERANGE;
        uint32_t l = t->levels;
        t->count[l + 1] = (uint32_t)oc__ceil_div(t->count[l], m);
        uint64_t w = t->width[l] * m;
        t->width[l + 1] = w < N ? w : N;
        t->levels++;
    }
    return 0;
}

/* The ring position of item j of level k: its group's representative, level by level down. */
static uint32_t pos(const shape *t, uint32_t k, uint32_t j) {
    while (k > 0) {
        uint32_t first = j * t->m, rest = t->count[k - 1] - first;
        uint32_t size = rest < t->m ? rest : t->m;
        j = first + oc__wrht_rep_index(size, t->rep);
        k--;
    }
    return j;
}

/* Nodes below item j of level k: [j m^k, min((j + 1) m^k, N)). */
static uint64_t span(const shape *t, uint32_t k, uint32_t j) {
    uint64_t lo = j * t->width[k], hi = lo + t->width[k];
    return (hi < t->N ? hi : t->N) - lo;
}

/* What each transfer of a round carries, in chunks: one (all-reduce), the member's nodes (the
 * all-gather going up) or what the member lacks (going down). */
enum { W_ONE, W_SPAN, W_REST };

static uint64_t weight(const shape *t, uint32_t k, uint32_t j, int kind) {
    if (kind == W_ONE) return 1;
    uint64_t s = span(t, k, j);
    return kind == W_SPAN ? s : t->N - s;
}

static uint64_t max3(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t x = a > b ? a : b;
    return x > c ? x : c;
}

/* Of the distances 1..x, how many are under half the ring (routed the short way as counted) and
 * how many over it (routed the other way round). Exactly half is a tie either way: neither. */
static uint64_t under_half(uint64_t x, uint32_t N) {
    uint64_t h = (N - 1) / 2;
    return x < h ? x : h;
}
static uint64_t over_half(uint64_t x, uint32_t N) {
    uint64_t h = N / 2;
    return x - (x < h ? x : h);
}

/* A lower bound on the busiest link of the group round at level k (the first group, the largest)
 * whose transfers carry `kind` chunks each. Going up the members send to the representative,
 * going down it sends to them: the same links, reversed, so one count serves both. */
static uint64_t group_load(const shape *t, uint32_t k, int kind) {
    const uint32_t N = t->N, s = t->count[k] < t->m ? t->count[k] : t->m,
                   h = oc__wrht_rep_index(s, t->rep);
    if (k == 0) { /* consecutive nodes, equal weights: counted in closed form */
        uint64_t w = weight(t, 0, 0, kind), left = h, right = s - 1 - h;
        uint64_t a = w * (under_half(left, N) + over_half(right, N));
        uint64_t b = w * (under_half(right, N) + over_half(left, N));
        return max3(a, b, oc__ceil_div(w * (s - 1), 2));
    }
    const uint32_t rp = pos(t, k, h);
    uint64_t a = 0, b = 0, total = 0; /* a: the link left of the representative, b: right */
    for (uint32_t j = 0; j < s; j++) {
        if (j == h) continue;
        uint32_t p = pos(t, k, j);
        uint64_t w = weight(t, k, j, kind), d = j < h ? rp - p : p - rp;
        total += w;
        if (2 * d < N) { /* the short way, on its own side */
            if (j < h)
                a += w;
            else
                b += w;
        } else if (2 * d > N) { /* the other way round: the other side */
            if (j < h)
                b += w;
            else
                a += w;
        }
    }
    return max3(a, b, oc__ceil_div(total, 2));
}

/* Scratch entries a2a_load needs for r representatives. */
static size_t a2a_scratch(uint32_t r) {
    return 12 * (size_t)r + 8;
}

/* The busiest clockwise link of an all-to-all among r nodes at increasing positions p[] of the
 * ring, node i sending w[i] units to every other one, each the short way round (a node exactly
 * half the ring away is a tie either way: left out). No transfer starts or ends between two
 * consecutive nodes, so the links of that stretch share one load: node i's clockwise transfers
 * go to the t_i nodes after it less than half the ring away, and put w[i] (t_i - k) units on the
 * k-th stretch after it. The ramps are summed with difference arrays over the stretches unrolled
 * twice round, then folded. Scratch: cst and slope 2r + 1 entries each, fold r. */
static uint64_t cw_busiest(const uint64_t *p, const uint64_t *w, uint32_t r, uint32_t N,
                           int64_t *cst, int64_t *slope, uint64_t *fold) {
    memset(cst, 0, (2 * (size_t)r + 1) * sizeof *cst);
    memset(slope, 0, (2 * (size_t)r + 1) * sizeof *slope);
    memset(fold, 0, r * sizeof *fold);
    uint32_t j = 0; /* i + t_i, numbered unrolled */
    for (uint32_t i = 0; i < r; i++) {
        if (j < i) j = i;
        while (j + 1 < i + r && 2 * (p[(j + 1) % r] + (j + 1 >= r ? N : 0) - p[i]) < N)
            j++;
        if (j == i) continue;
        /* stretches i .. j - 1 carry w (j - s) = w j - w s */
        const int64_t c = (int64_t)(w[i] * j);
        cst[i] += c;
        cst[j] -= c;
        slope[i] += (int64_t)w[i];
        slope[j] -= (int64_t)w[i];
    }
    int64_t rc = 0, rs = 0;
    uint64_t best = 0;
    for (uint32_t s = 0; s < 2 * r; s++) {
        rc += cst[s];
        rs += slope[s];
        fold[s % r] += (uint64_t)(rc - rs * (int64_t)s);
    }
    for (uint32_t s = 0; s < r; s++)
        if (fold[s] > best) best = fold[s];
    return best;
}

/* A lower bound on the busiest link of the all-to-all among the r = c_l representatives of level
 * l, each sending its `kind` chunks to every other one: the busiest link of either direction
 * (exact but for ties), the average over the 2N directed links of units x shortest distance (ties
 * included), and a representative's in- and out-going units over its two links. */
static uint64_t a2a_load(const shape *t, uint32_t l, int kind, uint64_t *scratch) {
    const uint32_t N = t->N, r = t->count[l];
    if (r < 2) return 0;
    uint64_t *p = scratch, *w = p + r, *mp = w + r, *mw = mp + r, *fold = mw + r;
    uint64_t *P = fold + r, *W = P + (r + 1), *WP = W + (r + 1);
    int64_t *cst = (int64_t *)(WP + (r + 1)), *slope = cst + (2 * (size_t)r + 1);
    uint64_t minw = UINT64_MAX, maxw = 0;
    P[0] = W[0] = WP[0] = 0;
    for (uint32_t i = 0; i < r; i++) {
        p[i] = pos(t, l, i);
        w[i] = weight(t, l, i, kind);
        mp[r - 1 - i] = N - 1 - p[i]; /* the mirror image: counter-clockwise as clockwise */
        mw[r - 1 - i] = w[i];
        P[i + 1] = P[i] + p[i];
        W[i + 1] = W[i] + w[i];
        WP[i + 1] = WP[i] + w[i] * p[i];
        if (w[i] < minw) minw = w[i];
        if (w[i] > maxw) maxw = w[i];
    }
    uint64_t cw = cw_busiest(p, w, r, N, cst, slope, fold);
    uint64_t ccw = cw_busiest(mp, mw, r, N, cst, slope, fold);
    /* sum over ordered pairs of w_src x distance = sum over i < j of (w_i + w_j) d(i, j) */
    uint64_t vol = 0;
    uint32_t far = 0; /* the first j with 2 (p_j - p_i) > N */
    for (uint32_t i = 0; i < r; i++) {
        const uint64_t pi = p[i], wi = w[i];
        if (far < i + 1) far = i + 1;
        while (far < r && 2 * (p[far] - pi) <= N)
            far++;
        uint64_t n1 = far - (i + 1), sp = P[far] - P[i + 1], sw = W[far] - W[i + 1],
                 swp = WP[far] - WP[i + 1];
        vol += wi * (sp - n1 * pi) + (swp - pi * sw);
        uint64_t n2 = r - far, fp = P[r] - P[far], fw = W[r] - W[far], fwp = WP[r] - WP[far];
        vol += wi * (n2 * (N + pi) - fp) + ((N + pi) * fw - fwp);
    }
    uint64_t in = oc__ceil_div(W[r] - minw, 2), out = oc__ceil_div((uint64_t)(r - 1) * maxw, 2);
    return max3(max3(cw, ccw, oc__ceil_div(vol, 2 * (uint64_t)N)), in, out);
}

/* ---- the search ---- */

enum { K_FAMILY, K_TREE };

/* A heap entry: the family of every m >= m (K_FAMILY), or tree `tree` with pieces lo..hi
 * (K_TREE; lo = hi: one candidate). */
typedef struct entry {
    double time;
    uint64_t steps, seq;
    uint32_t kind, m, tree, lo, hi;
} entry;

/* An (m, alltoall) tree: its rounds' one-piece loads. */
typedef struct tree {
    uint32_t m, a2a;   /* alltoall as offered */
    int rep;           /* OC_WRHT_REP_* */
    uint32_t first, n; /* its loads: loads[first .. first + n) */
} tree;

typedef struct ctx {
    const oc__search_in *in;
    oc__search *s;
    int striped;
    oc_collective coll;
    uint32_t N;
    uint64_t C;
    uint32_t mpin, plo, phi;
    const char *apin; /* the pinned alltoall as written, or NULL */
    uint64_t apin_v;
    int reppin;        /* the pinned rep (OC_WRHT_REP_*), or -1: every rule is searched */
    int spread;        /* the ring's rule (ring.c, item 6): 0, one lightpath a transfer */
    double *step;      /* s(P), memoised; < 0: not yet asked */
    uint64_t *scratch; /* a2a_load's prefix sums */
    size_t scratch_n;
    tree *trees;
    size_t ntrees, captrees;
    uint64_t *loads;
    size_t nloads, caploads;
    entry *heap;
    size_t nheap, capheap;
    uint64_t seq;
    /* what was pruned, for the log */
    uint64_t pruned_count;
    double pruned_time;
    uint64_t pruned_steps;
    uint32_t family_from; /* the family m >= family_from was pruned (0: it was not) */
    double family_time;
    uint64_t family_steps;
    char *why;
    size_t len;
} ctx;

static int nomem(ctx *c) {
    return oc__fail(c->why, c->len, OC_ENOMEM, "out of memory");
}

/* The ring's step time with the vector (or block) cut into q chunks. */
static int step_time(ctx *c, uint32_t q, double *out) {
    if (c->step[q] < 0) {
        oc__formula_in f;
        int rc = c->in->figures(c->in, c->coll, q, &f, c->why, c->len);
        if (rc) return rc;
        c->step[q] = f.step_time;
    }
    *out = c->step[q];
    return 0;
}

static uint64_t steps_at(const ctx *c, const uint64_t *loads, uint32_t n, uint32_t P) {
    uint64_t st = 0;
    for (uint32_t i = 0; i < n; i++)
        st += oc__ceil_div((uint64_t)P * loads[i], c->C);
    return st;
}

/* The bound of pieces lo..hi over rounds with these loads: steps(lo) steps of s(hi). */
static int bound_of(ctx *c, const uint64_t *loads, uint32_t n, uint32_t lo, uint32_t hi, entry *e) {
    double s;
    if (!c->spread) { /* one unit a transfer, and a step carries a bundle of the whole data */
        lo = 1;
        hi = 1;
    }
    int rc = step_time(c, hi, &s);
    if (rc) return rc;
    e->steps = steps_at(c, loads, n, lo);
    e->time = (double)e->steps * s;
    return 0;
}

/* The heap's order: the bound, then the simpler choice (fewer pieces, smaller m, the trees of one
 * m in their order: fewest rounds first), so that of two equal bounds the simpler is offered first
 * and wins a full tie. */
static int before(const entry *a, const entry *b) {
    if (a->time != b->time) return a->time < b->time;
    if (a->steps != b->steps) return a->steps < b->steps;
    if (a->lo != b->lo) return a->lo < b->lo;
    if (a->m != b->m) return a->m < b->m;
    if (a->tree != b->tree) return a->tree < b->tree;
    return a->seq < b->seq;
}

static int push(ctx *c, entry e) {
    if (oc__grow((void **)&c->heap, &c->capheap, c->nheap + 1, sizeof *c->heap)) return nomem(c);
    e.seq = c->seq++;
    size_t i = c->nheap++;
    while (i > 0 && before(&e, &c->heap[(i - 1) / 2])) {
        c->heap[i] = c->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    c->heap[i] = e;
    return 0;
}

static entry pop(ctx *c) {
    entry top = c->heap[0], last = c->heap[--c->nheap];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= c->nheap) break;
        if (k + 1 < c->nheap && before(&c->heap[k + 1], &c->heap[k])) k++;
        if (!before(&c->heap[k], &last)) break;
        c->heap[i] = c->heap[k];
        i = k;
    }
    if (c->nheap) c->heap[i] = last;
    return top;
}

/* Records tree (m, stop level l) and pushes it with its whole range of pieces. */
static int add_tree(ctx *c, const shape *t, uint32_t l) {
    const uint32_t r = t->count[l];
    if (r > 1 && (uint64_t)r * (r - 1) > OC_WRHT_A2A_MAX_TRANSFERS) return 0; /* refused */
    if (a2a_scratch(r) > c->scratch_n) {
        uint64_t *q = realloc(c->scratch, a2a_scratch(r) * sizeof *q);
        if (!q) return nomem(c);
        c->scratch = q;
        c->scratch_n = a2a_scratch(r);
    }
    if (oc__grow((void **)&c->loads, &c->caploads, c->nloads + 2 * (size_t)l + 1,
                 sizeof *c->loads) ||
        oc__grow((void **)&c->trees, &c->captrees, c->ntrees + 1, sizeof *c->trees))
        return nomem(c);
    tree *tr = &c->trees[c->ntrees];
    tr->m = t->m;
    tr->rep = t->rep;
    tr->a2a = l == t->levels ? 1 : r;
    tr->first = (uint32_t)c->nloads;
    uint64_t *L = c->loads + c->nloads;
    uint32_t n = 0;
    const int gather = c->coll == OC_ALLGATHER && c->spread; /* spread=0: a transfer, a unit */
    for (uint32_t k = 0; k < l; k++) {
        L[n++] = group_load(t, k, gather ? W_SPAN : W_ONE);
        L[n++] = group_load(t, k, gather ? W_REST : W_ONE);
    }
    if (r > 1) L[n++] = a2a_load(t, l, gather ? W_SPAN : W_ONE, c->scratch);
    tr->n = n;
    c->nloads += n;
    entry e = {.kind = K_TREE, .m = t->m, .tree = (uint32_t)c->ntrees, .lo = c->plo, .hi = c->phi};
    c->ntrees++;
    int rc = bound_of(c, L, n, c->plo, c->phi, &e);
    return rc ? rc : push(c, e);
}

/* The stop level of the pinned alltoall R in the tree of m: the first count <= R (or the top). */
static uint32_t pinned_level(const shape *t, uint64_t R) {
    uint32_t l = 0;
    while (l < t->levels && t->count[l] > R)
        l++;
    return l;
}

/* Pushes the trees of group size m: the all-to-all at level 1, 2, ..., then the pure tree; the
 * all-to-all among all N nodes (level 0) is offered once, apart (run()). */
static int add_trees_of(ctx *c, uint32_t m) {
    for (int rep = 0; rep < OC_WRHT_REPS; rep++) { /* the middle's first: it wins a tie */
        if (c->reppin >= 0 && rep != c->reppin) continue;
        shape t;
        if (shape_of(c->N, m, rep, &t)) return 0;
        if (c->apin) {
            uint32_t l = pinned_level(&t, c->apin_v);
            int rc = l == 0 ? 0 : add_tree(c, &t, l);
            if (rc) return rc;
            continue;
        }
        for (uint32_t l = 1; l <= t.levels; l++) {
            int rc = add_tree(c, &t, l);
            if (rc) return rc;
        }
    }
    return 0;
}

/* The family of every tree with m >= M and a group round at level 0: its first groups hold at
 * least min(M, N) nodes, so its level-0 rounds load a link at least as much as those of M's (the
 * loads of group_load grow with the group). The bound is the least, over blocks of pieces
 * [a, 2a - 1], of steps(a) x s(2a - 1). */
static int push_family(ctx *c, uint32_t M) {
    const int gather = c->coll == OC_ALLGATHER && c->spread; /* spread=0: a transfer, a unit */
    uint64_t L[2] = {UINT64_MAX, UINT64_MAX};
    for (int rep = 0; rep < OC_WRHT_REPS; rep++) { /* the least over the rules searched */
        if (c->reppin >= 0 && rep != c->reppin) continue;
        shape t = {.N = c->N, .m = M, .rep = rep, .count = {c->N}, .width = {1}};
        const uint64_t up = group_load(&t, 0, gather ? W_SPAN : W_ONE),
                       down = group_load(&t, 0, gather ? W_REST : W_ONE);
        if (up < L[0]) L[0] = up;
        if (down < L[1]) L[1] = down;
    }
    entry e = {.kind = K_FAMILY, .m = M, .lo = c->plo, .tree = UINT32_MAX};
    for (uint32_t a = c->plo, b;; a = b + 1) {
        b = (uint64_t)2 * a - 1 < c->phi ? 2 * a - 1 : c->phi;
        entry x;
        int rc = bound_of(c, L, 2, a, b, &x);
        if (rc) return rc;
        if (a == c->plo || x.time < e.time) e.time = x.time;
        if (a == c->plo) e.steps = x.steps; /* steps grow with the pieces */
        if (b == c->phi) break;
    }
    return push(c, e);
}

/* The candidates the family m >= M stood for. */
static uint64_t family_count(const ctx *c, uint32_t M) {
    uint64_t n = 0;
    for (uint32_t m = M; m >= M && m <= c->N; m++) {
        shape t;
        if (shape_of(c->N, m, OC_WRHT_REP_MIDDLE, &t)) continue; /* the counts: any rule's */
        for (uint32_t l = 1; l <= t.levels; l++)
            if (!c->apin || pinned_level(&t, c->apin_v) == l) n++;
    }
    return n * (c->phi - c->plo + 1) * (c->reppin >= 0 ? 1 : OC_WRHT_REPS);
}

static const char *const BOUND_NAME =
    "ring load: sum over rounds of ceil(pieces x load / channels) "
    "steps of the step time";

static int offer(ctx *c, const tree *tr, uint32_t P, const entry *e) {
    char mb[16], ab[16], pb[16];
    snprintf(mb, sizeof mb, "%u", tr->m);
    snprintf(ab, sizeof ab, "%u", tr->a2a);
    snprintf(pb, sizeof pb, "%u", P);
    const char *kv[8] = {"m", mb, "alltoall", c->apin ? c->apin : ab};
    size_t n = 2;
    if (c->striped) {
        kv[2 * n] = "pieces";
        kv[2 * n++ + 1] = pb;
    }
    if (tr->rep != OC_WRHT_REP_MIDDLE || c->reppin >= 0) { /* the middle: the plan's default */
        kv[2 * n] = "rep";
        kv[2 * n++ + 1] = oc__wrht_rep_names[tr->rep];
    }
    const oc__bound b = {e->time, e->steps, BOUND_NAME, 0};
    return oc__search_offer(c->s, &b, n, kv) ? nomem(c) : 0;
}

/* Takes the least entry: offers it, splits it or expands it; or records it as pruned. */
static int step_search(ctx *c) {
    entry e = pop(c);
    const oc__bound b = {e.time, e.steps, BOUND_NAME, 0};
    int yes = oc__search_can_win(c->s, &b);
    if (yes < 0) return yes == OC_ENOMEM ? nomem(c) : yes;
    if (!yes) {
        if (e.kind == K_FAMILY) {
            c->family_from = e.m;
            c->family_time = e.time;
            c->family_steps = e.steps;
        } else {
            if (!c->pruned_count || e.time < c->pruned_time) c->pruned_time = e.time;
            if (!c->pruned_count || e.steps < c->pruned_steps) c->pruned_steps = e.steps;
            c->pruned_count += e.hi - e.lo + 1;
        }
        return 0;
    }
    if (e.kind == K_FAMILY) {
        int rc = add_trees_of(c, e.m);
        if (!rc && e.m < c->N) rc = push_family(c, e.m + 1);
        return rc;
    }
    const tree tr = c->trees[e.tree];
    const uint64_t *L = c->loads + tr.first;
    if (e.lo == e.hi) return offer(c, &tr, e.lo, &e); /* its bound is its own, exactly */
    uint32_t mid = e.lo + (e.hi - e.lo) / 2;
    entry lo = e, hi = e;
    lo.hi = mid;
    hi.lo = mid + 1;
    int rc = bound_of(c, L, tr.n, lo.lo, lo.hi, &lo);
    if (!rc) rc = bound_of(c, L, tr.n, hi.lo, hi.hi, &hi);
    if (!rc) rc = push(c, lo);
    if (!rc) rc = push(c, hi);
    return rc;
}

static int run(ctx *c) {
    const uint32_t N = c->N;
    int rc = 0;
    /* the all-to-all among all N nodes: one schedule whatever m */
    if (!c->apin || c->apin_v >= N) {
        shape t;
        if ((rc = shape_of(N, c->mpin ? c->mpin : 2, c->reppin >= 0 ? c->reppin : 0, &t)) ||
            (rc = add_tree(c, &t, 0)))
            return rc;
    }
    if (!c->apin || c->apin_v < N) rc = c->mpin ? add_trees_of(c, c->mpin) : push_family(c, 2);
    while (!rc && c->nheap)
        rc = step_search(c);
    if (rc) return rc;
    if (c->ntrees == 0 && c->family_from == 0) {
        char m[32] = "every group size";
        if (c->mpin) snprintf(m, sizeof m, "m=%u", c->mpin);
        return oc__fail(c->why, c->len, OC_ETOOBIG,
                        "wrht: with alltoall=%s, %s leaves more than %u representatives for the "
                        "final all-to-all; pin alltoall=1..%u%s",
                        c->apin ? c->apin : "?", m, OC_WRHT_A2A_MAX_REPS, OC_WRHT_A2A_MAX_REPS,
                        c->mpin ? " or a larger m" : "");
    }
    if (c->pruned_count) {
        const oc__bound b = {c->pruned_time, c->pruned_steps, BOUND_NAME, 0};
        if (oc__search_prune(c->s,
                             "(m, alltoall, pieces) sets of the trees above, by their rounds' "
                             "link loads",
                             &b, c->pruned_count))
            return nomem(c);
    }
    if (c->family_from) {
        char d[160];
        snprintf(d, sizeof d,
                 "m=%u..%u, every alltoall and pieces: groups of at least %u nodes on the first "
                 "level",
                 c->family_from, N, c->family_from);
        const oc__bound b = {c->family_time, c->family_steps,
                             "ring load of the first level's groups: ceil(pieces x floor(m/2) / "
                             "channels) steps up and down",
                             0};
        if (oc__search_prune(c->s, d, &b, family_count(c, c->family_from))) return nomem(c);
    }
    return 0;
}

int oc__wrht_search(const oc__search_in *in, oc__search *s, int striped, char *why, size_t len) {
    const uint32_t N = in->nodes;
    const oc_kv *params = in->params;
    uint64_t m, a2a, pieces;
    int rep;
    int rc = oc__wrht_pins(N, params, striped, &m, &a2a, &pieces, &rep, why, len);
    if (rc) return rc;
    if (N < 2 || (m && a2a && (!striped || pieces) && rep >= 0)) return 0;
    const oc__ring_cfg *ring = oc__netcfg_ring(&in->net->cfg); /* its entry lists the ring alone */
    if (!ring)
        return oc__fail(why, len, OC_ENOTSUP, "wrht: its search bounds are the ring model's");
    ctx c = {.in = in,
             .s = s,
             .striped = striped,
             .coll = striped ? OC_ALLREDUCE : OC_ALLGATHER,
             .N = N,
             .C = in->net->channels ? in->net->channels : 1,
             .mpin = (uint32_t)m,
             .plo = pieces ? (uint32_t)pieces : 1,
             .phi = pieces    ? (uint32_t)pieces
                    : striped ? PIECES_MAX
                              : 1,
             .apin = a2a ? oc_kv_get(params, "alltoall") : NULL,
             .apin_v = a2a,
             .reppin = rep,
             .spread = ring->spread,
             .why = why,
             .len = len};
    if (!(c.step = malloc(((size_t)c.phi + 1) * sizeof *c.step))) return nomem(&c);
    for (size_t q = 0; q <= c.phi; q++)
        c.step[q] = -1;
    rc = run(&c);
    free(c.step);
    free(c.scratch);
    free(c.trees);
    free(c.loads);
    free(c.heap);
    return rc;
}
