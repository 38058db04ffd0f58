/*
 * ringtree.c — one level of the ring's tree-length programme, D_{k-1} -> D_k, in its two ways
 * (src/bounds/bounds_common.c's essay, "Tree length on a ring, exactly", derives it):
 *   Lp(x) = x + min_{y < x} Lp(y) + D(x - y),  Mp(s) = min_{a + b = s} Lp(a) + Lp(b),
 *   D_k(g) = min_{s < g} Mp(s) + D(g - s).
 * The quadratic way scans every candidate and keeps the first minimiser. Where D and Lp are
 * convex (checked on each level, not assumed), the slopes give the same minima in O(N log N): a
 * convex D makes D(x - y) satisfy the quadrangle inequality, so Lp's minimum over y is found with
 * a deque of candidates, and the min-plus convolutions of convex sequences are the merges of
 * their slopes (the merge lets s reach g, a candidate that overcharges a real labelling, so the
 * minimum stays exact). The two ways give the same values, often with other minimisers.
 *
 * It sits in core because two rooms need it and neither may use the other (ARCHITECTURE.md): the
 * physical bound's exact tree length (bounds) and the circulant algorithms' shortest tree (algo),
 * which keeps the argmins to walk its tree. Their agreement is checked where it is evidence: the
 * tree the algorithm walks from the argmins is measured link by link against the bound's E(N, S)
 * (tests/test_circulant.c), and the two ways against each other and a brute force over every
 * labelling of small rings (tests/test_bounds.c).
 */
#include "core/ringtree.h"

static int convex(const uint64_t *a, size_t n) {
    for (size_t i = 2; i < n; i++)
        if (a[i] + a[i - 2] < 2 * a[i - 1]) return 0;
    return 1;
}

/* c = a (+) b, the min-plus convolution of two convex sequences of n terms, its first n terms:
 * the merge of their slopes; arg[k] (arg may be NULL) the terms taken from a
 * (c[k] = a[arg[k]] + b[k - arg[k]]). */
static void convex_minplus(const uint64_t *a, const uint64_t *b, uint64_t *c, uint32_t *arg,
                           size_t n) {
    size_t i = 0, j = 0;
    c[0] = a[0] + b[0];
    if (arg) arg[0] = 0;
    for (size_t k = 1; k < n; k++) {
        const int take_a = j + 1 >= n || (i + 1 < n && a[i + 1] - a[i] <= b[j + 1] - b[j]);
        if (take_a) {
            c[k] = c[k - 1] + (a[i + 1] - a[i]);
            i++;
        } else {
            c[k] = c[k - 1] + (b[j + 1] - b[j]);
            j++;
        }
        if (arg) arg[k] = (uint32_t)i;
    }
}

/* Lp(x) = x + min_{y < x} Lp(y) + D(x - y) for convex D, its argmin in ly[x] (ly may be NULL): a
 * later candidate y that is as good at some x stays so at every larger x; a deque of candidates,
 * each with the first x it wins, and a binary search per candidate give every Lp(x) exactly in
 * O(n log n). `work` holds 2n entries. */
static void prefix_convex(const uint64_t *D, uint64_t *Lp, uint32_t *ly, size_t n, size_t *work) {
    size_t *cand = work, *from = work + n;
    size_t head = 0, tail = 0; /* the deque is cand[head..tail) */
    Lp[0] = 0;
    if (ly) ly[0] = 0;
    cand[tail] = 0;
    from[tail++] = 1;
    for (size_t x = 1; x < n; x++) {
        while (tail - head >= 2 && from[head + 1] <= x)
            head++;
        Lp[x] = Lp[cand[head]] + D[x - cand[head]] + x;
        if (ly) ly[x] = (uint32_t)cand[head];
        /* x as a candidate for x' > x */
        while (tail > head) {
            const size_t yb = cand[tail - 1];
            const size_t lo = from[tail - 1] > x + 1 ? from[tail - 1] : x + 1;
            if (lo >= n) break; /* nothing left to win */
            if (Lp[x] + D[lo - x] <= Lp[yb] + D[lo - yb]) {
                tail--;
                continue;
            }
            size_t a = lo + 1, b = n; /* the first x' in [a, n) where x wins, n if none */
            while (a < b) {
                const size_t mid = a + (b - a) / 2;
                if (Lp[x] + D[mid - x] <= Lp[yb] + D[mid - yb])
                    b = mid;
                else
                    a = mid + 1;
            }
            if (a < n) {
                cand[tail] = x;
                from[tail++] = a;
            }
            break;
        }
        if (tail == head && x + 1 < n) {
            cand[tail] = x;
            from[tail++] = x + 1;
        }
    }
}

int oc__ringtree_level_slopes(const oc__ringtree_level *l) {
    if (!convex(l->D, l->n)) return 0;
    prefix_convex(l->D, l->Lp, l->ly, l->n, l->work);
    if (!convex(l->Lp, l->n)) return 0;
    convex_minplus(l->Lp, l->Lp, l->Mp, l->ma, l->n);
    convex_minplus(l->Mp, l->D, l->next, l->split, l->n);
    return 1;
}

void oc__ringtree_level_quadratic(const oc__ringtree_level *l) {
    const uint64_t *D = l->D;
    uint64_t *Lp = l->Lp, *Mp = l->Mp, *next = l->next;
    const size_t n = l->n;
    Lp[0] = 0;
    for (size_t x = 1; x < n; x++) {
        uint64_t best = UINT64_MAX;
        size_t at = 0;
        for (size_t y = 0; y < x; y++)
            if (Lp[y] + D[x - y] < best) {
                best = Lp[y] + D[x - y];
                at = y;
            }
        Lp[x] = best + x;
        if (l->ly) l->ly[x] = (uint32_t)at;
    }
    for (size_t s = 0; s < n; s++) {
        uint64_t best = UINT64_MAX;
        size_t at = 0;
        for (size_t a = 0; 2 * a <= s; a++)
            if (Lp[a] + Lp[s - a] < best) {
                best = Lp[a] + Lp[s - a];
                at = a;
            }
        Mp[s] = best;
        if (l->ma) l->ma[s] = (uint32_t)at;
    }
    next[0] = 0;
    for (size_t g = 1; g < n; g++) {
        uint64_t best = UINT64_MAX;
        size_t at = 0;
        for (size_t s = 0; s < g; s++)
            if (Mp[s] + D[g - s] < best) {
                best = Mp[s] + D[g - s];
                at = s;
            }
        next[g] = best;
        if (l->split) l->split[g] = (uint32_t)at;
    }
}
