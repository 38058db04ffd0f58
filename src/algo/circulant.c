/*
 * circulant.c — the shortest spanning tree of a given depth on the ring, the one every block (or
 * piece) of the `circulant` algorithms follows rotated to its source (allgather_circulant.c,
 * allreduce_circulant.c).
 *
 * The tree. A labelling of the offsets 1..N-1 by depth 1..S, each offset's parent the nearer end
 * of its gap (src/bounds/bounds_common.c's essay, the exact tree length E(N, S)): the quadratic
 * programme D_k over gap lengths, here with its argmins kept, then walked from the whole ring (a
 * gap of N links whose two ends are the source) down: in a gap with k + 1 levels left, the
 * straddling split (a, b), the depth-t nodes of the left part each at a distance from the left
 * end (Lp's argmins), the right part the same from the right end, and the sub-gaps one level
 * down. The tree is optimal in total length; its rounds need not be balanced between the two
 * directions, so the algorithms bound each round by its busiest direction.
 *
 * Two ways, two trees. The quadratic way scans every candidate and keeps the first minimiser:
 * O(kmax N^2). Where a level's sequences are convex (checked, as bounds_common.c does) the slope
 * merges give the same minima in O(N log N) a level, with minimisers of their own: an equally
 * short tree that is often another one, whose rounds load the links differently (the all-reduce
 * tries both: `variant`). Beyond OC__CIRC_QUADRATIC_NODES only the merges are used. Both keep 12
 * bytes a node and level of argmins. A level of the programme, either way, is core/ringtree.c's,
 * the one the bounds' E(N, S) runs too (algorithms may not use the bounds' room, nor the bounds an
 * algorithm's): what is checked apart is the tree walked here from the argmins, measured link by
 * link against E (tests/test_circulant.c checks every tree's length against E and its labels
 * against its parents).
 */
#include "algo/circulant.h"
#include "core/ringtree.h"

#include <stdlib.h>

void oc__circ_dp_free(oc__circ_dp *dp) {
    free(dp->ly);
    free(dp->ma);
    free(dp->split);
    free(dp->sym);
    free(dp->dval);
    free(dp->sval);
    dp->ly = dp->ma = dp->split = dp->sym = NULL;
    dp->dval = dp->sval = NULL;
}

/* The mirrored programme's level k (circulant.h, oc__circ_dp.sym): a gap symmetric about the
 * antipode with k + 1 labels left puts a left part of a nodes (cost Lp(a), Lp this level's), its
 * mirror image (Lp(a) again) and a symmetric middle gap of g - 2a >= 1 links one level down:
 * Sym_k(g) = min over 2a < g of 2 Lp(a) + Sym_{k-1}(g - 2a), Sym_0 = D_0 (every node from its
 * nearer end). O(N^2 / 4) a level. */
static void mirror_level(const uint64_t *Lp, const uint64_t *prev, uint64_t *cur, uint32_t *arg,
                         size_t n) {
    cur[0] = 0;
    arg[0] = 0;
    for (size_t g = 1; g < n; g++) {
        uint64_t best = UINT64_MAX;
        for (size_t a = 0; 2 * a < g; a++)
            if (2 * Lp[a] + prev[g - 2 * a] < best) {
                best = 2 * Lp[a] + prev[g - 2 * a];
                arg[g] = (uint32_t)a;
            }
        cur[g] = best;
    }
}

int oc__circ_dp_build(oc__circ_dp *dp, uint32_t N, uint32_t kmax, int slopes) {
    return oc__circ_dp_build_mirror(dp, N, kmax, slopes, 0);
}

int oc__circ_dp_build_mirror(oc__circ_dp *dp, uint32_t N, uint32_t kmax, int slopes, int mirror) {
    const size_t n = (size_t)N + 1, cells = n * ((size_t)kmax + 1);
    *dp = (oc__circ_dp){.N = N, .kmax = kmax};
    dp->ly = calloc(cells, sizeof *dp->ly);
    dp->ma = calloc(cells, sizeof *dp->ma);
    dp->split = calloc(cells, sizeof *dp->split);
    if (mirror) dp->sym = calloc(cells, sizeof *dp->sym);
    uint64_t *D = malloc(n * sizeof *D), *Lp = malloc(n * sizeof *Lp), *Mp = malloc(n * sizeof *Mp),
             *next = malloc(n * sizeof *next);
    uint64_t *sprev = mirror ? malloc(n * sizeof *sprev) : NULL,
             *scur = mirror ? malloc(n * sizeof *scur) : NULL;
    size_t *work = malloc(2 * n * sizeof *work);
    int rc = 0;
    if (!dp->ly || !dp->ma || !dp->split || !D || !Lp || !Mp || !next || !work ||
        (mirror && (!dp->sym || !sprev || !scur))) {
        rc = OC_ENOMEM;
        goto out;
    }
    for (size_t g = 0; g < n; g++)
        D[g] = (uint64_t)g * g / 4;
    if (mirror) {
        dp->dval = calloc(cells, sizeof *dp->dval);
        dp->sval = calloc(cells, sizeof *dp->sval);
        if (!dp->dval || !dp->sval) {
            rc = OC_ENOMEM;
            goto out;
        }
        for (size_t g = 0; g < n; g++)
            sprev[g] = dp->dval[g] = dp->sval[g] = D[g];
    }
    for (uint32_t k = 1; k <= kmax; k++) {
        uint32_t *ly = dp->ly + k * n, *ma = dp->ma + k * n, *split = dp->split + k * n;
        const oc__ringtree_level l = {.D = D,
                                      .Lp = Lp,
                                      .Mp = Mp,
                                      .next = next,
                                      .ly = ly,
                                      .ma = ma,
                                      .split = split,
                                      .n = n,
                                      .work = work};
        if (!slopes || !oc__ringtree_level_slopes(&l)) oc__ringtree_level_quadratic(&l);
        if (mirror) {
            mirror_level(Lp, sprev, scur, dp->sym + k * n, n);
            uint64_t *sw = sprev;
            sprev = scur;
            scur = sw;
        }
        uint64_t *swap = D;
        D = next;
        next = swap;
        if (mirror)
            for (size_t g = 0; g < n; g++) {
                dp->dval[k * n + g] = D[g];
                dp->sval[k * n + g] = sprev[g];
            }
    }
out:
    free(D);
    free(Lp);
    free(Mp);
    free(next);
    free(work);
    free(sprev);
    free(scur);
    if (rc) oc__circ_dp_free(dp);
    return rc;
}

/* Node pos gets its label and parent; with `both`, its mirror image -pos too (parent -par),
 * unless it is its own image (the antipode of an even ring, or the source). */
static void set_node(oc__circ_tree *t, uint32_t pos, uint32_t label, uint32_t par, int both) {
    const uint32_t N = t->N, p = pos % N;
    t->label[p] = label;
    t->parent[p] = par % N;
    const uint32_t q = (N - p) % N;
    if (both && q != p) {
        t->label[q] = label;
        t->parent[q] = (N - par % N) % N;
    }
}

/* The gap [lo, lo + g] (positions on the ring cut at the source, 0..N), its interior labelled
 * `first` and deeper, k levels below `first` left. Iterative over the left and right parts,
 * recursive over the sub-gaps (depth at most OC__CIRC_MAX_DEPTH). */
static void walk(const oc__circ_dp *dp, oc__circ_tree *t, uint32_t lo, uint32_t g, uint32_t k,
                 uint32_t first, int both) {
    if (g < 2) return;
    if (k == 0) { /* every interior node at the last depth, from its nearer end */
        for (uint32_t x = 1; x < g; x++)
            set_node(t, lo + x, first, x <= g - x ? lo : lo + g, both);
        return;
    }
    const size_t n = (size_t)dp->N + 1;
    const uint32_t s = dp->split[k * n + g], a = dp->ma[k * n + s], b = s - a;
    walk(dp, t, lo + a, g - s, k - 1, first + 1, both);
    for (int side = 0; side < 2; side++) {
        for (uint32_t x = side ? b : a; x > 0;) {
            const uint32_t y = dp->ly[k * n + x];
            if (!side) {
                set_node(t, lo + x, first, lo, both);
                walk(dp, t, lo + y, x - y, k - 1, first + 1, both);
            } else {
                set_node(t, lo + g - x, first, lo + g, both);
                walk(dp, t, lo + g - x, x - y, k - 1, first + 1, both);
            }
            x = y;
        }
    }
}

/* The mirrored tree's walk: the gap [lo, lo + g] is symmetric about the antipode (lo + g = N - lo);
 * its left part and the left halves of its sub-gaps are set with their mirror images, and its
 * middle gap, symmetric again, one level down. */
static void walk_mirror(const oc__circ_dp *dp, oc__circ_tree *t, uint32_t lo, uint32_t g,
                        uint32_t k, uint32_t first) {
    if (g < 2) return;
    if (k == 0) { /* the left half from the left end, the right half as its image */
        for (uint32_t x = 1; 2 * x <= g; x++)
            set_node(t, lo + x, first, lo, 1);
        return;
    }
    const size_t n = (size_t)dp->N + 1;
    const uint32_t a = dp->sym[k * n + g];
    walk_mirror(dp, t, lo + a, g - 2 * a, k - 1, first + 1);
    for (uint32_t x = a; x > 0;) {
        const uint32_t y = dp->ly[k * n + x];
        set_node(t, lo + x, first, lo, 1);
        walk(dp, t, lo + y, x - y, k - 1, first + 1, 1);
        x = y;
    }
}

void oc__circ_tree_free(oc__circ_tree *t) {
    free(t->label);
    free(t->parent);
    free(t->count);
}

static int tree_by(const oc__circ_dp *dp, uint32_t depth, int mirror, oc__circ_tree *t) {
    const uint32_t N = dp->N;
    *t = (oc__circ_tree){.N = N, .depth = depth};
    t->label = calloc(N, sizeof *t->label);
    t->parent = calloc(N, sizeof *t->parent);
    t->count = calloc((size_t)depth + 1, sizeof *t->count);
    if (!t->label || !t->parent || !t->count) {
        oc__circ_tree_free(t);
        return OC_ENOMEM;
    }
    if (mirror)
        walk_mirror(dp, t, 0, N, depth - 1, 1);
    else
        walk(dp, t, 0, N, depth - 1, 1, 0);
    for (uint32_t p = 1; p < N; p++)
        t->count[t->label[p]]++;
    return 0;
}

int oc__circ_tree_of(const oc__circ_dp *dp, uint32_t depth, oc__circ_tree *t) {
    return tree_by(dp, depth, 0, t);
}

int oc__circ_tree_mirror_of(const oc__circ_dp *dp, uint32_t depth, oc__circ_tree *t) {
    if (!dp->sym) return OC_EINVAL;
    return tree_by(dp, depth, 1, t);
}

/* The budgeted mirrored tree (circulant.h). Its first round is the top gap's left part, nodes at
 * offsets x_1 < ... < x_m = a, each x costing x arc units a direction; B(x, b) is the least
 * length of the left part ending at x whose first-round costs sum to b, with its sub-gaps one
 * level down at their shortest (D_{k-1}): B(x, b) = min over y < x of B(y, b - x) + D_{k-1}(x - y),
 * B(0, 0) = 0. The tree takes the least 2 B(a, b) + Sym_{k-1}(N - 2a) over 2a < N and b <= budget
 * (the middle gap mirrored, one level down). O(N^2 budget / 8). */
int oc__circ_tree_mirror_budget(const oc__circ_dp *dp, uint32_t depth, uint64_t budget,
                                oc__circ_tree *t) {
    if (!dp->sym || depth < 2 || depth - 1 > dp->kmax) return OC_EINVAL;
    const uint32_t N = dp->N, k = depth - 1, h = (N - 1) / 2;
    const size_t n = (size_t)N + 1;
    const uint64_t *Dk = dp->dval + (k - 1) * n, *Sk = dp->sval + (k - 1) * n;
    const size_t Bn = (size_t)budget + 1, cells = ((size_t)h + 1) * Bn;
    uint64_t *best = malloc(cells * sizeof *best);
    uint32_t *arg = malloc(cells * sizeof *arg);
    int rc = 0;
    if (!best || !arg) {
        rc = OC_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < cells; i++)
        best[i] = UINT64_MAX;
    best[0] = 0;
    for (uint32_t x = 1; x <= h; x++)
        for (uint64_t b = x; b <= budget; b++) {
            uint64_t most = UINT64_MAX;
            for (uint32_t y = 0; y < x; y++) {
                const uint64_t prev = best[(size_t)y * Bn + (b - x)];
                if (prev != UINT64_MAX && prev + Dk[x - y] < most) {
                    most = prev + Dk[x - y];
                    arg[(size_t)x * Bn + b] = y;
                }
            }
            best[(size_t)x * Bn + b] = most;
        }
    uint64_t top = UINT64_MAX;
    uint32_t ta = 0;
    uint64_t tb = 0;
    for (uint32_t a = 0; a <= h; a++)
        for (uint64_t b = 0; b <= budget; b++) {
            const uint64_t v = best[(size_t)a * Bn + b];
            if (v != UINT64_MAX && 2 * v + Sk[N - 2 * a] < top) {
                top = 2 * v + Sk[N - 2 * a];
                ta = a;
                tb = b;
            }
        }
    *t = (oc__circ_tree){.N = N, .depth = depth};
    t->label = calloc(N, sizeof *t->label);
    t->parent = calloc(N, sizeof *t->parent);
    t->count = calloc((size_t)depth + 1, sizeof *t->count);
    if (!t->label || !t->parent || !t->count) {
        oc__circ_tree_free(t);
        rc = OC_ENOMEM;
        goto out;
    }
    walk_mirror(dp, t, ta, N - 2 * ta, k - 1, 2);
    for (uint32_t x = ta; x > 0;) {
        const uint32_t y = arg[(size_t)x * Bn + tb];
        set_node(t, x, 1, 0, 1);
        walk(dp, t, y, x - y, k - 1, 2, 1);
        tb -= x;
        x = y;
    }
    for (uint32_t p = 1; p < N; p++)
        t->count[t->label[p]]++;
out:
    free(best);
    free(arg);
    return rc;
}

void oc__circ_round_arcs(const oc__circ_tree *t, uint32_t r, uint64_t *cw, uint64_t *ccw,
                         uint64_t *either) {
    *cw = *ccw = *either = 0;
    for (uint32_t p = 1; p < t->N; p++) {
        if (t->label[p] != r) continue;
        const uint32_t d = (p + t->N - t->parent[p]) % t->N;
        if (2 * d == t->N)
            *either += d;
        else if (2 * d < t->N)
            *cw += d;
        else
            *ccw += t->N - d;
    }
}

/* By the rotation every clockwise link carries, in round r, the sum of the round's clockwise arc
 * lengths, and likewise counter-clockwise. An arc of exactly half the ring may be routed either
 * way, so it is counted on neither side and the two sides' mean bounds too. */
uint64_t oc__circ_round_load(const oc__circ_tree *t, uint32_t r) {
    uint64_t cw, ccw, either;
    oc__circ_round_arcs(t, r, &cw, &ccw, &either);
    const uint64_t mean = (cw + ccw + either + 1) / 2, most = cw > ccw ? cw : ccw;
    return most > mean ? most : mean;
}

uint32_t oc__circ_depth_cap(uint32_t N) {
    const uint32_t half = N / 2;
    return half < OC__CIRC_MAX_DEPTH ? (half ? half : 1) : OC__CIRC_MAX_DEPTH;
}

/* The split tree: the holder c of the segment [lo, hi] (offsets from the source, lo <= c <= hi),
 * which got the chunk in round t - 1, cuts it into min(2k + 1, size) parts of sizes differing by
 * at most one and in round t sends to the middle node of every part but its own; every part then
 * does the same one round later. A holder's arcs stay inside its segment, so one tree's arcs of a
 * round overlap only near their common holder (at most 2k on a link, k when the holder's part is
 * the middle one, as it is for the middle nodes). Recursive over the depth, which is
 * O(log_{2k+1} N). */
static void split_walk(oc__circ_tree *t, int64_t lo, int64_t hi, int64_t c, uint32_t round,
                       uint32_t k) {
    const uint64_t n = (uint64_t)(hi - lo + 1);
    if (n <= 1) return;
    const uint64_t parts = n < 2 * (uint64_t)k + 1 ? n : 2 * (uint64_t)k + 1;
    const uint32_t N = t->N;
    for (uint64_t i = 0; i < parts; i++) {
        const int64_t a = lo + (int64_t)(i * n / parts),
                      b = lo + (int64_t)((i + 1) * n / parts) - 1;
        if (a <= c && c <= b) {
            split_walk(t, a, b, c, round + 1, k);
            continue;
        }
        const int64_t m = a + (b - a) / 2;
        const uint32_t p = (uint32_t)(((m % (int64_t)N) + (int64_t)N) % (int64_t)N);
        t->label[p] = round;
        t->parent[p] = (uint32_t)(((c % (int64_t)N) + (int64_t)N) % (int64_t)N);
        if (round > t->depth) t->depth = round;
        split_walk(t, a, b, m, round + 1, k);
    }
}

int oc__circ_tree_split(uint32_t N, uint32_t k, oc__circ_tree *t) {
    *t = (oc__circ_tree){.N = N, .depth = 0};
    t->label = calloc(N ? N : 1, sizeof *t->label);
    t->parent = calloc(N ? N : 1, sizeof *t->parent);
    if (!t->label || !t->parent) {
        oc__circ_tree_free(t);
        return OC_ENOMEM;
    }
    /* the whole ring as one segment with the source in its middle */
    if (N >= 2) split_walk(t, -(int64_t)((N - 1) / 2), (int64_t)(N / 2), 0, 1, k ? k : 1);
    if (!t->depth) t->depth = 1;
    t->count = calloc((size_t)t->depth + 1, sizeof *t->count);
    if (!t->count) {
        oc__circ_tree_free(t);
        return OC_ENOMEM;
    }
    for (uint32_t p = 1; p < N; p++)
        t->count[t->label[p]]++;
    return 0;
}
