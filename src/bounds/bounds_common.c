/*
 * bounds_common.c — the arguments every network's physical bound shares (bounds.h); bounds.c
 * dispatches to the family files, which call these.
 *
 * Relay depth. If in one step a holder of a chunk hands it to at most f others (ring: 2Fw
 * lightpaths it starts; star: k lasers; switch: one transfer per port per step; fabric: its
 * circuits; direct networks: its ports), the holders of that chunk multiply by at most f + 1 a
 * step, so reaching n nodes takes at least the least L with (f + 1)^L >= n steps. The same
 * counts knowledge of a contribution in a reduction: a transfer hands on everything its sender
 * knows, so the nodes whose value includes node u's contribution multiply by at most f + 1 a
 * step; all-reduce, reduce-scatter (at the owner), gather and all-to-all need it too.
 *
 * One-way gossip (all-reduce). Each chunk of an all-reduce is a gossip problem: node i starts
 * knowing contribution i, a transfer of the chunk u -> v tells v all u knows, and at the end
 * every node knows all N. A round's transfers read the state at its start; putting them one
 * after another can only let later ones carry more, so a valid round-based schedule gives a valid
 * sequential one with the same number of calls, and one-way ("mail") gossip among N >= 2 needs
 * 2(N - 1) calls (Harary and Schwenk, 1974). So every chunk of an all-reduce is moved at least
 * 2(N - 1) times.
 *
 * Tree length on a ring (few levels). Take one chunk of an all-gather and, for every node v but
 * its source, the transfer that first brought it to v: a spanning tree rooted at the source in
 * which a node's depth is at most the step at which it first got the chunk, so a schedule of S
 * steps gives a tree of depth h <= S. Let n_t nodes have depth t and P_{t-1} = 1 + n_1 + ... +
 * n_{t-1}. A depth-t node's lightpath starts at its parent, one of the P_{t-1} shallower nodes, so
 * its length is at least the ring distance to the nearest of them; at most 2p nodes lie at any
 * distance d >= 1 from the nearest of p centres (two at distance d from each), so the n_t arcs of
 * depth t are at least c(n_t, P_{t-1}) = sum_{j=1..n_t} ceil(j / (2 P_{t-1})) link slots long, and
 * the whole tree at least T*(N, h) = the least sum_t c(n_t, P_{t-1}) over compositions of N - 1
 * into at most h levels. Every tree costs at least N - 1 (each arc one link at least), and once
 * 3^h >= N the levels can triple (c(n, p) = n while n <= 2p) and T* = N - 1.
 * Computing it. f_t(P), the least cost of reaching P nodes with t levels, satisfies f_t(P) =
 * min_{P' <= P} f_{t-1}(P') + c(P - P', P'): O(h N^2) exactly. Node counts up to
 * OC_PB_EXACT_NODES are kept one by one (exact); above, they are grouped in buckets [lo, hi] that
 * grow by 2%, the last bucket being {N} alone, and a bucket keeps a lower bound on f over all of
 * it: g_t(i) = min_{j <= i} g_{t-1}(j) + c(max(0, lo_i - hi_j), hi_j). It is sound because c
 * grows with its first argument and falls with its second: for P in bucket i and P' in bucket j,
 * P - P' >= lo_i - hi_j and P' <= hi_j. About 800 buckets at N = 131072, 11 levels: a few
 * million additions. tests/test_bounds.c checks it against the exact programme and both against
 * a brute force over real trees on small rings.
 *
 * Tree length on a ring, exactly (few levels, N up to a budget). T* lets every level's centres
 * sit wherever suits that level; the real tree pays for where they are. The exact least length
 * E(N, h) of a tree of depth <= h rooted at r: label each other node by its depth t in 1..h; its
 * arc is at least its distance to the nearest node of smaller label (its parent is one), and
 * attaching every node there gives a tree of that length, so E(N, h) is the least over labellings
 * of that sum. Cut the ring at r into a line 0..N (both ends r). Between two nodes of label < t
 * that are consecutive among those with label < t (a gap of g links), the interior nodes have
 * labels >= t and the nearest smaller-label node of a label-t one is an end of the gap, so the
 * interior's least cost D_{h-t}(g) (it depends only on the levels left) satisfies
 *   D_0(g) = floor(g^2 / 4) (every interior node at depth h, at distance min(a, g - a)),
 *   D_k(g) = min over the label-t positions 0 < a_1 < ... < a_m < g of sum min(a_i, g - a_i) +
 *            sum over the sub-gaps of D_{k-1}(length),
 * and E(N, h) = D_{h-1}(N). Computing D_k in O(N^2): some sub-gap straddles the midpoint, say
 * from a to g - b; the label-t nodes left of it cost their distance from 0 and those right of it
 * their distance from g, so with Lp(x) = min over positions up to x (one at x) of sum a_i + sum
 * D_{k-1}(sub-gaps) (Lp(0) = 0), D_k(g) = min over a + b < g of Lp(a) + Lp(b) + D_{k-1}(g - a -
 * b). Charging a node beyond the midpoint its distance from the far end overcharges it, so the
 * pairs (a, b) that do not straddle never go below a real labelling's cost: the minimum is exact.
 * With Mp(s) = min over a + b = s of Lp(a) + Lp(b), three O(N^2) passes a level. Faster while
 * the sequences are convex, which the programme checks on each level's input (D_0 is; every
 * level seen so far keeps it, but that is checked, not assumed): a convex D makes D(x - y)
 * satisfy the quadrangle inequality, so Lp's minimum over y is found with a deque of candidates
 * in O(N log N), and the min-plus convolutions of convex sequences (Mp from Lp and Lp, D_k from
 * Mp and D_{k-1}) are the merges of their slopes, O(N). The merge lets s reach g (a + b = g: a
 * label-t node counted from both ends), a candidate that overcharges a real labelling, so the
 * minimum stays exact. A level whose input is not convex takes the O(N^2) way, or, past the
 * budget, is given N - 1. One level's two ways are core/ringtree.c's, which the circulant
 * algorithms' shortest tree (src/algo/circulant.c) runs too, keeping the argmins.
 * tests/test_bounds.c checks both ways against a brute force over every labelling of small rings
 * and against each other up to a few hundred nodes.
 *
 * Port volume. Some collectives force one node to receive (or send) a known amount: in an
 * all-gather each node lacks N - 1 blocks, each of which can only arrive as chunks with its
 * labels, so it receives at least (N - 1) units of bytes; likewise all-to-all and the gather's
 * root; the scatter's root sends its N - 1 blocks, and a reduce-scatter's node sends something of
 * every one of the (N - 1) q chunks it does not own (the owner needs its contribution). In an
 * all-reduce each chunk is moved 2(N - 1) times (gossip, above), 2(N - 1) / N of the vector per
 * node on average, and the node that receives most in a round receives at least the average.
 * Models that charge a round by its busiest port or node (switch, fabric, fat-tree, direct) then
 * pay at least that volume at a port's rate over the whole schedule.
 */
#include "bounds/bounds.h"
#include "core/ringtree.h"

#include <stdlib.h>

uint64_t oc__pb_relay_depth(uint64_t n, uint64_t fanout) {
    uint64_t L = 0, reach = 1;
    if (fanout == 0) return n <= 1 ? 0 : UINT64_MAX; /* nothing moves: never (callers avoid) */
    while (reach < n) {
        reach = reach > UINT64_MAX / (fanout + 1) ? UINT64_MAX : reach * (fanout + 1);
        L++;
    }
    return L;
}

uint64_t oc__pb_level_cost(uint64_t n, uint64_t p) {
    const uint64_t m = 2 * p, g = n / m;
    /* j = 1..g m: m nodes at each distance 1..g; then n - g m at distance g + 1 */
    return m * (g * (g + 1) / 2) + (n - g * m) * (g + 1);
}

int oc__pb_tree_length(uint32_t N, uint32_t hmax, uint64_t *out) {
    if (hmax == 0) return 0;
    if (N <= 1) {
        for (uint32_t h = 0; h < hmax; h++)
            out[h] = 0;
        return 0;
    }
    /* the buckets: 1..E one by one, then [lo, floor(lo * 1.02)] up to N - 1, then {N} */
    size_t cap = 64, K = 0;
    uint64_t *lo = malloc(cap * sizeof *lo), *hi = malloc(cap * sizeof *hi);
    uint64_t *g = NULL, *next = NULL;
    int rc = 0;
    if (!lo || !hi) goto nomem;
    for (uint64_t at = 1; at <= N;) {
        uint64_t end = at;
        if (at > OC_PB_EXACT_NODES && at < N) {
            end = at + at / 50;
            if (end >= N) end = N - 1;
        }
        if (K == cap) {
            cap *= 2;
            uint64_t *a = realloc(lo, cap * sizeof *lo);
            if (!a) goto nomem;
            lo = a;
            uint64_t *b = realloc(hi, cap * sizeof *hi);
            if (!b) goto nomem;
            hi = b;
        }
        lo[K] = at;
        hi[K] = end;
        K++;
        at = end + 1;
    }
    g = malloc(K * sizeof *g);
    next = malloc(K * sizeof *next);
    if (!g || !next) goto nomem;
    for (size_t i = 0; i < K; i++)
        g[i] = i == 0 ? 0 : UINT64_MAX;
    for (uint32_t t = 1; t <= hmax; t++) {
        for (size_t i = 0; i < K; i++) {
            uint64_t best = g[i]; /* an empty level */
            for (size_t j = 0; j < i; j++) {
                if (g[j] == UINT64_MAX || g[j] >= best) continue;
                const uint64_t c = oc__pb_level_cost(lo[i] - hi[j], hi[j]);
                if (g[j] + c < best) best = g[j] + c;
            }
            next[i] = best;
        }
        uint64_t *swap = g;
        g = next;
        next = swap;
        out[t - 1] = g[K - 1] < (uint64_t)N - 1 ? (uint64_t)N - 1 : g[K - 1];
    }
    goto out;
nomem:
    rc = OC_ENOMEM;
out:
    free(lo);
    free(hi);
    free(g);
    free(next);
    return rc;
}

uint64_t oc__pb_unit_bytes(const oc__pbound_in *in) {
    return in->coll == OC_REDUCESCATTER ? oc__ceil_div(in->bytes, in->nodes) : in->bytes;
}

uint64_t oc__pb_max_q(const oc__pbound_in *in) {
    const uint64_t labels = UINT32_MAX, N = in->nodes;
    uint64_t q;
    switch (in->coll) {
    case OC_ALLREDUCE:
    case OC_BROADCAST:
        q = labels;
        break;
    case OC_ALLTOALL:
        q = labels / (N * N);
        break;
    default:
        q = labels / N;
        break;
    }
    return q ? q : 1;
}

double oc__pb_port_bytes(const oc__pbound_in *in, const char **what) {
    const double N = in->nodes, unit = (double)oc__pb_unit_bytes(in);
    switch (in->coll) {
    case OC_BROADCAST:
        *what = "the message into every node";
        return unit;
    case OC_SCATTER:
        *what = "(N-1) blocks out of the root";
        return (N - 1) * unit;
    case OC_GATHER:
        *what = "(N-1) blocks into the root";
        return (N - 1) * unit;
    case OC_REDUCESCATTER:
        *what = "(N-1) blocks out of every node";
        return (N - 1) * unit;
    case OC_ALLREDUCE:
        *what = "2(N-1)/N of the vector per node (gossip)";
        return 2 * (N - 1) / N * unit;
    default:
        *what = "(N-1) blocks into every node";
        return (N - 1) * unit;
    }
}

uint64_t oc__pb_port_chunks(const oc__pbound_in *in) {
    const uint64_t N = in->nodes;
    switch (in->coll) {
    case OC_BROADCAST:
        return 1;
    case OC_ALLREDUCE:
        return oc__ceil_div(2 * (N - 1), N);
    default:
        return N - 1;
    }
}

int oc__pb_ring_tree_exact_by(uint32_t N, uint32_t hmax, uint64_t *out, int quadratic) {
    if (hmax == 0) return 0;
    if (N <= 1) {
        for (uint32_t h = 0; h < hmax; h++)
            out[h] = 0;
        return 0;
    }
    const size_t n = (size_t)N + 1;
    uint64_t *D = malloc(n * sizeof *D), *Lp = malloc(n * sizeof *Lp), *Mp = malloc(n * sizeof *Mp),
             *next = malloc(n * sizeof *next);
    size_t *work = malloc(2 * n * sizeof *work);
    int rc = 0;
    if (!D || !Lp || !Mp || !next || !work) {
        rc = OC_ENOMEM;
        goto out;
    }
    for (size_t g = 0; g < n; g++)
        D[g] = (uint64_t)g * g / 4;
    out[0] = D[N];
    for (uint32_t h = 2; h <= hmax; h++) {
        /* min over a + b = s, and over s <= g in the slopes' merge (the extra s = g only adds
         * candidates that overcharge a real labelling, as the essay's non-straddling pairs do) */
        const oc__ringtree_level l = {
            .D = D, .Lp = Lp, .Mp = Mp, .next = next, .n = n, .work = work};
        if (quadratic || !oc__ringtree_level_slopes(&l)) {
            if ((double)n * (double)n > OC_PB_RING_TREE_WORK) {
                /* no convexity to lean on and too big to do by hand: N - 1, every tree's least */
                for (uint32_t k = h; k <= hmax; k++)
                    out[k - 1] = (uint64_t)N - 1;
                goto out;
            }
            oc__ringtree_level_quadratic(&l);
        }
        uint64_t *swap = D;
        D = next;
        next = swap;
        out[h - 1] = D[N];
    }
out:
    free(D);
    free(Lp);
    free(Mp);
    free(next);
    free(work);
    return rc;
}

int oc__pb_ring_tree_exact(uint32_t N, uint32_t hmax, uint64_t *out) {
    return oc__pb_ring_tree_exact_by(N, hmax, out, 0);
}
