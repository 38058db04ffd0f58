/*
 * rhd.c — recursive halving (reduce-scatter) and recursive doubling (all-gather) in mixed radix:
 * the algorithm the lumorph seed adapts to its photonic rack (section 4: "recursive
 * doubling/halving ... generalize[d] into quadrupling/quartering": radix 2 = Lumorph-2, radix 4 =
 * Lumorph-4; Thakur, Rabenseifner and Gropp's MPICH algorithm in radix 2), generalised to one
 * radix per level so that every N has a schedule without folding.
 *
 * Core (P = r_{k-1} x ... x r_0 nodes). Write a node x in mixed radix, digit p in [0, r_p) with
 * place value w_p = r_0 ... r_{p-1}, and give core node x the label range [B[x], B[x+1])
 * (allreduce: the vector in P chunks, B[x] = x). Halving, levels p = k-1 down to 0: x holds,
 * partially reduced, the range of the w_p r_p nodes that share its digits above p; it cuts it into
 * r_p parts (part j = the range of the w_p nodes whose digit p is j) and sends part j, reduce, to
 * x + (j - d_p) w_p, for every j != d_p. After k levels x holds its own range fully reduced.
 * Doubling is the mirror, levels p = 0 .. k-1: x sends the range of its w_p-node group (which it
 * holds complete) as a copy to the same r_p - 1 peers. The most significant digit goes first so
 * that every part is one contiguous label range.
 *
 * Other P (MPICH's fold, generalised to radix r): P = r^floor(log_r N); extra node n >= P folds
 * onto core node (n - P) mod P, which takes up to m = ceil((N - P) / P) extras (m = 1 in radix
 * 2). All-reduce: one round in which every extra adds its whole vector into its core node, the
 * core runs halving and doubling, one round in which the core node copies the whole result back.
 * Reduce-scatter: the same first round; the labels are ordered so that core node x's range is its
 * own block followed by its extras' blocks (spec.block_node), and a last round copies each extra
 * its block. All-gather: a first round in which each extra copies its block to its core node, the
 * doubling, a last round in which the core node copies everything to its extras.
 *
 * Parameters (one set for rhd, rh and rd):
 *   radices=AxBx...  the radices from the most significant digit down: the order of the halving
 *                    levels (the doubling runs them backwards; rd's first level is the last
 *                    radix). Factors >= 2 whose product is exactly N (4x4x4x2 at N = 128, 3x5 at
 *                    15; a prime N is one level of radix N).
 *   radix=r          every level radix r, 2 <= r <= max(N, 1024): N = r^k is radices=rx...xr;
 *                    any other N folds onto r^floor(log_r N) (MPICH's method; r > N folds all
 *                    onto node 0), unless fold=0.
 *   fold=0|1         fold=1 folds (with radix=r, default 2); fold=0 refuses to (radix=r then
 *                    needs N a power of r; unset radix: the search keeps to factorisations).
 * Unpinned and not searched (no network model): the prime factors of N, smallest first.
 *
 * Cost on the switch (one send and one receive port per node; the r_p - 1 transfers of a level
 * are serialised), a = alpha, c = one chunk's bytes x beta, all-reduce with P chunks:
 *     halving = doubling = sum_p (r_p - 1) a + (P-1) c   (sum_p (r_p - 1) w_p = P - 1)
 *     fold    = m (a + P c) each way when N > P
 * For N = 2^k, radix 2: 2 log2(N) a + 2 (N-1)/N n beta, the textbook figure.
 *
 * The closed forms of the one-way halves, the parameter search over this space (the
 * factorisations, the folds) and its bounds per network are rhd_search.c's: the costs, beside the
 * rounds they cost.
 */
#include "algo/rhd.h"
#include "algo/radix.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rhd_fold(const oc__rhd *h, oc__emit *e, int in, oc__op op, uint32_t first,
                    uint32_t count);

const char *const oc__rhd_params[] = {"radix", "radices", "fold", NULL};

/* ---- parameters ---- */

/* Writes the radices from the most significant digit down ("4x4x4x2"). */
void oc__rhd_radices_text(const uint32_t *r, uint32_t k, char *buf, size_t len) {
    oc__radices t = {.k = k};
    for (uint32_t i = 0; i < k; i++)
        t.m[i] = r[k - 1 - i];
    oc__radices_format(&t, buf, len);
}

/* The prime factors of N, the smallest as the most significant digit. */
uint32_t oc__rhd_prime_digits(uint32_t N, uint32_t *r) {
    uint32_t f[OC__RHD_MAX_LEVELS], k = 0;
    for (uint32_t p = 2; (uint64_t)p * p <= N; p++)
        while (N % p == 0) {
            f[k++] = p;
            N /= p;
        }
    if (N > 1) f[k++] = N;
    for (uint32_t i = 0; i < k; i++)
        r[i] = f[k - 1 - i];
    return k;
}

/* Reads radix= / radices= / fold= into h->r, h->k, h->P. */
static int read_shape(const oc_kv *params, const char *name, uint32_t N, oc__rhd *h, char *why,
                      size_t len) {
    const char *rs = oc_kv_get(params, "radices"), *rx = oc_kv_get(params, "radix");
    const char *fs = oc_kv_get(params, "fold");
    uint64_t fold = 0, r = 2;
    int rc = oc__kv_u64(params, "fold", 0, 0, 1, &fold, why, len);
    if (rc) return rc;
    if (rs && rx)
        return oc__fail(why, len, OC_EINVAL, "%s: give radix= or radices=, not both", name);
    if (rs) {
        if (fold)
            return oc__fail(why, len, OC_EINVAL,
                            "%s: fold=1 folds onto a power of one radix: give radix=r, not "
                            "radices=",
                            name);
        oc__radices t;
        if ((rc = oc__radices_parse(rs, &t, why, len))) return rc;
        const uint64_t prod = oc__radices_product(&t);
        if (prod != N)
            return oc__fail(why, len, OC_EINVAL,
                            "%s: radices=%s multiply to %llu, not N=%u: give factors >= 2 whose "
                            "product is N (or radix=r fold=1 to fold onto a power of r)",
                            name, rs, (unsigned long long)prod, N);
        h->k = t.k; /* a product of N <= 2^32 has at most 32 factors */
        for (uint32_t i = 0; i < t.k; i++)
            h->r[i] = t.m[t.k - 1 - i];
        h->P = N;
        return 0;
    }
    if (rx || fold) {
        const uint64_t top = N < 1024 ? 1024 : N; /* r > N folds every node onto node 0 */
        if ((rc = oc__kv_u64(params, "radix", 2, 2, top, &r, why, len))) return rc;
        uint32_t P = 1;
        h->k = 0;
        while ((uint64_t)P * r <= N) {
            P *= (uint32_t)r;
            h->r[h->k++] = (uint32_t)r;
        }
        if (P < N && fs && !fold)
            return oc__fail(why, len, OC_EINVAL,
                            "%s: radix=%llu without folding needs N a power of %llu, not N=%u: use "
                            "radices= (factors >= 2 whose product is N) or fold=1",
                            name, (unsigned long long)r, (unsigned long long)r, N);
        h->P = P;
        return 0;
    }
    h->k = oc__rhd_prime_digits(N, h->r);
    h->P = N;
    return 0;
}

/* Records radix= (all levels equal, and fold=1 when folded) or radices= in p->used. */
static int record_shape(oc__plan *p, const oc__rhd *h, const oc_kv *params) {
    char b[512];
    int uniform = 1;
    for (uint32_t i = 1; i < h->k; i++)
        uniform &= h->r[i] == h->r[0];
    if (uniform) {
        const char *pin = oc_kv_get(params, "radix"); /* N = 1 has no levels */
        if (h->k)
            snprintf(b, sizeof b, "%u", h->r[0]);
        else
            snprintf(b, sizeof b, "%s", pin ? pin : "2");
        if (oc_kv_set(p->used, "radix", b)) return OC_ENOMEM;
    } else {
        oc__rhd_radices_text(h->r, h->k, b, sizeof b);
        if (oc_kv_set(p->used, "radices", b)) return OC_ENOMEM;
    }
    if (h->P < h->N && oc_kv_set(p->used, "fold", "1")) return OC_ENOMEM;
    return 0;
}

/* The heap bytes of a contribution set of n intervals in a verifier cell (verify.c): its range
 * set (24 bytes, malloc'd) and its array (a power of two of 8-byte intervals, at least 16), with
 * malloc's overhead; none when the set fits the cell inline (two intervals). */
static uint64_t set_heap(uint64_t n) {
    if (n <= 2) return 0;
    uint64_t cap = 16;
    while (cap < n)
        cap *= 2;
    return 48 + 8 * cap + 16;
}

/* What one chunk costs the verifier beyond its N inline cells (the shards are sized with it:
 * oc__spec.chunk_heap): its contribution sets' heap and a round's staging. Halving, level by level from the top, leaves
 * chunk c with the w_p nodes that share its digits down to p, each carrying the nodes congruent to
 * it mod w_p: a stride, so ceil(N / w_p) intervals (one when w_p = 1); folding first puts the P
 * core nodes at stride P. A node keeps the set of the last level it held c in (h_i - h_{i+1} nodes
 * at stage i), and a round stages a copy of each sender's set (h_{i-1} - h_i senders of c): the
 * end of the halving is the peak (the doubling's copies bring every set back to one interval).
 * Staging also costs a cell and a range set header (40 bytes) per sender of c in a round: at
 * most max(N - P (a fold), w_p (r_p - 1) (a level)), kept by the verifier at its largest. */
static uint64_t chunk_heap(const oc__rhd *h) {
    uint64_t stride[OC__RHD_MAX_LEVELS + 2], n = 0, kept = 0, staged = 0, senders = h->N - h->P;
    for (uint32_t p = 0; p < h->k; p++)
        if ((uint64_t)h->w[p] * (h->r[p] - 1) > senders) senders = (uint64_t)h->w[p] * (h->r[p] - 1);
    if (h->N > h->P) stride[n++] = h->P;
    for (uint32_t p = h->k; p > 0; p--)
        stride[n++] = h->w[p - 1];
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t s = stride[i], next = i + 1 < n ? stride[i + 1] : 0;
        const uint64_t one = set_heap(s == 1 ? 1 : oc__ceil_div(h->N, s));
        kept += (s - next) * one;
        const uint64_t stage = next ? (s - next) * one : 0;
        if (stage > staged) staged = stage;
    }
    return kept + staged + 40 * senders;
}

int oc__rhd_plan(oc__plan *p, const char *name, oc_collective coll, uint32_t nodes, uint32_t root,
                 uint64_t bytes, const oc_kv *params, char *why, size_t len) {
    oc__rhd shape = {.N = nodes};
    int rc = oc__kv_only(params, oc__rhd_params, name, why, len);
    if (rc || (rc = read_shape(params, name, nodes, &shape, why, len))) return rc;
    const uint32_t P = shape.P;
    uint64_t work = 2 * (uint64_t)(nodes - P);
    for (uint32_t i = 0; i < shape.k; i++)
        work += 2 * (uint64_t)P * (shape.r[i] - 1);
    if ((rc = oc__plan_work(name, nodes, work, why, len))) return rc;
    const int per_block = coll != OC_ALLREDUCE;
    if ((rc = oc__plan_begin(p, coll, nodes, root, bytes, per_block ? 1 : P, why, len))) return rc;
    oc__rhd *h = calloc(1, sizeof *h);
    if (!h) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    *h = shape;
    p->state = h;
    h->m = (uint32_t)oc__ceil_div(nodes - P, P);
    h->w[0] = 1;
    for (uint32_t i = 0; i < h->k; i++)
        h->w[i + 1] = h->w[i] * h->r[i];
    h->B = oc__calloc((size_t)P + 1, sizeof(uint32_t));
    h->label = oc__calloc(nodes, sizeof(uint32_t));
    if (!h->B || !h->label) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (per_block) {
        p->spec.block_node = oc__calloc(nodes, sizeof(uint32_t));
        if (!p->spec.block_node) return oc__fail(why, len, OC_ENOMEM, "out of memory");
        uint32_t at = 0;
        for (uint32_t x = 0; x < P; x++) {
            h->B[x] = at;
            for (uint64_t n = x; n < nodes; n += P) {
                h->label[n] = at;
                p->spec.block_node[at++] = (uint32_t)n;
            }
        }
        h->B[P] = at;
    } else {
        for (uint32_t x = 0; x <= P; x++)
            h->B[x] = x;
    }
    if (record_shape(p, h, params)) return oc__fail(why, len, OC_ENOMEM, "out of memory");
    if (coll != OC_ALLGATHER) p->spec.chunk_heap = chunk_heap(h);
    if (coll == OC_ALLREDUCE && P == nodes && h->k >= 1) {
        /* the symmetry (core.h): a level exchanges along its digit, so adding any x to every
         * node and label digit by digit leaves each round as it was (verify.c, "Digit orbit
         * reductions": node 0's cells for the N x C) */
        p->spec.digit_levels = h->k;
        for (uint32_t i = 0; i < h->k; i++)
            p->spec.digit_radix[i] = h->r[i];
    }
    p->spec.window_skips = 1; /* level_window, rhd_fold */
    /* The work (core.h). A level of radix r sends r - 1 transfers a core node, of w labels' worth
     * (w the level's place value): sum (r - 1) w = P - 1 over the levels, so one phase moves
     * every label to P - 1 core nodes; a fold is one transfer an extra node each way, of the
     * whole vector (P chunks, or N blocks) or one block. */
    const uint64_t core = work / 2 - (nodes - P), extra = nodes - P;
    p->spec.transfers = per_block ? core + 2 * extra : work;
    p->spec.units = per_block ? (uint64_t)nodes * (P - 1) + extra * ((uint64_t)nodes + 1)
                              : 2 * (uint64_t)P * (P - 1) + 2 * extra * P;
    return 0;
}

void oc__rhd_release(oc__plan *p) {
    oc__rhd *h = p->state;
    if (h) {
        free(h->B);
        free(h->label);
        free(h);
    }
    p->state = NULL;
}

/* ---- the rounds ---- */

/* Level p, x's transfers j in [ja, jb) (j != its digit d, in order): labels [B[lo(j)],
 * B[lo(j) + w)) to x + (j - d) w, where the parts are the w-node groups (halving: part j;
 * doubling: its own). B rises strictly (every core node owns a label), so none is empty. */
static int sends(const oc__rhd *h, oc__emit *e, uint32_t p, int halving, uint32_t x, uint32_t ja,
                 uint32_t jb) {
    const uint32_t r = h->r[p], w = h->w[p];
    const uint32_t d = (x / w) % r, g = x - x % (w * r);
    for (uint32_t j = ja; j < jb; j++) {
        if (j == d) continue;
        const uint32_t y = g + j * w + x % w;
        const uint32_t lo = halving ? g + j * w : x - x % w;
        const uint32_t first = h->B[lo], end = h->B[lo + w];
        int rc =
            oc__emit_transfer(e, x, y, halving ? OC_OP_REDUCE : OC_OP_COPY, first, end - first);
        if (rc) return rc;
    }
    return 0;
}

/* The core nodes [*xl, *xh) whose labels touch the emitter's window (B rises strictly). */
static void window_nodes(const oc__rhd *h, const oc__emit *e, uint32_t *xl, uint32_t *xh) {
    uint32_t a = 0, b = h->P; /* xl: the last x with B[x] <= win_lo */
    while (a + 1 < b) {
        const uint32_t m = a + (b - a) / 2;
        if (h->B[m] <= e->win_lo) a = m;
        else b = m;
    }
    *xl = a;
    a = 0, b = h->P; /* xh: the first x with B[x] >= win_hi (P if none below P) */
    while (a < b) {
        const uint32_t m = a + (b - a) / 2;
        if (h->B[m] < e->win_hi) a = m + 1;
        else b = m;
    }
    *xh = a > *xl ? a : *xl;
}

/* A windowed level: only the senders whose parts touch the window's core nodes [xl, xh), and of
 * those only the parts that do; the rest are skipped in their places (oc__emit_skip), so a shard
 * costs the transfers it keeps (plus one step per sender it visits). Halving: part j of group g
 * (size w r) is nodes [g + j w, g + j w + w), the same parts for every sender of the group.
 * Doubling: x sends its own w-group to all r - 1 peers. */
static int level_window(const oc__rhd *h, oc__emit *e, uint32_t p, int halving) {
    const uint32_t r = h->r[p], w = h->w[p], G = halving ? w * r : w, P = h->P;
    uint32_t xl, xh;
    window_nodes(h, e, &xl, &xh);
    /* the senders: the groups (of G nodes) that touch [xl, xh) */
    const uint32_t s0 = xl >= xh ? P : xl - xl % G;
    const uint32_t s1 = xl >= xh ? P : (uint32_t)oc__ceil_div(xh, G) * G;
    oc__emit_skip(e, (uint64_t)s0 * (r - 1));
    for (uint32_t x = s0; x < s1; x++) {
        uint32_t ja = 0, jb = r;
        if (halving) { /* parts j with g + j w in (xl - w, xh) */
            const uint32_t g = x - x % G;
            ja = xl > g ? (xl - g) / w : 0;
            jb = (uint32_t)oc__ceil_div(xh - g, w);
            if (jb > r) jb = r;
        }
        const uint32_t d = (x / w) % r;
        oc__emit_skip(e, ja - (d < ja));
        int rc = sends(h, e, p, halving, x, ja, jb);
        if (rc) return rc;
        oc__emit_skip(e, (r - jb) - (d >= jb));
    }
    oc__emit_skip(e, (uint64_t)(P - s1) * (r - 1));
    return oc__emit_round(e);
}

int oc__rhd_level(const oc__rhd *h, oc__emit *e, uint32_t p, int halving) {
    if (e->windowed) return level_window(h, e, p, halving);
    for (uint32_t x = 0; x < h->P; x++) {
        int rc = sends(h, e, p, halving, x, 0, h->r[p]);
        if (rc) return rc;
    }
    return oc__emit_round(e);
}

/* The k rounds of recursive halving (reduce-scatter) over the core nodes 0..P-1. */
static int rhd_halving(const oc__rhd *h, oc__emit *e) {
    int rc = 0;
    for (uint32_t p = h->k; p > 0 && !rc; p--)
        rc = oc__rhd_level(h, e, p - 1, 1);
    return rc;
}

/* The k rounds of recursive doubling (all-gather) over the core nodes 0..P-1. */
static int rhd_doubling(const oc__rhd *h, oc__emit *e) {
    int rc = 0;
    for (uint32_t p = 0; p < h->k && !rc; p++)
        rc = oc__rhd_level(h, e, p, 0);
    return rc;
}

/* Extra node n's fold transfer (its core node is (n - P) mod P). */
static int fold_one(const oc__rhd *h, oc__emit *e, uint32_t n, int in, oc__op op, uint32_t first,
                    uint32_t count) {
    const uint32_t core = (n - h->P) % h->P;
    const uint32_t f = count ? first : h->label[n], c = count ? count : 1;
    return oc__emit_transfer(e, in ? n : core, in ? core : n, op, f, c);
}

/* Folds: every extra node n >= P and its core node (n - P) mod P. `in` = 1: n -> core, else
 * core -> n; labels [first, first + count), or, with count = 0, n's own block. */
static int rhd_fold(const oc__rhd *h, oc__emit *e, int in, oc__op op, uint32_t first,
                    uint32_t count) {
    if (h->N == h->P) return 0;
    uint32_t xl = 0, xh = h->P;
    if (e->windowed && !count) window_nodes(h, e, &xl, &xh);
    if (count && e->windowed && (first >= e->win_hi || first + count <= e->win_lo)) xl = xh;
    /* Windowed, one block each: extra n = P + i P + x carries a label of core node x's range,
     * so only x in [xl, xh) may touch the window (in order of n: i, then x). */
    for (uint64_t base = h->P; base < h->N; base += h->P) {
        const uint32_t top = h->N - base < h->P ? (uint32_t)(h->N - base) : h->P;
        const uint32_t a = xl < top ? xl : top, b = xh < top ? xh : top;
        oc__emit_skip(e, a);
        for (uint32_t x = a; x < b; x++) {
            const uint32_t n = (uint32_t)base + x, f = h->label[n];
            if (e->windowed && !count && (f < e->win_lo || f >= e->win_hi)) {
                oc__emit_skip(e, 1); /* x's range touches the window, this block does not */
                continue;
            }
            int rc = fold_one(h, e, n, in, op, first, count);
            if (rc) return rc;
        }
        oc__emit_skip(e, top - b);
    }
    return oc__emit_round(e);
}

/* A fold round of an algorithm of `kind` (`in`: the extras to their core nodes, else back): the
 * all-reduce moves the vector's P chunks each way; the reduce-scatter brings in the whole N-block
 * vector and sends back one block; the all-gather the reverse. */
int oc__rhd_fold_round(const oc__rhd *h, oc__emit *e, oc__rhd_kind kind, int in) {
    if (kind == OC__RHD_BOTH) return rhd_fold(h, e, in, in ? OC_OP_REDUCE : OC_OP_COPY, 0, h->P);
    const int whole = (kind == OC__RHD_HALVING) == in; /* this round carries the whole vector */
    return rhd_fold(h, e, in, in && kind == OC__RHD_HALVING ? OC_OP_REDUCE : OC_OP_COPY, 0,
                        whole ? h->N : 0);
}

int oc__rhd_generate(const oc__rhd *h, oc__emit *e, oc__rhd_kind kind) {
    int rc = oc__rhd_fold_round(h, e, kind, 1);
    if (!rc && kind != OC__RHD_DOUBLING) rc = rhd_halving(h, e);
    if (!rc && kind != OC__RHD_HALVING) rc = rhd_doubling(h, e);
    if (!rc) rc = oc__rhd_fold_round(h, e, kind, 0);
    return rc;
}
