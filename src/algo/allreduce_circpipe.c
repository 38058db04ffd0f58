/*
 * allreduce_circpipe.c — the pipelined circulant all-reduce on the WDM ring: the pieces and trees
 * of `circulant` (allreduce_circulant.c), but every transfer sent as soon as its inputs are in and
 * its links have room, instead of all pieces marching level by level together (issue 26, item 2:
 * the all-reduce within 3x of the proven time bound where few wavelengths make links scarce).
 *
 * Why. `circulant` runs the 2h rounds of its tree in lockstep: every piece's level t in one round.
 * A round costs ceil(its busiest directed link / (F w)) steps, so a level whose arcs load the links
 * by 1.1 on average pays 2 steps, and the levels near the roots, with few arcs, pay a whole step
 * for a few lightpaths. At w = 1 from N = 1024 that waste is most of the schedule (84 steps at
 * N = 1024 where the average load gives 58; docs/bounds-gap.md). Here a piece's deep levels run
 * while another piece is near its root or already broadcasting, so rounds are filled from every
 * piece's ready work and the step count approaches the link slots' total over the ring's 2 N F w
 * a step.
 *
 * The schedule. q <= N pieces, piece j rooted at node floor(j N / q), the odd pieces on the tree
 * mirrored (offset p at node root - p), as in `circulant`; the tree is the shortest of depth
 * `depth` (variant 0 the quadratic programme's, 1 the slope merges', circulant.c). A piece's
 * transfers: every offset p != 0 reduces its partial sum to its parent once every child of p has
 * reduced into it (op reduce: p's own contribution plus its subtree's, each counted once), and
 * once the root has heard from all its children the piece goes down the same arcs (op copy), a
 * node forwarding once it has the sum. The rounds are made greedily: in round t every transfer
 * whose inputs arrived by round t - 1 is tried in order of priority (the longest chain still
 * behind it first, from tree_latency's least rounds: a reduce from p, up(root) - up(p) +
 * down(root); a copy to p, 1 + down(p); ties in the order they became ready) and taken when every
 * directed link of its route (the shorter way round; a half-ring arc clockwise in the tree's
 * frame) has carried fewer than `lanes` lightpaths so far in the round. The search sets lanes =
 * F w, so that a round is one step when the ring's colouring meets the load (at w = 1 always:
 * arcs on disjoint links). A transfer is never taken before its inputs, so the verifier's "every
 * contribution once" holds by construction; the verifier checks it anyway. Taking the pieces in
 * order instead (the first piece first) was tried: three times the rounds.
 *
 * Space and bounds (the search contract). depth 1..min(floor(N/2), 48), variant 0 (N <= 1024) and
 * 1, pieces 1..min(N, 256, bytes) (every q to 32, then steps of q / 8, as `circulant` grids its
 * q; a pin takes any q), lanes the network's F w (any value when pinned). Each round has a
 * transfer, so it takes at least a step, and every step costs the same (a chunk of d / q), so a
 * candidate's time is at least its rounds R times one step's time: the exact bound, from the
 * greedy itself. Before that, a bound no greedy is needed for: one piece's least rounds on its
 * tree (tree_latency: the fan-in and fan-out a directed link carries, `lanes` a round), and the
 * 2 q (tree's total arc length) link slots over the ring's 2 N F w a step. Candidates are taken in
 * order of that bound; for each it cannot rule out, the most rounds that could still win are
 * asked of the search, and the greedy stops once the rounds it has made plus what is left (its
 * longest remaining chain: a reduce from p needs hop(p) more rounds to the root, then down(root);
 * or its remaining link slots over 2 N lanes a round) pass them; only candidates whose rounds
 * could still win are mapped. 2 q (N - 1) transfers; N <= 4096. The greedy costs O(rounds x ready
 * transfers x arc length) at worst; its search 0.15 .. 1.2 s of CPU at N = 1024 and 0.6 .. 3.9 s
 * at N = 4096 (w = 64 .. 1; docs/bounds-gap.md).
 *
 * Simplifications. The route of a half-ring arc is the model's choice (the direction with fewer
 * half-ring units so far in the round); the greedy counts it clockwise, so a round with one may map
 * to more than a step (the mapping, not the greedy, is what the run reports). Pieces are one chunk
 * each (q <= N: one piece a root), so a transfer is one lightpath under either spreading rule.
 */
#include "algo/circulant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PIPE_MAX_PIECES = 256 };

static const char *const pipe_params[] = {"depth", "variant", "pieces", "lanes", NULL};

/* One tree with what the greedy reads: children lists (CSR), hop depths, each offset's arc from
 * its parent (direction in the tree's frame, length, its links per kind) and the least rounds. */
typedef struct pipe_tree {
    oc__circ_tree tree;
    uint32_t N, hops;    /* hops: the most hops from a leaf to the source */
    uint32_t *kid_first; /* N + 1 */
    uint32_t *kids;      /* N - 1: offsets by parent */
    uint32_t *order;     /* N - 1: the offsets by label (parents before children) */
    uint32_t *hop;       /* hops from the source */
    uint32_t *len;       /* arc length parent -> p (the shorter way) */
    uint8_t *cw;         /* 1: parent -> p runs clockwise in the tree's frame */
    uint64_t length;     /* the sum of len */
    /* tree_latency's, at `lanes`: up[p] the first round p can reduce to its parent (the root:
     * the first round it holds the sum), down[p] the rounds from p holding the sum to its
     * subtree's holding it; latency = up[0] + down[0] */
    uint32_t lanes, *up, *down;
    uint64_t latency;
    uint32_t *rel[4]; /* arc_rel's, per kind: down x 2 + mirrored */
    uint8_t *dir[4];  /* 1: the kind's arc runs on the clockwise links */
} pipe_tree;

static void pipe_tree_free(pipe_tree *t) {
    oc__circ_tree_free(&t->tree);
    free(t->kid_first);
    free(t->kids);
    free(t->order);
    free(t->hop);
    free(t->up);
    free(t->down);
    for (int k = 0; k < 4; k++) {
        free(t->rel[k]);
        free(t->dir[k]);
    }
    free(t->len);
    free(t->cw);
    memset(t, 0, sizeof *t);
}

static void tree_latency(pipe_tree *t, uint32_t lanes, uint32_t *buf);
static void arc_rel(const pipe_tree *t, uint32_t p, int down, int mir, uint32_t *rel,
                    uint8_t *cw_out);

/* Fills the greedy's tables from t->tree, the latencies at `lanes`: 0 or OC_ENOMEM. */
static int pipe_tree_index(pipe_tree *t, uint32_t lanes) {
    const uint32_t N = t->tree.N;
    t->N = N;
    t->kid_first = calloc((size_t)N + 1, sizeof *t->kid_first);
    t->kids = malloc((N ? N : 1) * sizeof *t->kids);
    t->hop = calloc(N ? N : 1, sizeof *t->hop);
    t->order = malloc((N ? N : 1) * sizeof *t->order);
    t->up = calloc(N ? N : 1, sizeof *t->up);
    t->down = calloc(N ? N : 1, sizeof *t->down);
    t->len = calloc(N ? N : 1, sizeof *t->len);
    t->cw = calloc(N ? N : 1, sizeof *t->cw);
    uint32_t *fill = calloc((size_t)N + 1, sizeof *fill);
    uint32_t *by_label = t->order;
    int rc = 0;
    if (!t->kid_first || !t->kids || !t->hop || !t->order || !t->up || !t->down || !t->len ||
        !t->cw || !fill) {
        rc = OC_ENOMEM;
        goto out;
    }
    for (uint32_t p = 1; p < N; p++)
        t->kid_first[t->tree.parent[p] + 1]++;
    for (uint32_t i = 0; i < N; i++)
        t->kid_first[i + 1] += t->kid_first[i];
    for (uint32_t p = 1; p < N; p++) {
        const uint32_t a = t->tree.parent[p];
        t->kids[t->kid_first[a] + fill[a]++] = p;
        const uint32_t d = (p + N - a) % N;
        t->cw[p] = 2 * d <= N;
        t->len[p] = 2 * d <= N ? d : N - d;
        t->length += t->len[p];
    }
    /* labels grow from parent to child, so offsets in label order visit parents first */
    uint32_t n = 0;
    for (uint32_t r = 1; r <= t->tree.depth; r++)
        for (uint32_t p = 1; p < N; p++)
            if (t->tree.label[p] == r) by_label[n++] = p;
    t->hops = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t p = by_label[i];
        t->hop[p] = t->hop[t->tree.parent[p]] + 1;
        if (t->hop[p] > t->hops) t->hops = t->hop[p];
    }
    for (int k = 0; k < 4; k++) {
        t->rel[k] = calloc(N ? N : 1, sizeof *t->rel[k]);
        t->dir[k] = calloc(N ? N : 1, sizeof *t->dir[k]);
        if (!t->rel[k] || !t->dir[k]) {
            rc = OC_ENOMEM;
            goto out;
        }
        for (uint32_t p = 1; p < N; p++)
            arc_rel(t, p, k >> 1, k & 1, &t->rel[k][p], &t->dir[k][p]);
    }
    tree_latency(t, lanes, fill);
out:
    free(fill);
    return rc;
}

static int cmp_u32(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The first round after the last of unit jobs released at r[0..n-1] (ascending), at most `cap`
 * a round: the least over every order, as taking them in release order is optimal. */
static uint32_t makespan(const uint32_t *r, uint32_t n, uint32_t cap) {
    int64_t cur = -1;
    uint32_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        if ((int64_t)r[i] > cur) {
            cur = r[i];
            used = 1;
        } else if (used < cap) {
            used++;
        } else {
            cur++;
            used = 1;
        }
    }
    return (uint32_t)(cur + 1);
}

/*
 * The tree's least rounds for one piece at `lanes` lightpaths a directed link a round, a lower
 * bound on every schedule of that piece on the tree (so on the greedy's rounds). Up: a leaf can
 * reduce in round 0; the reduces into p end on p's two incoming links (a child clockwise of p on
 * the one from p + 1, the others on the other), at most `lanes` each a round, and child c's not
 * before round up[c]; taking them in order of release is the least makespan, so p cannot send
 * before up[p] = max over sides of that makespan (a half-ring child may arrive either way: then
 * all of p's children share both links, 2 lanes a round). Down: p's copies leave on its outgoing
 * links the same way, and child c needs down[c] more rounds after it; sending the children with
 * the longest tails first is optimal, so down[p] = max_i (floor(i / cap) + 1 + down[c_i]), tails
 * in descending order. The piece takes at least up[0] + down[0] rounds. `buf` holds N entries.
 */
static void tree_latency(pipe_tree *t, uint32_t lanes, uint32_t *buf) {
    const uint32_t N = t->N;
    t->lanes = lanes;
    for (uint32_t i = N; i-- > 0;) {
        const uint32_t p = i ? t->order[i - 1] : 0; /* children before parents, the root last */
        const uint32_t k0 = t->kid_first[p], k1 = t->kid_first[p + 1];
        int half = 0;
        for (uint32_t k = k0; k < k1; k++)
            if (2 * t->len[t->kids[k]] == N) half = 1;
        uint32_t up = 0, down = 0;
        for (int side = half ? -1 : 0; side < 2; side++) {
            uint32_t n = 0;
            for (uint32_t k = k0; k < k1; k++) {
                const uint32_t c = t->kids[k];
                if (side < 0 || t->cw[c] == (uint8_t)side) buf[n++] = t->up[c];
            }
            const uint32_t cap = side < 0 ? 2 * lanes : lanes;
            qsort(buf, n, sizeof *buf, cmp_u32);
            const uint32_t u = makespan(buf, n, cap);
            if (u > up) up = u;
            n = 0;
            for (uint32_t k = k0; k < k1; k++) {
                const uint32_t c = t->kids[k];
                if (side < 0 || t->cw[c] == (uint8_t)side) buf[n++] = t->down[c];
            }
            qsort(buf, n, sizeof *buf, cmp_u32); /* ascending: the longest tail is buf[n - 1] */
            for (uint32_t j = 0; j < n; j++) {
                const uint32_t d = j / cap + 1 + buf[n - 1 - j];
                if (d > down) down = d;
            }
            if (side < 0) break;
        }
        t->up[p] = up;
        t->down[p] = down;
    }
    t->latency = (uint64_t)t->up[0] + t->down[0];
}

/* The greedy's scratch, sized for N nodes and q pieces. */
typedef struct pipe_work {
    uint32_t *pending; /* q x N: children of (piece, offset) not yet heard */
    uint64_t *ready, *next;
    size_t ready_cap;
    uint32_t *used;  /* 2N directed links: lightpaths so far this round */
    uint32_t *count; /* 0x10001 buckets of the counting sort by priority */
    uint32_t *root;  /* q: each piece's root */
} pipe_work;

static void pipe_work_free(pipe_work *w) {
    free(w->pending);
    free(w->ready);
    free(w->next);
    free(w->used);
    free(w->count);
    free(w->root);
    memset(w, 0, sizeof *w);
}

static int pipe_work_init(pipe_work *w, uint32_t N, uint32_t q) {
    memset(w, 0, sizeof *w);
    w->ready_cap = 2 * (size_t)q * N + 1; /* the ready keys, and the new ones sorted after them */
    w->pending = malloc((size_t)q * N * sizeof *w->pending);
    w->ready = malloc(w->ready_cap * sizeof *w->ready);
    w->next = malloc(w->ready_cap * sizeof *w->next);
    w->used = malloc(2 * (size_t)N * sizeof *w->used);
    w->count = malloc(0x10001u * sizeof *w->count);
    w->root = malloc((q ? q : 1) * sizeof *w->root);
    if (!w->pending || !w->ready || !w->next || !w->used || !w->count || !w->root) {
        pipe_work_free(w);
        return OC_ENOMEM;
    }
    return 0;
}

/* A ready transfer as one sortable key: the chain still behind it (longer first), then piece,
 * offset and phase (0 reduce up, 1 copy down). */
#define KEY_PIECE_SHIFT 13u
#define KEY_REM_SHIFT 32u
static uint64_t key_of(const pipe_tree *t, uint32_t j, uint32_t p, uint32_t down) {
    uint32_t rem = down ? 1 + t->down[p] : t->up[0] - t->up[p] + t->down[0];
    if (rem > 0xffffu) rem = 0xffffu;
    return ((uint64_t)(0xffffu - rem) << KEY_REM_SHIFT) | ((uint64_t)j << KEY_PIECE_SHIFT) |
           ((uint64_t)p << 1) | down;
}
static uint32_t key_piece(uint64_t k) {
    return (uint32_t)(k >> KEY_PIECE_SHIFT) & 0x7ffffu;
}
static uint32_t key_offset(uint64_t k) {
    return (uint32_t)(k >> 1) & 0xfffu;
}

/* dst = src's n keys in order of priority (the key's top half), stably: a counting sort over the
 * priorities present. `count` holds 0x10001 buckets. */
static void sort_by_priority(const uint64_t *src, size_t n, uint64_t *dst, uint32_t *count) {
    if (!n) return;
    uint32_t lo = 0xffffu, hi = 0;
    for (size_t i = 0; i < n; i++) {
        const uint32_t k = (uint32_t)(src[i] >> KEY_REM_SHIFT);
        if (k < lo) lo = k;
        if (k > hi) hi = k;
    }
    for (uint32_t k = lo; k <= hi + 1; k++)
        count[k] = 0;
    for (size_t i = 0; i < n; i++)
        count[(uint32_t)(src[i] >> KEY_REM_SHIFT) + 1]++;
    for (uint32_t k = lo + 1; k <= hi + 1; k++)
        count[k] += count[k - 1];
    for (size_t i = 0; i < n; i++)
        dst[count[(uint32_t)(src[i] >> KEY_REM_SHIFT)]++] = src[i];
}

static uint32_t piece_root(uint32_t j, uint32_t q, uint32_t N) {
    return (uint32_t)((uint64_t)j * N / q);
}

/* The directed links of an arc, as one range walked forwards: used[base + s .. base + s + len - 1]
 * (indices mod N), base 0 for the clockwise links (link i from node i to i + 1), N for the
 * counter-clockwise ones (link i from node i + 1 to i). Kept per offset p and per kind (down x 2
 * + mirrored) relative to the piece's root: rel[kind][p] the range's start less the root, mod N. */
static void arc_rel(const pipe_tree *t, uint32_t p, int down, int mir, uint32_t *rel,
                    uint8_t *cw_out) {
    const uint32_t N = t->N, a = t->tree.parent[p], L = t->len[p];
    const uint32_t from_off = down ? a : p;
    const uint32_t from = mir ? (N - from_off) % N : from_off;
    int cw = t->cw[p];
    if (mir) cw = !cw;
    if (!down) cw = !cw;
    *cw_out = (uint8_t)cw;
    /* clockwise from `from`: links from .. from + L - 1; counter-clockwise: from - L .. from - 1 */
    *rel = cw ? from : (from + N - L) % N;
}

static int try_take(const pipe_tree *t, uint32_t root, uint32_t p, int kind, uint32_t lanes,
                    uint32_t *used) {
    const uint32_t N = t->N, L = t->len[p];
    uint32_t s = root + t->rel[kind][p];
    if (s >= N) s -= N;
    uint32_t *base = used + (t->dir[kind][p] ? 0 : N);
    for (uint32_t i = 0, l = s; i < L; i++, l = l + 1 == N ? 0 : l + 1)
        if (base[l] >= lanes) return 0;
    for (uint32_t i = 0, l = s; i < L; i++, l = l + 1 == N ? 0 : l + 1)
        base[l]++;
    return 1;
}

/* The greedy: the rounds of q pieces on tree t at `lanes` lightpaths a directed link a round, in
 * *rounds; with round_of (2 q N entries) each transfer's round: [j N + p] for p's reduce,
 * [(q + j) N + p] for its copy. Stops with *rounds = UINT64_MAX past `limit` rounds (a candidate
 * that cannot win). 0 or OC_ENOMEM. */
static int pipe_greedy(const pipe_tree *t, uint32_t q, uint32_t lanes, uint64_t limit, pipe_work *w,
                       uint32_t *round_of, uint64_t *rounds) {
    const uint32_t N = t->N;
    *rounds = 0;
    if (N < 2) return 0;
    size_t nready = 0;
    for (uint32_t j = 0; j < q; j++)
        w->root[j] = piece_root(j, q, N);
    for (uint32_t j = 0; j < q; j++)
        for (uint32_t p = 0; p < N; p++) {
            const uint32_t kids = t->kid_first[p + 1] - t->kid_first[p];
            w->pending[(size_t)j * N + p] = kids;
            if (p && !kids) w->next[nready++] = key_of(t, j, p, 0);
        }
    sort_by_priority(w->next, nready, w->ready, w->count);
    const uint64_t total = 2 * (uint64_t)q * (N - 1), capacity = 2 * (uint64_t)N * lanes;
    uint64_t done = 0, r = 0, slots_left = 2 * (uint64_t)q * t->length;
    while (done < total) {
        if (r >= limit) {
            *rounds = UINT64_MAX;
            return 0;
        }
        memset(w->used, 0, 2 * (size_t)N * sizeof *w->used);
        size_t keep = 0, nnext = 0;
        uint64_t chain = 0; /* the longest chain behind a transfer left for later rounds */
        for (size_t i = 0; i < nready; i++) {
            const uint64_t k = w->ready[i];
            const uint32_t j = key_piece(k), p = key_offset(k);
            const int down = (int)(k & 1);
            if (!try_take(t, w->root[j], p, 2 * down + (int)(j & 1), lanes, w->used)) {
                w->ready[keep++] = k;
                const uint64_t c =
                    down ? 1 + (uint64_t)t->down[p] : (uint64_t)t->hop[p] + t->down[0];
                if (c > chain) chain = c;
                continue;
            }
            done++;
            slots_left -= t->len[p];
            if (round_of) round_of[((size_t)(down ? q + j : j)) * N + p] = (uint32_t)r;
            /* what it makes ready for the next round */
            if (down) {
                for (uint32_t c = t->kid_first[p]; c < t->kid_first[p + 1]; c++) {
                    w->next[nnext++] = key_of(t, j, t->kids[c], 1);
                    if (1 + (uint64_t)t->down[t->kids[c]] > chain) chain = 1 + t->down[t->kids[c]];
                }
                continue;
            }
            const uint32_t a = t->tree.parent[p];
            if (--w->pending[(size_t)j * N + a]) continue;
            if (a) {
                w->next[nnext++] = key_of(t, j, a, 0);
                if ((uint64_t)t->hop[a] + t->down[0] > chain)
                    chain = (uint64_t)t->hop[a] + t->down[0];
            } else {
                for (uint32_t c = t->kid_first[0]; c < t->kid_first[1]; c++) {
                    w->next[nnext++] = key_of(t, j, t->kids[c], 1);
                    if (1 + (uint64_t)t->down[t->kids[c]] > chain) chain = 1 + t->down[t->kids[c]];
                }
            }
        }
        r++;
        /* What is left needs its longest chain's rounds (a reduce from p: hop(p) rounds to the
         * root, then the root's down rounds; a copy to p: one round, then p's down rounds) and
         * its link slots over the ring's a round: past `limit`, stop. */
        if (r + chain > limit || r + oc__ceil_div(slots_left, capacity) > limit) {
            *rounds = UINT64_MAX;
            return 0;
        }
        /* the kept keys are still in order: the new ones sorted (stably, by priority) and merged
         * in from the back, a kept key before a new one of the same priority */
        sort_by_priority(w->next, nnext, w->ready + keep + nnext, w->count);
        uint64_t *fresh = w->ready + keep + nnext;
        size_t a = keep, b = nnext, out = keep + nnext;
        if (keep + 2 * nnext > w->ready_cap) return OC_ENOMEM; /* cannot happen: see init */
        while (b > 0) {
            if (a > 0 && (w->ready[a - 1] >> KEY_REM_SHIFT) > (fresh[b - 1] >> KEY_REM_SHIFT))
                w->ready[--out] = w->ready[--a];
            else
                w->ready[--out] = fresh[--b];
        }
        nready = keep + nnext;
    }
    *rounds = r;
    return 0;
}

/* The plan's state: the tree, each transfer's round, the transfers by round. */
typedef struct pipe_plan {
    pipe_tree t;
    uint32_t q, lanes;
    uint64_t rounds;
    uint32_t *round_first; /* rounds + 2: round r's transfers at [round_first[r], [r + 1]) */
    uint32_t *by_round;    /* transfer ids as in pipe_greedy's round_of, round by round */
} pipe_plan;

static void release(oc__plan *plan) {
    pipe_plan *c = plan->state;
    if (c) {
        pipe_tree_free(&c->t);
        free(c->round_first);
        free(c->by_round);
    }
    free(c);
    plan->state = NULL;
}

static int build_tree(uint32_t N, uint32_t depth, uint32_t variant, uint32_t lanes, pipe_tree *t) {
    oc__circ_dp dp;
    int rc = oc__circ_dp_build(&dp, N, depth - 1, (int)variant);
    if (!rc) rc = oc__circ_tree_of(&dp, depth, &t->tree);
    oc__circ_dp_free(&dp);
    if (!rc) rc = pipe_tree_index(t, lanes);
    return rc;
}

/* Every q up to this many pieces is searched; above it, steps of q / 8 (search below). */
#define PIPE_EVERY_PIECES 32u

static uint64_t pieces_cap(uint32_t N, uint64_t bytes) {
    uint64_t cap = N < PIPE_MAX_PIECES ? N : PIPE_MAX_PIECES;
    if (bytes && bytes < cap) cap = bytes;
    return cap ? cap : 1;
}

static int plan(oc__plan *plan, oc_collective coll, uint32_t nodes, uint32_t root, uint64_t bytes,
                const oc_kv *params, char *why, size_t whylen) {
    int rc = oc__kv_only(params, pipe_params, "circpipe", why, whylen);
    if (rc) return rc;
    if (nodes > OC__CIRC_MAX_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circpipe: at most %u nodes (its tree is an O(depth N^2) programme)",
                        (unsigned)OC__CIRC_MAX_NODES);
    const uint32_t cap = oc__circ_depth_cap(nodes);
    uint64_t depth, variant, q, lanes;
    if ((rc = oc__kv_u64(params, "depth", oc__circ_default_depth(nodes, cap), 1, cap, &depth, why,
                         whylen)))
        return rc;
    if ((rc = oc__kv_u64(params, "variant", nodes > OC__CIRC_QUADRATIC_NODES, 0, 1, &variant, why,
                         whylen)))
        return rc;
    if (!variant && nodes > OC__CIRC_QUADRATIC_NODES)
        return oc__fail(why, whylen, OC_ENOTSUP,
                        "circpipe: variant=0 (the quadratic programme's tree) takes at most %u "
                        "nodes",
                        (unsigned)OC__CIRC_QUADRATIC_NODES);
    const uint64_t qcap = pieces_cap(nodes, bytes);
    if ((rc = oc__kv_u64(params, "pieces", depth < qcap ? depth : qcap, 1, qcap, &q, why, whylen)))
        return rc;
    if ((rc = oc__kv_u64(params, "lanes", 1, 1, 1u << 16, &lanes, why, whylen))) return rc;
    const uint64_t transfers = 2 * q * (nodes ? nodes - 1 : 0);
    if ((rc = oc__plan_work("circpipe", nodes, transfers, why, whylen))) return rc;
    if ((rc = oc__plan_begin(plan, coll, nodes, root, bytes, (uint32_t)q, why, whylen))) return rc;
    plan->spec.units = plan->spec.transfers = transfers; /* the work (core.h): one piece each */
    pipe_plan *c = calloc(1, sizeof *c);
    if (!c) return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    plan->state = c;
    c->q = (uint32_t)q;
    c->lanes = (uint32_t)lanes;
    if (nodes >= 2) {
        pipe_work w;
        uint32_t *round_of = malloc(2 * q * nodes * sizeof *round_of);
        if (!round_of || build_tree(nodes, (uint32_t)depth, (uint32_t)variant, c->lanes, &c->t) ||
            pipe_work_init(&w, nodes, (uint32_t)q)) {
            free(round_of);
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        }
        rc = pipe_greedy(&c->t, c->q, c->lanes, UINT64_MAX, &w, round_of, &c->rounds);
        pipe_work_free(&w);
        c->round_first = rc ? NULL : calloc(c->rounds + 2, sizeof *c->round_first);
        c->by_round = rc ? NULL : malloc(transfers * sizeof *c->by_round);
        if (rc || !c->round_first || !c->by_round) {
            free(round_of);
            return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        }
        /* a counting sort of the transfers by round, ids in order within a round */
        for (uint32_t h = 0; h < 2 * c->q; h++)
            for (uint32_t p = 1; p < nodes; p++)
                c->round_first[round_of[(size_t)h * nodes + p] + 2]++;
        for (uint64_t r = 1; r <= c->rounds + 1; r++)
            c->round_first[r] += c->round_first[r - 1];
        uint64_t most = 0;
        for (uint32_t h = 0; h < 2 * c->q; h++)
            for (uint32_t p = 1; p < nodes; p++) {
                const uint32_t r = round_of[(size_t)h * nodes + p];
                c->by_round[c->round_first[r + 1]++] = h * nodes + p;
            }
        for (uint64_t r = 0; r < c->rounds; r++) {
            const uint64_t n = c->round_first[r + 1] - c->round_first[r];
            if (n > most) most = n;
        }
        free(round_of);
        plan->rounds = c->rounds;
        plan->spec.max_round = most;
    }
    plan->spec.window_skips = 1; /* a transfer outside the chunk window is skipped, not made */
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)depth);
    if (oc_kv_set(plan->used, "depth", v) || oc_kv_set(plan->used, "variant", variant ? "1" : "0"))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    snprintf(v, sizeof v, "%llu", (unsigned long long)q);
    if (oc_kv_set(plan->used, "pieces", v))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    snprintf(v, sizeof v, "%llu", (unsigned long long)lanes);
    return oc_kv_set(plan->used, "lanes", v) ? oc__fail(why, whylen, OC_ENOMEM, "out of memory")
                                             : 0;
}

static int generate(const oc__plan *plan, oc__emit *e) {
    const pipe_plan *c = plan->state;
    const uint32_t N = c->t.N, q = c->q;
    int rc = 0;
    if (N < 2) return 0;
    for (uint64_t r = 0; r < c->rounds && !rc; r++) {
        for (uint32_t i = c->round_first[r]; i < c->round_first[r + 1] && !rc; i++) {
            const uint32_t id = c->by_round[i], h = id / N, p = id % N;
            const int down = h >= q;
            const uint32_t j = down ? h - q : h;
            if (e->windowed && (j < e->win_lo || j >= e->win_hi)) {
                oc__emit_skip(e, 1);
                continue;
            }
            const uint32_t root = piece_root(j, q, N), a = c->t.tree.parent[p];
            const int mir = (int)(j & 1);
            const uint32_t child = mir ? (root + N - p) % N : (root + p) % N,
                           parent = mir ? (root + N - a) % N : (root + a) % N;
            rc = down ? oc__emit_transfer(e, parent, child, OC_OP_COPY, j, 1)
                      : oc__emit_transfer(e, child, parent, OC_OP_REDUCE, j, 1);
        }
        if (!rc) rc = oc__emit_round(e);
    }
    return rc;
}

/* The most rounds r (from *limit, which can win, up) such that r rounds of `step_time` can still
 * win, into *limit (UINT32_MAX when even that many can): doubling, then halving. 0 or the search's
 * error. */
static int rounds_limit(oc__search *s, const oc__bound *b, double step_time, uint64_t *limit) {
    oc__bound x = *b;
    uint64_t lo = *limit, hi = lo ? 2 * lo : 1;
    for (;;) {
        if (hi >= UINT32_MAX) {
            *limit = UINT32_MAX;
            return 0;
        }
        x.steps = hi;
        x.time_s = (double)hi * step_time;
        const int yes = oc__search_can_win(s, &x);
        if (yes < 0) return yes;
        if (!yes) break;
        lo = hi;
        hi *= 2;
    }
    while (hi - lo > 1) { /* lo can win, hi cannot */
        const uint64_t mid = lo + (hi - lo) / 2;
        x.steps = mid;
        x.time_s = (double)mid * step_time;
        const int yes = oc__search_can_win(s, &x);
        if (yes < 0) return yes;
        if (yes)
            lo = mid;
        else
            hi = mid;
    }
    *limit = lo;
    return 0;
}

/* The search's trees, grid and scratch, for the walk's callbacks. */
typedef struct pipe_search {
    pipe_tree *trees;
    const oc__circ_pieces *g;
    pipe_work *w;
    uint64_t lanes, nd, d_lo, v_lo, channels;
    uint32_t N;
} pipe_search;

/* The latency-and-slots bound of tree i at the grid's j-th q: one piece's least rounds on its
 * tree, at least the 2 q (tree length) link slots over the ring's 2 N F w a step. */
static uint64_t slots_bound(void *ctx, uint64_t i, uint64_t j) {
    const pipe_search *x = ctx;
    const uint64_t q = x->g->q[j];
    const uint64_t steps =
        oc__ceil_div(2 * q * x->trees[i].length, 2 * (uint64_t)x->N * x->channels);
    return steps < x->trees[i].latency ? x->trees[i].latency : steps;
}

static int take_tree(void *ctx, uint64_t i, oc__circ_tree *t) {
    pipe_search *x = ctx;
    x->trees[i].tree = *t;
    return pipe_tree_index(&x->trees[i], (uint32_t)x->lanes);
}

/* The greedy's rounds, a step each at least: the most rounds that could still win asked of the
 * search first, so that the greedy stops past them. */
static int greedy_bound(void *ctx, oc__search *s, const oc__circ_cand *c, oc__bound *b, char *why,
                        size_t whylen) {
    pipe_search *x = ctx;
    uint64_t limit = c->steps, rounds;
    int rc = rounds_limit(s, b, x->g->step_time[c->qi], &limit);
    if (rc < 0) return rc;
    if (pipe_greedy(&x->trees[c->tree], x->g->q[c->qi], (uint32_t)x->lanes, limit, x->w, NULL,
                    &rounds))
        return oc__fail(why, whylen, OC_ENOMEM, "out of memory");
    b->steps = rounds == UINT64_MAX ? limit + 1 : rounds;
    b->time_s = (double)b->steps * x->g->step_time[c->qi];
    b->name = "the greedy's rounds, a step each at least";
    return 0;
}

static size_t offer_params(void *ctx, const oc__circ_cand *c, char (*buf)[24], const char **kv) {
    const pipe_search *x = ctx;
    snprintf(buf[0], sizeof buf[0], "%llu", (unsigned long long)(x->d_lo + c->tree % x->nd));
    snprintf(buf[1], sizeof buf[1], "%llu", (unsigned long long)(x->v_lo + c->tree / x->nd));
    snprintf(buf[2], sizeof buf[2], "%u", x->g->q[c->qi]);
    snprintf(buf[3], sizeof buf[3], "%llu", (unsigned long long)x->lanes);
    kv[0] = "depth", kv[1] = buf[0], kv[2] = "variant", kv[3] = buf[1];
    kv[4] = "pieces", kv[5] = buf[2], kv[6] = "lanes", kv[7] = buf[3];
    return 4;
}

/* Every tree (depth x variant) and q the user could pin, lanes the network's F w unless pinned,
 * in order of the latency-and-slots bound; the greedy's rounds asked before a candidate is offered
 * (a candidate whose rounds cannot win is skipped unmapped; circulant_search.c's walk). */
static int search(const oc__search_in *in, oc__search *s, char *why, size_t whylen) {
    const uint32_t N = in->nodes;
    const int pin_d = oc_kv_get(in->params, "depth") != NULL,
              pin_v = oc_kv_get(in->params, "variant") != NULL,
              pin_q = oc_kv_get(in->params, "pieces") != NULL,
              pin_l = oc_kv_get(in->params, "lanes") != NULL;
    if (pin_d && pin_v && pin_q && pin_l) return 0;
    if (N < 2 || N > OC__CIRC_MAX_NODES) return 0;
    const uint64_t qcap = pieces_cap(N, in->bytes);
    const uint64_t channels = in->net->channels ? in->net->channels : 1;
    oc__circ_span sp;
    uint64_t q_lo = 1, q_hi = qcap, lanes = channels;
    int rc = oc__circ_pin_trees(in->params, N, &sp, why, whylen);
    if (rc) return rc < 0 ? rc : 0;
    if (pin_q && (rc = oc__kv_u64(in->params, "pieces", 1, 1, qcap, &q_lo, why, whylen))) return rc;
    if (pin_l && (rc = oc__kv_u64(in->params, "lanes", 1, 1, 1u << 16, &lanes, why, whylen)))
        return rc;
    if (lanes > (1u << 16)) lanes = 1u << 16;
    if (pin_q) q_hi = q_lo;
    oc__circ_pieces g;
    oc__formula_in f = {0};
    if ((rc = oc__circ_pieces_grid(in, q_lo, q_hi, PIPE_EVERY_PIECES, 8, &g, &f, why, whylen)))
        return rc;
    const uint64_t nd = sp.d_hi + 1 - sp.d_lo, nv = sp.v_hi + 1 - sp.v_lo, nt = nd * nv;
    pipe_work w = {0};
    pipe_search x = {.trees = calloc(nt, sizeof *x.trees),
                     .g = &g,
                     .w = &w,
                     .lanes = lanes,
                     .nd = nd,
                     .d_lo = sp.d_lo,
                     .v_lo = sp.v_lo,
                     .channels = channels,
                     .N = N};
    if (!x.trees || pipe_work_init(&w, N, (uint32_t)q_hi)) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    if ((rc = oc__circ_shortest_trees(N, &sp, &x, take_tree))) {
        rc = oc__fail(why, whylen, OC_ENOMEM, "out of memory");
        goto out;
    }
    const oc__circ_walk walk = {
        .first = slots_bound,
        .first_name = "one piece's least rounds on its tree (fan-in and fan-out a link at a time), "
                      "at least the link slots 2 q x tree length over 2 N F w",
        .first_family = "trees and pieces whose latency-and-slots bound cannot win",
        .second_family = "a tree and pieces whose greedy rounds cannot win",
        .second = greedy_bound,
        .params = offer_params,
        .ctx = &x};
    rc = oc__circ_search_walk(s, N, nt, &g, &walk, why, whylen);
out:
    for (uint64_t i = 0; x.trees && i < nt; i++)
        pipe_tree_free(&x.trees[i]);
    free(x.trees);
    pipe_work_free(&w);
    oc__circ_pieces_free(&g);
    return rc;
}

static int formula(const oc__plan *plan, const oc__formula_in *in, oc_report *rep) {
    const pipe_plan *c = plan->state;
    oc__formula_steps(rep, in, (double)c->rounds);
    if (rep->steps == c->rounds || c->t.N < 2) return 0;
    return oc__report_note(rep,
                           "the greedy made %llu rounds of at most %u lightpaths a directed link; "
                           "the colouring of their arcs took %llu steps",
                           (unsigned long long)c->rounds, (unsigned)c->lanes,
                           (unsigned long long)rep->steps);
}

const oc__algo oc__algo_allreduce_circpipe = {
    .info = {"circpipe", OC_ALLREDUCE, "ring",
             "circulant's pieces and trees pipelined: every transfer as soon as its inputs are in "
             "and its links have room",
             "",
             "the greedy's rounds: at least one piece's least rounds on its tree and 2 q x tree "
             "length / (2 N F w)",
             "depth=searched: a shortest tree's depth, 1..min(floor(N/2), 48); variant=searched: "
             "0 (N <= 1024) or 1; pieces=searched: q, 1..min(N, 256, bytes) (every q to 32, then "
             "steps of 1/8); lanes=F w: "
             "lightpaths a directed link a round"},
    .param_names = pipe_params,
    .max_nodes = OC__CIRC_MAX_NODES,
    .plan = plan,
    .generate = generate,
    .release = release,
    .search = search,
    /* every transfer is one chunk (q <= N), so a lightpath carries a whole transfer under either
     * spreading rule and the bounds hold at spread=0 too */
    .bounds_hold_unspread = 1,
    .formula = formula,
};
